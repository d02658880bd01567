"""The runner: feeds hardware events to the controller and carries out what it asks.

Order matters for a power cut: the journal entries of an output are durable before the
lights or sounds confirm anything to the player.  The runner is also where the wall clock
is read (the controller reads none): it stamps a new match's ``start`` entry with a match
id and the time, which name the match's record (``controller.records.store``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from hal.interfaces import Hardware, TickEvent

from .journal import Journal
from .journal_entries import Entry, StartEntry, decode, encode
from .journal_salvage import resume_kept, salvage
from .machine import Controller, Output, Settings
from .records.store import next_match_id, rebuild_records, stamp_start, write_record
from .rules.game import Match
from .rules.registry import get_rule_set

Log = Callable[[str], None]


def local_now() -> datetime:
    """The wall-clock time, in the board's time zone."""
    return datetime.now().astimezone()


@dataclass
class BoardRunner:
    """One controller on one set of hardware, with an optional journal and record folder."""

    controller: Controller
    hardware: Hardware
    journal: Journal | None = None
    records: Path | None = None
    log: Log = print
    deadline: float | None = None
    outputs: int = field(default=0)
    wall: Callable[[], datetime] = local_now
    """The wall clock, read only to stamp a new match's start."""
    start: StartEntry | None = None
    """The journal's ``start`` entry of the match under way, once known."""

    def __post_init__(self) -> None:
        if self.records is not None:
            self.records = Path(self.records)

    def apply(self, out: Output) -> None:
        """Journal first, then lights, sounds and the turn LEDs; records when a game ends."""
        entries = tuple(self._stamped(entry) for entry in out.entries)
        if self.journal is not None and entries:
            self.journal.append(encode(entry) for entry in entries)
        hw = self.hardware
        hw.lights.show(out.frame)
        for sound in out.sounds:
            hw.sounder.play(sound)
        if hw.turn_indicator is not None:
            hw.turn_indicator.show_turn(out.turn)
        for line in out.log:
            self.log(line)
        if out.request_snapshot and hw.sensor is not None:
            hw.sensor.request_snapshot()
        if out.finished is not None and self.records is not None:
            try:
                self.write_record()
            except OSError as error:  # the journal holds the game: the record is rebuilt at start
                self.log(f"could not write the record in {self.records}: {error.strerror or error}")
        self.deadline = out.deadline
        self.outputs += 1

    def _stamped(self, entry: Entry) -> Entry:
        """A new match's start entry with its match id and start time; remembered."""
        if not isinstance(entry, StartEntry):
            return entry
        if entry.match is None:
            when = self.wall()
            starts = []
            if self.journal is not None:
                starts = [s for s in (Journal(p).first_entry() for p in self.journal.finished()) if s]
            entry = stamp_start(entry, when, next_match_id(when, self.records, starts))
        self.start = entry
        return entry

    def write_record(self) -> Path:
        """Write the match so far as its ``.mat`` record in the records folder (atomically)."""
        if self.records is None:
            raise ValueError("this runner has no records folder")
        start = self.start
        if start is None and self.journal is not None:
            start = self.start = self.journal.first_entry()
        if start is None:  # begun outside this runner, with no journal: name it now
            start = self._stamped(StartEntry(0, 0.0, self.controller.settings.rules.name))
        self.records.mkdir(parents=True, exist_ok=True)
        return write_record(self.records, start, self.controller.match)

    def step(self, wait: float | None = None) -> bool:
        """Handle one event (or a tick when the deadline passes); False when nothing happened."""
        hw = self.hardware
        now = hw.clock.now()
        timeout = wait
        if self.deadline is not None:
            until = max(self.deadline - now, 0.0)
            timeout = until if timeout is None else min(timeout, until)
        event = hw.events.get(timeout)
        if event is None:
            now = hw.clock.now()
            if self.deadline is None or now < self.deadline:
                return False
            event = TickEvent(now)
        self.apply(self.controller.handle(event))
        return True


def open_controller(settings: Settings, journal: Journal | None, log: Log, time: float) -> tuple[Controller, Output | None]:
    """A controller resumed from the journal's unfinished match, or a new one.

    Returns the controller and, for a new match, the output that begins it (journal header
    and setup lights).  Damage in the journal is reported through ``log`` in one message and
    kept aside (see ``controller.journal``); a journal whose start is bad is set aside whole
    and a new match begins.  Nothing in a journal makes this raise, but an unreadable file
    (JournalError) or a folder where nothing can be written (OSError).
    """
    if journal is None:
        controller = Controller(settings)
        return controller, controller.begin(time)
    found = journal.scan()
    if found.whole is not None:
        log(journal.set_aside_whole(found.whole).damage or "")
    elif found.entries:
        played = journal_settings(_start_of(found.entries), settings.grace, settings.confirm)
        if played.rules == settings.rules:  # the computer's sides and hints go on as configured
            played = replace(played, computer=settings.computer, hints=settings.hints, substitute=settings.substitute)
        elif settings.computer:
            log(f"the journal's {played.rules.name} match is finished without the computer (it is set up for {settings.rules.name})")
        keep, unreplayable = salvage(played, found.entries)
        controller = resume_kept(played, found.entries, keep, unreplayable)
        loaded = journal.keep(found, keep, unreplayable)
        if loaded.damage:
            log(loaded.damage)
        if played.rules != settings.rules:
            log(f"the journal's match is {played.rules.name}; finishing it before {settings.rules.name}")
        if controller.match.winner() is None:
            log(f"Resuming the unfinished {played.rules.name} match from {journal.path}")
            return controller, None
        done = journal.start_new()
        log(f"The last match is over; its journal was kept as {done}")
    controller = Controller(settings)
    return controller, controller.begin(time)


def journal_settings(start: StartEntry, grace: float = 1.0, confirm: bool = False) -> Settings:
    """The settings the journalled match was played with (they win over the configuration)."""
    rules = get_rule_set(start.rules, dict(start.options))
    return Settings(rules, start.quarter, start.match_length, grace, confirm)


def _start_of(entries: list[dict[str, Any]]) -> StartEntry:
    """The journal's start entry: its first, which ``Journal.scan`` checked is one."""
    start = decode(entries[0])
    if not isinstance(start, StartEntry):
        raise ValueError(f"the journal begins with a {entries[0].get('type')!r} entry, not 'start'")
    return start


def records_of_journals(journal: Journal, folder: Path | str, log: Log) -> list[Path]:
    """Rebuild the record of every journal on disk (``journal`` and its ``.done-N``) that is
    missing or out of date in ``folder``; call it at start, after ``open_controller``.
    Never raises: a record that cannot be rebuilt is logged."""
    return rebuild_records(journal.finished() + [journal.path], Path(folder), _rebuild_one, log)


def _rebuild_one(path: Path) -> tuple[StartEntry, Match] | None:
    """The start entry and the match a journal file holds, read only; None if unusable."""
    if not path.exists():
        return None
    found = Journal(path).scan()
    if found.whole is not None or not found.entries:
        return None
    start = _start_of(found.entries)
    played = journal_settings(start)
    keep, problems = salvage(played, found.entries)
    return start, resume_kept(played, found.entries, keep, problems).match
