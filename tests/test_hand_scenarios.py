"""Issue 8's hand scenarios: the board follows every hand (D1: hits whose blot comes off
before the hitter; D2: rolls thrown while the board is not settled; a hit made in passing,
the next roll thrown before its blot is taken away).

Each scene acts on the simulated board through ``tests/scenario_kit.py`` and asserts what a
player sees (``tests/scene_checks.py``): no WARNING sound and no warning message for a legal
sequence of hand actions, the play the journal records, and that the game goes on (the next
roll is taken, never "Nothing may move now").  Each family also has an illegal sequence that
must still be warned, so that a fix cannot pass by accepting everything.  The scenes of
rolls held over plays never seen are in ``test_hand_held_rolls.py``, those of blots passed,
hit late or handed over in ``test_hand_blots_handed_over.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from scenario_kit import B, Scene, W, opened, pos, scene
from scene_checks import LOOK, s_checker, assert_unwarned, assert_goes_on, last_play

from controller.rules import Colour, Position, Roll
from hal.interfaces import Button, Sound
from hal.interfaces import LightColour as L


# =====================================================================================
# D1: the blot comes off before the hitter
# =====================================================================================


@dataclass(frozen=True)
class Hit:
    """A White hit from a custom position: ``blots`` are White's own points whose black
    checkers are hit, ``moves`` the (from, to) carries of White's checkers (each straight to
    its final point, over any hit point on the way), ``play`` what the journal must record."""

    name: str
    rules: str
    start: Position
    dice: tuple[int, int]
    blots: tuple[int, ...]
    moves: tuple[tuple[int, int], ...]
    play: str


REPRO = pos({24: 2, 13: 5, 6: 5, 4: 3}, {23: 1, 13: 5, 8: 4, 6: 5})
"""The issue's reproduction: a black blot on White's 2, which 6-5 hits with 13/7/2*."""
BLOT_ON_5 = pos({24: 2, 13: 5, 8: 3, 6: 5}, {20: 1, 13: 5, 8: 4, 6: 4, 24: 1})
BLOT_ON_4 = pos({24: 2, 13: 5, 8: 3, 6: 5}, {21: 1, 13: 5, 8: 4, 6: 4, 24: 1})
BLOTS_ON_7_8 = pos({24: 2, 13: 5, 6: 5, 4: 3}, {18: 1, 17: 1, 13: 5, 8: 4, 6: 4})
BLOT_ON_8 = pos({24: 2, 13: 5, 6: 5, 4: 3}, {17: 1, 13: 5, 8: 4, 6: 5})
RALLY_BLOT_ON_9 = pos({20: 2, 23: 3, 22: 5, 21: 5}, {9: 1, 3: 2}, black_bar=12)

HITS = [
    *(Hit(f"13/7/2* {r}", r, REPRO, (6, 5), (2,), ((13, 2),), "13/7/2*") for r in ("backgammon", "trictrac")),
    *(Hit(f"13/9/5* 4-4 {r}", r, BLOT_ON_5, (4, 4), (5,), ((13, 5), (6, 2), (6, 2)), "13/9/5* 6/2(2)")
      for r in ("backgammon", "trictrac")),
    *(Hit(f"13/4* 3-3 {r}", r, BLOT_ON_4, (3, 3), (4,), ((13, 4), (6, 3)), "13/10/7/4* 6/3") for r in ("backgammon", "trictrac")),
    *(Hit(f"13/7* 13/8* {r}", r, BLOTS_ON_7_8, (6, 5), (7, 8), ((13, 7), (13, 8)), "13/7* 13/8*") for r in ("backgammon", "trictrac")),
    *(Hit(f"13/8*/2 {r}", r, BLOT_ON_8, (6, 5), (8,), ((13, 2),), "13/8*/2") for r in ("backgammon", "trictrac")),
    Hit("20/14/9* rally-hitting", "rally-hitting", RALLY_BLOT_ON_9, (6, 5), (9,), ((20, 9),), "20/14/9*"),
]


def hit_scene(hit: Hit) -> Scene:
    """The hit's start on the board, its dice thrown, White to play.

    The opening throw gives White its dice (trictrac and backgammon: the higher die takes
    White and plays both; the rally: the starter then rolls).  A double cannot be an opening
    throw: White first plays 24/23 24/22 with 2-1, Black 8/7 8/6 with 2-1 (far from the
    hit), then White throws the double."""
    s = scene(hit.rules, start=hit.start)
    s.set_position(hit.start)
    double = hit.dice[0] == hit.dice[1]
    s.throw(*((2, 1) if double else hit.dice))
    if "roll both dice" in s.message:  # the rally: the opening throws only name the starter
        s.throw(*hit.dice)
    elif double:
        s.move(s.zone(W, 24), s.zone(W, 23), W)
        s.move(s.zone(W, 24), s.zone(W, 22), W)
        s.throw(2, 1)
        assert s.message.startswith("Black to play"), s.message
        s.move(s.zone(B, 8), s.zone(B, 7), B)
        s.move(s.zone(B, 8), s.zone(B, 6), B)
        s.throw(*hit.dice)
    assert s.message.startswith("White to play"), s.message
    return s


def perform_hit(s: Scene, hit: Hit, order: str) -> None:
    """Make the hit in one of the ways a hand does.

    ``hitter-first``: each checker carried to its point, then the blots to the bar;
    ``bar-first``: every blot lifted and put on Black's bar, then White's checkers;
    ``in-hand``: every blot lifted and held, White's checkers carried, then the blots put on the bar.
    With the blot off first, the hand pauses ``LOOK`` seconds (beyond the grace time) after
    the blots and after each of White's checkers, as a person choosing the next checker does.
    """
    blots = [s.zone(W, point) for point in hit.blots]
    bar = s.zone(B, 25)
    if order == "hitter-first":
        for frm, to in hit.moves:
            s.move(s.zone(W, frm), s.zone(W, to), W)
        for zone in blots:
            s.move(zone, bar, B)
        return
    for zone in blots:
        if order == "bar-first":
            s.move(zone, bar, B)
        else:
            s.lift(zone, B)
    s.advance(LOOK)  # the player looks for the hitter longer than the grace time
    for frm, to in hit.moves:
        s.move(s.zone(W, frm), s.zone(W, to), W)
        s.advance(LOOK)
    if order == "in-hand":
        for _ in blots:
            s.place(bar, B)


@pytest.mark.parametrize("hit", HITS, ids=lambda h: h.name)
def test_a_hit_with_the_hitter_first_is_recorded_unwarned(hit: Hit) -> None:
    """D1 (control, passes today): the hitter arrives first, then the blot goes to the bar."""
    s = hit_scene(hit)
    perform_hit(s, hit, "hitter-first")
    s.advance(1.5)
    assert_unwarned(s)
    assert s.message == "White has played: next roll or Done", s.message
    s.press(Button.DONE)
    assert last_play(s, "white") == hit.play
    assert_goes_on(s, "white")


@pytest.mark.parametrize("order", ["bar-first", "in-hand"])
@pytest.mark.parametrize("hit", HITS, ids=lambda h: h.name)
def test_a_hit_with_the_blot_off_first_is_recorded_unwarned(hit: Hit, order: str) -> None:
    """D1: the blot taken off before the hitter arrives (put on the bar, or held in the hand
    until the hitter is down) is a hit under way, never an illegal move."""
    s = hit_scene(hit)
    perform_hit(s, hit, order)
    s.advance(1.5)
    assert_unwarned(s)
    assert s.message == "White has played: next roll or Done", s.message
    assert last_play_after_done(s) == hit.play
    assert_goes_on(s, "white")


def last_play_after_done(s: Scene) -> str:
    """Press Done and read White's recorded play."""
    s.press(Button.DONE)
    return last_play(s, "white")


