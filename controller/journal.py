"""The game journal: JSON lines, each flushed to disk before the board shows its effect.

On start the journal is read back so that an unfinished game resumes.  Damage is never
dropped in silence and never crashes the start:

- a journal whose first line is not a valid ``start`` entry cannot say which match it
  was; it is set aside whole (renamed ``JOURNAL.damaged-N``) and a new match begins;
- any other bad line (a cut line, garbage, a field of the wrong type or range, an entry
  out of order) is taken out; its text goes to a ``JOURNAL.damaged-N`` file and every
  later good line stays.  ``controller.runner.open_controller`` also takes out entries
  that do not replay, through ``Journal.keep``.

Each line is checked by ``controller.journal_check``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .files import fsync_dir, write_atomic
from .journal_check import parse_line
from .journal_entries import StartEntry, decode


class JournalError(ValueError):
    """A journal that cannot be used at all (for instance an unreadable file)."""


@dataclass(frozen=True)
class Loaded:
    """What reading a journal found: the good entries, and any damage set aside."""

    entries: list[dict[str, Any]]
    damage: str | None = None
    """A message naming the damaged lines and where their text was kept."""
    kept_aside: Path | None = None
    restarted: bool = False
    """The whole journal was set aside (its start was bad): a new match begins."""


@dataclass(frozen=True)
class Scan:
    """A journal read but not yet changed: its good entries and its bad lines."""

    entries: list[dict[str, Any]] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    """The line number of each good entry."""
    lines: list[bytes] = field(default_factory=list)
    """The text of each good entry, as read."""
    bad: list[tuple[int, bytes, str]] = field(default_factory=list)
    """(line number, text, problem) of each bad line."""
    whole: str | None = None
    """Why the whole journal is unusable (its start is bad), or None."""


class Journal:
    """Append-only JSON-lines file, made durable entry by entry."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._file: Any = None

    # -- reading ------------------------------------------------------------------------------
    def read_bytes(self) -> bytes | None:
        """The journal's bytes, None if there is no journal; JournalError if unreadable."""
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise JournalError(f"cannot read the journal {self.path}: {error.strerror or error}") from None

    def scan(self) -> Scan:
        """Check every line without changing anything."""
        return scan_bytes(self.read_bytes() or b"")

    def load(self) -> Loaded:
        """Read every good entry; set bad lines (or a journal with a bad start) aside and say so."""
        found = self.scan()
        if found.whole is not None:
            return self.set_aside_whole(found.whole)
        return self.keep(found, list(range(len(found.entries))), {})

    def first_entry(self) -> StartEntry | None:
        """The journal's ``start`` entry if its first line is a good one (reads one line)."""
        try:
            with open(self.path, "rb") as handle:
                raw = handle.readline(1 << 20)
        except OSError:
            return None
        entry, _ = parse_line(raw)
        start = decode(entry) if entry is not None and entry.get("type") == "start" else None
        return start if isinstance(start, StartEntry) else None

    # -- setting damage aside -------------------------------------------------------------------
    def set_aside_whole(self, problem: str) -> Loaded:
        """Rename the whole journal to ``.damaged-N``: its start is bad, a new match begins."""
        self.close()
        aside = self._free_path("damaged")
        try:
            os.replace(self.path, aside)
        except OSError as error:
            raise JournalError(f"cannot set the damaged journal {self.path} aside: {error.strerror or error}") from None
        fsync_dir(self.path.parent)
        message = f"journal {self.path} {problem}; the whole journal was set aside as {aside} and a new match begins"
        return Loaded([], message, aside, restarted=True)

    def keep(self, found: Scan, keep: list[int], unreplayable: dict[int, str]) -> Loaded:
        """Keep the entries of ``found`` at the indices ``keep``; every bad line of the scan and
        every entry in ``unreplayable`` (index: problem) goes, its text kept in ``.damaged-N``."""
        kept = set(keep)
        dropped = list(found.bad)
        for index, problem in unreplayable.items():
            if index not in kept:
                dropped.append((found.numbers[index], found.lines[index], problem))
        entries = [found.entries[i] for i in sorted(kept)]
        if not dropped:
            return Loaded(entries)
        dropped.sort()
        self.close()
        aside = self._free_path("damaged")
        try:
            write_atomic(aside, b"".join(text for _, text, _ in dropped))
            write_atomic(self.path, b"".join(found.lines[i] for i in sorted(kept)))
        except OSError as error:
            raise JournalError(f"cannot set damaged lines of the journal {self.path} aside: {error.strerror or error}") from None
        count = len(dropped)
        shown = "; ".join(f"line {n}: {problem}" for n, _, problem in dropped[:3])
        more = f"; and {count - 3} more" if count > 3 else ""
        noun = "line was" if count == 1 else f"{count} lines were"
        message = (
            f"journal {self.path}: {shown}{more}; the damaged {noun} set aside in {aside}; "
            f"{len(entries)} good entries kept"
        )
        return Loaded(entries, message, aside)

    def _free_path(self, kind: str) -> Path:
        n = 1
        while True:
            candidate = self.path.with_name(f"{self.path.name}.{kind}-{n}")
            if not candidate.exists():
                return candidate
            n += 1

    # -- writing -------------------------------------------------------------------------------
    def append(self, entries: Iterable[dict[str, Any]]) -> None:
        """Write entries and make them durable (flush and fsync) before returning."""
        lines = [json.dumps(entry, separators=(",", ":"), sort_keys=True) + "\n" for entry in entries]
        if not lines:
            return
        if self._file is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            new = not self.path.exists()
            self._file = open(self.path, "a", encoding="utf-8")
            if new:
                fsync_dir(self.path.parent)
        self._file.write("".join(lines))
        self._file.flush()
        os.fsync(self._file.fileno())

    def start_new(self) -> Path | None:
        """Move a finished journal aside (``.done-N``) so the next match starts a fresh one."""
        self.close()
        if not self.path.exists():
            return None
        done = self._free_path("done")
        os.replace(self.path, done)
        fsync_dir(self.path.parent)
        return done

    def finished(self) -> list[Path]:
        """The finished journals kept beside this one (``.done-N``), in order."""
        numbered = []
        for path in self.path.parent.glob(f"{self.path.name}.done-*"):
            suffix = path.name[len(self.path.name) + len(".done-") :]
            if suffix.isdigit():
                numbered.append((int(suffix), path))
        return [path for _, path in sorted(numbered)]

    def close(self) -> None:
        """Close the file (entries are already durable)."""
        if self._file is not None:
            self._file.close()
            self._file = None


def scan_bytes(data: bytes) -> Scan:
    """Check every line of a journal's bytes (see the module doc for what counts as bad)."""
    found = Scan()
    for number, raw in enumerate(data.splitlines(keepends=True), 1):
        entry, problem = parse_line(raw)
        if number == 1:
            if entry is None:
                return Scan(whole=f"line 1: {problem}")
            if entry["type"] != "start":
                return Scan(whole=f"line 1: the journal begins with a {entry['type']!r} entry, not 'start'")
        elif entry is not None and entry["type"] == "start":
            entry, problem = None, "a second 'start' entry"
        if entry is None:
            found.bad.append((number, raw, problem or "bad entry"))
            continue
        found.entries.append(entry)
        found.numbers.append(number)
        found.lines.append(raw)
    return found
