"""The controller's phases, and the restore it may be guiding (shared by ``machine`` and
``resume_steps``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .rules.values import Position, Roll


class Phase(Enum):
    """Where the game stands."""

    SETUP = "setup"
    OPENING = "opening"
    AWAIT_ROLL = "await roll"
    MOVING = "moving"
    RESTORE = "restore"
    GAME_OVER = "game over"


@dataclass
class Restore:
    """Guide the board back to ``target``, then go on as ``then`` says."""

    target: Position
    then: str  # "await" or "move"
    roll: Roll | None = None