def test_the_issues_repro_blot_off_then_hitter_is_not_warned_in_trictrac() -> None:
    """D1 (the issue's repro, verbatim): 13/7/2* with the blot put on the bar first."""
    s = scene(start=REPRO)
    s.set_position(REPRO)
    s.throw(6, 5)
    s.move("2", "wait-black", B)
    s.advance(1.2)
    assert_unwarned(s)
    s.move("XII", "2", W)
    s.press(Button.DONE)
    assert last_play(s, "white") == "13/7/2*"
    assert_goes_on(s, "white")


@pytest.mark.parametrize("rules", ["backgammon", "trictrac"])
def test_blot_off_then_the_hitter_on_a_wrong_point_is_warned(rules: str) -> None:
    """D1 (illegal, still warned): the blot on 2 goes to the bar, then the checker from 13
    is put on 3 (10 pips with 6-5): no legal play explains it; warned after the grace time."""
    s = scene(rules, start=REPRO)
    s.set_position(REPRO)
    s.throw(6, 5)
    s.move(s.zone(W, 2), s.zone(B, 25), B)
    t = s.now
    s.move(s.zone(W, 13), s.zone(W, 3), W)
    s.advance(1.5)
    assert s.warnings(t) == 1
    assert "Illegal" in s.message or s.lit(L.WARNING), s.message
    assert s.entries("turn") == []


