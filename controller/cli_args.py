"""Argument types for the command line: every number and name checked as it is parsed.

Each function here is an ``argparse`` ``type=``: it returns the value or raises
``argparse.ArgumentTypeError`` with one line saying what is expected, which the parser
reports as ``trictrac run: argument --speed: a number above 0, not '0'``.
"""

from __future__ import annotations

import argparse
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .player_names import PlayerName, parse_player
from .rules.geometry import QUARTERS

if TYPE_CHECKING:
    from .listen import Listen

_INT = re.compile(r"[+-]?[0-9]{1,20}")
_MAX_TEXT = 40
MAX_SECONDS = 1e9
"""The longest time a command accepts (about 30 years; threading cannot wait much longer)."""
SEED_RANGE = (-(2**63), 2**63 - 1)


def _shown(text: str) -> str:
    return repr(text if len(text) <= _MAX_TEXT else text[:_MAX_TEXT] + "...")


def _range_text(low: float | None, high: float | None, low_open: bool) -> str:
    if low is not None and high is not None:
        return f"from {low:g}{' (not included)' if low_open else ''} to {high:g}"
    if low is not None:
        return f"above {low:g}" if low_open else f"{low:g} or more"
    if high is not None:
        return f"{high:g} or less"
    return "any number"


def whole_number(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """A ``type=`` for a whole number (decimal digits) in ``[low, high]``."""
    expected = f"a whole number {_range_text(low, high, False)}" if low is not None or high is not None else "a whole number"

    def parse(text: str) -> int:
        if not _INT.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"expected {expected}, not {_shown(text)}")
        value = int(text)
        if (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {expected}, not {_shown(text)}")
        return value

    parse.__name__ = "whole number"
    return parse


def number(low: float | None = None, high: float | None = None, *, low_open: bool = False) -> Callable[[str], float]:
    """A ``type=`` for a finite number in ``[low, high]`` (``(low, high]`` with ``low_open``)."""
    expected = f"a number {_range_text(low, high, low_open)}"

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= _MAX_TEXT and "_" not in text else math.nan
        except ValueError:
            value = math.nan
        if (not math.isfinite(value) or (low is not None and (value <= low if low_open else value < low))
                or (high is not None and value > high)):
            raise argparse.ArgumentTypeError(f"expected {expected}, not {_shown(text)}")
        return value

    parse.__name__ = "number"
    return parse


def die(text: str) -> int:
    """A ``type=`` for one die: 1 to 6."""
    if text.strip() not in ("1", "2", "3", "4", "5", "6"):
        raise argparse.ArgumentTypeError(f"a die shows 1 to 6, not {_shown(text)}")
    return int(text)


def _no_controls(text: str, what: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError(f"expected {what}, not an empty string")
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise argparse.ArgumentTypeError(f"expected {what}, not {_shown(text)} (it holds a control character)")
    return text


def port(text: str) -> str:
    """A ``type=`` for a serial port: a device path or a pyserial URL, never empty."""
    return _no_controls(text, "a serial device such as /dev/ttyACM0")


def file_path(text: str) -> Path:
    """A ``type=`` for a file or folder path: not empty, no control characters."""
    return Path(_no_controls(text, "a file path"))


def input_source(text: str) -> str:
    """A ``type=`` for an input file name (``-`` is standard input)."""
    return _no_controls(text, "a file name, or - for standard input")


def quarter(text: str) -> str:
    """A ``type=`` for the rally's start quarter."""
    if text not in QUARTERS:
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(QUARTERS)}, not {_shown(text)}")
    return text


def listen(text: str) -> "Listen":
    """A ``type=`` for where the web view listens: ``[HOST:]PORT``."""
    from .listen import parse_listen

    try:
        return parse_listen(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


PLAYERS = ("random", "greedy", "web")


def players(text: str) -> str:
    """A ``type=`` for who plays: one of ``PLAYERS`` for both sides, or ``WHITE,BLACK``."""
    names = text.split(",")
    if len(names) > 2 or any(name not in PLAYERS for name in names):
        raise argparse.ArgumentTypeError(
            f"expected one of {', '.join(PLAYERS)}, or two of them as WHITE,BLACK (web,greedy), not {_shown(text)}")
    return text


def player(text: str) -> PlayerName:
    """A ``type=`` for ``--white``/``--black``: a player name (``controller.player_names``)."""
    try:
        return parse_player(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


seconds = number(0.0, MAX_SECONDS)
"""A time in seconds, 0 or more (0 usually means: no limit)."""
seed = whole_number(*SEED_RANGE)
games = whole_number(1, 1_000_000)
noise = number(0.0, 10.0)
rate = number(0.0, 1.0)

__all__ = ["die", "file_path", "games", "input_source", "noise", "number", "player", "port", "quarter", "rate", "seconds",
           "seed", "whole_number"]
