"""Quick strength check of one engine weights file (shipped or a candidate) against a simple player.

Same games as ``strength.py`` (seeds ``{seed}:{rules}:{opponent}:{n}``, seats alternating),
but the weights may come from any ``.npz`` (``--weights``), so a candidate can be measured
before it replaces the shipped file.  Prints the win rate with its 95 % Wilson interval and
the decision time (wall, median and p99).

    OMP_NUM_THREADS=1 python benchmarks/strength_quick.py --rules rally-hitting --games 200 \
        [--level best] [--opponent greedy] [--weights candidate.npz] [--first 0]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from controller.engine import ENGINE_LEVELS, Engine  # noqa: E402
from controller.engine.weights import from_arrays, shipped  # noqa: E402
from controller.rules import get_rule_set, rule_set_names  # noqa: E402
from simulator.engine_player import strategy  # noqa: E402
from simulator.players import FairDice  # noqa: E402
from strength import play_game, wilson  # noqa: E402  (the same games and interval as strength.py)


class Candidate(FairDice):
    """The engine with the weights under test, as a player."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def choose(self, rules, position, roll, plays, rng):  # noqa: ANN001, ANN201
        return self.engine.choose(position, roll, plays, rng)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="rally-hitting", choices=rule_set_names())
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="first game number (to split a run)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="best", choices=ENGINE_LEVELS)
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--weights", type=Path)
    parser.add_argument("--candidates", type=int, help="override engine.TWO_PLY_CANDIDATES (an experiment)")
    parser.add_argument("--boards", type=int, help="override engine.TWO_PLY_BOARDS (an experiment)")
    parser.add_argument("--margin", type=float, help="override engine.TWO_PLY_MARGIN (an experiment)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from controller.engine import engine as engine_module
    if args.candidates:
        engine_module.TWO_PLY_CANDIDATES = args.candidates
    if args.boards:
        engine_module.TWO_PLY_BOARDS = args.boards
    if args.margin is not None:
        engine_module.TWO_PLY_MARGIN = args.margin
    rules = get_rule_set(args.rules)
    if args.weights:
        with np.load(args.weights, allow_pickle=False) as data:
            net, meta = from_arrays(data)
    else:
        net, meta = shipped(args.rules)
    engine = Candidate(Engine(rules, args.level, net))
    wins, turns, times, cpu = 0, [], [], []
    started = time.process_time()
    for n in range(args.first, args.first + args.games):
        rng = random.Random(f"{args.seed}:{rules.name}:{args.opponent}:{n}")
        other = strategy(args.opponent)
        seats = (engine, other) if n % 2 == 0 else (other, engine)
        wins += play_game(rules, seats, rng, n % 2, times, cpu, turns=turns) > 0
    low, high = wilson(wins, args.games)
    times.sort()
    row = {"rules": args.rules, "level": args.level, "opponent": args.opponent, "games": args.games,
           "first": args.first, "wins": wins, "win_rate": round(wins / args.games, 4),
           "ci95": [round(low, 4), round(high, 4)], "weights_games": meta.get("games"),
           "decision_ms_median": round(1000 * statistics.median(times), 2),
           "decision_ms_p99": round(1000 * times[int(0.99 * (len(times) - 1))], 2),
           "turns_per_game": round(sum(turns) / args.games, 1), "cpu_s": round(time.process_time() - started, 1)}
    if args.json:
        print(json.dumps(row))
    else:
        print(f"{args.rules} builtin:{args.level} ({args.weights or 'shipped'}, {meta.get('games')} games) vs "
              f"{args.opponent}: {wins}/{args.games} = {100 * wins / args.games:.1f}% [{100 * low:.1f}, {100 * high:.1f}]  "
              f"decision median {row['decision_ms_median']} ms p99 {row['decision_ms_p99']} ms  "
              f"{row['turns_per_game']} turns/game  {row['cpu_s']} s CPU", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