@pytest.mark.parametrize("rules", ["backgammon", "trictrac"])
def test_a_checker_off_a_made_point_to_the_bar_is_warned(rules: str) -> None:
    """D1 (illegal, still warned): a black checker taken from a made point (four on White's
    17) and put on the bar: no hit can explain it, whatever White does next; warned."""
    s = scene(rules, start=REPRO)
    s.set_position(REPRO)
    s.throw(6, 5)
    t = s.now
    s.move(s.zone(W, 17), s.zone(B, 25), B)  # one of Black's four on its 8 (White's 17)
    s.advance(1.5)
    assert s.warnings(t) == 1
    assert s.entries("turn") == []


# =====================================================================================
# D2: a roll thrown while the board is not settled
# =====================================================================================


def assert_white_31_then_black_1_7(s: Scene, since: float) -> None:
    """Once the board has settled: nothing warned since ``since``, White's 8/5 6/5 recorded,
    Black's 1/7 counted as the first move of its 6-4, and Black's turn goes on to the end."""
    s.advance(1.5)
    assert_unwarned(s, since)
    assert last_play(s, "white") == "8/5 6/5"
    assert s.message == "Black to play 4", s.message
    s.move("7", "11", B)
    s.press(Button.DONE)
    assert_goes_on(s, "black")


def white_played_31(s: Scene) -> None:
    """Trictrac's opening 3-1 for White: 8/5 6/5."""
    s.move("8", "5", W)
    s.move("6", "5", W)


def test_the_issues_repro_a_checker_lifted_before_the_roll_is_the_first_move() -> None:
    """D2 (the issue's repro): after White's Done, Black lifts a checker, throws 6-4 and
    puts the checker down 6 further on: that is Black's first move of the new roll."""
    s = opened(dice=(3, 1))
    white_played_31(s)
    s.press(Button.DONE)
    t = s.now
    s.lift("1", B)
    s.throw(6, 4)
    s.place("7", B)
    s.advance(1.5)
    assert_unwarned(s, t)
    assert s.message == "Black to play 4", s.message
    s.move("7", "11", B)
    s.press(Button.DONE)
    assert last_play(s, "black") in ("24/18/14", "24/14")
    assert_unwarned(s, t)
    assert_goes_on(s, "black")


