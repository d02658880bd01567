"""The records folder: one ``.mat`` file per match, named from the journal, never lost.

A match's record is called ``<match id>-<rules>.mat``, for example
``2026-11-30-001-trictrac.mat``: the match id is the local date the match began and its
sequence that day, stamped on the journal's ``start`` entry by the runner when the match
begins (the controller reads no clock).  The name comes from the journal alone, so a record
rebuilt from its journal replaces the same file, never a second copy.  A journal from before
match ids gets ``undated-<fingerprint of its start>-<rules>.mat``.

Records are written whole and atomically (``controller.files.write_atomic``) after every
finished game, so a match in progress has its finished games on disk; at start
``rebuild_records`` writes the record of every journal on disk (the current one and the
finished ``JOURNAL.done-N``) whose record is missing or older than its journal.  The folder
itself is checked before play by ``controller.inputs.check_records_folder``.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Callable

from ..files import write_atomic
from ..journal_entries import StartEntry, encode
from ..rules.game import Match
from .from_match import match_record
from .matfile import write_mat


# ------------------------------------------------------------------------------ names


def match_id(date: str, sequence: int) -> str:
    """``2026-11-30-001``: the date a match began and its number that day."""
    return f"{date}-{sequence:03d}"


def record_name(start: StartEntry) -> str:
    """The record file name of the match a journal ``start`` entry begins (an undated one
    is named by a fingerprint of the entry as the journal holds it)."""
    if start.match:
        return f"{start.match}-{start.rules}.mat"
    fingerprint = hashlib.sha256(json.dumps(encode(start), sort_keys=True).encode()).hexdigest()[:10]
    return f"undated-{fingerprint}-{start.rules}.mat"


def next_match_id(when: datetime, records: Path | None, starts: list[StartEntry]) -> str:
    """A match id for a match beginning at ``when`` (local time): the day's next sequence,
    after every record in ``records`` and every journal ``start`` entry of that day."""
    date = when.strftime("%Y-%m-%d")
    pattern = re.compile(rf"{re.escape(date)}-(\d+)")
    used = [0]
    if records is not None and records.is_dir():
        try:
            names = [path.name for path in records.iterdir()]
        except OSError:
            names = []
        used += [int(m.group(1)) for m in map(pattern.match, names) if m]
    for start in starts:
        m = pattern.fullmatch(start.match or "")
        if m:
            used.append(int(m.group(1)))
    return match_id(date, max(used) + 1)


def stamp_start(entry: StartEntry, when: datetime, ident: str) -> StartEntry:
    """``entry`` with the match id and the wall-clock time it began."""
    return replace(entry, match=ident, started=when.isoformat(timespec="seconds"))


# ------------------------------------------------------------------------------ writing


def record_text(match: Match, start: StartEntry | None) -> str:
    """The ``.mat`` text of ``match``; the same for the live match and one rebuilt from its journal."""
    headers: list[tuple[str, str]] = []
    started = start.started if start is not None else None
    if started is not None:
        try:
            headers.append(("EventDate", datetime.fromisoformat(started).strftime("%Y.%m.%d")))
        except ValueError:
            pass
    return write_mat(match_record(match, headers=tuple(headers)))


def write_record(folder: Path, start: StartEntry, match: Match) -> Path:
    """Write the match's record atomically; returns its path.  Raises OSError."""
    path = folder / record_name(start)
    write_atomic(path, record_text(match, start).encode("utf-8"))
    return path


def rebuild_records(
    journals: list[Path], folder: Path, rebuild: Callable[[Path], tuple[StartEntry, Match] | None],
    log: Callable[[str], None],
) -> list[Path]:
    """Write the record of each journal whose record is missing, older or different.

    ``rebuild`` replays one journal (read only) into its start entry and match, or None if
    it holds no usable match.  Problems with one journal are logged, never raised."""
    written = []
    for journal in journals:
        try:
            made = rebuild(journal)
            if made is None:
                continue
            start, match = made
            if not any(game.history for game in match.games):
                continue  # nothing played yet: no record to keep
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / record_name(start)
            if path.exists() and path.stat().st_mtime >= journal.stat().st_mtime:
                continue
            text = record_text(match, start).encode("utf-8")
            if path.exists() and path.read_bytes() == text:
                continue
            write_atomic(path, text)
        except (OSError, ValueError) as error:
            log(f"could not rebuild the record of {journal}: {error}")
            continue
        written.append(path)
        log(f"Record {path} rebuilt from the journal {journal}")
    return written
