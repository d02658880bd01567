"""Checks of one journal line before anything uses it: JSON, then each field by type and range.

A journal line is written by this program, but a power cut, a bad SD card or a hand edit
can leave anything in it.  ``parse_line`` turns one line into an entry dict or names the
problem; nothing here raises, whatever the bytes (deep nesting, 5000-digit numbers, NaN,
invalid UTF-8), so that reading a journal at start can never crash the service.  The fields
are checked by ``controller.journal_entries.decode`` (the one decoder); the journal keeps
the lines' objects as read.  An unknown type passes the common checks and is left to
``Controller.resume`` to accept or refuse.
"""

from __future__ import annotations

import json
from typing import Any

from .journal_entries import EntryError, UnknownEntryType, decode

MAX_LINE = 1 << 20
"""Bytes in one line at most; a real entry is a few hundred."""


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


def check_entry(entry: object) -> str | None:
    """Why ``entry`` is not a usable journal entry, or None (an unknown type with good
    common fields is usable here: ``Controller.resume`` decides)."""
    try:
        decode(entry)
    except UnknownEntryType:
        return None
    except EntryError as error:
        return str(error)
    return None


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number")


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."