def test_a_roll_under_a_hovering_hand_then_a_first_move() -> None:
    """D2: the hand hovers over Black's points (hidden zones) when the dice land, and moves
    a checker before the board is ever seen whole again: the roll is used for that move."""
    s = opened(dice=(3, 1))
    white_played_31(s)
    s.press(Button.DONE)
    t = s.now
    s.board.hover(["1", "2", "3"])
    s.advance(0.2)
    s.throw(6, 4)
    s.board.lift("1", s_checker(B))
    s.advance(0.1)
    s.board.place("7", s_checker(B))
    s.advance(0.1)
    s.board.unhover()
    s.advance(1.5)
    assert_unwarned(s, t)
    assert s.message == "Black to play 4", s.message
    s.move("7", "11", B)
    s.press(Button.DONE)
    assert_goes_on(s, "black")


@pytest.mark.parametrize("DROPOUT", ["VI", "1", "7"])
def test_a_roll_during_a_sensor_dropout_then_a_first_move(DROPOUT: str) -> None:
    """D2 (passes today): a zone (elsewhere, the checker's source or its target) unreadable for half a
    second from the moment the dice land; Black moves its first checker meanwhile: the
    roll is used, nothing is warned."""
    s = opened(dice=(3, 1))
    white_played_31(s)
    s.press(Button.DONE)
    t = s.now
    s.table.sim.sensor.inject_unreadable(DROPOUT, 25)
    s.throw(6, 4)
    s.move("1", "7", B, settle=0.1)
    s.advance(1.5)
    assert_unwarned(s, t)
    assert s.message == "Black to play 4", s.message
    s.move("7", "11", B)
    s.press(Button.DONE)
    assert_goes_on(s, "black")


def test_the_opening_throw_with_a_checker_in_hand() -> None:
    """D2: trictrac's opening throw lands while White already holds a checker from 8; put
    on 5, it is White's first move of the opening 3-1."""
    s = scene()
    s.set_position(s.controller.game.position)
    t = s.now
    s.lift("8", W)
    s.throw(3, 1)
    s.place("5", W)
    s.advance(1.5)
    assert_unwarned(s, t)
    assert s.message == "White to play 1", s.message
    s.move("6", "5", W)
    assert s.message == "White has played: next roll or Done"
    assert_goes_on(s, "white", (6, 4))
    assert last_play(s, "white") == "8/5 6/5"


def test_a_dropout_hiding_a_complete_board_at_the_next_roll() -> None:
    """D2: White's play is complete but a zone drops out just as Black throws; Black starts
    moving before the dropout clears: White's turn ends with the roll, never "More must be
    played", and Black's first move counts."""
    s = opened(dice=(3, 1))
    white_played_31(s)
    t = s.now
    s.table.sim.sensor.inject_unreadable("5", 40)  # White's new point, hidden for 0.8 s
    s.advance(0.1)
    s.throw(6, 4)
    s.move("1", "7", B, settle=0.1)
    assert_white_31_then_black_1_7(s, t)


def test_the_next_player_lifts_before_the_movers_last_checker_is_down() -> None:
    """D2: White holds its last checker (6, for 6/5) when Black throws and lifts one of its
    own; White puts down on 5, then Black on 7: White's 8/5 6/5 and Black's first move."""
    s = opened(dice=(3, 1))
    s.move("8", "5", W)
    t = s.now
    s.lift("6", W)
    s.throw(6, 4)
    s.lift("1", B)
    s.place("5", W)
    s.place("7", B)
    assert_white_31_then_black_1_7(s, t)


def test_a_roll_with_a_checker_in_hand_put_back_is_used() -> None:
    """D2 (control, passes today): Black lifts a checker, throws, and puts it back where it
    was: the held roll starts Black's turn unwarned."""
    s = opened(dice=(3, 1))
    white_played_31(s)
    s.press(Button.DONE)
    s.lift("1", B)
    s.throw(6, 4)
    s.place("1", B)
    s.advance(1.5)
    assert_unwarned(s)
    assert s.message == "Black to play 6-4"


