"""Issue 8's hand scenarios of blots passed or hit late: a blot lifted as the hitter
passes, hit blots handed to their owners and entered from the hand, blots taken just before
or after their owner's roll, complete boards that were illegal moves, checkers slid on as
the next roll comes.  Each legal sequence goes unwarned and is recorded as played; each
illegal one is warned (see ``test_hand_scenarios.py`` for how the scenes are checked)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from game_follow import GameFollow
from scenario_kit import B, Scene, W, pos, scene
from scene_checks import LOOK, assert_unwarned, assert_black_played_after, recorded
from test_hand_held_rolls import RALLY_POOL

from controller.rules import Position
from hal.interfaces import Button


# a blot lifted as the hitter passes: no hit after all ---------------------------------------------

BLOT_PASSED = pos({24: 2, 14: 1, 13: 4, 8: 3, 6: 5}, {13: 1, 7: 3, 6: 5, 5: 4, 4: 2})
"""White to play 4-2: 14/10/8 passes Black's blot on White's 12 (Black's 13), 14/12*/8 hits it."""


def blot_hit_and_carried_on() -> Scene:
    """Black lifts its blot just before White's 4-2 lands and White's checker goes 14 to 8
    (14/12*/8 with the blot in the hand, or 14/10/8), Black throws 3-1, puts the blot on the
    bar (the hit shown), then back on its point, and carries it 13/9 as if never hit."""
    s = scene("backgammon", start=BLOT_PASSED)
    s.set_position(BLOT_PASSED)
    s.lift(s.zone(B, 13), B, settle=0.05)
    s.throw(4, 2)  # just after the blot was lifted
    s.move(s.zone(W, 14), s.zone(W, 8), W)
    s.throw(3, 1)  # Black's roll: White's turn recorded with the blot in the hand
    s.place(s.zone(B, 25), B)
    s.lift(s.zone(B, 25), B)
    s.place(s.zone(B, 13), B)
    s.move(s.zone(B, 13), s.zone(B, 9), B)
    s.advance(LOOK)
    return s


def test_a_hit_the_bar_showed_is_never_read_again_to_excuse_the_blot_carried_on() -> None:
    """A hit the bar showed is never read again as the play that passed the blot
    (``ReviseSteps._hit_not_made``, for the hits no board showed: test_soak's serial
    rally-hitting 1350540515): the blot taken back to its point and carried on is an illegal
    move, warned."""
    s = blot_hit_and_carried_on()
    assert [play for *_, play in recorded(s)] == ["14/12*/8"], recorded(s)
    assert s.warnings() >= 1 and s.message.startswith("Illegal"), s.message


HANDED_OVER = pos({13: 5, 8: 3, 6: 5, 1: 1}, {1: 1, 13: 5, 8: 4, 6: 5}, white_bar=1)
"""White on the bar and Black's blot on its 1 (White's 24), White to roll."""


@pytest.mark.parametrize("rules", ["backgammon", "trictrac"])
@pytest.mark.parametrize("pause", [0.0, 0.05, LOOK])
def test_a_hit_blot_handed_to_its_owner_enters_straight_from_the_hand(rules: str, pause: float) -> None:
    """A habit: the hitter takes the blot and hands it over, and its owner, having thrown,
    enters it from the hand; the bar never holds it.  White's bar/24*/21 and Black's
    bar/23 13/7 are recorded, nothing is warned, whatever the pace of the hands."""
    s = scene(rules, start=HANDED_OVER)
    s.set_position(HANDED_OVER)
    s.throw(3, 1)
    s.advance(0.5)
    s.lift(s.zone(B, 1), B, settle=pause)  # White's hand takes the blot
    s.move(s.zone(W, 25), s.zone(W, 21), W, settle=pause)
    s.throw(6, 2)
    s.advance(pause)
    s.place(s.zone(B, 23), B, settle=pause)  # entered with the 2, from the hand
    black_13_7_then_done(s, "bar/24*/21")


def rolled(rules: str, start: Position, dice: tuple[int, int]) -> Scene:
    """A table set up at ``start`` (White to move) with White's ``dice`` thrown and read."""
    s = scene(rules, start=start)
    s.set_position(start)
    s.throw(*dice)
    s.advance(0.5)
    return s


def black_13_7_then_done(s: Scene, white: str) -> None:
    """Black's 13/7 after its entry from the hand: nothing warned, White's 3-1 ``white``
    recorded, and Done records Black's bar/23 13/7."""
    s.move(s.zone(B, 13), s.zone(B, 7), B)
    s.advance(3.0)
    assert s.warnings() == 0, s.message
    assert recorded(s) == [("white", [3, 1], white)], recorded(s)
    s.press(Button.DONE)
    s.advance(LOOK)
    assert [play for *_, play in recorded(s)] == [white, "bar/23 13/7"], recorded(s)


@pytest.mark.parametrize("rules", ["backgammon", "trictrac"])
@pytest.mark.parametrize("pause", [0.0, 0.05, LOOK])
@pytest.mark.parametrize("blot_first", [True, False])
def test_a_hit_blot_handed_over_enters_while_the_hitters_last_checker_is_in_the_hand(
        rules: str, pause: float, blot_first: bool) -> None:
    """The same habit with Black's throw landing while White's last checker (13/10) is in
    the hand, the blot taken before or after the hitter is lifted: bar/24* 13/10 and
    bar/23 13/7 recorded, nothing warned."""
    s = rolled(rules, HANDED_OVER, (3, 1))
    if blot_first:
        s.lift(s.zone(B, 1), B, settle=pause)
        s.move(s.zone(W, 25), s.zone(W, 24), W, settle=pause)
    else:
        s.lift(s.zone(W, 25), W, settle=pause)
        s.lift(s.zone(B, 1), B, settle=pause)
        s.place(s.zone(W, 24), W, settle=pause)
    s.lift(s.zone(W, 13), W, settle=pause)
    s.throw(6, 2)
    s.advance(pause)
    s.place(s.zone(W, 10), W, settle=pause)
    s.place(s.zone(B, 23), B, settle=pause)  # from the hand
    black_13_7_then_done(s, "bar/24* 13/10")


@pytest.mark.parametrize("pause", [0.0, 0.05, LOOK])
def test_a_hit_blot_handed_over_enters_from_the_hand_in_rally_hitting(pause: float) -> None:
    """The same habit in rally-hitting: White's pool/23/19* with the blot taken into the hand
    and handed over; Black enters it with the 5 of its 5-1 straight from the hand (pool/20
    8/7), the pool never holding it."""
    s = scene("rally-hitting", start=RALLY_POOL)
    s.set_position(RALLY_POOL)
    s.throw(4, 2)  # the opening: one die each, White starts
    s.throw(4, 2)
    s.lift(s.zone(B, 19), B, settle=pause)
    s.move(s.zone(W, 25), s.zone(W, 19), W, settle=pause)
    s.throw(5, 1)
    s.advance(pause)
    s.place(s.zone(B, 20), B, settle=pause)
    s.move(s.zone(B, 8), s.zone(B, 7), B)
    s.advance(3.0)
    assert s.warnings() == 0, s.message
    assert [play for *_, play in recorded(s)] == ["pool/23/19*"], recorded(s)
    s.press(Button.DONE)
    s.advance(LOOK)
    assert [play for *_, play in recorded(s)] == ["pool/23/19*", "pool/20 8/7"], recorded(s)


BLOT_HIT_BACK = pos({24: 1, 21: 1, 13: 4, 8: 4, 6: 5}, {13: 4, 8: 3, 7: 1, 6: 5, 24: 2})
"""Backgammon: Black's opening 5-1 hits White's blot on 24 (6/1* 8/7); White's 1-1 enters
hitting back (bar/24*/23/22 6/5) and Black's 6-1 enters again (bar/24 8/2)."""


@pytest.mark.parametrize("pause", [0.05, 0.5])
@pytest.mark.parametrize("handed", [False, True])
def test_a_double_entering_with_a_hit_while_the_next_roll_comes_is_followed(pause: float, handed: bool) -> None:
    """Found as a shape by the stateful hands test (seed 618, there with every hand action in
    the same instant, which no person does): White's 1-1 carries its checker from the bar
    over the hit on 24 to 22, its last checker (6/5) in the hand when Black's 6-1 lands;
    Black takes its hit checker from the bar (or was handed it and never put it there) and
    enters it on 24.  Every turn recorded, nothing warned."""
    s = scene("backgammon", start=BLOT_HIT_BACK)
    s.set_position(BLOT_HIT_BACK)
    s.throw(1, 5)  # the opening: Black's 5 against White's 1
    s.advance(0.3)
    s.move(s.zone(W, 24), s.zone(W, 25), W)  # the blot off first
    s.move(s.zone(B, 6), s.zone(B, 1), B)
    s.move(s.zone(B, 8), s.zone(B, 7), B)
    s.advance(1.0)
    s.throw(1, 1)
    s.advance(0.5)
    s.lift(s.zone(B, 1), B, settle=pause)
    s.move(s.zone(W, 25), s.zone(W, 22), W, settle=pause)
    if not handed:
        s.place(s.zone(B, 25), B, settle=pause)
    s.lift(s.zone(W, 6), W, settle=pause)
    s.throw(6, 1, settle=pause)
    if not handed:
        s.lift(s.zone(B, 25), B, settle=pause)
    s.place(s.zone(W, 5), W)
    s.place(s.zone(B, 24), B)
    s.advance(1.5)
    s.move(s.zone(B, 8), s.zone(B, 2), B)
    s.advance(2.0)
    assert s.warnings() == 0, s.message
    s.press(Button.DONE)
    s.advance(LOOK)
    assert [play for *_, play in recorded(s)] == ["6/1* 8/7", "bar/24*/23/22 6/5", "bar/24 8/2"], recorded(s)


PASSED_BY_CARRY = pos({21: 1, 10: 1, 13: 5, 8: 3, 6: 5}, {8: 1, 13: 5, 6: 5, 24: 2, 11: 2})
"""Backgammon: Black's 4-1 carries its checker 8/7/3 past White's blot on Black's 4 (White's
21); 8/4*/3 is the same carry with the blot still to be taken."""


def carried_past_with_the_next_roll_in(zone_of_flicker: Callable[[Scene], str]) -> Scene:
    """Black carries 8/3 past White's blot, White's 3-4 landing with the checker in the hand;
    just before the grace time after the complete board ends, one zone reads unreadable for
    a few scans (``zone_of_flicker``)."""
    s = scene("backgammon", start=PASSED_BY_CARRY)
    s.set_position(PASSED_BY_CARRY)
    s.throw(1, 4)  # the opening: Black's 4 against White's 1
    s.advance(0.3)
    s.lift(s.zone(B, 8), B, settle=0.3)
    s.throw(3, 4)
    s.advance(0.3)
    s.place(s.zone(B, 3), B, settle=0.0)
    s.advance(0.9)
    s.table.sim.sensor.inject_unreadable(zone_of_flicker(s), 10)
    s.advance(0.5)
    return s


@pytest.mark.parametrize("flicker", ["off-black", "XII"])
def test_a_complete_play_standing_its_grace_time_ends_the_turn_through_a_flicker_elsewhere(flicker: str) -> None:
    """Found by a soak at a person's pace with careless throws (backgammon 1850255506, noise
    5, illegal 1.0: the game lost): the board stood complete with the next roll in, the play
    having passed a blot, and the grace time for the blot to go ended just as the tray read
    unreadable for a scan; the wait began again, and the next player lifting that blot for
    its own move (here an illegal one) was read as the hit.  A zone the board shows the play
    in wherever it reads, no blot unread, ends the turn as it stands."""
    s = carried_past_with_the_next_roll_in(lambda s: flicker)
    assert recorded(s) == [("black", [4, 1], "8/7/3")], (s.message, recorded(s))
    s.move(s.zone(W, 21), s.zone(W, 6), W)  # White's illegal attempt with the blot
    s.advance(1.5)
    assert s.warnings() == 1 and s.message.startswith("Illegal"), s.message
    s.move(s.zone(W, 6), s.zone(W, 21), W)
    s.move(s.zone(W, 21), s.zone(W, 17), W)
    s.move(s.zone(W, 10), s.zone(W, 7), W)
    s.advance(1.5)
    s.press(Button.DONE)
    s.advance(LOOK)
    assert s.warnings() == 1, s.message
    assert [play for *_, play in recorded(s)] == ["8/7/3", "10/7 21/17"], recorded(s)


def test_a_hand_over_the_blot_passed_at_the_end_of_the_grace_time_keeps_the_hit_possible() -> None:
    """The control: the zone unreadable at the tick is the blot's own (a hand reaching for
    it), so the wait goes on, and the hitter's hand taking the blot makes it 8/4*/3."""
    s = carried_past_with_the_next_roll_in(lambda s: s.zone(B, 4))
    assert recorded(s) == [], recorded(s)
    s.move(s.zone(B, 4), s.zone(W, 25), W)
    s.advance(1.5)
    assert s.warnings() == 0, s.message
    assert recorded(s) == [("black", [4, 1], "8/4*/3")], recorded(s)


THROUGH_TWO = pos({6: 5, 8: 3, 13: 5, 24: 2}, {22: 1, 24: 1, 13: 5, 8: 3, 6: 5})
"""White to move with 3-2: 6/3*/1* hits Black's blots on White's 3 and 1, 6/4/1* only the 1."""


@pytest.mark.parametrize("rules", ["backgammon", "trictrac"])
@pytest.mark.parametrize("pause", [0.05, LOOK])
@pytest.mark.parametrize("roll_with_hitter_in_hand", [True, False])
def test_a_blot_handed_over_before_the_next_roll_and_entered_on_its_point_was_hit(
        rules: str, pause: float, roll_with_hitter_in_hand: bool) -> None:
    """White's 6/3*/1*, the blot on White's 3 taken into the hand and handed over, the one on
    White's 1 put on the bar; Black's 3-5 thrown before the board settles, and Black enters
    the handed-over checker with the 3 on the very point it was hit from: the board then
    shows 6/4/1* complete.  The boards showed two of Black's checkers off their points before
    Black's roll, one more than 6/4/1* hits: 6/3*/1* and bar/22 bar/20 are recorded
    (rally-hitting 1851655549, the hand-over habit: the game was lost)."""
    s = rolled(rules, THROUGH_TWO, (3, 2))
    s.lift(s.zone(W, 6), W, settle=pause)  # the hitter, carried straight 6/3*/1*
    s.lift(s.zone(B, 22), B, settle=pause)  # handed over
    s.move(s.zone(B, 24), s.zone(B, 25), B, settle=pause)
    for step in (["throw", "hitter"] if roll_with_hitter_in_hand else ["hitter", "throw"]):
        if step == "throw":
            s.throw(3, 5)
        else:
            s.place(s.zone(W, 1), W, settle=pause)
    s.advance(pause)
    s.place(s.zone(B, 22), B, settle=1.5)  # from the hand
    s.move(s.zone(B, 25), s.zone(B, 20), B)
    s.advance(3.0)
    assert s.warnings() == 0, s.message
    assert recorded(s) == [("white", [3, 2], "6/3*/1*")], recorded(s)
    s.press(Button.DONE)
    s.advance(LOOK)
    assert [play for *_, play in recorded(s)] == ["6/3*/1*", "bar/22 bar/20"], recorded(s)


def test_a_hitter_put_down_on_the_blot_before_taking_it_off_is_a_hit_under_way_in_the_turn_after_a_held_roll() -> None:
    """Found by a soak (backgammon and trictrac 322609678, dice thrown early): Black's roll
    came while a hand hid a zone, so it was held though White's play stood complete; Black's
    checker from the bar was then put down on White's blot before the blot was taken off.
    The held search read that board as wrong (the hit not seen: its blot still on its
    point), and warned a legal hit under way."""
    start = pos({13: 4, 8: 3, 6: 5, 2: 1, 24: 2}, {13: 5, 8: 3, 6: 5, 24: 1}, black_bar=1)
    s = scene("backgammon", start=start)
    s.set_position(start)
    s.throw(2, 1)
    s.move(s.zone(W, 13), s.zone(W, 11), W)
    s.move(s.zone(W, 8), s.zone(W, 7), W)
    assert "White has played" in s.message, s.message
    s.board.hover([s.zone(W, 6)])  # a hand over a zone as Black throws: the roll is held
    s.advance(0.3)
    s.throw(4, 2)
    s.lift(s.zone(B, 25), B)  # (the zone still hidden)
    s.board.unhover()
    s.place(s.zone(B, 23), B)  # bar/23*, put down on White's blot before taking it off
    s.advance(1.5)  # longer than the grace time: a hit under way, no warning
    assert_unwarned(s)
    s.move(s.zone(W, 2), s.zone(W, 25), W)  # the blot to the bar
    s.move(s.zone(B, 13), s.zone(B, 9), B)
    assert_black_played_after(s, ("white", [2, 1], "13/11 8/7"))


TWO_BLOTS = pos({13: 4, 8: 3, 6: 5, 3: 2}, {8: 1, 3: 1, 13: 5, 6: 5, 24: 2, 11: 1}, white_bar=1)
"""White on the bar to play 5-3: bar/20/17* hits Black's blot on its 8, bar/22*/17* both
blots (on Black's 8 and 3); Black's 22 (White's 3) is closed."""


@pytest.mark.parametrize("rules", ["trictrac", "backgammon"])
@pytest.mark.parametrize("then", ["stand", "roll"])
def test_a_complete_board_that_was_an_illegal_move_gives_way_to_the_play_made_after_it(rules: str, then: str) -> None:
    """Trictrac 350810524 (blots handed over, 5x): White's bar/20/17* shown with Black's
    blot on 17 in the hand; Black throws, puts the blot on its bar, lifts its other blot
    (on its 3) and tries it on 23: read as White's bar/22*/17* and Black's bar/23 complete.
    Black takes it back and enters bar/23/20.  That board, standing (or with White's next
    roll thrown over it), is the play made after White's bar/20/17*: the last turn is read
    again and nothing is warned (the attempt itself looked legal, so it went unwarned)."""
    s = scene(rules, start=TWO_BLOTS)
    s.set_position(TWO_BLOTS)
    s.throw(5, 3)
    s.advance(0.5)
    s.lift(s.zone(B, 8), B, settle=0.05)  # White's hand takes the blot
    s.move(s.zone(W, 25), s.zone(W, 17), W, settle=0.2)
    s.throw(3, 2)
    s.place(s.zone(B, 25), B, settle=0.0)  # Black puts its blot on the bar,
    s.lift(s.zone(B, 3), B, settle=0.1)  # lifts its other blot
    s.place(s.zone(B, 23), B, settle=4.0)  # and tries it on 23
    assert recorded(s) == [("white", [5, 3], "bar/22*/17*")], recorded(s)
    s.move(s.zone(B, 23), s.zone(B, 3), B)  # taken back
    s.move(s.zone(B, 25), s.zone(B, 20), B, settle=0.05)
    if then == "roll":
        s.throw(6, 1)
    s.advance(3 * LOOK)
    assert s.warnings() == 0, s.message
    if then == "stand":
        s.press(Button.DONE)
        s.advance(LOOK)
    plays = recorded(s)
    assert plays[-2:] == [("white", [5, 3], "bar/20/17*"), ("black", [3, 2], "bar/23/20")], plays
    assert [e["type"] for e in s.journal].count("takeback") == 1
    follow = GameFollow(s.controller.settings.rules, TWO_BLOTS)
    follow.thrown = [(5, 3), (3, 2), *([(6, 1)] if then == "roll" else [])]
    follow.entries(s.journal)
    assert follow.position == s.controller.game.position and not follow.thrown


@pytest.mark.parametrize("rules", ["trictrac", "backgammon"])
def test_an_illegal_move_after_a_complete_board_is_not_excused_by_reading_the_last_turn_again(rules: str) -> None:
    """The other side of the test above: White's bar/22*/17* with both blots handed over,
    Black's bar/23 from the hand shown complete (the other checker on its bar), then Black's
    checker taken from 23 back to its 3.  Read with White's bar/20/17*, that board is Black's
    turn not begun, legal; but a board showed Black's play complete after the hits, and the
    re-read does not show it complete again: the move is warned (rally-hitting 2700781021)."""
    s = scene(rules, start=TWO_BLOTS)
    s.set_position(TWO_BLOTS)
    s.throw(5, 3)
    s.advance(0.5)
    s.lift(s.zone(B, 3), B, settle=0.05)  # White's hand takes both blots
    s.lift(s.zone(B, 8), B, settle=0.05)
    s.move(s.zone(W, 25), s.zone(W, 17), W)
    s.throw(3, 2)
    s.place(s.zone(B, 25), B, settle=0.05)
    s.place(s.zone(B, 23), B, settle=2 * LOOK)  # bar/23 from the hand: complete
    assert s.message.startswith("Black has played"), s.message
    assert s.warnings() == 0, s.message
    s.move(s.zone(B, 23), s.zone(B, 3), B, settle=2 * LOOK)
    assert s.warnings() >= 1 and s.message.startswith("Illegal"), s.message
    assert recorded(s) == [("white", [5, 3], "bar/22*/17*")], recorded(s)


CARRIED_PAST_7 = pos({13: 5, 8: 3, 6: 5, 24: 2}, {18: 1, 13: 5, 8: 4, 6: 5})
"""Black's blot on White's 7 (its 18): White's 6-2 13/7*/5 lands on it (13/11/5 does not)."""
ONLY_PAST_7 = pos({13: 5, 8: 3, 6: 5, 24: 2}, {18: 1, 14: 2, 13: 3, 8: 4, 6: 5})
"""The same with White's 11 closed: 13/7*/5 is the only way from 13 to 5."""
CARRIED_PAST_4 = pos({10: 1, 13: 4, 8: 3, 6: 5, 24: 2}, {21: 1, 13: 5, 8: 4, 6: 5})
"""Black's blot on White's 4 (its 21): White's 6-2 10/4*/2 lands on it, and Black enters
there again with a 4."""


@pytest.mark.parametrize("rules", ["trictrac", "backgammon"])
@pytest.mark.parametrize("start", [CARRIED_PAST_7, ONLY_PAST_7], ids=["or-via-11", "only-via-7"])
def test_a_blot_seen_taken_and_put_back_on_its_point_after_its_owners_roll_is_warned(
        rules: str, start: Position) -> None:
    """Trictrac 371811154 (blots handed over, 5x): White's hand takes Black's blot and
    carries its checker past the point (13/7*/5); the boards show the point empty; Black
    throws 3-1 and puts the blot back where it was hit, as no 3-1 entry can.  That is
    neither 13/11/5 (the blot was taken before its owner threw) nor a hit still to carry
    away (with 11 closed): the board is wrong, warned."""
    s = scene(rules, start=start)
    s.set_position(start)
    s.throw(6, 2)
    s.advance(0.5)
    s.lift(s.zone(B, 18), B, settle=0.05)  # White's hand takes the blot
    s.move(s.zone(W, 13), s.zone(W, 5), W)  # carried straight past 7
    s.advance(1.0)
    s.throw(3, 1)
    s.place(s.zone(B, 18), B, settle=2 * LOOK)  # back on its point
    assert s.warnings() >= 1 and s.message.startswith("Illegal"), s.message


@pytest.mark.parametrize("rules", ["trictrac", "backgammon"])
def test_a_blot_seen_taken_and_entered_on_its_point_after_its_owners_roll_is_no_warning(rules: str) -> None:
    """The other side: the blot taken and carried past the same way (10/4*/2), Black throws
    4-1 and enters it from the hand on the very point it was hit from, then plays 6/5:
    nothing is warned, and both plays are recorded."""
    s = scene(rules, start=CARRIED_PAST_4)
    s.set_position(CARRIED_PAST_4)
    s.throw(6, 2)
    s.advance(0.5)
    s.lift(s.zone(B, 21), B, settle=0.05)
    s.move(s.zone(W, 10), s.zone(W, 2), W)
    s.advance(1.0)
    s.throw(4, 1)
    s.place(s.zone(B, 21), B, settle=LOOK)  # bar/21 from the hand
    s.move(s.zone(B, 6), s.zone(B, 5), B, settle=LOOK)
    assert s.warnings() == 0, s.message
    s.press(Button.DONE)
    s.advance(LOOK)
    assert s.warnings() == 0, s.message
    assert recorded(s) == [("white", [6, 2], "10/4*/2"), ("black", [4, 1], "bar/21 6/5")], recorded(s)


def test_a_later_turn_of_a_run_hits_the_blot_seen_taken_before_its_owners_roll() -> None:
    """Rally-hitting 373711212 (blots handed over, 5x): White's 4-1 still in the hand when
    Black throws 5-3; White puts its checker on 20 (a hand over another zone), Black's hand
    takes it and carries a checker from the pool past 20 to 17; White throws 5-3, enters
    from the hand on 20 and moves on to 15 before a board stands.  With Black's pool/22/17
    that is White's 20/15, a 3 to play; but the boards saw White's blot on 20 taken before
    White threw, so Black's turn hit it: 20 to 15 is an illegal move, warned, and put back
    the three turns are recorded as played."""
    start = pos({}, {17: 1}, white_bar=15, black_bar=14)
    s = scene("rally-hitting", start=start)
    s.set_position(start)
    s.throw(4, 2)  # the opening: White starts
    s.throw(4, 1)
    s.move(s.zone(W, 25), s.zone(W, 24), W)
    s.lift(s.zone(W, 24), W, settle=0.1)
    s.throw(5, 3)  # Black's roll, held over White's hand
    s.board.hover([s.zone(B, 10)])
    s.place(s.zone(W, 20), W, settle=0.3)
    s.lift(s.zone(W, 20), W, settle=0.3)  # Black's hand takes the blot
    s.move(s.zone(B, 25), s.zone(B, 17), B, settle=0.0)  # pool/20*/17, carried past 20
    s.board.unhover()
    s.advance(1.0)
    s.throw(5, 3)  # White's roll
    s.place(s.zone(W, 20), W, settle=0.0)  # pool/20 from the hand (the 3 is blocked) ...
    s.move(s.zone(W, 20), s.zone(W, 15), W, settle=2 * LOOK)  # ... and on to 15: illegal
    assert s.warnings() == 1 and s.message.startswith("Illegal"), s.message
    s.move(s.zone(W, 15), s.zone(W, 20), W, settle=LOOK)
    s.press(Button.DONE)
    s.advance(LOOK)
    plays = recorded(s)
    assert plays[1:] == [("black", [5, 3], "pool/20*/17"), ("white", [5, 3], "pool/20")], plays
    assert plays[0][2] in ("pool/24/20", "pool/21/20"), plays
    assert s.warnings() == 1, s.message


PAST_10 = pos({1: 1, 2: 2, 6: 4, 8: 2, 11: 1, 13: 4, 20: 1}, {1: 1, 6: 3, 8: 3, 10: 2, 13: 3, 15: 1, 20: 1, 22: 1})
"""White to play 4-3: 13/10*/6 hits Black's blot on its 15 on the way; 13/9/6 passes it.
White's blot on its 20 stands on Black's 5, four 5s from Black's bar."""


@pytest.mark.parametrize("rules", ["trictrac", "backgammon"])
@pytest.mark.parametrize("extra", [False, True], ids=["legal", "one-move-too-many"])
def test_an_illegal_move_with_a_blot_in_the_hand_is_no_hand_at_work_on_a_play_hitting_less_than_the_bar_showed(
        rules: str, extra: bool) -> None:
    """Trictrac 415000185 (blots handed over, 5x): White's hand takes Black's blot and
    carries 13/10*/6 straight; Black throws 5-5 with the blot still in the hand, takes White's
    blot off its 5, puts its own on its bar and carries bar/20/15/10/5* at once, then moves
    20/15 as well.  Read with White's 13/9/6 (no hit) that is Black's 20/15/10/5* with a 5
    to come and White's blot in the hand: a hit under way, left unwarned four seconds.  But
    the bar showed Black's checker hit: only a play hitting less than that explains it, and
    a hand at work on such a run is no excuse: the board is wrong, warned.  Without the
    extra move nothing is warned and both plays are recorded."""
    s = rolled(rules, PAST_10, (4, 3))
    s.lift(s.zone(B, 15), B, settle=0.05)  # White's hand takes the blot ...
    s.move(s.zone(W, 13), s.zone(W, 6), W, settle=0.3)  # ... and carries its checker past
    s.throw(5, 5)  # Black's roll, the blot still in the hand
    s.lift(s.zone(W, 20), W, settle=0.1)  # Black's hand takes White's blot
    s.place(s.zone(B, 25), B, settle=0.5)  # its own, handed over, put on the bar
    s.move(s.zone(B, 25), s.zone(B, 5), B, settle=0.3)  # bar/20/15/10/5*, carried at once
    if extra:
        s.move(s.zone(B, 20), s.zone(B, 15), B, settle=2 * LOOK)
        assert s.warnings() >= 1 and s.message.startswith("Illegal"), s.message
        s.move(s.zone(B, 15), s.zone(B, 20), B, settle=LOOK)
    warned = s.warnings()
    s.place(s.zone(W, 25), W, settle=LOOK)  # the blot on White's bar
    s.press(Button.DONE)
    s.advance(LOOK)
    assert s.warnings() == warned, s.message
    assert recorded(s) == [("white", [4, 3], "13/10*/6"), ("black", [5, 5], "bar/20/15/10/5*")], recorded(s)


POOL_PAST_19 = pos({11: 1, 19: 1, 23: 1}, {13: 1, 21: 2, 24: 1}, white_bar=12, black_bar=11)
"""Rally-hitting, White to play 3-3 (pool/22 11/8/5/2); then Black's 6-2 from the pool
reaches 17 only over White's blots on 19 or 23, hitting one; no 6-2 reaches 16."""


@pytest.mark.parametrize(("to", "warned"), [(17, False), (16, True)], ids=["past-the-blot", "no-die-reaches"])
def test_a_later_turns_hit_whose_blot_still_stands_where_the_hitter_passed_is_a_hit_under_way(
        to: int, warned: bool) -> None:
    """Rally-hitting 42300410 (serial link, a person's pace): White's 3-3 shown complete;
    Black lifts a checker from its pool and throws 6-2 while a hand hides a zone (the roll
    held), then puts it down on 17, carried past White's blot on 19, which stands there for
    its owner to take to the pool.  The held search read Black's pool/19*/17 as a hit no
    board showed (the blot never left its point) and warned falsely: a blot still standing
    where its hitter passed is a hit under way, as it is in a turn the board watches.  The
    same checker put down on 16, where no 6-2 goes, is warned."""
    s = scene("rally-hitting", start=POOL_PAST_19)
    s.set_position(POOL_PAST_19)
    s.throw(4, 2)  # the opening: White starts
    s.throw(3, 3)
    s.advance(0.5)
    s.move(s.zone(W, 25), s.zone(W, 22), W)
    s.move(s.zone(W, 11), s.zone(W, 2), W)
    assert "White has played" in s.message, s.message
    s.lift(s.zone(B, 25), B, settle=0.3)
    s.board.hover([s.zone(W, 2)])  # a hand over a zone as Black throws: the roll is held
    s.advance(0.3)
    s.throw(6, 2)
    s.place(s.zone(B, to), B, settle=0.3)
    s.board.unhover()
    s.advance(2 * LOOK)
    if warned:
        assert s.warnings() >= 1 and s.message.startswith("Illegal"), s.message
        return
    assert_unwarned(s)
    s.move(s.zone(W, 19), s.zone(W, 25), W, settle=LOOK)  # its owner takes the blot to the pool
    s.press(Button.DONE)
    s.advance(LOOK)
    assert_unwarned(s)
    assert recorded(s) == [("white", [3, 3], "pool/22 11/8/5/2"), ("black", [6, 2], "pool/19*/17")], recorded(s)


@pytest.mark.parametrize("rules", ["trictrac", "backgammon"])
def test_a_blot_its_owner_lifts_as_its_dice_fly_was_not_hit(rules: str) -> None:
    """Backgammon 42800112 and trictrac 42800703 (serial link, 5x): White's 13/9 11/8 left
    Black's blot on 15 standing (13/10* would have hit it); Black's hand lifts the blot as
    its 5-2 is still in the air, 0.07 s before the dice land.  Read as gone before its
    owner's roll, the blot was taken for hit, White's play for one hitting it, and every
    board after was wrong: warned, Done refused, the game stuck.  A hand reaching for its
    checker as its dice fly is its own (``THROWN_EARLY``): nothing is warned and both plays
    are recorded."""
    s = rolled(rules, PAST_10, (4, 3))
    s.move(s.zone(W, 13), s.zone(W, 9), W)
    s.move(s.zone(W, 11), s.zone(W, 8), W, settle=0.5)
    s.lift(s.zone(B, 15), B, settle=0.07)
    s.throw(5, 2)
    s.place(s.zone(B, 10), B, settle=0.3)
    s.move(s.zone(B, 6), s.zone(B, 4), B, settle=2 * LOOK)
    assert_unwarned(s)
    s.press(Button.DONE)
    s.advance(LOOK)
    assert_unwarned(s)
    assert recorded(s) == [("white", [4, 3], "13/9 11/8"), ("black", [5, 2], "15/10 6/4")], recorded(s)



BEAR_6_5 = pos({1: 8, 2: 1, 3: 4, 5: 1, 6: 1}, {1: 4})
"""White to bear off with 6-2: 6/off 5/3 and 6/4 5/off are both complete, the second board
the first's with the checker on 3 one point short, on 4."""


@pytest.mark.parametrize("stop", ["slides-on", "stays"])
def test_a_checker_slid_over_a_point_as_the_next_roll_comes_is_read_where_it_stops(stop: str) -> None:
    """Backgammon 42700778 at a person's pace: White's 6/off, then the checker from 5 lifted
    and Black throws 5-4 while it is in the hand; the hand slides it over 4 (a board stands
    there a moment: 6/4 5/off, complete) on to 3.  The turn was ended on that board, White's
    checker on 3 was Black's illegal move ever after and the game was lost.  A checker just
    put down where one carried further on makes another complete play stands a grace time
    with the roll held: 6/off 5/3 is recorded, and Black's 1/off 1/off; left on 4, 6/4
    5/off."""
    s = rolled("backgammon", BEAR_6_5, (6, 2))
    s.move(s.zone(W, 6), s.zone(W, 0), W)
    s.lift(s.zone(W, 5), W, settle=0.3)
    s.throw(5, 4)
    s.place(s.zone(W, 4), W, settle=0.1)
    if stop == "slides-on":
        s.move(s.zone(W, 4), s.zone(W, 3), W, settle=0.3)
    else:
        s.advance(LOOK)
    s.move(s.zone(B, 1), s.zone(B, 0), B)
    s.move(s.zone(B, 1), s.zone(B, 0), B, settle=LOOK)
    assert_unwarned(s)
    s.press(Button.DONE)
    s.advance(LOOK)
    assert_unwarned(s)
    white = "6/off 5/3" if stop == "slides-on" else "6/4 5/off"
    assert recorded(s) == [("white", [6, 2], white), ("black", [5, 4], "1/off(2)")], recorded(s)
