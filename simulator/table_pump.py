"""The event pump of a simulated table: the simulated board's events into the real controller
and runner, on the virtual clock, as a real board would feed them.

It owns the link to the controller (the plain queue or the serial board), the runner, the
dice throws and their timing, the grace-time tick, the log, and the report's bookkeeping of
the controller's CPU time per event and of warnings given when no illegal attempt stood.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from controller.idle import work_while_idle
from controller.journal import Journal
from controller.machine import Controller, Output
from controller.runner import BoardRunner
from hal.interfaces import DiceEvent, SnapshotEvent, TickEvent

from .hardware import SimulatedHardware
from .players import Attempt, Steps
from .scheduler import ScheduledCall
from .table_report import TableReport, Warning_

if TYPE_CHECKING:
    from .serial_table import SerialBoard

DICE_GAP = 0.3
"""Virtual seconds at least between two throws of the dice, whatever the players' speed: the
dice must land and be picked up (a person at speed 1 never throws sooner after the last throw)."""
LINKS = ("direct", "serial")
"""How the board reaches the controller: ``direct`` (the sensor model posts on the queue) or
``serial`` (the firmware on a virtual device, a real BoardLink over a pty, in lock-step)."""


class TablePump:
    """Feeds the simulated board's events through the controller and runner on virtual time,
    timing each and noting false warnings, so the table's scripts only act on the board."""

    def __init__(
        self,
        sim: SimulatedHardware,
        controller: Controller,
        report: TableReport,
        attempts: Callable[[], Sequence[Attempt]],
        *,
        link: str = "direct",
        journal: Journal | None = None,
        records: Path | None = None,
        log: Callable[[str], None] | None = None,
        observer: Callable[[Output], None] | None = None,
        pace: float = 0.0,
        ahead: bool | None = None,
    ) -> None:
        if link not in LINKS:
            raise ValueError(f"link is one of {', '.join(LINKS)}, not {link!r}")
        self.sim = sim
        self.controller = controller
        self.report = report
        self._attempts = attempts
        """The illegal attempts made so far (a warning during one is no false warning)."""
        self.logs: list[str] = []
        self._log = log
        self.serial: SerialBoard | None = None
        """The virtual device and BoardLink with ``link="serial"``."""
        hardware = sim.hardware
        if link == "serial":
            from .serial_table import SerialBoard

            self.serial = SerialBoard(sim, self.note)
            hardware = self.serial.hardware
        self.runner = BoardRunner(controller, hardware, journal, records, log=self.note)
        self.observer = observer
        self.pace = pace
        """Virtual seconds per real second (0: as fast as possible)."""
        self.ahead = pace > 0 if ahead is None else ahead
        """Build the next turn's maps between events, as a real board's loop does
        (``controller.idle``): by default only at a real pace, where the time is idle anyway;
        as fast as possible it would double a simulation's CPU for the same games."""
        self.thrown_at = -DICE_GAP
        """When the dice were last thrown (for ``DICE_GAP``)."""
        self._tick: ScheduledCall | None = None

    def note(self, line: str) -> None:
        """Keep a log line (and pass it on to the table's ``log``, if any)."""
        self.logs.append(line)
        if self._log is not None:
            self._log(line)

    def apply(self, out: Output) -> None:
        """Carry out an output the controller gave outside the pump (its first, say)."""
        self.runner.apply(out)
        self._after(out)
        if self.serial is not None:  # the lights reach the device before the clock moves
            self.serial.exchange()

    def pump(self) -> None:
        """Hand every queued event to the controller and carry out its output, timing each
        snapshot and roll from arrival to the new light frame; over a serial link, until the
        device has had every light frame and the link has handled every answer."""
        if self.serial is None:
            self._handle_queued()
        else:
            while True:
                self.serial.exchange()
                if not len(self.sim.queue):
                    break
                self._handle_queued()
        # nothing waits now: untimed, as a real board's loop does it between events
        work_while_idle(self.controller, lambda: len(self.sim.queue) > 0, build=self.ahead)

    def close(self) -> None:
        """Release the serial link and virtual device, if any (the plain path holds nothing)."""
        if self.serial is not None:
            self.serial.close()

    def throw(self, a: int, b: int) -> None:
        """The dice thrown: straight onto the queue, or into the virtual device's tray."""
        self.thrown_at = self.sim.clock.now()
        if self.serial is not None:
            self.serial.throw(a, b)
        else:
            self.sim.dice.throw(a, b)

    def _handle_queued(self) -> None:
        """Handle queued events until the queue is empty."""
        queue = self.sim.queue
        report = self.report
        while True:
            event = queue.get()
            if event is None:
                return
            start = time.thread_time_ns()  # CPU time: a busy machine's other processes do not count
            out = self.controller.handle(event)
            self.runner.apply(out)
            spent = time.thread_time_ns() - start
            if isinstance(event, SnapshotEvent):
                report.snapshot_ns.append(spent)
                report.snapshots += 1
                verdict = self.controller.last_verdict
                kind = verdict.kind.value if verdict is not None else self.controller.phase.value
                report.snapshot_kinds.setdefault(kind, []).append(spent)
            elif isinstance(event, DiceEvent):
                report.roll_ns.append(spent)
            self._after(out)

    def _after(self, out: Output) -> None:
        """Warnings bookkeeping and the grace-time tick (the runner's job, on virtual time)."""
        if self.observer is not None:
            self.observer(out)
        if out.warning is not None:
            now = self.sim.clock.now()
            during = any(a.start <= now and (a.end == 0.0 or now <= a.end) for a in self._attempts())
            if not during:
                self.report.false_warnings.append(Warning_(now, out.warning, out.frame.message, during))
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        if out.deadline is not None:
            deadline = max(out.deadline, self.sim.clock.now())
            self._tick = self.sim.scheduler.at(deadline, lambda: self.sim.queue.put(TickEvent(deadline)))

    def run_script(self, script: Steps, limit: float) -> None:
        """Run a performance on the virtual clock, pumping events after every step."""
        scheduler = self.sim.scheduler
        end = self.sim.clock.now() + limit
        finished = False

        def step() -> None:
            nonlocal finished
            try:
                delay = next(script)
            except StopIteration:
                finished = True
                return
            scheduler.after(max(delay, 0.0), step)

        scheduler.after(0.0, step)
        while not finished:
            when = scheduler.next_time()
            if when is None or when > end:
                raise RuntimeError(f"the table script stalled at {self.sim.clock.now():.1f} s")
            if self.pace > 0 and when > self.sim.clock.now():
                time.sleep((when - self.sim.clock.now()) / self.pace)
            scheduler.run_next()
            self.pump()
        # let the sensors settle and the controller catch up
        scheduler.run_until(self.sim.clock.now() + 0.5)
        self.pump()
