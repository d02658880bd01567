"""The built-in engine as a simulated player, and strategies found by name.

``strategy("builtin:beginner")`` is the engine at a level; ``gnubg[:plies]`` is GNU Backgammon
(when installed; trictrac and backgammon only); ``random`` and ``greedy`` (and any other name
in ``players.STRATEGIES``) are the simple players.
"""

from __future__ import annotations

import atexit
import random
import threading

from controller.engine import DEFAULT_LEVEL, ENGINE_LEVELS, Engine
from controller.engine.cube import cube_action
from controller.rules.base import RuleSet
from controller.rules.game import Game, Match
from controller.rules.values import Play, Position, Roll
from engines.gnubg import DEFAULT_GNUBG_LEVEL, GNUBG_LEVELS, GnubgEngine, parse_level
from engines.gnubg_process import find_program

from .players import STRATEGIES, FairDice, Strategy


class BuiltinPlayer(FairDice):
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

    def offers_double(self, game: Game, match: Match) -> bool:
        """The engine's double (``controller.engine.cube``: Janowski for money, the MET in a match)."""
        return cube_action(self.engine(game.rules), game, match) == "double"

    def takes(self, game: Game, match: Match) -> bool:
        """The engine's take or pass of the double standing in ``game``."""
        return cube_action(self.engine(game.rules), game, match) == "take"


_GNUBG: dict[tuple[RuleSet, int, str], GnubgEngine] = {}
_GNUBG_LOCK = threading.Lock()


def _close_gnubg_engines() -> None:
    """End every shared gnubg process (at exit)."""
    with _GNUBG_LOCK:
        for engine in _GNUBG.values():
            engine.close()
        _GNUBG.clear()


atexit.register(_close_gnubg_engines)


class GnubgPlayer(FairDice):
    """Plays GNU Backgammon's choice at some plies.  The engines (one gnubg process per rule
    set and level) are shared by every such player: a simulation makes players per game.
    GnubgMissing (a ValueError) at once when gnubg is not installed."""

    def __init__(self, level: str = DEFAULT_GNUBG_LEVEL, program: str | None = None) -> None:
        self.plies = parse_level(level)
        self.program = find_program(program)
        self.name = f"gnubg:{self.plies}"

    def engine(self, rules: RuleSet) -> GnubgEngine:
        """The shared gnubg engine for ``rules`` at this player's plies (EngineError for the rally)."""
        key = (rules, self.plies, self.program)
        with _GNUBG_LOCK:
            engine = _GNUBG.get(key)
            if engine is None:
                engine = _GNUBG[key] = GnubgEngine(rules, self.plies, self.program)
        return engine

    def choose(self, rules: RuleSet, position: Position, roll: Roll, plays: tuple[Play, ...], rng: random.Random) -> Play:
        return self.engine(rules).choose(position, roll, plays, rng)


def strategy_names() -> tuple[str, ...]:
    """Every name ``strategy`` takes."""
    return (tuple(STRATEGIES) + ("builtin",) + tuple(f"builtin:{level}" for level in ENGINE_LEVELS)
            + ("gnubg",) + tuple(f"gnubg:{level}" for level in GNUBG_LEVELS))


def strategy(name: str) -> Strategy:
    """The strategy called ``name``: ``random``, ``greedy``, ``builtin[:level]``,
    ``gnubg[:plies]``; ValueError otherwise (GnubgMissing when gnubg is not installed)."""
    kind, _, level = name.strip().lower().partition(":")
    if kind == "builtin":
        return BuiltinPlayer(level or DEFAULT_LEVEL)
    if kind == "gnubg":
        return GnubgPlayer(level or DEFAULT_GNUBG_LEVEL)
    if kind in STRATEGIES and not level:
        return STRATEGIES[kind]()
    raise ValueError(f"unknown player {name!r} (one of {', '.join(strategy_names())})")


__all__ = ["BuiltinPlayer", "GnubgPlayer", "strategy", "strategy_names"]
