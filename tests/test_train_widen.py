"""``benchmarks/train_engine.py --widen``: hidden units added to trained engine weights leave
the network computing exactly what it did, and the weights' record says when it was widened."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import numpy as np

from controller.engine.encoding import encode, swap
from controller.engine.weights import from_arrays
from controller.rules import Roll, get_rule_set

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "controller" / "engine" / "weights" / "rally-hitting.npz"


def _train_engine():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_engine", ROOT / "benchmarks" / "train_engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("train_engine", module)
    spec.loader.exec_module(module)
    return module


def _boards(name: str, count: int) -> list[int]:
    """Boards of a random game of ``name`` (each seen by the side that has just moved)."""
    rules, rng = get_rule_set(name), random.Random(5)
    key, boards = rules.board_key(rules.start_position()), []
    while len(boards) < count:
        _, plays = rules.final_plays(key, Roll(rng.randint(1, 6), rng.randint(1, 6)))
        end = rng.choice(list(plays)) if plays else key
        boards.append(end)
        key = swap(end, rules.MIRRORED)
    return boards


def _load(path: Path):  # type: ignore[no-untyped-def]
    with np.load(path, allow_pickle=False) as data:
        return from_arrays(data)


def test_widening_the_engine_network_keeps_its_outputs_and_is_recorded(tmp_path: Path) -> None:
    source, out = tmp_path / "source.npz", tmp_path / "wide.npz"
    source.write_bytes(SHIPPED.read_bytes())
    net, meta = _load(source)
    hidden = net.shape[1]
    assert _train_engine().main(["--rules", "rally-hitting", "--from", str(source), "--out", str(out),
                                 "--widen", str(hidden + 20), "--games", str(meta["games"])]) == 0
    wide, record = _load(out)
    assert wide.shape == (net.shape[0], hidden + 20, net.shape[2])
    assert (wide.w1[:, hidden:] != 0).any() and not wide.w2[hidden:].any()  # new units, silent at first
    x = encode(_boards("rally-hitting", 60), False, "rally-hitting")
    np.testing.assert_allclose(wide.forward(x), net.forward(x), rtol=0, atol=1e-6)
    # the record carried on, the widening in its settings (and the same beside it as JSON)
    assert record["games"] == meta["games"] and record["cpu_seconds"] == meta["cpu_seconds"]
    assert record["settings"]["hidden"] == hidden + 20
    assert record["settings"]["hidden_from_game"] == [[0, hidden], [meta["games"], hidden + 20]]
    assert json.loads(out.with_suffix(".json").read_text())["settings"] == record["settings"]


def test_widening_with_other_output_weights_would_change_the_engine_outputs() -> None:
    # the check above can fail: the same boards tell a widened net whose new units speak
    net, _ = _load(SHIPPED)
    wide = _train_engine().widen(net, net.shape[1] + 20, np.random.default_rng(1))
    wide.w2[net.shape[1]:] = 0.05
    x = encode(_boards("rally-hitting", 60), False, "rally-hitting")
    assert np.abs(wide.forward(x) - net.forward(x)).max() > 1e-3
