"""``trictrac run`` killed with SIGKILL at random moments and restarted on the same journal
finishes its match with a legal, complete record: no turn lost or doubled, no warning.

Real processes, the loop of ``benchmarks/kill_soak.py`` (which does 100 kills); here a
handful per match, seeded."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _kill_soak():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("kill_soak", ROOT / "benchmarks" / "kill_soak.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("kill_soak", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("rules", "seed", "length", "kills"), [("trictrac", 3, 1, 5), ("rally-hitting", 4, 1, 4)])
def test_kill_and_restart_finishes_the_match(tmp_path: Path, rules: str, seed: int, length: int, kills: int) -> None:
    soak = _kill_soak()
    start_up = soak.start_up_time()
    # kills spread over about a second of play each: a few land in start-up, most in play
    result = soak.play_match(tmp_path, rules, seed, length, kills, random.Random(seed), speed=300.0,
                             start_up=start_up, run_time=start_up + 0.3 * kills, timeout=90.0)
    assert result.problems == [], result
    assert result.finished and result.kills >= 2 and result.runs == result.kills + 1
    assert result.lost_or_doubled == 0 and result.warnings == 0
    assert result.turns > 20
