"""How often do the engine's cube decisions agree with GNU Backgammon's?  Positions before a
roll are collected from seeded self-play games of the built-in engine (money play, the cube
centred); for each, gnubg's own cube decision (``cfevaluate``, at the given plies) is set
against ours made two ways: from gnubg's own cubeless chances (the formula alone:
``controller.engine.cube``) and from the built-in engine's chances (formula and network).
Prints agreement on "double or not" and on "take or pass", overall and where either side
doubles.  With ``--match N`` each position gets a random score before the Crawford game of
an N-point match (both tables are Kazaross-XG2: gnubg's default).  Needs gnubg.

    python benchmarks/cube_vs_gnubg.py --games 40 --plies 0 [--match 7]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from pathlib import Path

from controller.engine import Engine, Evaluation
from controller.engine.cube import EFFICIENCY, CubeState, decide
from controller.notation.gnubg_id import position_id_encode
from controller.rules import get_rule_set
from controller.rules.values import Position, Roll
from engines.gnubg_process import find_program

SCRIPT = '''
import json
for c in ("set display off", "set player 0 human", "set player 1 human", "new session"):
    gnubg.command(c)
ci = gnubg.cubeinfo()
ci.update({"cube": 1, "cubeowner": -1, "matchto": MATCH, "jacoby": 0, "beavers": 0, "crawford": 0, "move": 1})
ec = {"cubeful": 1, "plies": PLIES, "deterministic": 1, "prune": 1, "noise": 0.0}
out = []
for pid, theirs, mine in json.load(open(IDS)):
    ci["score"] = (theirs, mine)  # the player on roll (board[1], move 1) has ``mine``
    board = gnubg.positionfromid(pid)
    probs = gnubg.evaluate(board, ci, ec)
    cube = gnubg.cfevaluate(board, ci, ec)
    out.append({"probs": list(probs[:5]), "decision": cube[-1]})
json.dump(out, open(OUT, "w"))
'''


def positions(games: int, seed: int) -> list[Position]:
    """Every position before a roll in ``games`` self-play games (after the opening roll)."""
    rules = get_rule_set("backgammon")
    engine = Engine(rules, "intermediate")
    rng = random.Random(seed)
    found: list[Position] = []
    for _ in range(games):
        position = rules.start_position()
        while rules.result(position) is None:
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
            play = engine.choose(position, roll, None, rng)
            position = rules.apply(position, play)
            if rules.result(position) is None:
                found.append(position)
    return found


def gnubg_judges(ids: list[tuple[str, int, int]], plies: int, match: int = 0) -> list[dict]:
    """gnubg's cubeless chances and cube decision for each Position ID (the player on roll
    second), with the opponent's and the player on roll's scores in a match to ``match``."""
    program = find_program()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        (base / "ids.json").write_text(json.dumps(ids))
        script = SCRIPT.replace("PLIES", str(plies)).replace("MATCH", str(match))
        script = script.replace("IDS", repr(str(base / "ids.json")))
        script = script.replace("OUT", repr(str(base / "out.json")))
        (base / "run.py").write_text(script)
        subprocess.run([str(program), "-t", "-q", "-r", "-p", str(base / "run.py")], capture_output=True,
                       timeout=3600, check=True)
        return json.loads((base / "out.json").read_text())


def from_probs(p: list[float]) -> Evaluation:
    """gnubg's five chances as an evaluation."""
    win, wg, wb, lg, lb = p
    return Evaluation(win, {2: wg, 3: wb}, {2: lg, 3: lb}, 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, default=0)
    parser.add_argument("--match", type=int, default=0,
                        help="a match to this many points (scores drawn at random before the Crawford game); 0: money")
    parser.add_argument("--efficiency", type=float, default=EFFICIENCY, help="the cube efficiency x of our decisions")
    args = parser.parse_args()
    found = positions(args.games, args.seed)
    scores = random.Random(args.seed)
    pairs = [(scores.randrange(args.match - 1), scores.randrange(args.match - 1)) if args.match > 1 else (0, 0)
             for _ in found]
    judged = gnubg_judges([(position_id_encode(p), t, m) for p, (t, m) in zip(found, pairs)], args.plies, args.match)
    engine = Engine(get_rule_set("backgammon"), "intermediate")
    tally = {name: {"double": 0, "take": 0, "doubles_seen": 0, "double_when_doubling": 0, "take_when_doubling": 0,
                    "only_we_double": 0, "only_gnubg_doubles": 0} for name in ("formula", "engine")}
    gnubg_doubles = gnubg_passes = 0
    for position, judge, (theirs, mine) in zip(found, judged, pairs):
        cube = CubeState(away=(args.match - mine, args.match - theirs)) if args.match > 1 else CubeState()
        text = judge["decision"].lower()
        g_double = text.startswith(("double", "redouble"))
        g_take = text.endswith(("take", "beaver"))
        gnubg_doubles += g_double
        gnubg_passes += not g_take
        for name, evaluation in (("formula", from_probs(judge["probs"])), ("engine", engine.evaluate(position))):
            ours = decide(evaluation, cube, args.efficiency)
            counts = tally[name]
            counts["double"] += ours.doubles == g_double
            counts["take"] += ours.takes == g_take
            if ours.doubles or g_double:
                counts["doubles_seen"] += 1
                counts["double_when_doubling"] += ours.doubles == g_double
                counts["take_when_doubling"] += ours.takes == g_take
                counts["only_we_double"] += ours.doubles and not g_double
                counts["only_gnubg_doubles"] += g_double and not ours.doubles
    n = len(found)
    report = {"positions": n, "plies": args.plies, "match": args.match, "efficiency": args.efficiency, "gnubg_doubles": gnubg_doubles, "gnubg_passes": gnubg_passes}
    for name, counts in tally.items():
        seen = max(1, counts["doubles_seen"])
        report[name] = {
            "agree_double": round(counts["double"] / n, 3), "agree_take": round(counts["take"] / n, 3),
            "positions_where_either_doubles": counts["doubles_seen"],
            "agree_double_there": round(counts["double_when_doubling"] / seen, 3),
            "agree_take_there": round(counts["take_when_doubling"] / seen, 3),
            "only_we_double": counts["only_we_double"], "only_gnubg_doubles": counts["only_gnubg_doubles"],
        }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
