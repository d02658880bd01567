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
    # a few kills land in start-up, most in play once the journal has grown by up to 2 * 12 entries
    result = soak.play_match(tmp_path, rules, seed, length, kills, random.Random(seed), speed=300.0,
                             start_up=soak.start_up_time(), every=12, timeout=90.0)
    assert result.problems == [], result
    assert result.finished and result.kills >= 2 and result.runs == result.kills + 1
    assert result.lost_or_doubled == 0 and result.warnings == 0
    assert result.turns > 20


def test_a_restarted_controller_follows_a_real_time_board_that_played_on(tmp_path: Path) -> None:
    """``trictrac run --port`` on the virtual board (real time, over a pty), stopped and
    started again on its journal while the players go on: each restart takes the board as
    it finds it, so every play the players made is journalled, as they made it, unwarned."""
    import io
    import json
    import time

    from controller.cli import main
    from controller.notation.position_json import position_to_json
    from controller.rules import get_rule_set
    from simulator.virtual_device import serve

    path, board = serve("trictrac", 6, players="greedy", speed=4.0, log=lambda line: None)
    journal = tmp_path / "journal.jsonl"
    texts = []
    try:
        for seconds, down in ((3, 2.5), (3, 2.5), (5, 0.0)):
            out = io.StringIO()
            assert main(["run", "--port", path, "--seconds", str(seconds), "--journal", str(journal)], out=out) == 0
            texts.append(out.getvalue())
            time.sleep(down)  # the controller is down; the players go on
    finally:
        board.stop()
    assert all("Resuming" in text for text in texts[1:])
    assert not any("WARNING" in text for text in texts), texts
    entries = [json.loads(line) for line in journal.read_text().splitlines()]
    turns = [e for e in entries if e["type"] == "turn"]
    made = board.table.truth[0].turns()
    rules = get_rule_set("trictrac")
    assert len(turns) >= 4 and len(made) - len(turns) <= 1  # at most the play under way at the end
    for entry, record in zip(turns, made):
        assert entry["colour"] == record.colour.value and sorted(entry["roll"]) == sorted(record.roll.dice[:2])
        assert entry["after"] == position_to_json(rules, record.after)
