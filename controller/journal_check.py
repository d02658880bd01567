"""Checks of one journal line before anything uses it: JSON, then each field by type and range.

A journal line is written by this program, but a power cut, a bad SD card or a hand edit
can leave anything in it.  ``parse_line`` turns one line into an entry dict or names the
problem; nothing here raises, whatever the bytes (deep nesting, 5000-digit numbers, NaN,
invalid UTF-8), so that reading a journal at start can never crash the service.  Entries
stay plain dicts; each known type has one small check of its own fields.  An unknown type
passes the common checks and is left to ``Controller.resume`` to accept or refuse.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from typing import Any, Callable

from .machine import JOURNAL_VERSION
from .rules.geometry import QUARTERS
from .rules.registry import get_rule_set
from .rules.values import RulesError

MAX_LINE = 1 << 20
"""Bytes in one line at most; a real entry is a few hundred."""

MAX_SEQ = 10**12
MAX_TIME = 1e12
MAX_MATCH_LENGTH = 99
"""As the configuration allows (``game.match_length``)."""

MAX_POINTS = 10**6
MAX_GAMES = 10**6

MATCH_ID = re.compile(r"\d{4}-\d{2}-\d{2}-\d{3,6}")
"""A match id: the local date the match began and its sequence that day (``2026-11-30-001``)."""

COLOURS = ("white", "black")

Problem = str | None


def parse_line(raw: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """The entry on one journal line (with its line end), or None and why it is not one."""
    if not raw.endswith(b"\n"):
        return None, "the line was cut off (no line end)"
    if len(raw) > MAX_LINE:
        return None, f"the line is too long ({len(raw)} bytes)"
    try:
        entry = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        return None, "not JSON (nested too deep)"
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, too many digits, NaN
        return None, f"not JSON ({_short(str(error))})"
    problem = check_entry(entry)
    return (None, problem) if problem else (entry, None)


def check_entry(entry: object) -> Problem:
    """Why ``entry`` is not a usable journal entry, or None."""
    if not isinstance(entry, dict):
        return "not a journal entry (a JSON object)"
    kind = entry.get("type")
    if not isinstance(kind, str):
        return "not a journal entry (no 'type')"
    problem = _common(entry)
    if problem:
        return f"{kind} entry: {problem}"
    check = _CHECKS.get(kind)
    problem = check(entry) if check is not None else None
    return f"{kind} entry: {problem}" if problem else None


# ------------------------------------------------------------------------------ fields


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number")


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


def _is_int(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _int(entry: dict[str, Any], key: str, low: int, high: int) -> Problem:
    value = entry.get(key)
    if not _is_int(value, low, high):
        return f"{key!r} must be a whole number {low}-{high}, not {_show(value)}"
    return None


def _show(value: object) -> str:
    text = json.dumps(value) if isinstance(value, (str, int, float, bool, type(None))) else type(value).__name__
    return _short(text)


def _common(entry: dict[str, Any]) -> Problem:
    problem = _int(entry, "seq", 1, MAX_SEQ)
    if problem:
        return problem
    time = entry.get("time")
    if not isinstance(time, (int, float)) or isinstance(time, bool) or not math.isfinite(time) or abs(time) > MAX_TIME:
        return f"'time' must be a number of seconds, not {_show(time)}"
    return None


def _colour(entry: dict[str, Any], key: str = "colour") -> Problem:
    value = entry.get(key)
    return None if value in COLOURS else f"{key!r} must be 'white' or 'black', not {_show(value)}"


def _dice(entry: dict[str, Any], key: str) -> Problem:
    value = entry.get(key)
    if not isinstance(value, list) or len(value) != 2 or not all(_is_int(d, 1, 6) for d in value):
        return f"{key!r} must be two dice [1-6, 1-6], not {_show(value)}"
    return None


def _text(entry: dict[str, Any], key: str, limit: int = 200) -> Problem:
    value = entry.get(key)
    if not isinstance(value, str) or len(value) > limit:
        return f"{key!r} must be text of at most {limit} characters, not {_show(value)}"
    return None


def _first(*problems: Problem) -> Problem:
    return next((p for p in problems if p), None)


# ------------------------------------------------------------------------------ entry types


def _start(entry: dict[str, Any]) -> Problem:
    version = entry.get("version")
    if not _is_int(version, 1, JOURNAL_VERSION):
        return f"'version' must be 1-{JOURNAL_VERSION} (this program's journal), not {_show(version)}"
    rules, options = entry.get("rules"), entry.get("options")
    if not isinstance(rules, str):
        return f"'rules' must be a rule-set name, not {_show(rules)}"
    if options is None:
        options = {}
    if not isinstance(options, dict) or not all(isinstance(k, str) and isinstance(v, bool) for k, v in options.items()):
        return f"'options' must map option names to true/false, not {_show(options)}"
    quarter = entry.get("quarter")
    if quarter is not None and quarter not in QUARTERS:
        return f"'quarter' must be one of {', '.join(QUARTERS)} or null, not {_show(quarter)}"
    try:
        rule_set = get_rule_set(rules, options)
        rule_set.geometry(quarter)
    except (RulesError, TypeError, ValueError) as error:
        return _short(str(error))
    problem = _int(entry, "match_length", 0, MAX_MATCH_LENGTH)
    if problem:
        return problem
    match = entry.get("match")
    if match is not None and (not isinstance(match, str) or not MATCH_ID.fullmatch(match)):
        return f"'match' must be an id like '2026-11-30-001', not {_show(match)}"
    started = entry.get("started")
    if started is not None:
        if not isinstance(started, str) or len(started) > 40:
            return f"'started' must be an ISO date and time, not {_show(started)}"
        try:
            datetime.fromisoformat(started)
        except ValueError:
            return f"'started' must be an ISO date and time, not {_show(started)}"
    return None


def _throw(entry: dict[str, Any]) -> Problem:
    """The board's throw number (serial link), when the roll came with one."""
    return None if entry.get("throw") is None else _int(entry, "throw", 0, 0xFFFF)


