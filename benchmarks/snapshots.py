"""Benchmark: the controller's CPU time per event, from its arrival to the new light frame.

Not a test.  Plays a fixed set of simulated games per rule set through ``trictrac
simulate``'s own code (seeded, with sensor noise and illegal attempts; the full controller
and the runner), timing every snapshot (``Controller.handle`` plus ``BoardRunner.apply``:
journal, lights, sounds) by kind of verdict, and every roll (where the turn's legal states
are computed).  The time is the thread's CPU time, so other processes on a busy machine do
not count, but the garbage collector does: it runs as the process runs it (on, frozen
after start-up as ``trictrac simulate`` freezes it; ``--no-gc`` turns it off to compare).
The work the pump does while no event waits (``controller.idle``, as the runner's loop on
a real board: the young garbage collected, the next turn's maps built before the roll) is
not timed: no event waits on it.

A pathological section times ``Tracker.judge`` alone on readings no game is likely to
show: trictrac 2-2 turns with 750-1,000 legal states, 3 to 8 of the mover's checkers in
hand and 2 to 8 mixed points (a mover's checker standing with an opposing blot).

Targets on a 2-core machine: p99 <= 0.5 ms and max <= 5 ms for every kind of event.

    python benchmarks/snapshots.py [--games N] [--seed S] [--no-gc] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.collector import collect_young, settle_after_startup  # noqa: E402
from controller.machine import Settings  # noqa: E402
from controller.rules import BLACK, WHITE, Position, Roll, RuleSet, TurnMap, get_rule_set, rule_set_names  # noqa: E402
from controller.tracking import BoardReader, BoardReading, Tracker  # noqa: E402
from hal.interfaces import BoardSnapshot, ZoneReading  # noqa: E402
from simulator.table import simulate, timing  # noqa: E402

TARGET_P99_MS = 0.5
TARGET_MAX_MS = 5.0
NOISE = 0.5
ILLEGAL_RATE = 0.2

BLOTS = (18, 16, 14, 12, 10, 7, 4, 3)
"""White's points holding a single Black checker in the pathological positions."""
PATHOLOGICAL = (
    {24: 2, 22: 1, 20: 1, 19: 1, 17: 1, 15: 2, 13: 3, 11: 1, 8: 2, 6: 1},
    {22: 1, 21: 1, 20: 1, 19: 1, 17: 1, 15: 1, 13: 3, 11: 1, 9: 1, 8: 2, 6: 2},
    {24: 2, 22: 1, 20: 1, 19: 1, 17: 1, 15: 1, 13: 2, 11: 1, 9: 1, 8: 2, 6: 2},
)
"""White's checkers (own points) of the pathological positions: 760, 950 and 1,002 legal
states with 2-2 against Black's eight blots on ``BLOTS`` and seven checkers at home."""


def measure(name: str, games: int, seed: int) -> dict[str, dict[str, float]]:
    """Time every snapshot and every roll over ``games`` simulated games of ``name``."""
    report = simulate(Settings(get_rule_set(name)), games, seed=seed, noise=NOISE, illegal_rate=ILLEGAL_RATE,
                      ahead=True)  # the next turn's maps built between events, as on a real board
    out = {"snapshots": {"count": report.snapshots, **timing(report.snapshot_ns)},
           "rolls": {"count": len(report.roll_ns), **timing(report.roll_ns)}}
    for kind, times in sorted(report.snapshot_kinds.items()):
        out[f"snapshot: {kind}"] = {"count": len(times), **timing(times)}
    return out


def pathological_position(rules: RuleSet, white: dict[int, int]) -> Position:
    """White to move against Black's blots on ``BLOTS`` and the rest of Black at home."""
    black = {rules.opponent_point(p): 1 for p in BLOTS} | {24: 4, 23: 3}
    return rules.validate(Position.from_counts(white, black, turn=WHITE))


