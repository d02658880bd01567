"""The position interchange JSON: a public contract for saving and exchanging positions.

::

    {"rules": "trictrac", "turn": "white",
     "white": {"points": {"24": 2, "13": 5, "8": 3, "6": 5}, "bar": 0, "off": 0},
     "black": {"points": {"24": 2, "13": 5, "8": 3, "6": 5}, "bar": 0, "off": 0}}

- ``rules``: a registered rule-set name; ``options`` (optional): the options that differ
  from the rule set's defaults, e.g. ``{"bear_off_higher": true}``.
- ``turn``: ``"white"`` or ``"black"``, the colour to move.
- each side: ``points`` keyed by the owner's own-point number as a string ``"1"``..``"24"``
  (RULES.md section 1; zero counts may be left out and are written left out, highest
  point first), ``bar`` the checkers waiting to enter (bar or rally pool), ``off`` the
  checkers borne off.  Every side holds 15 checkers.

Reading is strict: anything else raises :class:`PositionJsonError` (a ``PositionError``)
or ``UnknownRuleSetError`` with a message that names the place, such as
``black.points["27"]: point 27 is not on the board (1-24)``.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from ..rules.base import RuleSet
from ..rules.registry import get_rule_set, rule_set_names
from ..rules.values import (
    BAR,
    BLACK,
    CHECKERS,
    OFF,
    SIDE_LENGTH,
    WHITE,
    Colour,
    Position,
    PositionError,
    UnknownRuleSetError,
)
from .bounded_json import JsonInputError, load_json

TOP_KEYS = ("rules", "options", "turn", "white", "black")
REQUIRED_TOP_KEYS = ("rules", "turn", "white", "black")
SIDE_KEYS = ("points", "bar", "off")


class PositionJsonError(PositionError):
    """A position interchange document that is not well formed or not possible."""


# -- writing ---------------------------------------------------------------------------


_POINT_KEYS = tuple((point, str(point)) for point in range(24, 0, -1))
"""Each own point, highest first, with its key in ``points``."""


def _side_json(position: Position, colour: Colour) -> dict[str, Any]:
    side = position.side(colour)
    points = {name: side[point] for point, name in _POINT_KEYS if side[point]}
    return {"points": points, "bar": side[BAR], "off": side[OFF]}


def position_to_json(rule_set: RuleSet, position: Position, *, checked: bool = False) -> dict[str, Any]:
    """The interchange document for ``position`` under ``rule_set`` (checked possible first,
    unless the caller knows it is: ``checked``, e.g. a legal play's end from the turn map)."""
    if not checked:
        rule_set.validate(position)
    document: dict[str, Any] = {"rules": rule_set.name}
    options = rule_set.changed_options()
    if options:
        document["options"] = dict(sorted(options.items()))
    document["turn"] = position.turn.value
    document["white"] = _side_json(position, WHITE)
    document["black"] = _side_json(position, BLACK)
    return document


def dumps(rule_set: RuleSet, position: Position, *, indent: int | None = None) -> str:
    """The interchange document as JSON text."""
    return json.dumps(position_to_json(rule_set, position), indent=indent)


# -- reading ---------------------------------------------------------------------------


def _kind(value: object) -> str:
    """A JSON-ish name for the type of ``value``, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return type(value).__name__


def _object(value: object, where: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise PositionJsonError(f"{where}: expected an object, got {_kind(value)} {value!r}")
    return value


def _check_keys(data: Mapping[Any, Any], where: str, allowed: tuple[str, ...], required: tuple[str, ...]) -> None:
    for key in data:
        if key not in allowed:
            expected = ", ".join(allowed)
            raise PositionJsonError(f"{where}: unknown key {key!r} (expected {expected})")
    for key in required:
        if key not in data:
            raise PositionJsonError(f"{where}: missing key {key!r}")


def _count(value: object, where: str) -> int:
    """A checker count: a whole number >= 0 (not a bool, not a string, not 2.0)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionJsonError(f"{where}: a count is a whole number >= 0, got {_kind(value)} {value!r}")
    if value < 0:
        raise PositionJsonError(f"{where}: a count is a whole number >= 0, got {value}")
    return value


def _point(key: object, where: str) -> int:
    """An own-point key: the string of a number 1-24, written without sign or leading zero."""
    if not isinstance(key, str):
        raise PositionJsonError(f'{where}[{key!r}]: point keys are strings "1".."24", not {_kind(key)}')
    place = f"{where}[{json.dumps(key)}]"
    if not key.isascii() or not key.isdigit() or str(int(key)) != key:
        raise PositionJsonError(f'{place}: a point is written as a number "1".."24"')
    point = int(key)
    if not 1 <= point <= 24:
        raise PositionJsonError(f"{place}: point {point} is not on the board (1-24)")
    return point


def _side(value: object, colour: Colour) -> tuple[int, ...]:
    """One side's 26 counts, read from its ``{"points", "bar", "off"}`` object."""
    where = colour.value
    data = _object(value, where)
    _check_keys(data, where, SIDE_KEYS, SIDE_KEYS)
    side = [0] * SIDE_LENGTH
    points = _object(data["points"], f"{where}.points")
    for key, count in points.items():
        point = _point(key, f"{where}.points")
        side[point] = _count(count, f"{where}.points[{json.dumps(key)}]")
    side[BAR] = _count(data["bar"], f"{where}.bar")
    side[OFF] = _count(data["off"], f"{where}.off")
    total = sum(side)
    if total != CHECKERS:
        raise PositionJsonError(f"{where}: {total} checkers, expected {CHECKERS}")
    return tuple(side)


def _rule_set(data: Mapping[Any, Any]) -> RuleSet:
    name = data["rules"]
    if not isinstance(name, str):
        raise PositionJsonError(f"rules: expected a rule-set name (a string), got {_kind(name)} {name!r}")
    options = _object(data.get("options", {}), "options")
    for key in options:
        if not isinstance(key, str):
            raise PositionJsonError(f"options: option names are strings, not {key!r}")
    where = "options" if name in rule_set_names() else "rules"
    try:
        return get_rule_set(name, options)
    except UnknownRuleSetError as error:
        raise UnknownRuleSetError(f"{where}: {error}") from None


def _turn(value: object) -> Colour:
    if value == WHITE.value:
        return WHITE
    if value == BLACK.value:
        return BLACK
    raise PositionJsonError(f'turn: expected "white" or "black", got {_kind(value)} {value!r}')


def position_from_json(data: object) -> tuple[RuleSet, Position]:
    """The rule set and position of an interchange document (a decoded JSON object).

    Raises PositionJsonError (a PositionError) for a malformed or impossible position and
    UnknownRuleSetError for an unknown rule set or option.
    """
    document = _object(data, "position")
    _check_keys(document, "position", TOP_KEYS, REQUIRED_TOP_KEYS)
    rule_set = _rule_set(document)
    turn = _turn(document["turn"])
    white = _side(document["white"], WHITE)
    black = _side(document["black"], BLACK)
    position = Position(white, black, turn)
    try:
        rule_set.validate(position)
    except PositionJsonError:
        raise
    except PositionError as error:
        raise PositionJsonError(f"position ({rule_set.name}): {error}") from None
    return rule_set, position


def loads(text: str | bytes) -> tuple[RuleSet, Position]:
    """The rule set and position of an interchange document given as JSON text (bytes: UTF-8).

    The document is read within bounds (size, nesting, numbers: see ``bounded_json``).
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise PositionJsonError(
                f"position JSON: not UTF-8 text (byte 0x{text[error.start]:02x} at offset {error.start})"
            ) from None
    if not isinstance(text, str):
        raise PositionJsonError(f"position JSON: expected text, got {type(text).__name__}")
    try:
        data = load_json(text)
    except JsonInputError as error:
        raise PositionJsonError(f"position JSON: {error}") from None
    return position_from_json(data)


__all__ = ["PositionJsonError", "dumps", "loads", "position_from_json", "position_to_json"]
