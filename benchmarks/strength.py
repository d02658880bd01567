"""Benchmark: the built-in engine's strength, measured honestly.

Plays N games per pairing with fixed seeds directly on the rules engine (``Game``, no board
simulation), the player taking each seat in turn (even games player 0, odd games player 1,
and the opening decides who moves first as the rules say).  Prints, per rule set and
opponent, the player's win rate with a 95 % Wilson interval and its points per game with a
95 % normal interval, and both sides' wall time per decision (median, p99; the player's CPU
time too, which for gnubg is spent in its own process).  GNU Backgammon (``gnubg[:plies]``,
engines.gnubg) is an opponent for trictrac and backgammon when installed; otherwise a line
says the pairing is skipped.  ``--player gnubg:0 --opponents greedy random`` measures gnubg
itself, for scale.

    python benchmarks/strength.py [--games 200] [--seed 1] [--rules trictrac ...]
                                  [--level best | --player NAME] [--opponents random greedy gnubg] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.engine import DEFAULT_LEVEL, ENGINE_LEVELS  # noqa: E402
from controller.rules import Play, RuleSet, get_rule_set, rule_set_names  # noqa: E402
from controller.rules.game import Game  # noqa: E402
from engines.gnubg import GNUBG_RULES  # noqa: E402
from engines.gnubg_process import GnubgMissing, find_program  # noqa: E402
from simulator.engine_player import strategy  # noqa: E402
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
              timed: int, times: list[float], cpu: list[float], other_times: list[float] | None = None,
              turns: list[int] | None = None) -> int:
    """One game between player 0 and player 1; the points player ``timed`` won (negative: lost).
    The timed player's decisions go to ``times``/``cpu``, the other's wall times to ``other_times``,
    the game's number of turns (passes too) to ``turns``."""
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
        elif other_times is not None:
            other_times.append(time.perf_counter() - started)
        game.play(roll, play)
    result = game.result()
    assert result is not None
    if turns is not None:
        turns.append(len(game.turns()))
    return result.points if seat[result.winner] == timed else -result.points


def pairing(rules: RuleSet, player: str, opponent: str, games: int, seed: int) -> dict[str, object]:
    """``games`` games of ``player`` against ``opponent``, seats alternating; the figures.
    The dice of game n depend on the seed, the rule set, the opponent and n (and the player
    unless it is the built-in engine), so every level of the engine meets the same dice."""
    engine = strategy(player)
    points: list[int] = []
    times: list[float] = []
    cpu: list[float] = []
    other_times: list[float] = []
    salt = "" if player.startswith("builtin") else f"{player}:"
    for n in range(games):
        rng = random.Random(f"{seed}:{salt}{rules.name}:{opponent}:{n}")
        other = strategy(opponent)
        seats = (engine, other) if n % 2 == 0 else (other, engine)
        points.append(play_game(rules, seats, rng, n % 2, times, cpu, other_times))
    wins = sum(1 for p in points if p > 0)
    low, high = wilson(wins, games)
    mean = statistics.fmean(points)
    half = Z * statistics.stdev(points) / math.sqrt(games) if games > 1 else float("inf")
    return {
        "rules": rules.name, "engine": engine.name, "opponent": opponent, "games": games, "wins": wins,
        "win_rate": wins / games, "win_rate_ci95": [round(low, 4), round(high, 4)],
        "points_per_game": round(mean, 4), "points_per_game_ci95": [round(mean - half, 4), round(mean + half, 4)],
        "decisions": len(times),
        "decision_ms": _timing(times),
        "decision_cpu_ms": _timing(cpu),
        "opponent_decision_ms": _timing(other_times),
    }


def _timing(seconds: list[float]) -> dict[str, float]:
    """Median, p99 and maximum of times in seconds, in ms."""
    times = sorted(seconds)
    if not times:
        return {}
    return {"median": round(1000 * statistics.median(times), 2),
            "p99": round(1000 * times[int(0.99 * (len(times) - 1))], 2), "max": round(1000 * times[-1], 2)}


def gnubg_available() -> str | None:
    """Where the GNU Backgammon program is installed, or None."""
    try:
        return find_program()
    except GnubgMissing:
        return None


def _skip(name: str, player: str, opponent: str) -> str | None:
    """Why a pairing is left out (gnubg not installed, or a rule set gnubg does not play), or None."""
    if "gnubg" not in (player.split(":")[0], opponent.split(":")[0]):
        return None
    if name not in GNUBG_RULES:
        return "gnubg plays trictrac and backgammon only"
    return None if gnubg_available() else "gnubg is not installed (apt-get install gnubg)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=list(rule_set_names()), choices=rule_set_names())
    parser.add_argument("--level", default=DEFAULT_LEVEL, choices=ENGINE_LEVELS)
    parser.add_argument("--player", help="the player measured (default builtin:LEVEL), e.g. gnubg:0")
    parser.add_argument("--opponents", nargs="+", default=["random", "greedy", "gnubg:0"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    player = args.player or f"builtin:{args.level}"
    rows: list[dict[str, object]] = []
    skipped: list[dict[str, str]] = []
    for name in args.rules:
        rules = get_rule_set(name)
        for opponent in args.opponents:
            why = _skip(name, player, opponent)
            if why is not None:
                skipped.append({"rules": name, "player": player, "opponent": opponent, "why": why})
                if not args.json:
                    print(f"{name:14} {player} vs {opponent}: skipped ({why})", flush=True)
                continue
            row = pairing(rules, player, opponent, args.games, args.seed)
            rows.append(row)
            if not args.json:
                low, high = row["win_rate_ci95"]  # type: ignore[misc]
                plow, phigh = row["points_per_game_ci95"]  # type: ignore[misc]
                ms, cpu, theirs = row["decision_ms"], row["decision_cpu_ms"], row["opponent_decision_ms"]
                print(f"{name:14} {row['engine']} vs {opponent:7} {row['wins']:4}/{row['games']} won "
                      f"{100 * row['win_rate']:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]  "  # type: ignore[operator]
                      f"points/game {row['points_per_game']:+.3f} [{plow:+.3f}, {phigh:+.3f}]  "
                      f"decision wall median {ms.get('median', 0)} p99 {ms.get('p99', 0)} ms, "  # type: ignore[union-attr]
                      f"CPU median {cpu.get('median', 0)} p99 {cpu.get('p99', 0)} ms; "  # type: ignore[union-attr]
                      f"{opponent} wall median {theirs.get('median', 0)} p99 {theirs.get('p99', 0)} ms",  # type: ignore[union-attr]
                      flush=True)
    if args.json:
        print(json.dumps({"rows": rows, "skipped": skipped, "gnubg": gnubg_available()}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
