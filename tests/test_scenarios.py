"""Scenario tests: every guidance state and every warning, driven through the simulator.

Each scenario acts physically on the simulated board (lift, place, hover, knock over),
throws the simulated dice and presses the simulated buttons; the simulated sensor turns
that into settled snapshots, the real controller judges them on the virtual clock, and the
test asserts on what a player sees: the LEDs (``table.sim.lights.current``), the sounds
(``table.sim.sounder.played``), the turn LEDs, and what the controller journals.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from scenario_kit import B, Scene, W, act, carry, chain, opened, pos, scene, wait

from controller.journal import Journal
from controller.machine import Phase, Settings
from controller.rules import get_rule_set
from controller.runner import open_controller
from controller.tracking import Kind
from hal.interfaces import Button, LightMode, Sound
from hal.interfaces import LightColour as L
from hal.zones import BLACK as CB
from hal.zones import WHITE as CW

STEADY, BLINK = LightMode.STEADY, LightMode.BLINK
WHITE_SOURCES_31 = {"6", "8", "I", "XII"}  # the trictrac start, White to play 3-1
BLACK_SOURCES_START = {"1", "12", "VI", "VIII"}  # Black's start points, after White's 8/5 6/5
START_ZONES = {"1", "6", "8", "12", "I", "VI", "VIII", "XII"}


def first_wrong(s: Scene, after: float = 0.0) -> float:
    """When the first snapshot judged WRONG (at or after ``after``) was handled."""
    return next(t for t, kind in s.verdicts if kind is Kind.WRONG and t >= after)


def white_31_played(s: Scene) -> None:
    """White plays 8/5 6/5 (the start, opening 3-1)."""
    s.perform(chain(carry(s.board, "8", "5", W), carry(s.board, "6", "5", W)))


# =====================================================================================
# Guidance
# =====================================================================================


def test_setup_lights_show_missing_and_extra_checkers_until_the_start_stands() -> None:
    """Trictrac setup: on the empty board every start point glows steady (checkers missing);
    with one checker on 7 instead of 6, 6 glows steady and 7 blinks (extra), nothing else;
    when the start stands the board asks for the opening throws."""
    s = scene("trictrac")
    s.advance(0.3)
    assert s.phase is Phase.SETUP
    assert s.message == "Set up the board for the start"
    assert s.all_lit() == {zone: (L.SETUP, STEADY) for zone in START_ZONES}
    assert s.turn_led is None

    s.board.set_zones({"1": (0, 2), "6": (4, 0), "7": (1, 0), "8": (3, 0), "12": (0, 5),
                       "I": (2, 0), "VI": (0, 5), "VIII": (0, 3), "XII": (5, 0)})
    s.advance(0.3)
    assert s.phase is Phase.SETUP
    assert s.all_lit() == {"6": (L.SETUP, STEADY), "7": (L.SETUP, BLINK)}
    s.move("7", "6", W)
    assert s.phase is Phase.OPENING
    assert s.message == "Each player throws one die (first die: the player on White's side)"
    assert s.sounds() == []


def test_setup_lights_go_dark_once_the_start_stands() -> None:
    """Once the start position stands, no point still glows as missing or extra."""
    s = scene("trictrac")
    s.advance(0.3)
    s.set_position(s.controller.game.position)
    assert s.phase is Phase.OPENING
    assert not s.lit(L.SETUP), s.all_lit()


def test_rally_setup_is_an_empty_board_with_full_pools_and_the_start_quarter_lit() -> None:
    """Rally from quarter 1-6: lines 1-6 glow in the turn colour, both pools glow as missing
    until all 15 + 15 checkers wait there; the higher opening die (Black) rolls both dice,
    and its pool is the only source; a checker lifted from it lights the entry points of
    each die and of the sum."""
    s = scene("rally", quarter="1-6")
    s.advance(0.3)
    assert s.all_lit() == {
        **{line: (L.TURN, STEADY) for line in ("1", "2", "3", "4", "5", "6")},
        "wait-white": (L.SETUP, STEADY),
        "wait-black": (L.SETUP, STEADY),
    }
    s.board.set_zones({"wait-white": (15, 0), "wait-black": (0, 14), "3": (0, 1)})
    s.advance(0.3)
    assert s.phase is Phase.SETUP
    assert s.lit(L.SETUP) == {"3", "wait-black"}
    assert s.frame.light("3").mode is BLINK and s.frame.light("wait-black").mode is STEADY
    s.move("3", "wait-black", B)
    assert s.phase is Phase.OPENING

    s.throw(2, 5)  # the second player's die is higher: Black starts with a fresh roll
    assert s.phase is Phase.AWAIT_ROLL
    assert s.message == "Black (the second player) starts: roll both dice"
    assert s.turn_led is CB
    assert s.sounds() == [Sound.TURN]
    assert [e["type"] for e in s.journal] == ["start", "opening"]

    s.throw(6, 5)
    assert s.message == "Black to play 6-5"
    assert s.all_lit() == {"wait-black": (L.SOURCE, STEADY)}
    s.lift("wait-black", B)
    assert s.lit(L.TARGET) == {"5", "6", "11"}
    assert s.frame.light("wait-black").colour is L.SOURCE and s.frame.light("wait-black").mode is BLINK


def test_rally_after_the_opening_the_starters_pool_shows_the_turn() -> None:
    """After the rally's opening throws only the starter's pool glows (turn colour)."""
    s = scene("rally", quarter="1-6")
    s.advance(0.3)
    s.set_position(s.controller.game.position)
    s.throw(2, 5)
    assert s.phase is Phase.AWAIT_ROLL
    assert s.all_lit() == {"wait-black": (L.TURN, STEADY)}, s.all_lit()


def test_rally_setup_lights_the_default_start_quarter() -> None:
    """A rally set up without choosing a quarter is played from I-VI: that quarter is lit."""
    s = scene("rally")
    s.advance(0.3)
    assert s.controller.reader.zone_of(W, 24) == "I"  # the game really starts in I-VI
    assert {"I", "II", "III", "IV", "V", "VI"} <= s.lit(L.TURN), s.all_lit()


def test_equal_opening_throws_ask_to_throw_again() -> None:
    """Equal opening dice: the board says "throw again", nothing is journalled, nobody moves."""
    s = scene()
    s.set_position(s.controller.game.position)
    s.throw(4, 4)
    assert s.phase is Phase.OPENING
    assert s.message == "Equal throws (4-4): throw again"
    assert s.entries("opening") == [] and s.sounds() == [] and s.turn_led is None
    s.throw(3, 1)
    assert s.phase is Phase.MOVING
    assert [e["dice"] for e in s.entries("opening")] == [[3, 1]]


def test_after_the_roll_the_points_whose_checkers_may_move_are_lit() -> None:
    """White wins the opening 3-1: the points with a legal first move glow as sources,
    the turn LED shows White, and the turn sound plays."""
    s = opened(dice=(3, 1))
    assert s.phase is Phase.MOVING
    assert s.message == "White to play 3-1"
    assert s.all_lit() == {zone: (L.SOURCE, STEADY) for zone in WHITE_SOURCES_31}
    assert s.turn_led is CW
    assert s.sounds() == [Sound.TURN]


def test_a_lifted_checker_lights_each_die_and_the_sum() -> None:
    """3-1: a checker lifted from 8 lights 7 (die 1), 5 (die 3) and 4 (both), its own point
    blinking; one lifted from I (24) lights II, IV and V.  Put back, the sources return."""
    s = opened(dice=(3, 1))
    s.lift("8", W)
    assert s.message == "White 31: put it on a lit point"
    assert s.lit(L.TARGET) == {"7", "5", "4"}
    assert s.frame.light("8").colour is L.SOURCE and s.frame.light("8").mode is BLINK
    s.place("8", W)
    assert s.lit(L.SOURCE) == WHITE_SOURCES_31 and not s.lit(L.TARGET)
    s.lift("I", W)
    assert s.lit(L.TARGET) == {"II", "IV", "V"}


def test_a_lifted_checker_on_a_double_lights_every_multiple() -> None:
    """Black rolls 2-2: a checker lifted from 12 (Black's 13) lights XI, IX, VII and V."""
    s = opened(dice=(3, 1))
    white_31_played(s)
    s.throw(2, 2)
    assert s.message == "Black to play 2-2-2-2"
    s.lift("12", B)
    assert s.lit(L.TARGET) == {"XI", "IX", "VII", "V"}


def test_bear_off_lights_the_tray_as_a_target() -> None:
    """All home, 6-2: a checker lifted from 6 may go to 4 or off: the tray glows as a target;
    put in the tray, the next source lights say the bear-off goes on."""
    start = pos({6: 2, 5: 3, 3: 4, 2: 1}, {6: 5, 13: 5, 8: 3, 17: 2})
    s = scene(start=start)
    s.set_position(start)
    s.throw(6, 2)
    assert s.message == "White to play 6-2 (bearing off)"
    s.lift("6", W)
    assert s.lit(L.TARGET) == {"4", "off-white"}
    s.place("off-white", W)
    assert s.message == "White to play 2 (bearing off)"
    assert s.lit(L.SOURCE) == {"6", "5", "3", "2"}


HIT_START = pos({8: 3, 6: 5, 13: 5, 24: 2}, {20: 1, 6: 5, 13: 5, 8: 3, 24: 1})
"""A black blot on White's 5 (line 5), which White's 3-1 hits with 8/5*."""


def hit_scene() -> Scene:
    s = scene(start=HIT_START)
    s.set_position(HIT_START)
    s.throw(3, 1)
    assert s.message == "White to play 3-1"
    return s


def test_hit_own_checker_placed_first() -> None:
    """White puts its checker on the black blot: 5 and Black's bar blink in the hit colour;
    with the blot in the hand only the bar still blinks; once it is on the bar the normal
    guidance returns, and the turn is journalled with the hit."""
    s = hit_scene()
    s.perform(carry(s.board, "8", "5", W))
    assert s.message == "Hit! Put the black checker on its bar"
    assert s.all_lit() == {"5": (L.HIT, BLINK), "wait-black": (L.HIT, BLINK)}
    s.lift("5", B)
    assert s.all_lit() == {"wait-black": (L.HIT, BLINK)}
    s.place("wait-black", B)
    assert s.message == "White to play 1"
    assert not s.lit(L.HIT)
    s.move("6", "5", W)
    assert s.message == "White has played: next roll or Done"
    s.throw(6, 4)
    turn = s.entries("turn")[-1]
    assert turn["play"] == "8/5* 6/5"
    assert turn["moves"] == [[8, 5, 3, True], [6, 5, 1, False]]
    # Black must now enter: its bar is the only source
    assert s.all_lit() == {"wait-black": (L.SOURCE, STEADY)}


def test_hit_blot_lifted_first() -> None:
    """White first takes the black blot off 5: 5 and Black's bar blink in the hit colour;
    the hit is completed by bar and checker in either order, and recorded as 8/5*."""
    s = hit_scene()
    s.lift("5", B)
    assert s.message == "Hit! Put the black checker on its bar"
    assert s.all_lit() == {"5": (L.HIT, BLINK), "wait-black": (L.HIT, BLINK)}
    s.place("wait-black", B)
    s.move("8", "5", W)
    assert s.message == "White to play 1"
    assert s.lit(L.SOURCE) == {"5", "6", "8", "I"}
    s.move("6", "5", W)
    s.press(Button.DONE)
    assert s.entries("turn")[-1]["moves"] == [[8, 5, 3, True], [6, 5, 1, False]]
    assert s.warnings() == 0


def test_hit_blot_first_bar_light_stops_once_it_is_carried_there() -> None:
    """Blot lifted first and put on the bar: the bar stops blinking, the message moves on."""
    s = hit_scene()
    s.lift("5", B)
    s.place("wait-black", B)
    assert "wait-black" not in s.lit(L.HIT), s.all_lit()
    assert "Put the black checker on its bar" not in s.message


def test_hit_blot_first_lifting_the_hitter_lights_the_hit_point() -> None:
    """With the blot already on the bar, the checker lifted from 8 may go to 5 (lit) and
    8 blinks as its source."""
    s = hit_scene()
    s.lift("5", B)
    s.place("wait-black", B)
    s.lift("8", W)
    assert "5" in s.lit(L.TARGET), s.all_lit()
    assert s.frame.light("8").mode is BLINK, s.all_lit()


def test_bar_entry_lights_the_waiting_zone_as_the_only_source() -> None:
    """White on the bar with 3-1: only the bar glows as a source; a checker lifted from it
    lights I, III and IV; once entered the other checkers may move."""
    start = pos({6: 5, 13: 5, 8: 3, 24: 1}, {6: 5, 13: 5, 8: 3, 24: 2}, white_bar=1)
    s = scene(start=start)
    s.set_position(start)
    s.throw(3, 1)
    assert s.all_lit() == {"wait-white": (L.SOURCE, STEADY)}
    s.lift("wait-white", W)
    assert s.lit(L.TARGET) == {"I", "III", "IV"}
    s.place("III", W)
    assert s.message == "White to play 1"
    assert s.lit(L.SOURCE) == {"6", "8", "I", "III"}


def test_no_legal_play_shows_the_pass_and_the_turn_passes() -> None:
    """White on the bar against a closed home: the bar blinks, the board says the turn passes,
    the turn LED goes to Black, a turn with an empty play is journalled, and Black rolls."""
    start = pos({6: 5, 13: 5, 8: 4}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, white_bar=1)
    s = scene(start=start)
    s.set_position(start)
    s.throw(3, 1)
    assert s.phase is Phase.AWAIT_ROLL
    assert s.message == "White cannot move with 31: the turn passes"
    assert s.all_lit() == {"wait-white": (L.WARNING, BLINK)}
    assert s.turn_led is CB
    turn = s.entries("turn")[-1]
    assert (turn["colour"], turn["roll"], turn["play"], turn["moves"]) == ("white", [3, 1], "", [])
    assert s.warnings() == 0
    s.throw(5, 2)
    assert s.phase is Phase.MOVING and s.message == "Black to play 5-2"


def test_a_complete_play_asks_for_the_next_roll_or_done() -> None:
    """After 8/5 6/5 the board says White has played; only Black's bar glows (turn colour)."""
    s = opened(dice=(3, 1))
    white_31_played(s)
    assert s.message == "White has played: next roll or Done"
    assert s.all_lit() == {"wait-black": (L.TURN, STEADY)}
    assert s.entries("turn") == []  # nothing is final until the next roll or Done


def test_the_next_roll_ends_the_turn_and_lights_the_next_players_sources() -> None:
    """Black throws over White's complete play: White's turn is journalled, Black's roll
    follows, Black's sources glow and the turn LED and sound change to Black."""
    s = opened(dice=(3, 1))
    white_31_played(s)
    s.throw(6, 4)
    assert [e["type"] for e in s.journal] == ["start", "opening", "turn", "roll"]
    assert s.entries("turn")[0]["play"] == "8/5 6/5"
    assert s.entries("roll")[0] == {**s.entries("roll")[0], "colour": "black", "roll": [6, 4]}
    assert s.message == "Black to play 6-4"
    assert s.lit(L.SOURCE) == BLACK_SOURCES_START
    assert s.turn_led is CB
    assert s.sounds() == [Sound.TURN, Sound.TURN]


def test_done_ends_a_complete_turn() -> None:
    """Done over a complete play: the turn is journalled, Black's bar glows, Black to roll."""
    s = opened(dice=(3, 1))
    white_31_played(s)
    s.press(Button.DONE)
    assert s.phase is Phase.AWAIT_ROLL
    assert s.message == "Black to roll"
    assert s.all_lit() == {"wait-black": (L.TURN, STEADY)}
    assert s.turn_led is CB
    assert [e["type"] for e in s.journal] == ["start", "opening", "turn"]
    s.throw(6, 4)
    assert s.lit(L.SOURCE) == BLACK_SOURCES_START


def test_the_end_lights_the_winner_plays_game_over_and_shows_the_score() -> None:
    """White bears off its last checker: its tray and bar blink in the winner colour, the
    game-over sound plays, the message gives the score, the game-over entry is journalled."""
    start = pos({1: 1}, {6: 5, 13: 5, 8: 3, 20: 2})
    s = scene(start=start)
    s.set_position(start)
    s.throw(2, 1)
    s.lift("1", W)
    assert s.lit(L.TARGET) == {"off-white"}
    s.place("off-white", W)
    assert s.phase is Phase.GAME_OVER
    assert s.all_lit() == {"off-white": (L.WINNER, BLINK), "wait-white": (L.WINNER, BLINK)}
    assert s.sounds()[-1] is Sound.GAME_OVER
    assert s.message == "White wins 4 (outside); score White 4, Black 0"
    assert s.turn_led is None
    over = s.entries("game-over")[-1]
    assert (over["winner"], over["points"], over["kind"]) == ("white", 4, "outside")
    s.press(Button.DONE)
    assert s.message == "The match is over: white wins"
    s.throw(3, 2)
    assert s.message == "The game is over: press Done for the next game"


def test_the_next_game_of_a_match_starts_with_setup_after_done() -> None:
    """A match to 3: after White's single win, Done starts game 2 with the setup lights
    guiding the board back to the start, then the opening."""
    start = pos({1: 1}, {6: 5, 13: 5, 8: 3, 20: 1})
    s = scene(start=start, match_length=3)
    s.set_position(start)
    s.throw(2, 1)
    s.move("1", "off-white", W)
    assert s.phase is Phase.GAME_OVER
    assert s.message == "White wins 1 (single); score White 1, Black 0"
    s.press(Button.DONE)
    assert s.phase is Phase.SETUP
    assert s.message == "Set up the board for the start"
    assert s.entries("game") == [{**s.entries("game")[0], "number": 2}]
    assert "off-white" in s.lit(L.SETUP) and s.frame.light("off-white").mode is BLINK  # extra
    assert "8" in s.lit(L.SETUP) and s.frame.light("8").mode is STEADY  # missing
    s.set_position(get_rule_set("trictrac").start_position())
    assert s.phase is Phase.OPENING
    s.throw(5, 2)
    assert s.message == "White to play 5-2" and len(s.controller.match.games) == 2


def test_takeback_undoes_the_previous_turn_and_that_player_moves_again() -> None:
    """Black has rolled and moved once when Takeback is pressed: White's turn is undone,
    the restore lights show every checker to put back (steady: missing, blinking: extra),
    they narrow as checkers go back, and then White moves again with the same 3-1."""
    s = opened(dice=(3, 1))
    white_31_played(s)
    s.press(Button.DONE)
    s.throw(6, 4)
    s.move("1", "7", B)
    s.press(Button.TAKEBACK)
    assert s.phase is Phase.RESTORE
    assert s.message == "Put the checkers back as lit"
    assert s.all_lit() == {
        "1": (L.SETUP, STEADY), "7": (L.SETUP, BLINK),
        "8": (L.SETUP, STEADY), "6": (L.SETUP, STEADY), "5": (L.SETUP, BLINK),
    }
    assert s.turn_led is None
    back = s.entries("takeback")[-1]
    assert (back["colour"], back["roll"]) == ("white", [3, 1])
    s.move("7", "1", B)
    assert s.lit(L.SETUP) == {"8", "6", "5"}
    s.throw(4, 2)  # a roll before the board is back is refused
    assert s.message == "Put the checkers back first" and s.sounds()[-1] is Sound.WARNING
    assert s.phase is Phase.RESTORE
    s.move("5", "8", W)
    assert s.lit(L.SETUP) == {"6", "5"}
    s.move("5", "6", W)
    assert s.phase is Phase.MOVING
    assert s.message == "White to play 3-1"
    assert s.lit(L.SOURCE) == WHITE_SOURCES_31
    assert s.controller.game.turns() == []
    s.perform(carry(s.board, "8", "4", W))  # a different play this time: 8/4
    s.throw(2, 1)
    turns = s.controller.game.turns()
    assert len(turns) == 1 and str(turns[0].roll) == "31"
    assert turns[0].after.white[4] == 1 and turns[0].after.white[8] == 2


def test_resume_after_a_restart_accepts_a_move_made_meanwhile(tmp_path: Path) -> None:
    """The board restarts after Black has rolled 6-4 (journalled) and moved a checker: the
    resumed controller takes the board as a legal part of Black's 6-4 and lets Black finish
    it without a new throw."""
    path = tmp_path / "journal.jsonl"
    s = scene(journal=Journal(path))
    s.set_position(s.controller.game.position)
    s.throw(3, 1)
    white_31_played(s)
    s.throw(6, 4)
    s.move("1", "7", B)
    left = s.board_counts()
    s.table.runner.journal.close()

    logs: list[str] = []
    controller, begin = open_controller(Settings(get_rule_set("trictrac")), Journal(path), logs.append, 0.0)
    assert begin is None and controller.phase is Phase.MOVING
    assert any("Resuming" in line for line in logs)
    r = scene(controller=controller, journal=Journal(path))
    r.board.set_zones(left)
    r.advance(0.3)
    assert r.phase is Phase.MOVING
    assert r.message == "Black to play 4"
    assert r.warnings() == 0
    r.move("7", "11", B)  # the 4 to finish the play
    r.press(Button.DONE)
    assert r.entries("roll") == []  # the roll was not thrown again
    (turn,) = r.entries("turn")
    assert (turn["colour"], turn["roll"]) == ("black", [6, 4]) and r.phase is Phase.AWAIT_ROLL
    assert r.warnings() == 0


# =====================================================================================
# Warnings
# =====================================================================================


def test_a_wrong_move_is_warned_once_after_the_grace_time_until_the_board_is_legal() -> None:
    """8/2 with 3-1: nothing for the grace time, then one warning sound and red on 8 and 2,
    which stay (no second sound) until the checker is back; then the sources return.  A
    second wrong move later is warned again."""
    s = opened(dice=(3, 1))
    s.perform(carry(s.board, "8", "2", W))
    since = first_wrong(s)
    s.advance(since + 0.9 - s.now)
    assert s.warnings() == 0 and not s.lit(L.WARNING)
    s.advance(0.2)
    assert s.warnings() == 1
    assert s.message == "Illegal move: put the checker back"
    assert s.all_lit() == {"8": (L.WARNING, BLINK), "2": (L.WARNING, BLINK)}
    s.advance(5.0)
    assert s.warnings() == 1 and s.lit(L.WARNING) == {"8", "2"}
    s.perform(carry(s.board, "2", "8", W))
    assert s.message == "White to play 3-1"
    assert s.all_lit() == {zone: (L.SOURCE, STEADY) for zone in WHITE_SOURCES_31}
    assert not s.controller.warning

    t = s.now
    s.perform(chain(carry(s.board, "8", "3", W), wait(1.5)))
    assert s.warnings(since=t) == 1 and s.lit(L.WARNING) == {"8", "3"}
    s.perform(carry(s.board, "3", "8", W))
    assert s.entries("turn") == []


def test_a_second_wrong_move_made_while_the_first_is_warned_is_warned_again() -> None:
    """8/2 with 3-1 is warned; before it is put back, 6/3 is made too: that board is another
    illegal move, so once it has stood the grace time the board warns again (a fast hand
    found it unwarned).  A wrong board that changes only for a moment, or comes back to the
    board already warned about, gives no second sound."""
    s = opened(dice=(3, 1))
    s.perform(chain(carry(s.board, "8", "2", W), wait(1.5)))
    assert s.warnings() == 1
    t = s.now
    s.perform(carry(s.board, "6", "3", W, hold=0.1))
    assert s.warnings(since=t) == 0  # not yet: the new wrong board's grace time runs
    s.perform(carry(s.board, "3", "6", W, hold=0.1))  # back to the board already warned about
    s.advance(2.0)
    assert s.warnings(since=t) == 0
    s.perform(chain(carry(s.board, "6", "3", W), wait(1.5)))
    assert s.warnings(since=t) == 1
    assert s.lit(L.WARNING) == {"8", "2", "6", "3"}
    s.perform(chain(carry(s.board, "3", "6", W), carry(s.board, "2", "8", W)))
    assert s.message == "White to play 3-1" and not s.controller.warning
    assert s.warnings(since=t) == 1


def test_a_slide_over_points_shorter_than_the_grace_is_not_warned() -> None:
    """The hand slides the checker from 8 over 7 and 6 to 5, resting half a second on each:
    the board on 6 is wrong (8/6 is no move of 3-1) and is seen, but not warned."""
    s = opened(dice=(3, 1))
    s.perform(carry(s.board, "8", "5", W, via=("7", "6"), stop=0.5))
    assert Kind.WRONG in [kind for _, kind in s.verdicts]
    assert s.warnings() == 0
    assert all(not frame.lit(L.WARNING) for frame in s.frames())
    assert s.message == "White to play 1"


def test_a_hand_hovering_or_a_checker_held_for_long_is_not_warned() -> None:
    """A hand over four points for five seconds (hidden zones), then a checker held in the
    air for ten: no warning; the held checker's targets stay lit the whole time."""
    s = opened(dice=(3, 1))
    s.board.hover(["8", "7", "6", "5"])
    s.advance(5.0)
    assert Kind.HIDDEN in [kind for _, kind in s.verdicts]
    assert s.lit(L.SOURCE) == WHITE_SOURCES_31
    s.board.unhover()
    s.lift("8", W, settle=10.0)
    assert s.lit(L.TARGET) == {"7", "5", "4"}
    assert s.warnings() == 0 and not s.controller.warning
    s.place("8", W)
    assert s.message == "White to play 3-1"


def test_moving_before_rolling_is_warned_after_the_grace_time() -> None:
    """After White's Done, Black moves a checker before throwing: after the grace time one
    warning, red on 1 and 2, "Black rolls first"; back in place, Black's turn light returns
    and the roll is accepted."""
    s = opened(dice=(3, 1))
    white_31_played(s)
    s.press(Button.DONE)
    s.perform(carry(s.board, "1", "2", B))
    since = first_wrong(s)
    s.advance(since + 0.9 - s.now)
    assert s.warnings() == 0
    s.advance(0.2)
    assert s.warnings() == 1
    assert s.message == "Nothing may move now: Black rolls first"
    assert s.all_lit() == {"1": (L.WARNING, BLINK), "2": (L.WARNING, BLINK)}
    s.perform(carry(s.board, "2", "1", B))
    assert s.all_lit() == {"wait-black": (L.TURN, STEADY)} and s.message == "Black to roll"
    s.throw(6, 4)
    assert s.message == "Black to play 6-4" and s.warnings() == 1


def test_a_roll_over_an_unfinished_play_is_held_and_used_when_the_play_completes() -> None:
    """Black throws while White has played only 8/5: the roll is held (no warning while
    White finishes within the grace time) and used the moment 6/5 completes the play."""
    s = opened(dice=(3, 1))
    s.perform(carry(s.board, "8", "5", W))
    s.throw(6, 4)
    assert s.message == "Roll 64 held until white has finished"
    assert s.phase is Phase.MOVING and s.turn_led is CW
    assert s.entries("roll") == []
    s.move("6", "5", W, settle=0.15)
    assert s.message == "Black to play 6-4"
    assert s.lit(L.SOURCE) == BLACK_SOURCES_START
    assert [e["type"] for e in s.journal][-2:] == ["turn", "roll"]
    s.advance(2.0)
    assert s.warnings() == 0


def test_a_roll_over_a_play_still_unfinished_after_the_grace_is_warned_then_used() -> None:
    """The roll stays held; when White has still not finished after the grace time the board
    warns once "More must be played"; the completed play then uses the held roll."""
    s = opened(dice=(3, 1))
    s.perform(carry(s.board, "8", "5", W))
    s.throw(6, 4)
    thrown = s.now
    s.advance(0.9)
    assert s.warnings() == 0
    s.advance(0.2)
    assert s.warnings() == 1
    assert next(t for t, sound in s.table.sim.sounder.played if sound is Sound.WARNING) == pytest.approx(thrown + 1.0, abs=0.06)
    assert s.message == "More must be played: white has not finished (64 held)"
    s.advance(3.0)
    assert s.warnings() == 1
    s.move("6", "5", W)
    assert s.message == "Black to play 6-4" and s.turn_led is CB
    assert s.entries("roll")[-1]["roll"] == [6, 4]


def test_done_over_an_unfinished_play_is_warned_at_once() -> None:
    """Done after only 8/5: a warning sound at once, "More must be played before Done",
    White still to play, nothing journalled."""
    s = opened(dice=(3, 1))
    s.perform(carry(s.board, "8", "5", W))
    pressed = s.now
    s.press(Button.DONE)
    assert [t for t, sound in s.table.sim.sounder.played if sound is Sound.WARNING] == [pressed]
    assert s.message == "More must be played before Done"
    assert s.phase is Phase.MOVING and s.entries("turn") == []
    assert s.lit(L.SOURCE) == {"5", "6", "8", "I"}


def test_a_roll_while_a_checker_is_in_the_air_starts_the_turn_or_waits_for_the_play() -> None:
    """Black throws while holding one of its checkers before its turn: the turn starts at
    once, the checker is simply in hand in it (put back, the turn goes on).  White's complete
    play with White's checker in the air: Black's roll is held until it is down, then used.
    No warning either time."""
    s = opened(dice=(3, 1))
    white_31_played(s)
    s.press(Button.DONE)
    s.lift("1", B)
    s.throw(6, 4)
    assert s.phase is Phase.MOVING and s.entries("roll")[-1]["roll"] == [6, 4]
    assert s.message == "Black 64: put it on a lit point"
    s.place("1", B)
    assert s.message == "Black to play 6-4"
    assert s.entries("roll")[-1]["roll"] == [6, 4]

    s2 = opened(dice=(3, 1))
    white_31_played(s2)
    s2.lift("5", W)
    s2.throw(5, 2)
    assert s2.phase is Phase.MOVING and s2.turn_led is CW
    assert s2.message == "Roll 52 held until white has finished"
    s2.place("5", W)
    assert s2.message == "Black to play 5-2" and s2.turn_led is CB
    assert s.warnings() == 0 and s2.warnings() == 0


def test_buttons_at_the_wrong_moment_give_a_message_and_no_crash() -> None:
    """Done in setup, Takeback with nothing to take back (setup, opening, first turn), Roll
    in setup and Menu: a message each (a warning sound for Takeback), nothing changes."""
    s = scene()
    s.advance(0.3)
    setup_lights = s.all_lit()
    s.press(Button.DONE)
    assert s.message == "Done does nothing now (setup)" and s.sounds() == []
    assert s.all_lit() == setup_lights
    s.press(Button.TAKEBACK)
    assert s.message == "Nothing to take back" and s.sounds() == [Sound.WARNING]
    s.press(Button.ROLL)
    assert s.message == "Set up first"
    s.press(Button.MENU)
    assert s.message == "trictrac: setup, white to play"
    assert s.phase is Phase.SETUP and [e["type"] for e in s.journal] == ["start"]
    s.set_position(s.controller.game.position)
    s.press(Button.TAKEBACK)
    assert s.message == "Nothing to take back" and s.phase is Phase.OPENING
    s.press(Button.DONE)
    assert s.message == "Done does nothing now (opening)"
    s.throw(3, 1)
    s.press(Button.TAKEBACK)
    assert s.message == "Nothing to take back" and s.phase is Phase.MOVING
    assert s.lit(L.SOURCE) == WHITE_SOURCES_31
    white_31_played(s)
    s.throw(6, 4)
    assert s.message == "Black to play 6-4"


def test_a_sixteenth_checker_is_a_fault_warned_after_the_grace() -> None:
    """A white checker from outside the game put on 3: after the grace time the board warns
    "too many checkers" with red on 3 only; taken away, guidance returns, nothing recorded."""
    s = opened(dice=(3, 1))
    s.board.set_zones({"3": (1, 0)}, reset=False)
    s.advance(0.9)
    assert s.warnings() == 0
    s.advance(0.3)
    assert s.warnings() == 1
    assert s.message == "Check the board: too many checkers"
    assert s.all_lit() == {"3": (L.WARNING, BLINK)}
    s.board.set_zones({"3": (0, 0)}, reset=False)
    s.advance()
    assert s.message == "White to play 3-1" and s.entries("turn") == []


def test_two_colours_left_on_one_point_is_a_fault_warned_after_the_grace() -> None:
    """A black checker put onto White's 6 (no hit: 6 holds five whites): after the grace
    time "two colours on one point", red on 6 and VIII; back on VIII, guidance returns."""
    s = opened(dice=(3, 1))
    s.lift("VIII", B, settle=0.1)
    put = s.now
    s.place("6", B, settle=0.1)
    since = first_wrong(s, after=put)
    s.advance(since + 0.9 - s.now)
    assert s.warnings() == 0
    s.advance(0.2)
    assert s.warnings() == 1
    assert s.message == "Check the board: two colours on one point"
    assert s.lit(L.WARNING) == {"6", "VIII"}
    s.perform(carry(s.board, "6", "VIII", B))
    assert s.message == "White to play 3-1" and s.warnings() == 1


def knocked_scene() -> tuple[Scene, list]:
    s = opened(dice=(3, 1))
    spilled = s.board.knock_over("6", random.Random(0))
    assert spilled == [(CW, "5"), (CW, "7"), (CW, "7"), (CW, "7")]  # 6 keeps one, 5 and 7 get four
    s.advance(1.5)
    return s, spilled


def test_a_knocked_over_stack_is_warned_and_the_lights_guide_the_checkers_back() -> None:
    """The stack on 6 falls onto 5 and 7: after the grace time a warning and red on 5, 6, 7;
    with every checker back the sources return and White plays on."""
    s, spilled = knocked_scene()
    assert s.warnings() == 1
    assert s.lit(L.WARNING) == {"5", "6", "7"}
    assert s.message == "Illegal move: put the checker back"
    for _, zone in spilled:
        s.move(zone, "6", W)
    assert s.message == "White to play 3-1"
    assert s.lit(L.SOURCE) == WHITE_SOURCES_31
    assert s.warnings() == 1 and s.entries("turn") == []
    white_31_played(s)
    assert s.message == "White has played: next roll or Done"


def test_a_knocked_over_stack_red_lights_narrow_as_checkers_go_back() -> None:
    """After the checker that fell on 5 is back on 6, 5 no longer glows red; 6 and 7 do."""
    s, _ = knocked_scene()
    s.move("5", "6", W)
    assert s.lit(L.WARNING) == {"6", "7"}, s.all_lit()


@pytest.mark.parametrize("noise", ["miscount", "unreadable", "stuck"])
def test_sensor_noise_is_not_warned_and_nothing_is_wrongly_recorded(noise: str) -> None:
    """A zone miscounted for one scan, a zone unreadable for three scans, or a zone stuck
    for 0.6 s while White plays 8/5 6/5: no warning, and the turn is recorded as played."""
    s = opened(dice=(3, 1))
    sensor = s.table.sim.sensor
    board = s.board

    def inject() -> None:
        if noise == "miscount":
            sensor.inject_miscount("7", CW, +1)
        elif noise == "unreadable":
            sensor.inject_unreadable("8", 3)
        else:
            sensor.inject_stuck("8", 0.6)

    s.perform(chain(
        act(inject, 0.0),
        act(lambda: board.lift("8", CW), 0.3),
        act(lambda: board.place("5", CW), 0.3),
        act(inject, 0.0),
        act(lambda: board.lift("6", CW), 0.3),
        act(lambda: board.place("5", CW), 0.3),
        wait(1.5),
    ))
    kinds = [kind for _, kind in s.verdicts]
    if noise == "unreadable":
        assert Kind.HIDDEN in kinds  # the dropout was long enough to be posted
    if noise == "stuck":
        assert Kind.WRONG in kinds  # 16 whites seen for a while, shorter than the grace
    assert sensor.stats().noise[noise] == 2
    assert s.warnings() == 0 and not s.controller.warning
    assert s.message == "White has played: next roll or Done"
    s.throw(6, 4)
    assert s.entries("turn")[-1]["moves"] == [[8, 5, 3, False], [6, 5, 1, False]]
    assert [e["type"] for e in s.journal] == ["start", "opening", "turn", "roll"]


def test_a_cocked_die_asks_to_throw_again_and_records_nothing() -> None:
    """A cocked die in the opening, before Black's roll and over White's complete play:
    "Throw the dice again" each time, nothing journalled, nobody's turn changes."""
    s = scene()
    s.set_position(s.controller.game.position)
    s.table.sim.dice.throw_cocked()
    s.advance(0.05)
    assert s.message == "Throw the dice again" and s.phase is Phase.OPENING
    assert [e["type"] for e in s.journal] == ["start"]
    s.throw(3, 1)
    white_31_played(s)
    before = list(s.journal)
    s.table.sim.dice.throw_cocked()
    s.advance(0.05)
    assert s.message == "Throw the dice again"
    assert s.phase is Phase.MOVING and s.turn_led is CW and s.journal == before
    assert s.lit(L.TURN) == {"wait-black"}
    s.press(Button.DONE)
    before = list(s.journal)
    s.table.sim.dice.throw_cocked()
    s.advance(0.05)
    assert s.message == "Throw the dice again" and s.phase is Phase.AWAIT_ROLL and s.journal == before
    assert s.warnings() == 0
    s.throw(6, 4)
    assert s.message == "Black to play 6-4"


def test_the_opening_throw_over_a_wrong_board_keeps_the_warning() -> None:
    """Black moved a checker during the opening (warned); the opening throw must not hide it."""
    s = scene()
    s.set_position(s.controller.game.position)
    s.perform(carry(s.board, "1", "2", B))
    s.advance(1.2)
    assert s.message == "Nothing may move now: White rolls first"
    s.throw(3, 1)
    s.advance(2.0)
    assert s.lit(L.WARNING), (s.message, s.all_lit())