def pathological_readings(rules: RuleSet, position: Position, rng: random.Random, draws: int) -> list[BoardReading]:
    """Readings of ``position`` with 3-8 White checkers in hand and 2, 4, 6 or 8 White
    checkers moved onto Black's blots (each left standing there: a mixed point)."""
    reader = BoardReader(rules, rules.geometry())
    readings = []
    for held in range(3, 9):
        for mixed in (2, 4, 6, 8):
            if held + mixed > 15:
                continue  # every White checker would be in hand or on a blot
            for _ in range(draws):
                white = list(position.white)
                targets = rng.sample(BLOTS, mixed)
                for target in targets:
                    above = [p for p in range(target + 1, 25) if white[p] and p not in targets]
                    source = rng.choice(above or [p for p in range(1, 25) if white[p] and p not in targets])
                    white[source] -= 1
                    white[target] += 1
                for _ in range(held):
                    source = rng.choice([p for p in range(1, 25) if white[p] and p not in targets])
                    white[source] -= 1
                zones: dict[str, list[int]] = {}
                for colour, side in ((WHITE, white), (BLACK, position.black)):
                    for point in range(26):
                        if side[point]:
                            counts = zones.setdefault(reader.zone_of(colour, point), [0, 0])
                            counts[0 if colour is WHITE else 1] += side[point]
                snapshot = BoardSnapshot.from_zones({z: ZoneReading(w, b) for z, (w, b) in zones.items()})
                readings.append(reader.read(snapshot))
    return readings


def measure_pathological(seed: int, draws: int = 6) -> dict[str, dict[str, float]]:
    """Time ``Tracker.judge`` on the pathological readings (a fresh turn per position, so the
    first reading also builds the turn's index, as the first odd snapshot of a turn does)."""
    rules = get_rule_set("trictrac")
    rng = random.Random(seed)
    times: list[int] = []
    kinds: dict[str, int] = {}
    states = []
    for white in PATHOLOGICAL:
        position = pathological_position(rules, white)
        readings = pathological_readings(rules, position, rng, draws)
        turn_map = TurnMap(rules, position, Roll(2, 2))
        states.append(len(turn_map.states()))
        tracker = Tracker(turn_map)
        for reading in readings:
            collect_young()  # untimed, as the runner's loop does between events (controller.idle)
            start = time.thread_time_ns()
            verdict = tracker.judge(reading, turn_map.start)
            times.append(time.thread_time_ns() - start)
            kinds[verdict.kind.value] = kinds.get(verdict.kind.value, 0) + 1
    return {"Tracker.judge": {"count": len(times), **timing(times),
                              "legal_states": float(max(states)), **{f"verdict {k}": float(v) for k, v in kinds.items()}}}


def _row(name: str, label: str, row: dict[str, float]) -> str:
    over = [what for what, value, target in (("p99", row["p99_ms"], TARGET_P99_MS), ("max", row["max_ms"], TARGET_MAX_MS))
            if value > target]
    return (f"{name:14} {label:24} {row['count']:7.0f} {row['median_ms']:10.3f} {row['p99_ms']:8.3f} "
            f"{row['max_ms']:8.3f}  {'OVER ' + ', '.join(over) if over else 'ok'}")


def main() -> int:
    """Print the figures per rule set and event kind, then the pathological section."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-gc", action="store_true", help="turn off the cyclic garbage collector")
    args = parser.parse_args()
    if args.no_gc:
        gc.disable()
    settle_after_startup()  # as trictrac simulate does before its first game
    report = {name: measure(name, args.games, args.seed) for name in rule_set_names()}
    report["pathological"] = measure_pathological(args.seed)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'rule set':14} {'events':24} {'count':>7} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for name, parts in report.items():
        for label, row in parts.items():
            print(_row(name, label, row))
    judged = report["pathological"]["Tracker.judge"]
    print("pathological: " + ", ".join(f"{k[8:]} {v:.0f}" for k, v in judged.items() if k.startswith("verdict "))
          + f"; up to {judged['legal_states']:.0f} legal states")
    rows = [row for parts in report.values() for row in parts.values()]
    worst_p99 = max(row["p99_ms"] for row in rows)
    worst_max = max(row["max_ms"] for row in rows)
    print(f"targets: p99 <= {TARGET_P99_MS} ms (worst {worst_p99:.3f}), max <= {TARGET_MAX_MS} ms (worst {worst_max:.3f}), "
          f"per kind of event, collector {'off' if args.no_gc else 'on'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
