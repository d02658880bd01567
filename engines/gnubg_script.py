"""Run *inside* GNU Backgammon (``gnubg -t -r -q -p gnubg_script.py``), never imported.

A small server: one JSON request a line on standard input, one JSON answer a line on the
file descriptor named by ``TRICTRAC_GNUBG_FD`` (gnubg's own chatter stays on its standard
output).  Requests:

- ``{"op": "hello"}``: ``{"ok": true}`` once the neural nets are loaded;
- ``{"op": "rank", "id": POSITION_ID, "dice": [A, B], "plies": N}``: gnubg's hint list for
  the player on roll (the second half of the ID), every move with its checker pairs (from,
  to; 25 the bar, 0 off), its five outcome chances and its cubeless money equity;
- ``{"op": "eval", "ids": [POSITION_ID, ...], "plies": N}``: each position judged for the
  player on roll (chances and cubeless equity);
- ``{"op": "quit"}``.

A request that fails is answered ``{"ok": false, "error": TEXT}`` and the loop goes on.  The
global ``gnubg`` is the module gnubg puts in scope for the scripts it runs.
"""

import json
import os
import sys

_plies = [None]


def _setup() -> None:
    """A money session with no cube and humans in both seats, gnubg drawing nothing."""
    for command in ("set display off", "set player 0 human", "set player 1 human",
                    "set evaluation chequerplay evaluation cubeful off",
                    "set evaluation chequerplay evaluation deterministic on",
                    "set evaluation chequerplay evaluation noise 0",
                    "set evaluation cubedecision evaluation plies 0", "new game"):
        gnubg.command(command)  # noqa: F821 - gnubg's own global


def _set_plies(plies: int) -> None:
    if _plies[0] != plies:
        gnubg.command(f"set evaluation chequerplay evaluation plies {int(plies)}")  # noqa: F821
        _plies[0] = plies


def _context(plies: int) -> dict:
    return {"cubeful": 0, "plies": int(plies), "deterministic": 1, "prune": 1, "noise": 0.0}


def _rank(request: dict) -> dict:
    _set_plies(request["plies"])
    a, b = request["dice"]
    if gnubg.posinfo()["gamestate"] != 1:  # noqa: F821 - a finished game: start another
        gnubg.command("new game")  # noqa: F821
    gnubg.command("set board " + request["id"])  # noqa: F821
    gnubg.command(f"set dice {int(a)} {int(b)}")  # noqa: F821
    board = gnubg.board()  # noqa: F821
    hint = gnubg.hint(10000)  # noqa: F821
    moves = []
    for entry in hint.get("hint", []):
        details = entry.get("details", {})
        moves.append({"pairs": [list(pair) for pair in gnubg.parsemove(entry["move"])],  # noqa: F821
                      "move": entry["move"], "probs": list(details.get("probs", ())),
                      "equity": entry["equity"]})
    return {"ok": True, "board": [list(board[0]), list(board[1])], "moves": moves}


def _evaluate(request: dict) -> dict:
    cube = gnubg.cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)  # noqa: F821 - money, centred cube
    context = _context(request["plies"])
    evals = []
    for position_id in request["ids"]:
        board = gnubg.positionfromid(position_id)  # noqa: F821
        result = gnubg.evaluate(board, cube, context)  # noqa: F821
        evals.append({"probs": list(result[:5]), "equity": result[5]})
    return {"ok": True, "evals": evals}


def _serve() -> None:
    answers = os.fdopen(int(os.environ["TRICTRAC_GNUBG_FD"]), "w", buffering=1)
    _setup()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "quit":
                answers.write(json.dumps({"ok": True}) + "\n")
                break
            if op == "hello":
                answer = {"ok": True}
            elif op == "rank":
                answer = _rank(request)
            elif op == "eval":
                answer = _evaluate(request)
            else:
                answer = {"ok": False, "error": f"unknown op {op!r}"}
        except Exception as error:  # noqa: BLE001 - every failure is an answer, the loop goes on
            answer = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        answers.write(json.dumps(answer) + "\n")
    answers.close()


_serve()
