"""Train the built-in engine's network for one rule set by TD(lambda) self-play (numpy only).

Seeded and resumable: game ``g`` is played with ``random.Random(f"{seed}:{g}")``, and the
weights are saved every ``--save-every`` games to ``controller/engine/weights/<rules>.npz``
with the seed, the settings, the games played and the CPU time spent recorded inside (and
beside it as ``<rules>.json``).  Run again with the same output to continue.

    nice -n 10 python benchmarks/train_engine.py --rules trictrac --games 20000 [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.engine.encoding import INPUTS, encode_fields, fields, inputs, outputs, swap  # noqa: E402
from controller.engine.network import Network, TDLearner  # noqa: E402
from controller.engine.outcome import equity_weights, target, win_points  # noqa: E402
from controller.engine.weights import arrays, from_arrays  # noqa: E402
from controller.rules import CHECKERS, Roll, RuleSet, get_rule_set, rule_set_names  # noqa: E402
from controller.rules import state as st  # noqa: E402

WEIGHTS = Path(__file__).resolve().parent.parent / "controller" / "engine" / "weights"
MAX_TURNS = 3000


def play_game(rules: RuleSet, net: Network, learners: list[TDLearner], rng: random.Random) -> int:
    """One self-play game, learning as it goes; returns the number of turns."""
    mirrored, name = rules.MIRRORED, rules.name
    weights = equity_weights(rules)
    encoding = name if net.shape[0] != INPUTS else None  # the rule set's own extra inputs
    key = rules.board_key(rules.start_position())
    for learner in learners:
        learner.reset()
    me = 0
    roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
    while rules.START_QUARTER is None and roll.is_double:  # trictrac's opening roll has two dice
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
    for turn in range(MAX_TURNS):
        _, plays = rules.final_plays(key, roll)
        ends = list(plays) if plays else [key]
        f = fields(ends)
        x = encode_fields(f, mirrored, encoding)
        probs = net.forward(x)
        finished = np.flatnonzero(f[:, 0] == CHECKERS)
        for row in finished:
            probs[row] = target(name, True, win_points(name, st.unpack(ends[row], mirrored)[1]))
        best = int(np.argmax(probs @ weights)) if len(ends) > 1 else 0
        end = ends[best]
        if f[best, 0] == CHECKERS:
            points = win_points(name, st.unpack(end, mirrored)[1])
            learners[me].step(x[best], target(name, True, points))
            learners[1 - me].step(x[best], target(name, False, points))
            return turn + 1
        learners[me].step(x[best])
        key = swap(end, mirrored)
        me = 1 - me
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
    return MAX_TURNS


def widen(net: Network, hidden: int, rng: np.random.Generator) -> Network:
    """The network with hidden units added that computes exactly what it did: the new units'
    input weights small and random (so they differ from each other), their output weights zero."""
    inputs_, old, outputs_ = net.shape
    if hidden < old:
        raise ValueError(f"cannot narrow {old} hidden units to {hidden}")
    new = hidden - old
    return Network(
        np.concatenate([net.w1, rng.uniform(-0.1, 0.1, (inputs_, new)).astype(np.float32)], axis=1),
        np.concatenate([net.b1, np.zeros(new, dtype=np.float32)]),
        np.concatenate([net.w2, np.zeros((new, outputs_), dtype=np.float32)]),
        net.b2.copy(),
    )


def save(path: Path, net: Network, meta: dict) -> None:
    """Write the weights and the metadata (inside, and beside as JSON) atomically."""
    temp = path.with_suffix(".tmp.npz")
    np.savez(temp, **arrays(net, meta))
    os.replace(temp, path)
    path.with_suffix(".json").write_text(json.dumps(dict(meta, shape=list(net.shape)), indent=2, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", required=True, choices=rule_set_names())
    parser.add_argument("--games", type=int, default=10000, help="train until this many games in total")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=60)
    parser.add_argument("--alpha", type=float, help="learning rate (default 0.1; on resuming, a new rate from here on)")
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--save-every", type=int, default=250)
    parser.add_argument("--out", type=Path, help="weights file (default: the package's weights/<rules>.npz)")
    parser.add_argument("--fresh", action="store_true", help="start over even if the weights file exists")
    parser.add_argument("--common-inputs", action="store_true",
                        help=f"a fresh network on the common {INPUTS} inputs, not the rule set's own encoding")
    parser.add_argument("--extend-inputs", action="store_true",
                        help="on resuming weights of the common inputs: add the rule set's own extra inputs "
                             "(their weights start at zero, so the network starts as it was)")
    parser.add_argument("--widen", type=int, metavar="H",
                        help="on resuming: add hidden units up to H (new input weights small random from the "
                             "seed, output weights zero, so the network starts as it was); saved at once")
    parser.add_argument("--from", dest="start_from", type=Path,
                        help="resume from this weights file (its record carried on), writing to --out")
    parser.add_argument("--minutes", type=float, default=0.0, help="stop (after a save) once this much wall time passed")
    args = parser.parse_args(argv)

    rules = get_rule_set(args.rules)
    path = args.out or WEIGHTS / f"{args.rules}.npz"
    path.parent.mkdir(parents=True, exist_ok=True)
    source = args.start_from or path
    if source.exists() and not args.fresh:
        with np.load(source, allow_pickle=False) as data:
            net, meta = from_arrays(data)
        print(f"resuming {source} at game {meta['games']}", flush=True)
        if args.extend_inputs and net.shape[0] < inputs(args.rules):
            extra = inputs(args.rules) - net.shape[0]
            net.w1 = np.concatenate([net.w1, np.zeros((extra, net.shape[1]), dtype=np.float32)])
            meta["settings"]["inputs"] = net.shape[0]
            meta["settings"]["inputs_from_game"] = [[0, INPUTS], [meta["games"], net.shape[0]]]
            meta["settings"]["encoding"] = f"{INPUTS} common inputs + {extra} of {args.rules} (shots, contact)"
            print(f"extended to {net.shape[0]} inputs", flush=True)
        widened = args.widen is not None and args.widen != net.shape[1]
        if widened:
            if args.widen < net.shape[1]:
                parser.error(f"--widen {args.widen}: the network already has {net.shape[1]} hidden units")
            old = net.shape[1]
            net = widen(net, args.widen, np.random.default_rng([meta["seed"], meta["games"], args.widen]))
            schedule = meta["settings"].setdefault("hidden_from_game", [[0, old]])
            schedule.append([meta["games"], args.widen])
            meta["settings"]["hidden"] = args.widen
            print(f"widened from {old} to {args.widen} hidden units at game {meta['games']}", flush=True)
        if args.alpha is not None and args.alpha != meta["settings"]["alpha"]:
            schedule = meta["settings"].setdefault("alpha_from_game", [[0, meta["settings"]["alpha"]]])
            schedule.append([meta["games"], args.alpha])
            meta["settings"]["alpha"] = args.alpha
        if widened:
            save(path, net, meta)  # the widened network, before any game changes it
    else:
        size = INPUTS if args.common_inputs else inputs(args.rules)
        net = Network.initial(size, args.hidden, outputs(args.rules), np.random.default_rng(args.seed))
        meta = {"rules": args.rules, "seed": args.seed, "games": 0, "cpu_seconds": 0.0, "turns": 0,
                "settings": {"hidden": args.hidden, "alpha": 0.1 if args.alpha is None else args.alpha, "lambda": args.lam, "inputs": size,
                             "method": "TD(lambda) self-play, greedy 1-ply on cubeless equity"}}
    settings = meta["settings"]
    learners = [TDLearner(net, settings["alpha"], settings["lambda"]) for _ in range(2)]
    started, cpu0 = time.monotonic(), time.process_time()
    cpu_before, since, turns = meta["cpu_seconds"], time.monotonic(), 0
    while meta["games"] < args.games:
        turns += play_game(rules, net, learners, random.Random(f"{meta['seed']}:{meta['games']}"))
        meta["games"] += 1
        if meta["games"] % args.save_every == 0 or meta["games"] == args.games:
            meta["cpu_seconds"] = round(cpu_before + time.process_time() - cpu0, 1)
            meta["turns"] += turns
            save(path, net, meta)
            elapsed = time.monotonic() - since
            print(f"{args.rules}: {meta['games']} games, {meta['cpu_seconds']:.0f} s CPU, "
                  f"{args.save_every / elapsed:.2f} games/s, {turns / args.save_every:.0f} turns/game", flush=True)
            since, turns = time.monotonic(), 0
            if args.minutes and time.monotonic() - started > 60 * args.minutes:
                break
    return 0


if __name__ == "__main__":
    sys.exit(main())
