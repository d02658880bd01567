"""The pure rules engine: values, rule sets found by name, turns in progress and games.

No I/O, no clock, no randomness: dice come in as arguments.
"""

from .base import GameResult, Opening, RuleSet
from .registry import get_rule_set, register, rule_set_names
from .values import (
    BAR,
    BLACK,
    CHECKERS,
    OFF,
    WHITE,
    Colour,
    IllegalPlayError,
    Move,
    Play,
    Point,
    Position,
    PositionError,
    Roll,
    RulesError,
    UnknownRuleSetError,
)
from .trictrac import Backgammon, Trictrac  # importing registers trictrac, backgammon
from .rally import Rally, RallyHitting  # and rally, rally-hitting
from .turn import TurnInProgress, TurnMap

__all__ = [
    "BAR", "BLACK", "CHECKERS", "OFF", "WHITE", "Backgammon", "Colour", "GameResult",
    "IllegalPlayError", "Move", "Opening", "Play", "Point", "Position", "PositionError",
    "Rally", "RallyHitting", "Roll", "RuleSet", "RulesError", "Trictrac", "TurnInProgress", "TurnMap",
    "UnknownRuleSetError",
    "get_rule_set", "register", "rule_set_names",
]
