"""Issue 8's hand scenarios after the next player's roll: once the next player has thrown,
the mover's hand only puts down what it still held.  A checker of the mover's that stood
when the dice landed and is gone since was taken by the next player's hand (a hit under
way), or the board is wrong; it is never the mover's hand at work on its play again, nor is
a checker of the next player's put back on its points by the mover's hand.  Each scene has
its legal sequence (nothing warned, both plays recorded) and the illegal move that looked
like the mover's hand at work (warned)."""

from __future__ import annotations

import pytest
from scenario_kit import B, W, pos, scene
from scene_checks import LOOK, assert_unwarned, recorded

from hal.interfaces import Button

HIT_BACK = pos({2: 5, 4: 1, 6: 5, 13: 1, 17: 1, 23: 2}, {1: 2, 3: 3, 4: 2, 6: 1, 7: 1, 13: 4, 20: 1, 24: 1})
"""Trictrac, White to play 5-1: 17/16 23/18* hits Black's blot on its 7; Black's 6-3 then
enters on 22 and hits back from 13 (bar/22 13/7*)."""


@pytest.mark.parametrize("illegal", [False, True], ids=["legal", "entered-checker-carried-back"])
def test_a_blot_hit_back_and_its_hitters_side_restored_is_no_hitter_lifted_again(illegal: bool) -> None:
    """Trictrac 43101036 (blots handed over, 5x): White's 17/16 23/18* stands complete, the
    hit blot in White's hand; Black throws 6-3 (the roll held: a checker in a hand), puts the
    blot straight on its 22 and hits back 13/7*, White's hitter in Black's hand.  Black's 22
    carried back to 13 leaves Black's side as it was before White's hit: read as White's
    hitter lifted again from 23 to hit (17/16 made), it stood four seconds unwarned.  White's
    hitter stood on 18 when Black's dice landed, and White's hand lifts nothing after that:
    warned.  Legal: the hitter put on White's bar, Done: both plays recorded."""
    s = scene("trictrac", start=HIT_BACK)
    s.set_position(HIT_BACK)
    s.throw(5, 1)
    s.advance(0.5)
    s.move(s.zone(W, 17), s.zone(W, 16), W)
    s.lift(s.zone(B, 7), B)  # White's hand takes the blot first and keeps it
    s.move(s.zone(W, 23), s.zone(W, 18), W, settle=0.6)
    s.throw(6, 3)
    s.place(s.zone(B, 22), B, settle=0.02)  # the blot entered straight from the hand, and at once
    s.lift(s.zone(W, 18), W)  # Black's hand takes White's hitter off first
    s.move(s.zone(B, 13), s.zone(B, 7), B, settle=0.3)
    if illegal:
        s.move(s.zone(B, 22), s.zone(B, 13), B, settle=2 * LOOK)
        assert s.warnings() >= 1 and s.message.startswith("Illegal"), s.message
        return
    s.place(s.zone(W, 25), W, settle=LOOK)
    assert_unwarned(s)
    s.press(Button.DONE)
    s.advance(LOOK)
    assert_unwarned(s)
    assert recorded(s) == [("white", [5, 1], "23/18* 17/16"), ("black", [6, 3], "bar/22 13/7*")], recorded(s)
