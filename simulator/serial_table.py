"""The serial soak: the virtual device and a real ``BoardLink`` over a pty between the simulated
board and the controller, driven in lock-step with the virtual clock.

Each simulated scan is a scheduler callback: the device reads the Pi's bytes from the pty
master, scans the hall sensors, steps the firmware and writes its frames; the driver then
waits (real time, with a generous timeout) until the link's reader thread has read and
handled every one of them, and moves the events it posted onto the simulation's queue.
The link's protocol timers (heartbeats, resends, silence) run at each pass too, on the
virtual clock.  Nothing is left in flight when the clock moves, so a run is as
deterministic as the plain path.  Scans are event-driven: every 20 ms while something may still settle (a board change,
a throw, a snapshot owed), otherwise one housekeeping pass (heartbeats) every half second.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from firmware.debounce import SETTLE_SCANS
from firmware.dice import DICE_SETTLE_SCANS
from hal.interfaces import Hardware, LightFrame
from hal.queue import ThreadSafeQueue
from hal.serial_link import BoardLink, LinkState, LinkTimings

from .hardware import SimulatedHardware
from .scheduler import ScheduledCall
from .virtual_device import SCAN_PERIOD, TUMBLE, VirtualDevice

ZONE_SCANS = SETTLE_SCANS + 2
"""Scans kept up after a checker or hand moves: the firmware's settling, and 2 to spare."""
DICE_SCANS = DICE_SETTLE_SCANS + 4
"""Scans kept up at start and after the dice leave or land in the tray: a clear roll settles
in 10 (the soak throws no cocked die, which would need UNCLEAR_SETTLE_SCANS)."""
IDLE_SCANS = 25
"""With nothing to settle, one housekeeping pass every 25 scan periods (0.5 s)."""
TIMEOUT = 20.0
"""Real seconds the driver waits for the link before it calls the run broken."""


class SerialLinkStalled(RuntimeError):
    """The link did not take or send what the lock-step driver waited for."""


class _TeeLights:
    """Lights shown both to the simulation's recorder and over the link."""

    def __init__(self, *lights: object) -> None:
        self._lights = lights

    def show(self, frame: LightFrame) -> None:
        for lights in self._lights:
            lights.show(frame)  # type: ignore[attr-defined]


