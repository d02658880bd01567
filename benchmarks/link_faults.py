"""Fault-injection campaign on the serial path (not a test): every fault class of
``simulator.faults.catalogue()`` injected several times over many seeds and all four rule
sets, in lock-step on the virtual clock, plus a real-time batch on a live virtual board
(``simulator/live_faults.py``); prints per fault class how many were injected and survived,
and every failure with the line that reproduces it.

    nice -n 10 python benchmarks/link_faults.py [--repeats 4] [--per-run 5] [--seed 1] [--realtime N] [--json FILE]

A run is one whole match with ``--per-run`` faults about 45 virtual seconds apart; when a run
fails, each of its faults is run again alone on the same seed to name the culprit.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.faults import RULES, Fault, Outcome, catalogue, copy_fault, run_lockstep, spread  # noqa: E402


def lockstep_campaign(repeats: int, per_run: int, seed: int, illegal_rate: float, log) -> tuple[dict, list[dict]]:
    """Run the lock-step campaign; (per class {injected, survived, not_fired}, failures)."""
    rng = random.Random(f"{seed}/campaign")
    pool = [fault for _ in range(repeats) for fault in catalogue()]
    rng.shuffle(pool)
    runs = [pool[i:i + per_run] for i in range(0, len(pool), per_run)]
    figures: dict[str, dict[str, int]] = defaultdict(lambda: {"injected": 0, "survived": 0, "not_fired": 0})
    failures: list[dict] = []
    started = time.monotonic()
    for number, faults in enumerate(runs):
        rules = RULES[number % len(RULES)]
        run_seed = seed * 1000 + number
        outcome = run_lockstep(rules, run_seed, spread(faults, random.Random(run_seed)), illegal_rate=illegal_rate)
        verdicts = {id(f): outcome.survived for f in outcome.faults}
        if not outcome.survived:
            for fault in outcome.faults:
                if fault.fired:
                    solo = run_lockstep(rules, run_seed, [copy_fault(fault, fault.at)], illegal_rate=illegal_rate)
                    verdicts[id(fault)] = solo.survived
                    if not solo.survived:
                        failures.append(_failure(solo))
            if all(verdicts[id(f)] for f in outcome.faults if f.fired):
                failures.append(_failure(outcome, combined=True))
                for fault in outcome.faults:
                    verdicts[id(fault)] = False
        for fault in outcome.faults:
            entry = figures[fault.name]
            if not fault.fired:
                entry["not_fired"] += 1
                continue
            entry["injected"] += 1
            entry["survived"] += verdicts[id(fault)]
        log(f"run {number + 1}/{len(runs)} {rules} seed {run_seed}: {'survived' if outcome.survived else 'FAILED'} "
            f"({outcome.seconds:.1f} s, rethrows {outcome.rethrows}, excused {outcome.excused}) "
            f"[{time.monotonic() - started:.0f} s]")
    return dict(figures), failures


def _failure(outcome: Outcome, combined: bool = False) -> dict:
    return {"reproduce": outcome.reproduce(), "problems": outcome.problems[:5], "combined": combined,
            "faults": [f.describe() for f in outcome.faults]}


def print_table(title: str, figures: dict[str, dict[str, int]]) -> None:
    print(f"\n{title}")
    print(f"{'fault class':44} {'injected':>8} {'survived':>8} {'not fired':>9}")
    total = [0, 0, 0]
    for name in sorted(figures):
        entry = figures[name]
        print(f"{name:44} {entry['injected']:8d} {entry['survived']:8d} {entry['not_fired']:9d}")
        total[0] += entry["injected"]
        total[1] += entry["survived"]
        total[2] += entry["not_fired"]
    print(f"{'total':44} {total[0]:8d} {total[1]:8d} {total[2]:9d}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=4, help="injections of each fault class in lock-step")
    parser.add_argument("--per-run", type=int, default=5, help="faults per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--illegal-rate", type=float, default=0.2)
    parser.add_argument("--realtime", type=int, default=1, help="real-time rounds (0: none)")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    figures, failures = lockstep_campaign(args.repeats, args.per_run, args.seed, args.illegal_rate, log)
    print_table("Lock-step (virtual clock)", figures)
    result = {"lockstep": figures, "lockstep_failures": failures}
    live_figures: dict = {}
    live_failures: list[dict] = []
    if args.realtime:
        from simulator.live_faults import realtime_campaign

        live_figures, live_failures = realtime_campaign(args.realtime, args.seed, log)
        print_table("Real time", live_figures)
        result.update(realtime=live_figures, realtime_failures=live_failures)
    print("\nFailures:" if failures or live_failures else "\nNo failure.")
    for failure in failures + live_failures:
        print(f"  {'(only together) ' if failure.get('combined') else ''}{failure['reproduce']}")
        for problem in failure["problems"]:
            print(f"      {problem}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 1 if failures or live_failures else 0


if __name__ == "__main__":
    sys.exit(main())