def test_a_wrong_first_move_after_a_roll_with_a_checker_in_hand_is_warned() -> None:
    """D2 (illegal, still warned): Black lifts from 1, throws 6-4 and puts the checker on 3
    (2 pips): no move of the roll; warned after the grace time, nothing recorded for Black."""
    s = opened(dice=(3, 1))
    white_played_31(s)
    s.press(Button.DONE)
    t = s.now
    s.lift("1", B)
    s.throw(6, 4)
    s.place("3", B)
    s.advance(1.5)
    assert s.warnings(t) == 1
    assert s.lit(L.WARNING), s.all_lit()
    assert [e for e in s.entries("turn") if e["colour"] == "black"] == []


def test_a_move_before_any_roll_is_still_warned() -> None:
    """D2 (illegal, still warned): Black moves 1 to 7 with no dice thrown at all."""
    s = opened(dice=(3, 1))
    white_played_31(s)
    s.press(Button.DONE)
    t = s.now
    s.move("1", "7", B)
    s.advance(1.5)
    assert s.warnings(t) == 1
    assert s.message == "Nothing may move now: Black rolls first"


def test_a_fast_hand_lifts_and_places_within_one_scan_after_the_roll() -> None:
    """D2 (fast hands, passes today): Black throws and moves 1 to 7 within 10 ms, faster than the sensor
    settles: the board is first seen with the move made; it counts as Black's first move."""
    s = opened(dice=(3, 1))
    white_played_31(s)
    s.press(Button.DONE)
    t = s.now
    s.table.sim.dice.throw(6, 4)
    s.board.lift("1", s_checker(B))
    s.board.place("7", s_checker(B))
    s.advance(1.5)
    assert_unwarned(s, t)
    assert s.message == "Black to play 4", s.message
    assert_sound_free_of_warning(s)


def assert_sound_free_of_warning(s: Scene) -> None:
    """No WARNING sound in the whole scene."""
    assert Sound.WARNING not in s.sounds()


# -- the next roll over a board that two plays share ----------------------------------------------

BEAR = pos({6: 1, 3: 2, 2: 4, 1: 7}, {6: 5, 5: 5, 4: 5})
"""White bears off with 6-2: 6/off 3/1 passes through the board 6/4/off leaves."""


def test_a_roll_while_the_hand_carries_on_from_a_board_another_play_leaves() -> None:
    """6/off, then the checker from 3 is lifted and the next roll lands before the sensors
    have seen the lift: the board showed 6/4/off for a moment, but the play is 6/off 3/1."""
    s = scene(start=BEAR)
    s.set_position(BEAR)
    s.throw(6, 2)
    s.move("6", "off-white", W)
    s.lift("3", W, settle=0.01)  # not yet seen when the dice land
    s.throw(4, 3)
    s.place("1", W)
    s.advance(1.5)
    assert_unwarned(s)
    assert last_play(s, "white") == "6/off 3/1"
    assert s.controller.turn_in_progress is not None and s.controller.turn_in_progress[0] is Colour.BLACK


def test_a_roll_over_a_board_another_play_leaves_ends_the_turn_once_it_stands() -> None:
    """6/4/off carried in one go, then the next roll: after the grace time the turn ends as
    the board shows it (the hand did not carry on), and the lights are the next player's."""
    s = scene(start=BEAR)
    s.set_position(BEAR)
    s.throw(6, 2)
    s.move("6", "off-white", W)
    s.throw(4, 3)
    assert "held" in s.message
    s.advance(1.5)
    assert_unwarned(s)
    assert last_play(s, "white") == "6/4/off"
    assert s.controller.turn_in_progress == (Colour.BLACK, Roll(4, 3))


# =====================================================================================
# A hit made in passing, the next roll thrown before the blot is taken away
# =====================================================================================

PASSING = pos({24: 2, 13: 5, 8: 3, 6: 5}, {18: 1, 13: 5, 8: 4, 6: 4, 24: 1})
"""A black blot on White's 7: White's 6-2 from 13 may go 13/7*/5 (hitting it) or 13/11/5."""