class SerialBoard:
    """The virtual device and a BoardLink in lock-step on ``sim``'s scheduler; ``hardware`` is
    what the controller's runner gets (lights and sensor over the link)."""

    def __init__(
        self,
        sim: SimulatedHardware,
        log: Callable[[str], None],
        *,
        timeout: float = TIMEOUT,
        timings: LinkTimings | None = None,
    ) -> None:
        self.sim = sim
        self.timeout = timeout
        sim.sensor.close()  # the firmware reads the board now, not the plain sensor model
        self.device = VirtualDevice(sim.board, rng=sim.rng("hall"), seed=sim.seed)
        self.events = ThreadSafeQueue()
        self.link = BoardLink(self.device.path, self.events, sim.clock, log,
                              timings=timings or LinkTimings(retry=0.05), own_timers=False)
        self.hardware = Hardware(
            clock=sim.clock,
            events=sim.queue,
            lights=_TeeLights(sim.lights, self.link),
            sounder=sim.sounder,
            turn_indicator=sim.turn_indicator,
            sensor=self.link,
            dice=[self.link],
        )
        self._connection = 0
        self._read = 0
        self._written = 0
        self._active_until = 0
        self._next: ScheduledCall | None = None
        self._next_scan = -1
        sim.board.add_listener(self._board_changed)
        self.link.start()
        self._connect()
        self._wake(DICE_SCANS)  # the firmware learns the empty tray before it reports a roll

    # -- the cable --------------------------------------------------------------------------
    def unplug(self) -> None:
        """Pull the cable now: wait until the link has noticed (its ``link lost`` is queued)."""
        self.device.unplug()
        self._wait(lambda: self.link.state is not LinkState.CONNECTED, "the link to notice the unplug")
        self._collect()

    def replug(self) -> None:
        """Plug it back now: wait until the link has reconnected and asked for the board."""
        self.device.replug()
        self._connect()
        self._wake(ZONE_SCANS)

    def close(self) -> None:
        """Stop the link and the device."""
        self.sim.board.remove_listener(self._board_changed)
        if self._next is not None:
            self._next.cancel()
        self.link.close()
        self.device.close()

    def throw(self, a: int, b: int) -> None:
        """Throw the dice into the tray: out of their pockets now, landing a moment later."""
        self.device.throw(None)
        self._wake(DICE_SCANS)

        def land() -> None:
            self.device.throw((a, b))
            self._wake(DICE_SCANS)

        self.sim.scheduler.after(TUMBLE, land)

    # -- lock-step ----------------------------------------------------------------------------
    def exchange(self) -> None:
        """Hand the device what the link sent, send its answers back, wait until the link has
        handled them, and queue the link's events; repeated until nothing is in flight."""
        for _ in range(1000):
            if not self.device.plugged:
                break
            connection, sent, _received = self.link.traffic()
            if connection != self._connection:  # the link opened the port afresh
                self._connection, self._read, self._written = connection, 0, 0
            if self._read >= sent:
                break
            data = self._read_bytes(sent - self._read)
            self._deliver(self.device.receive(data, self._ms()))
            self._settle()
        self._settle()

    def _tick(self) -> None:
        """One scheduled pass of the firmware's loop (a scan when something may settle)."""
        self._next = None
        scan = self._scan_number()
        self.link.run_timers()  # the Pi's heartbeats and resends, at this virtual instant
        self.exchange()
        active = scan <= self._active_until or self.device.device.busy
        self._deliver(self.device.tick(self._ms(), scan=active))
        self._settle()
        if active or self.device.device.busy:
            self._schedule(scan + 1)
        else:
            self._schedule(scan + IDLE_SCANS)

    def _board_changed(self) -> None:
        self._wake(ZONE_SCANS)

    def _wake(self, scans: int) -> None:
        """Scan from the first scan that sees a change made now, for ``scans`` scans."""
        first = math.floor(self.sim.clock.now() / SCAN_PERIOD + 1e-6) + 1
        self._active_until = max(self._active_until, first + scans)
        if self._next is None or self._next_scan > first:
            self._schedule(first)

    def _schedule(self, scan: int) -> None:
        if self._next is not None:
            self._next.cancel()
        self._next_scan = scan
        when = max(scan * SCAN_PERIOD, self.sim.clock.now())
        self._next = self.sim.scheduler.at(when, self._tick)

    def _scan_number(self) -> int:
        return round(self.sim.clock.now() / SCAN_PERIOD)

    def _ms(self) -> int:
        return round(self.sim.clock.now() * 1000)

    # -- moving bytes ---------------------------------------------------------------------------
    def _connect(self) -> None:
        """Answer the handshake until the link is connected, then deliver its first requests."""
        deadline = time.monotonic() + self.timeout
        while self.link.state is not LinkState.CONNECTED:
            if self.link.state is LinkState.REFUSED or time.monotonic() > deadline:
                raise SerialLinkStalled(f"the link did not connect to the virtual board: {self.link.reason}")
            self.exchange()
            self.link.wait_until(lambda: self.link.state is LinkState.CONNECTED or self._pending_bytes(), 0.05)
        self.exchange()

    def _pending_bytes(self) -> bool:
        """The link has written bytes the device has not read (called under the link's lock)."""
        connection, sent, _ = self.link.traffic()
        return connection != self._connection or sent > self._read

    def _read_bytes(self, count: int) -> bytes:
        """Exactly ``count`` bytes from the link (they may still be in the pty's buffers)."""
        chunks: list[bytes] = []
        got = 0
        deadline = time.monotonic() + self.timeout
        while got < count:
            data = self.device.read()
            if data:
                chunks.append(data)
                got += len(data)
                continue
            left = deadline - time.monotonic()
            if left <= 0 or not self.device.plugged:
                raise SerialLinkStalled(f"only {got} of {count} bytes from the link reached the virtual board")
            self.device.wait_readable(min(left, 0.5))
        self._read += got
        return b"".join(chunks)

    def _deliver(self, data: bytes) -> None:
        """Write the device's bytes to the link (dropped while the link has not opened the port)."""
        if not data:
            return
        if self._connection == 0 or not self.device.plugged:
            self.device.dropped += len(data)
            return
        self._written += self.device.write(data)

    def _settle(self) -> None:
        """Wait until the link has handled everything written, then queue its events."""
        if self._written and self.device.plugged:
            if not self.link.wait_received(self._connection, self._written, self.timeout):
                connection, _sent, received = self.link.traffic()
                if connection == self._connection:
                    raise SerialLinkStalled(
                        f"the link handled {received} of the {self._written} bytes the virtual board sent "
                        f"within {self.timeout:g} s"
                    )
        self._collect()

    def _collect(self) -> None:
        for event in self.events.drain():
            self.sim.queue.put(event)

    def _wait(self, condition: Callable[[], bool], what: str) -> None:
        if not self.link.wait_until(condition, self.timeout):
            raise SerialLinkStalled(f"timed out waiting for {what} ({self.timeout:g} s)")


__all__ = ["SerialBoard", "SerialLinkStalled"]
