"""Who plays a side, as ``[players]`` in the configuration and ``--white``/``--black`` name
it: ``human``, ``random``, ``greedy``, ``builtin[:beginner|intermediate|best]`` or
``gnubg[:0|1|2]``.  Parsing only; the command line turns a name into a player."""

from __future__ import annotations

from dataclasses import dataclass

from .engine import DEFAULT_LEVEL, ENGINE_LEVELS

KINDS = ("human", "random", "greedy", "builtin", "gnubg")
GNUBG_PLIES = ("0", "1", "2")
ENGINES = ("builtin", "gnubg")
"""The kinds that are engines: on the board their plays are lit for a person to carry out."""


@dataclass(frozen=True)
class PlayerName:
    """A side's player: its kind and, for an engine, its level."""

    kind: str
    level: str = ""

    @property
    def is_engine(self) -> bool:
        return self.kind in ENGINES

    def __str__(self) -> str:
        return f"{self.kind}:{self.level}" if self.level else self.kind


def parse_player(text: str) -> PlayerName:
    """``text`` as a player name; ValueError saying what is expected."""
    kind, colon, level = str(text).strip().lower().partition(":")
    expected = "human, random, greedy, builtin[:beginner|intermediate|best] or gnubg[:0|1|2]"
    if kind not in KINDS or (colon and not level):
        raise ValueError(f"expected {expected}, not {str(text)[:40]!r}")
    if kind == "builtin":
        level = level or DEFAULT_LEVEL
        if level not in ENGINE_LEVELS:
            raise ValueError(f"builtin levels are {', '.join(ENGINE_LEVELS)}, not {level[:20]!r}")
    elif kind == "gnubg":
        level = (level or "0").removesuffix("ply").removesuffix("-")
        if level not in GNUBG_PLIES:
            raise ValueError(f"gnubg levels are its plies {', '.join(GNUBG_PLIES)}, not {level[:20]!r}")
    elif level:
        raise ValueError(f"{kind} has no level (expected {expected})")
    return PlayerName(kind, level)


__all__ = ["ENGINES", "KINDS", "PlayerName", "parse_player"]
