"""Scripted players replay a recorded game physically through the board and the controller,
and the controller's own record comes out identical."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.machine import Settings
from controller.records.from_match import match_record
from controller.records.matfile import read_mat, write_mat
from controller.rules import get_rule_set
from simulator.players import Behaviour, scripted_pair
from simulator.sensors import NoiseModel
from simulator.table import Table, simulate


@pytest.mark.parametrize("name", ["trictrac", "backgammon", "rally", "rally-hitting"])
def test_a_recorded_game_replays_move_for_move(name: str, tmp_path: Path) -> None:
    settings = Settings(get_rule_set(name))
    simulate(settings, 1, seed=5, records=tmp_path)
    source = read_mat(next(tmp_path.glob("*.mat")).read_text())
    white, black = scripted_pair(source)
    table = Table(settings, seed=99, noise=NoiseModel.scaled(0.5), behaviour=Behaviour(illegal_rate=0.2),
                  players=(white, black))
    report = table.play_match()
    again = match_record(table.controller.match)
    assert again.games[0].turns == source.games[0].turns
    assert (again.games[0].winner, again.games[0].points) == (source.games[0].winner, source.games[0].points)
    assert report.false_warnings == [] and report.attempts_warned == report.illegal_attempts
    assert write_mat(again) == write_mat(source)


def test_careless_hands_push_one_habit_over_real_hands() -> None:
    """``Behaviour.careless``: a named habit set on top of ``real_hands``, changes last; an
    unknown name is a clear error."""
    from simulator.players import HABITS, Behaviour

    real = Behaviour.real_hands(speed=5.0)
    assert Behaviour.careless("real", speed=5.0) == real
    lifts = Behaviour.careless("lifts", speed=5.0, slide_rate=0.1)
    assert lifts.two_at_once_rate == HABITS["lifts"]["two_at_once_rate"] > real.two_at_once_rate
    assert lifts.slide_rate == 0.1 and lifts.speed == 5.0 and lifts.early_throw_rate == real.early_throw_rate
    with pytest.raises(ValueError, match="hand habits are one of"):
        Behaviour.careless("sloppy")
