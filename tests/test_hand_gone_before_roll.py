"""Issue 8's hand scenarios around a blot taken just before its owner's roll: a blot the
boards show gone before its owner's dice landed was hit, however close to the roll, when
the dice carry their own landing time.  The hit's record is then never read again as a play
leaving the blot standing, which would excuse the owner's illegal move of that checker as
its partial play.  Each scene has its legal sequence (nothing warned, both plays recorded)
and the illegal move (warned)."""

from __future__ import annotations

import pytest
from scenario_kit import B, W, pos, scene
from scene_checks import LOOK, assert_unwarned, recorded

from hal.interfaces import Button

ENTER_HIT = pos({6: 5, 8: 3, 13: 5, 24: 1}, {4: 1, 2: 3, 6: 5, 8: 3, 13: 3}, white_bar=1)
"""Trictrac, White on the bar to play 5-4: bar/21*/16 hits Black's blot on its 4 (White's 21);
bar/20/16 passes it.  Black's 4-2 then enters on its 21."""


@pytest.mark.parametrize("illegal", [False, True], ids=["legal", "entered-checker-carried-far"])
def test_a_blot_taken_just_before_its_owners_roll_stays_hit(illegal: bool) -> None:
    """Trictrac 48001295 (blots handed over, 5x): White's hand takes Black's blot on 21 first
    and keeps it, enters bar/21/16, and Black throws 4-2 a moment later; Black puts the blot on
    its 21 straight from the hand, then carries it to its 2.  Read again as White's bar/20/16
    (the blot never hit) and Black's 4/2, a play half made, it stood four seconds unwarned: the
    boards showed the blot gone before Black's dice landed, and that was allowed for only
    half a second before a roll read late, though the dice said when they landed.  Legal:
    Black plays bar/21 6/4, Done: both plays recorded."""
    s = scene("trictrac", start=ENTER_HIT)
    s.set_position(ENTER_HIT)
    s.throw(5, 4)
    s.advance(0.5)
    s.lift(s.zone(B, 4), B, settle=0.05)  # White's hand takes the blot first and keeps it
    s.move(s.zone(W, 25), s.zone(W, 16), W, settle=0.1)
    s.throw(4, 2)
    s.place(s.zone(B, 21), B)  # the blot entered straight from the hand
    if illegal:
        s.move(s.zone(B, 21), s.zone(B, 2), B, settle=2 * LOOK)
        assert s.warnings() >= 1 and s.message.startswith("Illegal"), s.message
        return
    s.move(s.zone(B, 6), s.zone(B, 4), B, settle=LOOK)
    assert_unwarned(s)
    s.press(Button.DONE)
    s.advance(LOOK)
    assert_unwarned(s)
    assert recorded(s) == [("white", [5, 4], "bar/21*/16"), ("black", [4, 2], "bar/21 6/4")], recorded(s)
