"""The computer's players for the board, made from their names: the built-in engine, GNU
Backgammon, or a simple strategy (``random``, ``greedy``) playing as the computer, its plays
lit on the board like an engine's.  Used by the command line (the composition root)."""

from __future__ import annotations

import random
from typing import Sequence

from controller.engine import Engine, EngineError, WeightsError
from controller.opponent import Opponent
from controller.player_names import PlayerName
from controller.rules.base import RuleSet
from controller.rules.values import Play, Position, Roll

from .players import STRATEGIES, Strategy


class OpponentError(ValueError):
    """An engine that cannot play this rule set here (no weights, gnubg missing, the rally for gnubg)."""


class StrategyOpponent:
    """A simple strategy as the computer: deterministic for a board and roll (seeded by them),
    so a restart mid-turn lights the same play again."""

    def __init__(self, rules: RuleSet, kind: str) -> None:
        self.rules, self.name = rules, kind
        self.strategy: Strategy = STRATEGIES[kind]()

    def choose(self, position: Position, roll: Roll, plays: Sequence[Play] | None = None, rng=None) -> Play:
        legal = tuple(plays) if plays is not None else self.rules.legal_plays(position, roll)
        if not legal:
            return Play()
        seeded = random.Random(f"{self.rules.board_key(position)}/{roll}")
        return self.strategy.choose(self.rules, position, roll, legal, seeded)

    def rank(self, position: Position, roll: Roll) -> list[tuple[Play, float]]:
        return [(self.choose(position, roll), 0.0)]


def opponent(name: PlayerName, rules: RuleSet) -> Opponent:
    """The computer player called ``name`` for ``rules``; OpponentError with one clear line."""
    if name.kind == "builtin":
        try:
            return Engine(rules, name.level)
        except (EngineError, WeightsError) as error:
            raise OpponentError(f"builtin: {error}") from None
    if name.kind == "gnubg":
        from engines.gnubg import GnubgEngine, GnubgMissing

        try:
            return GnubgEngine(rules, name.level)
        except (GnubgMissing, EngineError) as error:
            raise OpponentError(f"gnubg: {error}") from None
    if name.kind in STRATEGIES:
        return StrategyOpponent(rules, name.kind)
    raise OpponentError(f"{name} is not a computer player")


__all__ = ["OpponentError", "StrategyOpponent", "opponent"]
