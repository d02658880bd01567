"""Benchmark: legal-play generation on a fixed, seeded corpus of positions per rule set.

Not a test: it prints positions per second and the median and maximum time per position,
for a mix with 40 % doubles taken from random legal games and for hand-made worst cases
(doubles over many points, bar entries, crowded rally tracks).  Targets on a 2-core
machine with CPython: median <= 0.2 ms, slowest <= 5 ms, >= 1,000 positions/s; and
``legal_results`` (every play keyed by the position it leaves) no slower than 2x
``legal_plays``, on the worst cases and on 1-1 with 15 single checkers.

    python benchmarks/legal_plays.py [--positions N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.rules import BLACK, Play, Position, Roll, RuleSet, get_rule_set, rule_set_names  # noqa: E402
from controller.rules.game import Game  # noqa: E402

DOUBLES_SHARE = 0.4
TARGET_MEDIAN_MS = 0.2
TARGET_MAX_MS = 5.0
TARGET_RATE = 1000.0
TARGET_RESULTS_RATIO = 2.0


def _roll(rng: random.Random) -> Roll:
    if rng.random() < DOUBLES_SHARE:
        die = rng.randint(1, 6)
        return Roll(die, die)
    first = rng.randint(1, 6)
    second = rng.choice([d for d in range(1, 7) if d != first])
    return Roll(first, second)


def game_corpus(rules: RuleSet, count: int, rng: random.Random) -> list[tuple[Position, Roll]]:
    """Positions met in random legal games, each with a roll from the 40 %-doubles mix."""
    corpus: list[tuple[Position, Roll]] = []
    while len(corpus) < count:
        game = Game(rules)
        if rng.random() < 0.5:
            game.position = game.position.with_turn(BLACK)
        while not game.is_over and len(corpus) < count:
            corpus.append((game.position, _roll(rng)))
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
            plays = game.legal_plays(roll)
            game.play(roll, rng.choice(plays) if plays else Play())
    return corpus


def worst_cases(rules: RuleSet) -> list[tuple[Position, Roll]]:
    """Hand-made hard positions: many single checkers with doubles, bar entries, crowded tracks."""
    cases: list[tuple[Position, Roll]] = []
    doubles = [Roll(d, d) for d in range(1, 7)]
    if rules.MIRRORED:
        # White spread one or two a point over 1-12 and 19-21; Black on its own 1-6 (White's 19-24)
        spread = Position.from_counts(
            {p: 1 for p in range(1, 13)} | {13: 1, 14: 1, 15: 1},
            {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2},
        )
        wide = Position.from_counts({p: 1 for p in range(4, 19)}, {1: 5, 2: 5, 3: 5})
        barred = Position.from_counts({8: 5, 6: 5, 13: 2}, {24: 2, 13: 5, 6: 5, 8: 3}, white_bar=3)
        cases += [(spread, r) for r in doubles] + [(wide, r) for r in doubles]
        cases += [(barred, r) for r in doubles + [Roll(6, 5), Roll(2, 1)]]
    else:
        # both players crowded over the track, a few still in the pool
        white = {p: 1 for p in (24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2)}
        black = {p: 1 for p in (23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1)}
        crowded = Position.from_counts(white, black, white_bar=3, black_bar=3)
        spread = Position.from_counts({p: 1 for p in range(5, 19)}, {p: 3 for p in range(1, 5)}, white_bar=1, black_off=3)
        for position in (crowded, spread):
            cases += [(position, r) for r in doubles + [Roll(6, 5), Roll(4, 2)]]
    return [(rules.validate(p), r) for p, r in cases]


def singles_one_one() -> tuple[Position, Roll]:
    """1-1 with 15 single checkers (White on 4-18, Black stacked on its 1-3): 1,653 plays."""
    return Position.from_counts({p: 1 for p in range(4, 19)}, {1: 5, 2: 5, 3: 5}), Roll(1, 1)


def best_time(call: Callable[[Position, Roll], object], position: Position, roll: Roll, repeat: int) -> float:
    """The best of ``repeat`` timings of one call, in milliseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call(position, roll)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def results_ratio(rules: RuleSet, corpus: list[tuple[Position, Roll]], repeat: int = 5) -> float:
    """Total time of ``legal_results`` over total time of ``legal_plays`` on ``corpus``."""
    plays = results = 0.0
    for position, roll in corpus:  # both timed together, so a busy moment hits both
        best_plays = best_results = float("inf")
        for _ in range(repeat):
            best_plays = min(best_plays, best_time(rules.legal_plays, position, roll, 1))
            best_results = min(best_results, best_time(rules.legal_results, position, roll, 1))
        plays += best_plays
        results += best_results
    return results / plays


def measure(rules: RuleSet, corpus: list[tuple[Position, Roll]], repeat: int = 3) -> dict[str, float]:
    """Time ``legal_plays`` per position (best of ``repeat``), in milliseconds."""
    times = [best_time(rules.legal_plays, position, roll, repeat) for position, roll in corpus]
    total = 0.0
    start = time.perf_counter()
    for position, roll in corpus:
        rules.legal_plays(position, roll)
    total = time.perf_counter() - start
    return {
        "positions": len(corpus),
        "per_second": len(corpus) / total,
        "median_ms": statistics.median(times),
        "p99_ms": sorted(times)[int(0.99 * (len(times) - 1))],
        "max_ms": max(times),
    }


def main() -> int:
    """Run every rule set over its corpus and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000, help="positions from games per rule set")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, dict[str, dict[str, float]]] = {}
    for name in rule_set_names():
        rules = get_rule_set(name)
        rng = random.Random(f"{args.seed}-{name}")
        report[name] = {
            "games mix": measure(rules, game_corpus(rules, args.positions, rng)),
            "worst cases": measure(rules, worst_cases(rules)) | {
                "results_ratio": results_ratio(rules, worst_cases(rules)),
            },
        }
    trictrac = get_rule_set("trictrac")
    singles = results_ratio(trictrac, [singles_one_one()], repeat=20)
    if args.json:
        report["legal_results"] = {"1-1 15 singles": {"results_ratio": singles}}
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'rule set':14} {'corpus':12} {'positions':>9} {'pos/s':>9} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for name, parts in report.items():
        for corpus, row in parts.items():
            print(
                f"{name:14} {corpus:12} {row['positions']:9.0f} {row['per_second']:9.0f} "
                f"{row['median_ms']:10.3f} {row['p99_ms']:8.3f} {row['max_ms']:8.3f}"
            )
    mixes = [parts["games mix"] for parts in report.values()]
    slowest = max(row["max_ms"] for parts in report.values() for row in parts.values())
    print(
        f"targets: median <= {TARGET_MEDIAN_MS} ms: worst median {max(m['median_ms'] for m in mixes):.3f}; "
        f"max <= {TARGET_MAX_MS} ms: {slowest:.3f}; >= {TARGET_RATE:.0f} pos/s: "
        f"lowest {min(m['per_second'] for m in mixes):.0f}"
    )
    worst_ratio = max(parts["worst cases"]["results_ratio"] for parts in report.values())
    print(
        f"legal_results / legal_plays <= {TARGET_RESULTS_RATIO}: worst cases {worst_ratio:.2f} (worst rule set), "
        f"1-1 with 15 single checkers {singles:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