def passing_scene(rules: str = "backgammon", dice: tuple[int, int] = (6, 5)) -> Scene:
    """White to play 6-2 from ``PASSING``, the checker from 13 carried straight to 5, and
    Black's roll thrown before anything else happens."""
    s = scene(rules, start=PASSING)
    s.set_position(PASSING)
    s.throw(6, 2)
    assert s.message.startswith("White to play"), s.message
    s.move(s.zone(W, 13), s.zone(W, 5), W)
    s.throw(*dice)
    assert "held" in s.message, s.message
    return s


@pytest.mark.parametrize("rules", ["backgammon", "trictrac"])
def test_a_hit_in_passing_with_the_next_roll_before_the_blot_is_taken_is_recorded(rules: str) -> None:
    """13/7*/5 carried straight, Black throws, then the blot goes to the bar: the play is the
    hit (the roll is held while the blot passed may still go), not 13/11/5."""
    s = passing_scene(rules)
    s.move(s.zone(W, 7), s.zone(B, 25), B)
    s.advance(1.5)
    assert_unwarned(s)
    assert last_play(s, "white") == "13/7*/5"
    assert s.controller.turn_in_progress == (Colour.BLACK, Roll(6, 5))


def test_a_hit_in_passing_taken_by_the_next_players_hand_via_the_bar_is_recorded() -> None:
    """The same, the next player already at work: the blot put on the bar while Black lifts a
    checker of its own (one snapshot shows both), then Black enters from the bar."""
    s = passing_scene(dice=(6, 3))
    s.lift(s.zone(W, 7), B, settle=0.0)
    s.place(s.zone(B, 25), B, settle=0.0)
    s.lift(s.zone(B, 13), B)
    s.place(s.zone(B, 7), B)  # 13/7 with the 6
    s.move(s.zone(B, 25), s.zone(B, 22), B)  # bar/22 with the 3
    s.advance(1.5)
    assert_unwarned(s)
    assert last_play(s, "white") == "13/7*/5"
    assert s.message == "Black has played: next roll or Done", s.message


def test_a_blot_passed_and_left_ends_the_turn_as_it_stands() -> None:
    """13/11/5 carried straight past the blot, Black throws, the blot stays: after the grace
    time the turn ends as the board shows it."""
    s = passing_scene()
    s.advance(1.5)
    assert_unwarned(s)
    assert last_play(s, "white") == "13/11/5"
    assert s.controller.turn_in_progress == (Colour.BLACK, Roll(6, 5))


def test_a_passed_blot_moved_straight_on_by_the_next_player_is_warned() -> None:
    """13/11/5 past the blot, Black throws 6-5 and carries the blot straight from its point
    to where bar/20/14 would bring it: no hit was made (the blot never reached the bar), so
    the board is an illegal move, warned, and White's play stays 13/11/5."""
    s = passing_scene()
    s.move(s.zone(W, 7), s.zone(B, 14), B, settle=0.3)
    s.advance(1.5)
    assert s.warnings() >= 1, s.message
    s.move(s.zone(B, 14), s.zone(W, 7), B)
    s.advance(1.5)
    assert last_play(s, "white") == "13/11/5"



def test_a_winning_play_already_on_the_board_when_its_turn_starts_ends_the_game() -> None:
    """Found by the 5x soak (rally-hitting, seed 90502716): Black's roll was held over White's
    complete play and Black bore its last checker off before the held roll started Black's
    turn; the turn began over a board already showing the winning play and waited for a
    board change that never came (the next game's Done then ended it, a game too late)."""
    from controller.machine import Settings
    from controller.rules import get_rule_set
    from simulator.players import Behaviour
    from simulator.table import Table

    table = Table(Settings(get_rule_set("rally-hitting")), seed=90502716, behaviour=Behaviour.real_hands(speed=5.0))
    report = table.play_match()
    assert report.mismatches == [] and len(table.truth) == 1 and report.finished == 1