def _opening(entry: dict[str, Any]) -> Problem:
    return _first(_dice(entry, "dice"), _throw(entry))


def _roll(entry: dict[str, Any]) -> Problem:
    return _first(_colour(entry), _dice(entry, "roll"), _throw(entry))


def _turn(entry: dict[str, Any]) -> Problem:
    problem = _first(_colour(entry), _dice(entry, "roll"), _text(entry, "play"))
    if problem:
        return problem
    moves = entry.get("moves")
    if not isinstance(moves, list) or len(moves) > 4:
        return f"'moves' must be a list of at most 4 moves, not {_show(moves)}"
    for move in moves:
        if (
            not isinstance(move, list)
            or len(move) != 4
            or not all(_is_int(p, 0, 25) for p in move[:2])
            or not _is_int(move[2], 1, 6)
            or not isinstance(move[3], bool)
        ):
            return f"a move must be [from 0-25, to 0-25, die 1-6, hit true/false], not {_short(json.dumps(move))}"
    if not isinstance(entry.get("after"), dict):
        return "'after' must be the position after the turn (a JSON object)"
    return None


def _takeback(entry: dict[str, Any]) -> Problem:
    return _first(_colour(entry), _dice(entry, "roll"))


def _game_over(entry: dict[str, Any]) -> Problem:
    return _first(_colour(entry, "winner"), _int(entry, "points", 1, MAX_POINTS), _text(entry, "kind", 40))


def _game(entry: dict[str, Any]) -> Problem:
    return _int(entry, "number", 1, MAX_GAMES)


_CHECKS: dict[str, Callable[[dict[str, Any]], Problem]] = {
    "start": _start,
    "opening": _opening,
    "roll": _roll,
    "turn": _turn,
    "takeback": _takeback,
    "game-over": _game_over,
    "game": _game,
}
