"""GNU Backgammon as an optional engine for trictrac and backgammon.

``GnubgEngine(rules, "0")`` ranks *our* legal plays (``rules.legal_results``) by gnubg's
evaluation of the position each leaves, never trusting gnubg's own move list: gnubg's hint
list is used only as a batch of evaluations (one request a decision, ~10 ms), matched to our
plays by the board each leaves; a play of ours gnubg did not list (the PyPI build's move
generator is known to drop bear-offs; our options may allow plays it does not) is judged on
its own, the opponent on roll, its value negated.

gnubg plays backgammon: ``trictrac`` (Mendelev, the same board and moves) is judged as
backgammon, by gnubg's cubeless money equity (1/2/3 points, not trictrac's 1/2/4/8).  The
rally rule sets are another game and are refused.  Levels are gnubg's chequer-play plies:
``0`` (the default, gnubg's fast net), ``1`` and ``2``; the names ``0ply``.. are accepted.
"""

from __future__ import annotations

import os
import random
from typing import Any, Sequence

from controller.engine import EngineError, Evaluation
from controller.notation.gnubg_id import position_id_encode
from controller.rules import BAR, Play, Position, Roll, RuleSet
from controller.rules.values import Colour

from .gnubg_process import GnubgError, GnubgMissing, GnubgProcess, find_program

GNUBG_RULES = ("trictrac", "backgammon")
GNUBG_LEVELS = ("0", "1", "2")
DEFAULT_GNUBG_LEVEL = "0"

Board = tuple[tuple[int, ...], tuple[int, ...]]
"""gnubg's board: (the player not on roll, the player on roll), each 25 counts: own points
1-24 at indices 0-23, the bar at 24."""


def parse_level(level: str | int) -> int:
    """gnubg's plies for a level name: ``0``/``1``/``2``, also ``0ply``, ``1-ply``..."""
    text = str(level).strip().lower().replace("-", "").removesuffix("ply").strip()
    if text not in GNUBG_LEVELS:
        raise EngineError(f"unknown gnubg level {level!r} (one of {', '.join(GNUBG_LEVELS)}: plies)")
    return int(text)


def side_of(position: Position, colour: Colour) -> tuple[int, ...]:
    """One player's 25 counts as gnubg holds them (own points 1-24, then the bar)."""
    side = position.side(colour)
    return tuple(side[1:BAR + 1])


def board_of(position: Position, mover: Colour) -> Board:
    """gnubg's board of ``position`` with ``mover`` on roll (whoever's turn the position says)."""
    return side_of(position, mover.opponent), side_of(position, mover)


def board_after(board: Board, pairs: Sequence[Sequence[int]]) -> Board:
    """The board after the player on roll moves these (from, to) checker pairs (25 bar, 0 off),
    hitting any lone opposing checker it lands on; the player on roll stays second."""
    waiting, mover = list(board[0]), list(board[1])
    for frm, to in pairs:
        if not (1 <= frm <= 25 and 0 <= to < frm) or mover[frm - 1] == 0:
            raise GnubgError(f"gnubg answered an impossible move {frm}/{to} in {list(pairs)}")
        mover[frm - 1] -= 1
        if to:
            mover[to - 1] += 1
            theirs = 24 - to  # the opponent's own point 25 - to
            if waiting[theirs] == 1:
                waiting[theirs] = 0
                waiting[24] += 1
    return tuple(waiting), tuple(mover)


def _evaluation(probs: Sequence[float], equity: float) -> Evaluation:
    win, win_g, win_bg, lose_g, lose_bg = (float(p) for p in probs)
    return Evaluation(win, {2: win_g, 3: win_bg}, {2: lose_g, 3: lose_bg}, float(equity))


