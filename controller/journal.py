"""The game journal: JSON lines, each flushed to disk before the board shows its effect.

On start the journal is read back so that an unfinished game resumes.  A damaged tail (a
line cut by a power failure, garbage, an entry that does not follow from the ones before)
is reported and moved aside to a ``.damaged`` file beside the journal, never dropped in
silence; the good entries before it stay.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable


class JournalError(ValueError):
    """A journal that cannot be used at all (for instance an unreadable file)."""


@dataclass(frozen=True)
class Loaded:
    """What reading a journal found: the good entries, and any damage set aside."""

    entries: list[dict[str, Any]]
    damage: str | None = None
    """A message naming the damaged line and where its text was kept."""
    kept_aside: Path | None = None


class Journal:
    """Append-only JSON-lines file, made durable entry by entry."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._file: Any = None

    def load(self) -> Loaded:
        """Read every good entry; move a damaged tail aside and say so."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return Loaded([])
        except OSError as error:
            raise JournalError(f"cannot read the journal {self.path}: {error.strerror or error}") from None
        entries: list[dict[str, Any]] = []
        offset = 0
        for number, raw in enumerate(data.splitlines(keepends=True), 1):
            problem = _problem(raw, number, len(entries))
            if problem is None:
                entries.append(json.loads(raw))
                offset += len(raw)
                continue
            return self._set_aside(entries, data, offset, f"line {number}: {problem}")
        return Loaded(entries)

    def cut_at(self, entries: list[dict[str, Any]], count: int, problem: str) -> Loaded:
        """Keep the first ``count`` entries and move the rest aside (they did not replay)."""
        data = self.path.read_bytes()
        lines = data.splitlines(keepends=True)
        offset = sum(len(line) for line in lines[:count])
        return self._set_aside(entries[:count], data, offset, problem)

    def _set_aside(self, entries: list[dict[str, Any]], data: bytes, offset: int, problem: str) -> Loaded:
        aside = self._free_aside_path()
        aside.write_bytes(data[offset:])
        with open(self.path, "r+b") as handle:
            handle.truncate(offset)
            handle.flush()
            os.fsync(handle.fileno())
        message = f"journal {self.path} {problem}; the rest ({len(data) - offset} bytes) was kept in {aside}"
        return Loaded(entries, message, aside)

    def _free_aside_path(self) -> Path:
        n = 1
        while True:
            candidate = self.path.with_name(f"{self.path.name}.damaged-{n}")
            if not candidate.exists():
                return candidate
            n += 1

    def append(self, entries: Iterable[dict[str, Any]]) -> None:
        """Write entries and make them durable (flush and fsync) before returning."""
        lines = [json.dumps(entry, separators=(",", ":"), sort_keys=True) + "\n" for entry in entries]
        if not lines:
            return
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "a", encoding="utf-8")
        self._file.write("".join(lines))
        self._file.flush()
        os.fsync(self._file.fileno())

    def start_new(self) -> Path | None:
        """Move a finished journal aside (``.done-N``) so the next match starts a fresh one."""
        self.close()
        if not self.path.exists():
            return None
        n = 1
        while self.path.with_name(f"{self.path.name}.done-{n}").exists():
            n += 1
        done = self.path.with_name(f"{self.path.name}.done-{n}")
        self.path.rename(done)
        return done

    def close(self) -> None:
        """Close the file (entries are already durable)."""
        if self._file is not None:
            self._file.close()
            self._file = None


def _problem(raw: bytes, number: int, index: int) -> str | None:
    """Why a journal line is not a good entry, or None."""
    if not raw.endswith(b"\n"):
        return "the last line was cut off (no line end)"
    try:
        entry = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        return f"not JSON ({error})"
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        return "not a journal entry (an object with a 'type')"
    if index == 0 and entry["type"] != "start":
        return "the journal does not begin with a 'start' entry"
    if index and entry["type"] == "start":
        return "a second 'start' entry"
    return None
