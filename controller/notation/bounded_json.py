"""JSON from outside, read within bounds: size, nesting depth and numbers.

``json.loads`` alone lets a hostile or broken document through in ways that end in a
traceback: ``[[[[...`` a thousand deep raises RecursionError, a 5000-digit number raises a
bare ValueError, and ``NaN``, ``Infinity`` or ``1e999`` become floats nothing expects.
:func:`load_json` checks the size and the nesting before parsing, refuses non-finite and
over-long numbers and duplicate keys while parsing, and raises only :class:`JsonInputError`
(a ValueError) with a message that says where.
"""

from __future__ import annotations

import json
import math
import operator
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects accepted (a position needs 3)."""
MAX_CHARS = 1024 * 1024
"""The longest document accepted, in characters (a position is about 300)."""
MAX_DIGITS = 30
"""The most digits a number may have (a count or a die needs 2)."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*+"?', re.DOTALL)
"""A string, to its closing quote (or to the end when there is none: linear time)."""
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class JsonInputError(ValueError):
    """A JSON document that is not JSON, too large, too deep or holds an unusable number."""


def bracket_depth(brackets: str) -> int:
    """The deepest nesting in a string of brackets only, a stray closing one counted as none.

    The walk floored at zero is the plain running sum less its running minimum (taken with
    0), so both are computed with C-speed ``accumulate``."""
    if not brackets:
        return 0
    sums = list(accumulate(map(_STEP.__getitem__, brackets), initial=0))
    return max(map(operator.sub, sums, accumulate(sums, min)))


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON ``text``, brackets inside strings ignored."""
    return bracket_depth(_NOT_BRACKET.sub("", _STRING.sub("", text)))


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise JsonInputError(f"key {json.dumps(key)} appears twice in one object")
        result[key] = value
    return result


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise JsonInputError(f"a number of {len(digits.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(digits)


def _float(text: str) -> float:
    if len(text) > MAX_DIGITS + 10:
        raise JsonInputError(f"a number {len(text)} characters long")
    value = float(text)
    if not math.isfinite(value):
        raise JsonInputError(f"the number {text} is out of range")
    return value


def _constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a JSON number")


def load_json(text: str, *, max_depth: int = MAX_DEPTH, max_chars: int = MAX_CHARS) -> Any:
    """The value of the JSON document ``text``, or JsonInputError saying what is wrong."""
    if len(text) > max_chars:
        raise JsonInputError(f"{len(text)} characters of JSON, more than the {max_chars} accepted")
    depth = nesting_depth(text)
    if depth > max_depth:
        raise JsonInputError(f"JSON nested {depth} deep, deeper than the {max_depth} accepted")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_int=_int, parse_float=_float,
                          parse_constant=_constant)
    except json.JSONDecodeError as error:
        raise JsonInputError(f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    except RecursionError:  # the depth check makes this unreachable; kept as a last guard
        raise JsonInputError("JSON nested too deep") from None


__all__ = ["MAX_CHARS", "MAX_DEPTH", "MAX_DIGITS", "JsonInputError", "bracket_depth", "load_json", "nesting_depth"]
