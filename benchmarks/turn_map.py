"""Benchmark: building a turn's ``TurnMap`` (the work of a ROLL event) and recording its play.

Not a test.  Times ``TurnMap(rules, position, roll)`` (CPU time, best of ``--repeat``) on the hand-made
worst cases of ``benchmarks/legal_plays.py`` (doubles over many single checkers, bar and pool
entries, crowded rally tracks), on 1-1 with 15 single checkers, on the pathological trictrac
2-2 positions of ``benchmarks/snapshots.py``, and on positions from random games; and the end
of a turn, ``Game.play`` against ``Game.record`` (the play taken from the map's finals).

    python benchmarks/turn_map.py [--positions N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from controller.rules import Position, Roll, RuleSet, TurnMap, get_rule_set, rule_set_names  # noqa: E402
from controller.rules.game import Game  # noqa: E402
from legal_plays import game_corpus, singles_one_one, worst_cases  # noqa: E402
from snapshots import PATHOLOGICAL, pathological_position  # noqa: E402


def best_ms(call, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.thread_time_ns()
        call()
        best = min(best, time.thread_time_ns() - start)
    return best / 1e6


def cases(rules: RuleSet, positions: int, seed: int) -> dict[str, list[tuple[Position, Roll]]]:
    out = {"worst": worst_cases(rules)}
    if rules.MIRRORED:
        out["worst"].append(singles_one_one())
        out["pathological"] = [(pathological_position(rules, w), Roll(2, 2)) for w in PATHOLOGICAL]
    out["games"] = game_corpus(rules, positions, random.Random(f"{seed}-{rules.name}"))
    return out


def record_ms(rules: RuleSet, position: Position, roll: Roll, repeat: int) -> tuple[float, float]:
    """The end of a turn: ``Game.play`` with the map's play, and ``Game.record`` if there is one."""
    turn = TurnMap(rules, position, roll)
    if turn.passes:
        return 0.0, 0.0
    key = next(iter(turn.plays() and [k for k in turn.states() if turn.is_complete(k)]))
    play = turn.play_to(key)

    def by_play() -> None:
        game = Game(rules, position)
        game.play(roll, play)

    def by_record() -> None:
        game = Game(rules, position)
        game.record(turn, key)

    return best_ms(by_play, repeat), (best_ms(by_record, repeat) if hasattr(Game, "record") else float("nan"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, dict[str, float]] = {}
    for name in rule_set_names():
        rules = get_rule_set(name)
        for kind, corpus in cases(rules, args.positions, args.seed).items():
            times = sorted(best_ms(lambda p=p, r=r: TurnMap(rules, p, r), args.repeat) for p, r in corpus)
            worst = max(corpus, key=lambda c: best_ms(lambda: TurnMap(rules, *c), 1))
            states = len(TurnMap(rules, *worst).states())
            play, record = record_ms(rules, *worst, args.repeat)
            report[f"{name} {kind}"] = {
                "count": len(corpus), "median_ms": statistics.median(times),
                "p99_ms": times[int(0.99 * (len(times) - 1))], "max_ms": times[-1],
                "states": states, "play_ms": play, "record_ms": record,
            }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{'case':28} {'count':>6} {'median':>8} {'p99':>8} {'max':>8} {'states':>7} {'play()':>8} {'record()':>8}")
    for case, r in report.items():
        print(f"{case:28} {r['count']:6d} {r['median_ms']:8.3f} {r['p99_ms']:8.3f} {r['max_ms']:8.3f} "
              f"{r['states']:7d} {r['play_ms']:8.3f} {r['record_ms']:8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
