"""The built-in engine as a simulated player, and strategies found by name.

``strategy("builtin:beginner")`` is the engine at a level; ``random`` and ``greedy`` (and any
other name in ``players.STRATEGIES``) are the simple players.
"""

from __future__ import annotations

import random

from controller.engine import DEFAULT_LEVEL, ENGINE_LEVELS, Engine
from controller.rules.base import RuleSet
from controller.rules.values import Play, Position, Roll

from .players import STRATEGIES, Strategy, _FairDice


class BuiltinPlayer(_FairDice):
    """Plays the built-in engine's choice at one level (an engine per rule set, made once)."""

    def __init__(self, level: str = DEFAULT_LEVEL) -> None:
        if level not in ENGINE_LEVELS:
            raise ValueError(f"unknown engine level {level!r} (one of {', '.join(ENGINE_LEVELS)})")
        self.level = level
        self.name = f"builtin:{level}"
        self._engines: dict[RuleSet, Engine] = {}

    def engine(self, rules: RuleSet) -> Engine:
        """The engine for ``rules`` at this player's level."""
        engine = self._engines.get(rules)
        if engine is None:
            engine = self._engines[rules] = Engine(rules, self.level)
        return engine

    def choose(self, rules: RuleSet, position: Position, roll: Roll, plays: tuple[Play, ...], rng: random.Random) -> Play:
        return self.engine(rules).choose(position, roll, plays, rng)


def strategy_names() -> tuple[str, ...]:
    """Every name ``strategy`` takes."""
    return tuple(STRATEGIES) + ("builtin",) + tuple(f"builtin:{level}" for level in ENGINE_LEVELS)


def strategy(name: str) -> Strategy:
    """The strategy called ``name``: ``random``, ``greedy``, ``builtin[:level]``; ValueError otherwise."""
    kind, _, level = name.strip().lower().partition(":")
    if kind == "builtin":
        return BuiltinPlayer(level or DEFAULT_LEVEL)
    if kind in STRATEGIES and not level:
        return STRATEGIES[kind]()
    raise ValueError(f"unknown player {name!r} (one of {', '.join(strategy_names())})")


__all__ = ["BuiltinPlayer", "strategy", "strategy_names"]
