"""Does the engine's cube handling win points?  Money games (no match) between two built-in
engines with the same checker play: one doubles, takes and passes by ``controller.engine.cube``,
the other never doubles and takes every double (the random and greedy players' cube).  Played
on the rules alone (no board), seeded; prints points per game for the cube user with a 95 %
interval, the cube actions and how games ended.

    python benchmarks/cube_money.py --games 400 --seed 1
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

from controller.engine import Engine
from controller.engine.cube import cube_action
from controller.rules import get_rule_set
from controller.rules.game import Match
from controller.rules.values import BLACK, WHITE, Roll


def play(engine: Engine, cube_user: object, rng: random.Random) -> tuple[int, dict[str, int]]:
    """One money game; the cube user's points (negative when it loses) and the cube actions."""
    rules = engine.rules
    match = Match(rules, 0)
    game = match.new_game()
    while game.throw_opening(rng.randint(1, 6), rng.randint(1, 6)) is None:
        pass
    actions = {"double": 0, "take": 0, "drop": 0}
    roll = game.pending_roll
    while not game.is_over:
        colour = game.turn
        if roll is None and game.may_double(colour):
            doubles = colour is cube_user and cube_action(engine, game, match) == "double"
            if doubles:
                game.cube(colour, "double")
                answer = cube_action(engine, game, match) if colour.opponent is cube_user else "take"
                game.cube(colour.opponent, answer)
                actions["double"] += 1
                actions[answer] += 1
                if game.is_over:
                    break
        if roll is None:
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        game.play(roll, engine.choose(game.position, roll, None, rng))
        roll = None
    result = game.result()
    assert result is not None
    return (result.points if result.winner is cube_user else -result.points), actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="intermediate")
    args = parser.parse_args()
    engine = Engine(get_rule_set("backgammon"), args.level)
    rng = random.Random(args.seed)
    points: list[int] = []
    totals = {"double": 0, "take": 0, "drop": 0}
    start = time.process_time()
    for n in range(args.games):
        user = WHITE if n % 2 == 0 else BLACK
        got, actions = play(engine, user, rng)
        points.append(got)
        for key, count in actions.items():
            totals[key] += count
    mean = sum(points) / len(points)
    spread = math.sqrt(sum((p - mean) ** 2 for p in points) / max(1, len(points) - 1) / len(points))
    print(json.dumps({
        "games": len(points), "level": args.level, "seed": args.seed,
        "points_per_game_for_the_cube_user": round(mean, 3), "interval_95": round(1.96 * spread, 3),
        "cube_actions_by_the_cube_user": totals, "cpu_seconds": round(time.process_time() - start, 1),
    }))


if __name__ == "__main__":
    main()
