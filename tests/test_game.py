"""Game flow: opening roll per rule set, turn order, passing, cube, match and Crawford."""

from __future__ import annotations

import pytest

from controller.rules import BLACK, WHITE, IllegalPlayError, Play, Position, Roll, get_rule_set
from controller.rules.game import CubeAction, Game, Match

TRICTRAC = get_rule_set("trictrac")
BACKGAMMON = get_rule_set("backgammon")
RALLY = get_rule_set("rally")


@pytest.mark.parametrize(
    ("name", "dice", "winner", "first", "roll"),
    [
        ("trictrac", (5, 1), 0, WHITE, Roll(5, 1)),
        ("trictrac", (2, 6), 1, WHITE, Roll(6, 2)),  # the higher throw plays White
        ("backgammon", (2, 6), 1, BLACK, Roll(6, 2)),  # moves first with either colour
        ("backgammon", (4, 3), 0, WHITE, Roll(4, 3)),
        ("rally", (3, 5), 1, BLACK, None),  # the starter rolls afresh
        ("rally-hitting", (6, 1), 0, WHITE, None),
    ],
)
def test_opening_roll(name: str, dice: tuple[int, int], winner: int, first: object, roll: Roll | None) -> None:
    opening = get_rule_set(name).resolve_opening(*dice)
    assert opening is not None
    assert (opening.winner, opening.first, opening.roll) == (winner, first, roll)


@pytest.mark.parametrize("name", ["trictrac", "backgammon", "rally", "rally-hitting"])
def test_equal_opening_throws_are_thrown_again(name: str) -> None:
    game = Game(get_rule_set(name))
    assert game.throw_opening(4, 4) is None
    assert game.opening is None


def test_opening_roll_is_the_first_roll_in_trictrac() -> None:
    game = Game(TRICTRAC)
    game.throw_opening(1, 5)
    assert game.turn is WHITE and game.pending_roll == Roll(5, 1)
    with pytest.raises(IllegalPlayError, match="first roll is 51"):
        game.play(Roll(3, 2), TRICTRAC.legal_plays(game.position, Roll(3, 2))[0])
    game.play(Roll(5, 1), TRICTRAC.legal_plays(game.position, Roll(5, 1))[0])
    assert game.turn is BLACK and game.pending_roll is None


def test_turns_alternate_and_undo_restores() -> None:
    game = Game(TRICTRAC)
    start = game.position
    game.play(Roll(3, 1), TRICTRAC.legal_plays(start, Roll(3, 1))[0])
    assert game.turn is BLACK
    game.undo()
    assert game.position == start and not game.history


def test_pass_only_when_nothing_can_be_played() -> None:
    closed = Position.from_counts({8: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, white_bar=2)
    game = Game(TRICTRAC, closed)
    record = game.play(Roll(6, 6), Play())
    assert record.before.with_turn(BLACK) == record.after
    with pytest.raises(IllegalPlayError, match="cannot pass"):
        Game(TRICTRAC).play(Roll(6, 6), Play())


def test_illegal_play_is_refused_and_nothing_recorded() -> None:
    game = Game(TRICTRAC)
    from controller.rules import Move

    with pytest.raises(IllegalPlayError):
        game.play(Roll(5, 1), Play((Move(13, 8, 5),)))  # only one die used
    assert game.history == [] and game.position == TRICTRAC.start_position()


def _finish(game: Game, roll: Roll) -> None:
    plays = game.legal_plays(roll)
    game.play(roll, plays[0])


def test_cube_doubles_the_score_and_drop_ends_the_game() -> None:
    position = Position.from_counts({1: 1}, {1: 14}, white_off=14, black_off=1)
    game = Game(BACKGAMMON, position)
    assert game.may_double(WHITE)
    game.cube(WHITE, "double")
    with pytest.raises(IllegalPlayError, match="waiting to be taken"):
        game.play(Roll(2, 1), Play())
    game.cube(BLACK, "take")
    assert game.cube_value == 2 and game.cube_owner is BLACK
    assert not game.may_double(WHITE)
    _finish(game, Roll(2, 1))
    result = game.result()
    assert result is not None and result.winner is WHITE and result.points == 2  # single x cube 2
    dropped = Game(BACKGAMMON, position)
    dropped.cube(WHITE, "double")
    dropped.cube(BLACK, "drop")
    assert dropped.result().points == 1 and dropped.result().winner is WHITE
    assert isinstance(dropped.undo(), CubeAction) and dropped.result() is None


def test_trictrac_has_no_cube() -> None:
    game = Game(TRICTRAC)
    assert not game.may_double(WHITE)
    with pytest.raises(IllegalPlayError):
        game.cube(WHITE, "double")


def test_match_to_three_with_crawford() -> None:
    match = Match(BACKGAMMON, length=3)
    near_win = Position.from_counts({1: 1}, {1: 14}, white_off=14, black_off=1)
    for expected_crawford in (False, False, True):  # Crawford once White reaches 2
        game = match.new_game()
        assert game.cube_allowed is not expected_crawford
        game.position = near_win
        _finish(game, Roll(2, 1))
        match.finish_game()
    assert match.score == {WHITE: 3, BLACK: 0}
    assert match.winner() is WHITE
    with pytest.raises(IllegalPlayError, match="match is over"):
        match.new_game()


def test_match_refuses_scoring_twice() -> None:
    match = Match(TRICTRAC, length=5)
    game = match.new_game()
    game.position = Position.from_counts({1: 1}, {1: 14}, white_off=14, black_off=1)
    _finish(game, Roll(2, 1))
    assert match.finish_game().points == 1
    with pytest.raises(IllegalPlayError):
        match.finish_game()
