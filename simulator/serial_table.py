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
import random
import time
from collections.abc import Callable
from typing import Protocol

from firmware.board_logic import BoardLogic
from firmware.debounce import SETTLE_SCANS
from firmware.device import Device
from firmware.dice import DICE_SETTLE_SCANS
from hal.interfaces import Hardware, LightFrame
from hal.queue import ThreadSafeQueue
from hal.link_protocol import Phase
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


LATE = 0.5
"""Real seconds after which bytes the link counts as sent but the pty does not hold are taken
as read already (only after a reconnection, when the count per connection can be off)."""
CHUNK = 1024
"""Bytes written to the pty at a time when the device sends more (a flood of garbage)."""
BOOT_TIME = 0.5
"""Virtual seconds a rebooting device is silent before its HELLO (a Pico boots in about that)."""


class SerialLinkStalled(RuntimeError):
    """The link did not take or send what the lock-step driver waited for."""


class ByteFilter(Protocol):
    """What sits on the cable (a fault injector): every byte each way passes through it."""

    def to_device(self, data: bytes, now: float) -> bytes:
        """The link's bytes, as they reach the device."""
        ...

    def to_link(self, data: bytes, now: float) -> bytes:
        """The device's bytes, as they reach the link."""
        ...


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
        self.filter: ByteFilter | None = None
        """Sits on the cable when set (``simulator/faults.py``)."""
        self.frozen_until = -1.0
        """The device is stalled (no scan, no byte read or sent) until then (virtual seconds)."""
        self._frozen = False
        self._reboot_due = False
        self.cut_until = -1.0
        """The line carries no byte either way until then; the device runs on."""
        self.generation = 0
        """Device boots so far (a reboot is a fresh firmware on the same board)."""
        self.first_throw = self.device.device.throw
        """The throw number the running firmware booted with (it counts on from there)."""
        self._reboot_rng = random.Random(f"{sim.seed}/reboot")
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
        if self.frozen() or self.line_cut():
            return  # the board cannot answer yet: the link is waited for once it can
        self._connect()
        self._wake(ZONE_SCANS)

    def freeze(self, seconds: float, *, reboot: bool = False) -> None:
        """Stall the device for ``seconds`` (nothing scanned, read or sent meanwhile); with
        ``reboot`` it then boots afresh (new HELLO, counters, throw number; lights and any
        unacknowledged throw forgotten)."""
        now = self.sim.clock.now()
        self.frozen_until = max(self.frozen_until, now + seconds)
        self._frozen = True
        self._reboot_due = self._reboot_due or reboot
        self.sim.scheduler.at(self.frozen_until, self._thaw)

    def reboot(self, boot_time: float = BOOT_TIME) -> None:
        """Power-cycle the device: silent for ``boot_time``, then a fresh firmware boots."""
        self.freeze(boot_time, reboot=True)

    def cut(self, seconds: float) -> None:
        """No byte on the line either way for ``seconds``; the device scans on."""
        self.cut_until = max(self.cut_until, self.sim.clock.now() + seconds)
        self.sim.scheduler.at(self.cut_until, self._follow_link)

    def frozen(self) -> bool:
        """The device is stalled or booting now (until its thaw has run)."""
        return self._frozen

    def line_cut(self) -> bool:
        """The line carries nothing now."""
        return self.sim.clock.now() < self.cut_until - 1e-9

    def _thaw(self) -> None:
        if not self._frozen or self.sim.clock.now() < self.frozen_until - 1e-9:
            return  # stalled again meanwhile: the later thaw does it
        self._frozen = False
        reboot, self._reboot_due = self._reboot_due, False
        if reboot:
            virtual = self.device
            virtual.logic = BoardLogic(virtual.sensors.layout, virtual.sensors.calibration)
            old = virtual.device
            virtual.device = Device(virtual.logic, firmware=old.firmware, device_id=old.device_id, store=old.store,
                                    now_ms=self._ms(), first_throw=self._reboot_rng.getrandbits(16))
            self.generation += 1
            self.first_throw = virtual.device.throw
            self._deliver(virtual.device.boot(self._ms()))
            self._settle()
        self._wake(DICE_SCANS)
        self._follow_link()

    def _follow_link(self) -> None:
        """A link that lost the board (silence) is waited for until it has said so and, when the
        board can answer, until it has reconnected: the clock does not move meanwhile."""
        link = self.link
        if link.state is LinkState.CONNECTED and link.protocol.phase is Phase.BROKEN:
            self._wait(lambda: link.state is not LinkState.CONNECTED, "the link to notice the silence")
        self._collect()
        if link.state in (LinkState.LOST, LinkState.CONNECTING) and self.device.plugged and not self.frozen() \
                and not self.line_cut():
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
            if not self.device.plugged or self.frozen():
                break
            connection, sent, _received = self.link.traffic()
            if connection != self._connection:  # the link opened the port afresh
                self._connection, self._read, self._written = connection, 0, 0
            if self._read >= sent:
                break
            data = self._read_bytes(sent - self._read)
            if self.line_cut():
                continue
            if self.filter is not None:
                data = self.filter.to_device(data, self.sim.clock.now())
            self._deliver(self.device.receive(data, self._ms()))
            self._settle()
        self._settle()

    def _tick(self) -> None:
        """One scheduled pass of the firmware's loop (a scan when something may settle)."""
        self._next = None
        scan = self._scan_number()
        self.link.run_timers()  # the Pi's heartbeats and resends, at this virtual instant
        self._follow_link()
        if self.frozen() and self.sim.clock.now() >= self.frozen_until - 1e-9:
            self._thaw()  # due now: this pass runs on the thawed (or rebooted) device
        if self.frozen():
            self._collect()
            self._schedule(max(scan + 1, min(scan + IDLE_SCANS, math.ceil(self.frozen_until / SCAN_PERIOD - 1e-6))))
            return
        self.exchange()
        active = scan <= self._active_until or self.device.device.busy
        self._deliver(self.device.tick(self._ms(), scan=active))
        self._settle()
        if active or self.device.device.busy:
            self._schedule(scan + 1)
        else:
            due = self.device.device.resend_due_ms  # an unacknowledged throw is sent again then
            later = scan + IDLE_SCANS if due is None else min(scan + IDLE_SCANS, max(scan + 1, math.ceil(due / 1000 / SCAN_PERIOD)))
            self._schedule(later)

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
        started = time.monotonic()
        deadline = started + self.timeout
        while got < count:
            data = self.device.read()
            if data:
                chunks.append(data)
                got += len(data)
                continue
            if self.link.traffic()[0] != self._connection:
                break  # the link gave that connection up (a failed handshake): its bytes are void
            if self.link.stats.losses and time.monotonic() - started > LATE:
                # after a reconnection the count can be off: bytes of the new connection may
                # have been read with the last ones of the old; they reached the device then
                got = count
                break
            left = deadline - time.monotonic()
            if left <= 0 or not self.device.plugged:
                raise SerialLinkStalled(f"only {got} of {count} bytes from the link reached the virtual board")
            self.device.wait_readable(min(left, 0.1))
        self._read += got
        return b"".join(chunks)

    def _deliver(self, data: bytes) -> None:
        """Write the device's bytes to the link (dropped while the link has not opened the port)."""
        if data and self.filter is not None:
            data = self.filter.to_link(data, self.sim.clock.now())
        if not data:
            return
        if self._connection == 0 or not self.device.plugged or self.line_cut():
            self.device.dropped += len(data)
            return
        while len(data) > CHUNK:  # a flood (garbage) goes in pieces the pty can hold
            self._written += self.device.write(data[:CHUNK])
            data = data[CHUNK:]
            self._settle()
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


__all__ = ["BOOT_TIME", "ByteFilter", "SerialBoard", "SerialLinkStalled"]
