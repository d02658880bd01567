"""Benchmark: a person against the computer on the simulated board, swept.

Every rule set, the computer (the built-in engine) on either side, a simulated person on
the other (random plays) and the simulated person carrying the computer's plays from the
lights (``simulator/follower.py``); at ``--illegal`` rate a turn has a wrong move (for the
computer's side: a legal move off its play) that the board must warn.  Prints per cell the
plays made and recorded identically, the wrong moves and the warnings for them, the false
warnings and the mismatches; exits 1 if any cell fails.

    python benchmarks/computer_soak.py [--seed 100] [--seeds 8] [--link direct|serial]
                                       [--hands plain|real] [--noise 0] [--speed 1] [--illegal 0.5]
                                       [--level intermediate]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.engine import Engine  # noqa: E402
from controller.machine import Settings  # noqa: E402
from controller.rules import Colour, get_rule_set, rule_set_names  # noqa: E402
from simulator.players import GreedyPlayer, RandomPlayer  # noqa: E402
from simulator.table import simulate  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--link", choices=("direct", "serial"), default="direct")
    parser.add_argument("--hands", choices=("plain", "real"), default="plain")
    parser.add_argument("--noise", type=float, default=0.0)
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--illegal", type=float, default=0.5)
    parser.add_argument("--level", default="intermediate")
    args = parser.parse_args()
    failing = 0
    for name in rule_set_names():
        rules = get_rule_set(name)
        engine = Engine(rules, args.level)
        for computer in (Colour.WHITE, Colour.BLACK):
            start = time.monotonic()
            report = simulate(Settings(rules, computer={computer: engine}), args.seeds, seed=args.seed,
                              noise=args.noise, illegal_rate=args.illegal, link=args.link, hands=args.hands,
                              speed=args.speed, players=lambda: (RandomPlayer(), GreedyPlayer()))
            bad = (report.mismatches or report.false_warnings or report.finished != report.games
                   or report.attempts_warned != report.illegal_attempts)
            failing += bool(bad)
            print(f"{name:14s} computer {computer.value:5s} games {report.games} finished {report.finished} "
                  f"plays {report.plays_made} identical {report.plays_recorded_identically} "
                  f"wrong moves {report.illegal_attempts} warned {report.attempts_warned} "
                  f"false warnings {len(report.false_warnings)} mismatches {len(report.mismatches)} "
                  f"{'FAIL ' + str(report.mismatches[:1]) if bad else 'ok'} ({time.monotonic() - start:.0f} s)", flush=True)
    print(f"{failing} failing cells of {2 * len(rule_set_names())}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