class GnubgEngine:
    """Chooses plays and judges positions with GNU Backgammon for one rule set at one level.

    One gnubg process an engine, started at the first question; ``close()`` (or leaving a
    ``with`` block) ends it.  Raises GnubgMissing at once when gnubg is not installed.
    """

    def __init__(self, rules: RuleSet, level: str | int = DEFAULT_GNUBG_LEVEL,
                 program: str | os.PathLike[str] | None = None) -> None:
        if rules.name not in GNUBG_RULES or not rules.MIRRORED:
            raise EngineError(f"gnubg plays trictrac and backgammon only, not {rules.name!r}")
        self.rules = rules
        self.plies = parse_level(level)
        self.name = f"gnubg:{self.plies}"
        self.process = GnubgProcess(find_program(program))
        self.decisions = 0
        self.judged_alone = 0
        """Plays of ours that gnubg's own list lacked, judged one by one (a count, for the curious)."""

    # -- context manager ----------------------------------------------------------------
    def close(self) -> None:
        """End the gnubg process (it is started again if the engine is asked once more)."""
        self.process.close()

    def __enter__(self) -> GnubgEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- choosing -------------------------------------------------------------------------
    def choose(self, position: Position, roll: Roll, plays: Sequence[Play] | None = None,
               rng: random.Random | None = None) -> Play:
        """gnubg's choice among ``plays`` (our legal plays when not given); ``Play()`` when the
        turn passes.  Deterministic: ``rng`` is not used."""
        ranked = self.rank(position, roll, plays)
        return ranked[0][0] if ranked else Play()

    def rank(self, position: Position, roll: Roll, plays: Sequence[Play] | None = None) -> list[tuple[Play, float]]:
        """Our legal plays (or ``plays``) with gnubg's equity for the mover, best first (ties
        kept in our order).  An impossible position is a PositionError before gnubg sees it."""
        position = self.rules.validate(position)
        candidates = self._candidates(position, roll, plays)
        if not candidates:
            return []
        mover = position.turn
        start = board_of(position, mover)
        answer = self.process.ask({"op": "rank", "id": position_id_encode(position),
                                   "dice": [roll.first, roll.second], "plies": self.plies})
        self._check_board(answer, start, position)
        listed: dict[Board, float] = {}
        for move in _list(answer, "moves"):
            try:
                end, equity = board_after(start, move["pairs"]), float(move["equity"])
            except (KeyError, TypeError, ValueError):
                raise GnubgError(f"gnubg answered a malformed move: {str(move)[:200]}") from None
            listed.setdefault(end, equity)
        ends = [board_of(after, mover) for _, after in candidates]
        alone = [i for i, end in enumerate(ends) if end not in listed]
        values = [listed.get(end, 0.0) for end in ends]
        if alone:
            found = self._evaluate([candidates[i][1] for i in alone])  # the opponent on roll
            for i, (_, equity) in zip(alone, found):
                values[i] = -equity
            self.judged_alone += len(alone)
        self.decisions += 1
        order = sorted(range(len(candidates)), key=lambda i: -values[i])
        return [(candidates[i][0], values[i]) for i in order]

    def evaluate(self, position: Position) -> Evaluation:
        """``position`` judged by gnubg for the side to move: chances and cubeless equity."""
        probs, equity = self._evaluate([self.rules.validate(position)])[0]
        return _evaluation(probs, equity)

    # -- helpers --------------------------------------------------------------------------
    def _candidates(self, position: Position, roll: Roll, plays: Sequence[Play] | None) -> list[tuple[Play, Position]]:
        """Each candidate play with the position it leaves (the opponent to move)."""
        results = self.rules.legal_results(position, roll)
        if plays is None:
            return [(play, after) for after, play in results.items()]
        after_of = {tuple(play): after for after, play in results.items()}
        return [(play, after_of[tuple(play)] if tuple(play) in after_of else self.rules.apply(position, play))
                for play in plays if play]

    def _evaluate(self, positions: Sequence[Position]) -> list[tuple[list[float], float]]:
        """gnubg's (five chances, cubeless equity) of each position for its side to move."""
        answer = self.process.ask({"op": "eval", "ids": [position_id_encode(p) for p in positions],
                                   "plies": self.plies})
        evals = _list(answer, "evals")
        if len(evals) != len(positions):
            raise GnubgError(f"gnubg judged {len(evals)} positions of {len(positions)}")
        try:
            return [([float(p) for p in e["probs"]], float(e["equity"])) for e in evals]
        except (KeyError, TypeError, ValueError):
            raise GnubgError(f"gnubg answered a malformed evaluation: {str(evals)[:200]}") from None

    @staticmethod
    def _check_board(answer: dict[str, Any], start: Board, position: Position) -> None:
        """gnubg must have set up exactly our board (a refused ID leaves its old one)."""
        board = answer.get("board")
        if not isinstance(board, list) or tuple(tuple(side) for side in board) != start:
            raise GnubgError(f"gnubg did not set up the position {position_id_encode(position)} (it holds {board})")


def _list(answer: dict[str, Any], key: str) -> list[Any]:
    value = answer.get(key)
    if not isinstance(value, list):
        raise GnubgError(f"gnubg's answer lacks its {key!r} list")
    return value


__all__ = ["DEFAULT_GNUBG_LEVEL", "GNUBG_LEVELS", "GNUBG_RULES", "GnubgEngine", "GnubgError", "GnubgMissing",
           "board_after", "board_of", "parse_level"]
