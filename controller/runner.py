"""The runner: feeds hardware events to the controller and carries out what it asks.

Order matters for a power cut: the journal entries of an output are durable before the
lights or sounds confirm anything to the player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from hal.interfaces import Hardware, TickEvent

from .journal import Journal
from .machine import Controller, Output, ResumeError, Settings
from .records.from_match import match_record
from .records.matfile import write_mat

Log = Callable[[str], None]


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

    def apply(self, out: Output) -> None:
        """Journal first, then lights, sounds and the turn LEDs; records when a game ends."""
        if self.journal is not None and out.journal:
            self.journal.append(out.journal)
        hw = self.hardware
        hw.lights.show(out.frame)
        for sound in out.sounds:
            hw.sounder.play(sound)
        if hw.turn_indicator is not None:
            hw.turn_indicator.show_turn(out.turn)
        for line in out.log:
            self.log(line)
        if out.finished is not None and self.records is not None:
            self.write_record()
        self.deadline = out.deadline
        self.outputs += 1

    def write_record(self) -> Path:
        """Write the match so far as a ``.mat`` record in the records folder."""
        assert self.records is not None
        self.records.mkdir(parents=True, exist_ok=True)
        path = self.records / f"match-{self.controller.settings.rules.name}.mat"
        path.write_text(write_mat(match_record(self.controller.match)), encoding="utf-8")
        return path

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
    and setup lights).  Damage in the journal is reported through ``log`` and kept aside.
    """
    if journal is None:
        controller = Controller(settings)
        return controller, controller.begin(time)
    loaded = journal.load()
    if loaded.damage:
        log(loaded.damage)
    entries = loaded.entries
    if entries:
        controller = Controller(_journal_settings(settings, entries[0], log))
        try:
            controller.resume(entries)
        except ResumeError as error:
            cut = journal.cut_at(entries, error.index, f"entry {error.index + 1} does not replay ({error})")
            log(cut.damage or str(error))
            controller = Controller(controller.settings)
            controller.resume(cut.entries)
        if controller.match.winner() is None:
            log(f"Resuming the unfinished {controller.settings.rules.name} match from {journal.path}")
            return controller, None
        done = journal.start_new()
        log(f"The last match is over; its journal was kept as {done}")
    controller = Controller(settings)
    return controller, controller.begin(time)


def _journal_settings(settings: Settings, start: dict[str, object], log: Log) -> Settings:
    """The settings the journalled match was played with (they win over the configuration)."""
    from .rules.registry import get_rule_set

    try:
        rules = get_rule_set(str(start["rules"]), dict(start.get("options") or {}))  # type: ignore[arg-type]
        quarter = start.get("quarter")
        length = int(start.get("match_length", 1))  # type: ignore[arg-type]
    except (KeyError, ValueError, TypeError) as error:
        log(f"journal start entry unreadable ({error}); using the configuration")
        return settings
    if rules != settings.rules:
        log(f"the journal's match is {rules.name}; finishing it before {settings.rules.name}")
    return Settings(rules, quarter if isinstance(quarter, str) else None, length, settings.grace)

