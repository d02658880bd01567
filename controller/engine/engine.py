"""The built-in engine: ranks the legal plays by the network's value of the board each leaves.

Pure: no I/O, no clock; randomness only from a ``random.Random`` passed in (the beginner's
noise).  Levels: ``beginner`` (1 ply with noise), ``intermediate`` (1 ply), ``best`` (1 ply,
then the few best candidates searched 2 ply: every roll of the opponent, answered by the
opponent's best play).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from controller.rules import CHECKERS, Play, Position, Roll, RuleSet
from controller.rules import state as st
from controller.rules.game import Game, Match

from .cube import cube_action
from .encoding import INPUTS, LEVELS, encode_fields, fields, inputs, swap
from .network import Network
from .outcome import equity, equity_weights, flip, target, win_points
from .weights import shipped

ENGINE_LEVELS = ("beginner", "intermediate", "best")
DEFAULT_LEVEL = "best"
BEGINNER_NOISE = 0.35
"""Standard deviation of the noise added to a beginner's equities (in points)."""
TWO_PLY_CANDIDATES = 4
"""How many of the best 1-ply plays ``best`` looks at 2 ply (kept small for ~100 ms a move)."""
TWO_PLY_MARGIN = 0.5
TWO_PLY_BOARDS = 6000
"""The most reply boards one ``best`` decision looks at: past it the search stops with the
candidates done (at least two, else the 1-ply choice), keeping a decision near 100 ms here."""
"""Only candidates within this many points of the 1-ply best are searched deeper."""
ROLLS: tuple[tuple[Roll, float], ...] = tuple(
    (Roll(a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)
"""The 21 distinct rolls with their chances."""
_CHANCES = np.array([chance for _, chance in ROLLS], dtype=np.float32)


class EngineError(ValueError):
    """An unknown engine level or a rule set the engine has no weights for."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position judged for the side to move: outcome chances and the expected points."""

    win: float
    wins_at_least: dict[int, float]
    losses_at_least: dict[int, float]
    equity: float
    """Expected points per game (cubeless) under the rule set's scoring."""


class Evaluator:
    """The network applied to packed boards, finished games scored exactly."""

    def __init__(self, rules: RuleSet, net: Network) -> None:
        self.rules, self.net = rules, net
        self.mirrored = rules.MIRRORED
        self.weights = equity_weights(rules)
        if net.shape[2] != 1 + 2 * len(LEVELS[rules.name]):
            raise EngineError(f"weights with {net.shape[2]} outputs do not fit rule set {rules.name!r}")
        if net.shape[0] not in (INPUTS, inputs(rules.name)):
            raise EngineError(f"weights with {net.shape[0]} inputs do not fit rule set {rules.name!r}")
        self.encoding = rules.name if net.shape[0] != INPUTS else None
        """The rule set whose own extra inputs the weights were trained on (None: the common 204)."""

    def probabilities(self, keys: Sequence[int]) -> np.ndarray:
        """Outcome chances ``(n, outputs)`` of each board for the side that has just moved."""
        f = fields(keys)
        probs = self.net.forward(encode_fields(f, self.mirrored, self.encoding))
        for row in np.flatnonzero(f[:, 0] == CHECKERS):
            loser = st.unpack(keys[row], self.mirrored)[1]
            probs[row] = target(self.rules.name, True, win_points(self.rules.name, loser))
        return probs

    def equities(self, keys: Sequence[int]) -> np.ndarray:
        """Expected points of each board for the side that has just moved."""
        return equity(self.probabilities(keys), self.weights)

    def reply_equity(self, key: int, limit: int) -> tuple[float, int] | None:
        """The 2-ply value of a board the mover leaves (every opponent roll, its best answer)
        and how many boards that took; None when it would take more than ``limit`` boards."""
        theirs = swap(key, self.mirrored)
        boards: list[int] = []
        bounds: list[int] = []
        for roll, _ in ROLLS:
            _, ends = self.rules.final_plays(theirs, roll)
            boards.extend(ends if ends else (theirs,))  # a pass: the board stands, the opponent "has moved"
            bounds.append(len(boards))
            if len(boards) > limit:
                return None
        values = self.equities(boards)
        best = np.maximum.reduceat(values, [0] + bounds[:-1])
        return -float(best @ _CHANCES), len(boards)


class Engine:
    """Chooses plays and judges positions for one rule set at one level."""

    def __init__(self, rules: RuleSet, level: str = DEFAULT_LEVEL, net: Network | None = None) -> None:
        if level not in ENGINE_LEVELS:
            raise EngineError(f"unknown engine level {level!r} (one of {', '.join(ENGINE_LEVELS)})")
        if rules.name not in LEVELS:
            raise EngineError(f"the engine does not know rule set {rules.name!r}")
        self.rules, self.level = rules, level
        self.name = f"builtin:{level}"
        self.evaluator = Evaluator(rules, net if net is not None else shipped(rules.name)[0])

    def choose_key(self, key: int, roll: Roll, rng: random.Random | None = None) -> tuple[int, tuple] | None:
        """The chosen end board and its moves from packed board ``key``; None when the turn passes."""
        _, plays = self.rules.final_plays(key, roll)
        if not plays:
            return None
        ends = list(plays)
        best = ends[self._pick(ends, rng)]
        return best, plays[best]

    def choose(self, position: Position, roll: Roll, plays: Sequence[Play] | None = None,
               rng: random.Random | None = None) -> Play:
        """The engine's play for ``roll`` among ``plays`` (the legal plays when not given)."""
        key = self.rules.board_key(position)
        _, paths = self.rules.final_plays(key, roll)
        end_of = {path: end for end, path in paths.items()}
        candidates = list(plays) if plays is not None else [Play(path) for path in paths.values()]
        if not candidates:
            return Play()
        ends = [end_of[tuple(play)] if tuple(play) in end_of else self._end(position, play) for play in candidates]
        return candidates[self._pick(ends, rng)]

    def rank(self, position: Position, roll: Roll) -> list[tuple[Play, float]]:
        """Every legal play with its 1-ply equity for the mover, best first (for hints); at
        ``best`` the play ``choose`` picks leads, as the 2-ply search may prefer it."""
        key = self.rules.board_key(position)
        _, paths = self.rules.final_plays(key, roll)
        if not paths:
            return []
        ends = list(paths)
        values = self.evaluator.equities(ends)
        ranked = sorted(((Play(paths[end]), float(v)) for end, v in zip(ends, values)), key=lambda pv: -pv[1])
        if self.level == "best" and len(ranked) > 1:
            chosen = ends[self._pick(ends, None, values)]
            first = next(i for i, (play, _) in enumerate(ranked) if tuple(play) == paths[chosen])
            ranked.insert(0, ranked.pop(first))
        return ranked

    def cube_action(self, game: Game, match: Match) -> str:
        """The engine's cube action (``controller.engine.cube``): ``double`` or ``no double``
        for the side to roll, ``take`` or ``drop`` for the side answering a double."""
        return cube_action(self, game, match)

    def _end(self, position: Position, play: Play) -> int:
        after = self.rules.apply(position, play)
        return self.rules.key_of(after.side(position.turn), after.side(position.turn.opponent))

    def _pick(self, ends: list[int], rng: random.Random | None, values: np.ndarray | None = None) -> int:
        """The index of the chosen end board; ``values``: their 1-ply equities, if known already."""
        if values is None:
            values = self.evaluator.equities(ends)
        if self.level == "beginner":
            noise = rng if rng is not None else random.Random(0)
            values = values + np.array([noise.gauss(0.0, BEGINNER_NOISE) for _ in ends], dtype=np.float32)
        best = int(np.argmax(values))
        if self.level != "best" or len(ends) == 1:
            return best
        order = np.argsort(-values)[:TWO_PLY_CANDIDATES]
        order = [int(i) for i in order if values[i] >= values[best] - TWO_PLY_MARGIN]
        if len(order) == 1:
            return best
        deep: list[float] = []
        budget = TWO_PLY_BOARDS  # counted in boards, not time: the choice stays a pure function
        for index in order:
            found = self.evaluator.reply_equity(ends[index], budget)
            if found is None:
                break
            deep.append(found[0])
            budget -= found[1]
        if len(deep) < 2:
            return best
        return order[int(np.argmax(deep))]

    def evaluate(self, position: Position) -> Evaluation:
        """Outcome chances and equity of ``position`` for its side to move (before rolling)."""
        key = self.rules.board_key(position)
        probs = flip(self.evaluator.probabilities([swap(key, self.rules.MIRRORED)])[0])
        if position.off(position.turn) == CHECKERS:  # already won: exact
            loser = position.side(position.turn.opponent)
            probs = target(self.rules.name, True, win_points(self.rules.name, loser))
        levels = LEVELS[self.rules.name]
        k = len(levels)
        return Evaluation(
            win=float(probs[0]),
            wins_at_least={level: float(min(probs[1 + i], probs[0])) for i, level in enumerate(levels)},
            losses_at_least={level: float(min(probs[1 + k + i], 1 - probs[0])) for i, level in enumerate(levels)},
            equity=float(equity(probs, self.evaluator.weights)),
        )


__all__ = ["DEFAULT_LEVEL", "ENGINE_LEVELS", "Engine", "EngineError", "Evaluation", "Evaluator"]
