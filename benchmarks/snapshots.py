"""Benchmark: the controller's CPU time per snapshot, from its arrival to the new light frame.

Not a test.  Plays a fixed set of simulated games per rule set (seeded, with sensor noise
and illegal attempts) through the full controller and the runner, timing every snapshot
event (``Controller.handle`` plus ``BoardRunner.apply``: journal, lights, sounds), and,
separately, every roll (where the turn's legal states are computed).
Target on a 2-core machine: p99 <= 1 ms per snapshot.

The simulator keeps every light frame and timing it made, so Python's cyclic garbage
collector pauses grow during a long run and show up as the maximum (tens of ms) though
not in the p99; ``--no-gc`` turns the collector off to show the controller's own worst
case.  The controller on the Pi keeps no such history.

    python benchmarks/snapshots.py [--games N] [--seed S] [--no-gc] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.machine import Settings  # noqa: E402
from controller.rules import get_rule_set, rule_set_names  # noqa: E402
from simulator.players import Behaviour  # noqa: E402
from simulator.sensors import NoiseModel  # noqa: E402
from simulator.table import Table, TableReport, timing  # noqa: E402

TARGET_P99_MS = 1.0


def measure(name: str, games: int, seed: int) -> dict[str, dict[str, float]]:
    """Time every snapshot and every roll over ``games`` simulated games of ``name``."""
    report = TableReport()
    for n in range(games):
        table = Table(
            Settings(get_rule_set(name)),
            seed=seed * 1000 + n,
            noise=NoiseModel.scaled(0.5),
            behaviour=Behaviour(illegal_rate=0.2),
        )
        report.merge(table.play_match())
    out = {"snapshots": {"count": report.snapshots, **timing(report.snapshot_ns)},
           "rolls": {"count": len(report.roll_ns), **timing(report.roll_ns)}}
    for kind, times in sorted(report.snapshot_kinds.items()):
        out[f"snapshot: {kind}"] = {"count": len(times), **timing(times)}
    return out


def main() -> int:
    """Print the figures per rule set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-gc", action="store_true", help="turn off the cyclic garbage collector")
    args = parser.parse_args()
    if args.no_gc:
        gc.disable()
    report = {name: measure(name, args.games, args.seed) for name in rule_set_names()}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'rule set':14} {'events':24} {'count':>7} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for name, parts in report.items():
        for label, row in parts.items():
            print(f"{name:14} {label:24} {row['count']:7.0f} {row['median_ms']:10.3f} {row['p99_ms']:8.3f} {row['max_ms']:8.3f}")
    worst = max(parts["snapshots"]["p99_ms"] for parts in report.values())
    print(f"target: p99 per snapshot <= {TARGET_P99_MS} ms; worst rule set p99 {worst:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
