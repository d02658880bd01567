"""Backgammon matches with the cube, played by the built-in engine on both sides through the
simulated board (Menu, Done and Takeback pressed as a person would): every double, take and
pass is recorded as made, the score is the truth's, the Crawford game has no cube, and the
record reads back."""

from __future__ import annotations

import pytest

from controller.engine import Engine
from controller.machine import Settings
from controller.records.from_match import match_record
from controller.records.matfile import read_mat, write_mat
from controller.records.replay import replay
from controller.rules import get_rule_set
from controller.rules.game import CubeAction, Match
from controller.rules.values import WHITE
from simulator.engine_player import BuiltinPlayer
from simulator.players import GreedyPlayer
from simulator.table import Table

RULES = get_rule_set("backgammon")


def crawford_games(match: Match) -> list[int]:
    """The games (from 0) that are the Crawford game by the score before each."""
    score = {colour: 0 for colour in match.score}
    found, played = [], False
    for number, result in enumerate(match.results):
        if not played and match.length > 1 and any(points == match.length - 1 for points in score.values()):
            found.append(number)
            played = True
        score[result.winner] += result.points
    return found


@pytest.mark.parametrize(("length", "seed"), [(3, 4), (5, 0), (5, 2)])
def test_engine_matches_record_every_cube_action_as_made(length: int, seed: int) -> None:
    players = (BuiltinPlayer("intermediate"), BuiltinPlayer("intermediate"))
    table = Table(Settings(RULES, match_length=length), seed=seed, players=players)
    report = table.play_match()
    match = table.controller.match
    assert report.mismatches == []
    assert report.cube_actions > 0 and report.cube_actions_recorded_identically == report.cube_actions
    assert match.winner() is not None and match.score == table.cube.match.score
    for number in crawford_games(match):
        game = match.games[number]
        assert not game.cube_allowed and not any(isinstance(item, CubeAction) for item in game.history)
    record = read_mat(write_mat(match_record(match)), source="sim.mat")
    done = replay(record)
    assert done.score == match.score


def test_players_without_a_cube_never_double() -> None:
    table = Table(Settings(RULES, match_length=3), seed=4, players=(GreedyPlayer(), GreedyPlayer()))
    report = table.play_match()
    assert report.mismatches == [] and report.cube_actions == 0
    assert all(game.cube_value == 1 for game in table.controller.match.games)


def test_the_computers_cube_on_the_board_is_followed_and_recorded() -> None:
    """White is the computer on the board (its doubles and answers come from the controller);
    Black, a simulated person with the engine's judgement, answers and doubles by the buttons."""
    settings = Settings(RULES, match_length=5, computer={WHITE: Engine(RULES, "intermediate")})
    players = (BuiltinPlayer("intermediate"), BuiltinPlayer("intermediate"))
    table = Table(settings, seed=1, players=players)
    report = table.play_match()
    match = table.controller.match
    assert report.mismatches == []
    assert report.cube_actions > 0 and report.cube_actions_recorded_identically == report.cube_actions
    doubles = [item.colour for game in match.games for item in game.history
               if isinstance(item, CubeAction) and item.action == "double"]
    assert WHITE in doubles and WHITE.opponent in doubles  # the computer doubled, and was doubled
    assert match.score == table.cube.match.score
