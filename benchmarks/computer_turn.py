"""Benchmark: what the computer's roll costs the controller on the board.

When the computer's roll arrives the controller asks the engine for its play and lays it
over the turn's legal boards (``controller.opponent.plan``), inside that one event.  This
plays games between two engines on the rules engine and times, per roll, the engine's
choice and the plan, in CPU time (median, p99, max), per rule set and engine level.

    python benchmarks/computer_turn.py [--games 4] [--levels intermediate best] [--json]
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

from controller.engine import Engine  # noqa: E402
from controller.opponent import plan  # noqa: E402
from controller.rules import Roll, get_rule_set, rule_set_names  # noqa: E402
from controller.rules.game import Game  # noqa: E402
from controller.rules.turn import TurnMap  # noqa: E402


def figures(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median_ms": round(statistics.median(ordered), 3), "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))], 3),
            "max_ms": round(ordered[-1], 3), "rolls": len(ordered)}


def measure(rules_name: str, level: str, games: int, seed: int) -> dict[str, object]:
    rules = get_rule_set(rules_name)
    engine = Engine(rules, level)
    rng = random.Random(seed)
    choose_ms: list[float] = []
    plan_ms: list[float] = []
    for _ in range(games):
        game = Game(rules, cube_allowed=False)
        while game.opening is None:
            game.throw_opening(rng.randint(1, 6), rng.randint(1, 6))
        while not game.is_over:
            roll = game.pending_roll or Roll(rng.randint(1, 6), rng.randint(1, 6))
            turn_map = TurnMap(rules, game.position, roll)
            start = time.thread_time_ns()
            play = engine.choose(game.position, roll)
            middle = time.thread_time_ns()
            if not turn_map.passes:
                plan(turn_map, play)
            end = time.thread_time_ns()
            choose_ms.append((middle - start) / 1e6)
            plan_ms.append((end - middle) / 1e6)
            game.play(roll, play)
    return {"rules": rules_name, "level": level, "choose": figures(choose_ms), "plan": figures(plan_ms)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", nargs="+", default=["intermediate", "best"])
    parser.add_argument("--rules", nargs="+", default=list(rule_set_names()))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for rules_name in args.rules:
        for level in args.levels:
            found = measure(rules_name, level, args.games, args.seed)
            if args.json:
                print(json.dumps(found))
            else:
                c, p = found["choose"], found["plan"]
                print(f"{rules_name:14s} {level:12s} choose median {c['median_ms']:7.2f} p99 {c['p99_ms']:7.2f} "
                      f"max {c['max_ms']:7.2f} ms | plan median {p['median_ms']:5.2f} p99 {p['p99_ms']:5.2f} "
                      f"max {p['max_ms']:6.2f} ms ({c['rolls']} rolls)")


if __name__ == "__main__":
    main()
