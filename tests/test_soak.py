"""Soak: tens of whole games per rule set through the simulator and the full controller,
with sensor noise and illegal attempts; every record exact, every attempt warned, no
false warning, and every written record replays."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.machine import Settings
from controller.records.matfile import read_mat
from controller.records.replay import replay
from controller.rules import get_rule_set
from simulator.table import simulate

GAMES = 10


@pytest.mark.parametrize("name", ["trictrac", "backgammon", "rally", "rally-hitting"])
def test_soak(name: str, tmp_path: Path) -> None:
    settings = Settings(get_rule_set(name), quarter="VII-XII" if name.startswith("rally") else None)
    report = simulate(settings, GAMES, seed=11, noise=0.5, illegal_rate=0.2, records=tmp_path)
    assert report.games == report.finished == GAMES
    assert report.mismatches == []
    assert report.plays_made > 40 * GAMES
    assert report.plays_recorded_identically == report.plays_made
    assert report.illegal_attempts > GAMES
    assert report.attempts_warned == report.illegal_attempts
    assert report.false_warnings == []
    records = sorted(tmp_path.glob("*.mat"))
    assert len(records) == GAMES
    for path in records:
        done = replay(read_mat(path.read_text(), source=str(path)))
        assert done.games[0].result is not None
