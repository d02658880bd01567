"""Benchmark: the built-in engine's strength, measured honestly.

Plays N games per pairing with fixed seeds directly on the rules engine (``Game``, no board
simulation), the engine taking each seat in turn (even games player 0, odd games player 1,
and the opening decides who moves first as the rules say).  Prints, per rule set and
opponent, the engine's win rate with a 95 % Wilson interval and its points per game with a
95 % normal interval, and the engine's time per decision (median, p99).  GNU Backgammon at
0 ply is paired when its Python module or program is installed; otherwise a line says the
pairing is skipped.

    python benchmarks/strength.py [--games 200] [--seed 1] [--rules trictrac ...]
                                  [--level best] [--opponents random greedy] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.engine import DEFAULT_LEVEL, ENGINE_LEVELS  # noqa: E402
from controller.rules import Play, Roll, RuleSet, get_rule_set, rule_set_names  # noqa: E402
from controller.rules.game import Game  # noqa: E402
from simulator.engine_player import BuiltinPlayer, strategy  # noqa: E402
from simulator.players import Strategy  # noqa: E402

Z = 1.96


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + Z * Z / (2 * games)) / (1 + Z * Z / games)
    half = Z * math.sqrt(p * (1 - p) / games + Z * Z / (4 * games * games)) / (1 + Z * Z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(rules: RuleSet, players: tuple[Strategy, Strategy], rng: random.Random,
              timed: int, times: list[float], cpu: list[float]) -> int:
    """One game between player 0 and player 1; the points player ``timed`` won (negative: lost)."""
    game = Game(rules, cube_allowed=False)
    while game.opening is None:
        game.throw_opening(players[0].opening(rng), players[1].opening(rng))
    opening = game.opening
    colour_of = {opening.winner: opening.first, 1 - opening.winner: opening.first.opponent}
    seat = {colour: index for index, colour in colour_of.items()}
    while not game.is_over:
        index = seat[game.turn]
        roll = game.pending_roll or players[index].roll(rng)
        plays = game.legal_plays(roll)
        if not plays:
            game.play(roll, Play())
            continue
        started, cpu_started = time.perf_counter(), time.process_time()
        play = players[index].choose(rules, game.position, roll, plays, rng)
        if index == timed:
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        game.play(roll, play)
    result = game.result()
    assert result is not None
    return result.points if seat[result.winner] == timed else -result.points


def pairing(rules: RuleSet, level: str, opponent: str, games: int, seed: int) -> dict[str, object]:
    """``games`` games of the engine against ``opponent``, seats alternating; the figures."""
    engine = BuiltinPlayer(level)
    points: list[int] = []
    times: list[float] = []
    cpu: list[float] = []
    for n in range(games):
        rng = random.Random(f"{seed}:{rules.name}:{opponent}:{n}")
        other = strategy(opponent)
        seats = (engine, other) if n % 2 == 0 else (other, engine)
        points.append(play_game(rules, seats, rng, n % 2, times, cpu))
    wins = sum(1 for p in points if p > 0)
    low, high = wilson(wins, games)
    mean = statistics.fmean(points)
    half = Z * statistics.stdev(points) / math.sqrt(games) if games > 1 else float("inf")
    return {
        "rules": rules.name, "engine": f"builtin:{level}", "opponent": opponent, "games": games, "wins": wins,
        "win_rate": wins / games, "win_rate_ci95": [round(low, 4), round(high, 4)],
        "points_per_game": round(mean, 4), "points_per_game_ci95": [round(mean - half, 4), round(mean + half, 4)],
        "decisions": len(times),
        "decision_ms": _timing(times),
        "decision_cpu_ms": _timing(cpu),
    }


def _timing(seconds: list[float]) -> dict[str, float]:
    """Median, p99 and maximum of times in seconds, in ms."""
    times = sorted(seconds)
    if not times:
        return {}
    return {"median": round(1000 * statistics.median(times), 2),
            "p99": round(1000 * times[int(0.99 * (len(times) - 1))], 2), "max": round(1000 * times[-1], 2)}


def gnubg_available() -> str | None:
    """Where GNU Backgammon is installed (its Python module or program), or None."""
    if importlib.util.find_spec("gnubg") is not None:
        return "the gnubg Python module"
    found = shutil.which("gnubg")
    return f"the gnubg program ({found})" if found else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=list(rule_set_names()), choices=rule_set_names())
    parser.add_argument("--level", default=DEFAULT_LEVEL, choices=ENGINE_LEVELS)
    parser.add_argument("--opponents", nargs="+", default=["random", "greedy"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    rows = []
    for name in args.rules:
        rules = get_rule_set(name)
        for opponent in args.opponents:
            row = pairing(rules, args.level, opponent, args.games, args.seed)
            rows.append(row)
            if not args.json:
                low, high = row["win_rate_ci95"]  # type: ignore[misc]
                plow, phigh = row["points_per_game_ci95"]  # type: ignore[misc]
                ms, cpu = row["decision_ms"], row["decision_cpu_ms"]
                print(f"{name:14} {row['engine']} vs {opponent:7} {row['wins']:4}/{row['games']} won "
                      f"{100 * row['win_rate']:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]  "  # type: ignore[operator]
                      f"points/game {row['points_per_game']:+.3f} [{plow:+.3f}, {phigh:+.3f}]  "
                      f"decision wall median {ms.get('median', 0)} p99 {ms.get('p99', 0)} ms, "  # type: ignore[union-attr]
                      f"CPU median {cpu.get('median', 0)} p99 {cpu.get('p99', 0)} ms", flush=True)  # type: ignore[union-attr]
        where = gnubg_available()
        skipped = ("gnubg at 0 ply: installed as " + where + ", but the gnubg player is not built yet "
                   "(issue 10 part 2): pairing skipped") if where else \
            "gnubg at 0 ply: not installed (no gnubg Python module, no gnubg program): pairing skipped"
        if name in ("trictrac", "backgammon") and not args.json:
            print(f"{name:14} {skipped}", flush=True)
    if args.json:
        print(json.dumps({"rows": rows, "gnubg": gnubg_available()}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
