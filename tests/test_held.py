"""Which finished play a board shows when the next rolls were thrown before it was seen
(``controller.held.finished_play``), on boards built from positions."""

from __future__ import annotations

from controller.held import Finished, finished_play
from controller.rules.registry import get_rule_set
from controller.rules.turn import TurnMap
from controller.rules.values import Move, Play, Position, Roll
from controller.tracking import BoardReader, Tracker

RULES = get_rule_set("backgammon")
CLOSED = Position.from_counts({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 13: 3}, {13: 6, 8: 5, 6: 3}, black_bar=1)
"""White to move; Black on the bar against White's closed board: every Black roll passes."""


def test_a_pass_between_two_plays_of_the_same_player_is_followed() -> None:
    """White played 6-5 (seen complete), Black's 6-6 passed on the closed board, White threw
    3-1 and has moved 8/5 already: the board is two plays of White's ahead of its roll, and
    White's 6-5 is the play that explains it."""
    first = Play((Move(13, 7, 6), Move(13, 8, 5)))
    turn_map = TurnMap(RULES, CLOSED, Roll(6, 5))
    done = turn_map.end_of(first)
    assert done is not None
    after = RULES.apply(CLOSED, first)
    assert TurnMap(RULES, after, Roll(6, 6)).passes
    board = RULES.apply(after.with_turn(CLOSED.turn), Play((Move(8, 5, 3),)))
    reader = BoardReader(RULES, RULES.geometry(None))
    reading = reader.position_reading(board)
    found = finished_play(Tracker(turn_map), (Roll(6, 6), Roll(3, 1)), reading, done)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == done


def test_without_the_roll_after_the_pass_nothing_is_decided() -> None:
    first = Play((Move(13, 7, 6), Move(13, 8, 5)))
    turn_map = TurnMap(RULES, CLOSED, Roll(6, 5))
    done = turn_map.end_of(first)
    after = RULES.apply(CLOSED, first)
    board = RULES.apply(after.with_turn(CLOSED.turn), Play((Move(8, 5, 3),)))
    reading = BoardReader(RULES, RULES.geometry(None)).position_reading(board)
    assert finished_play(Tracker(turn_map), (Roll(6, 6),), reading, done) is None


def test_a_pass_and_the_mover_moving_on_before_the_play_was_ever_seen_is_followed() -> None:
    """The same, but the board never showed White's 6-5 complete (a hand over it, a quick
    player): the board two plays on is still explained by it, through Black's pass."""
    first = Play((Move(13, 7, 6), Move(13, 8, 5)))
    turn_map = TurnMap(RULES, CLOSED, Roll(6, 5))
    after = RULES.apply(CLOSED, first)
    board = RULES.apply(after.with_turn(CLOSED.turn), Play((Move(8, 5, 3), Move(6, 5, 1))))
    reading = BoardReader(RULES, RULES.geometry(None)).position_reading(board)
    found = finished_play(Tracker(turn_map), (Roll(6, 6), Roll(3, 1)), reading, turn_map.start)
    assert isinstance(found, Finished) and turn_map.end_of(found.play) == turn_map.end_of(first)
