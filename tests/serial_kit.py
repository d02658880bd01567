"""Helpers for the serial-link tests: a Device behind pyserial's ``loop://``, a scripted peer
on a real pseudo-terminal, a settable clock, foreign frames, and waiting with a timeout."""

from __future__ import annotations

import os
import random
import select
import struct
import threading
import time
import tty
from collections.abc import Callable

import serial

from firmware import protocol as p
from firmware.board_logic import BoardLogic
from firmware.device import Device
from firmware.scan import Layout
from firmware.synthetic import HallBoard, calibrate

WAIT = 15.0
"""Real seconds a test waits for something that normally takes milliseconds (a loaded CI box)."""

_CALIBRATION = None


def calibration():
    """One calibration of a modelled board, measured once per test session."""
    global _CALIBRATION
    if _CALIBRATION is None:
        _CALIBRATION = calibrate(HallBoard(Layout(), random.Random(5)), scans=4)
    return _CALIBRATION


def device(**kwargs: object) -> Device:
    """A Device with the firmware's logic on the reference layout, calibrated."""
    kwargs.setdefault("first_throw", 0)
    return Device(BoardLogic(Layout(), calibration()), **kwargs)  # type: ignore[arg-type]


def wait_for(condition: Callable[[], bool], timeout: float = WAIT, what: str = "the condition") -> None:
    """Poll ``condition`` until it holds; AssertionError naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.002)


class ManualClock:
    """A clock the test moves by hand (read from the link's thread)."""

    def __init__(self, start: float = 0.0) -> None:
        self.time = start

    def now(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds


def foreign_frame(version: int, msg_type: int, payload: bytes = b"", seq: int = 0) -> bytes:
    """A well-formed frame of another protocol version (good COBS, good CRC)."""
    body = bytes((version, msg_type, seq)) + payload
    return p.cobs_encode(body + struct.pack("<I", p.crc32(body))) + b"\x00"


def hello_frame(version: int = p.PROTOCOL_VERSION, zones: int = 28, caps: int = p.CAP_ALL, firmware: str = "trictrac-fw 9.9") -> bytes:
    """A HELLO frame as a board of that version would send it."""
    payload = p.hello_payload(firmware, caps, b"\x01" * 8, zone_count=zones, protocol_version=version)
    return foreign_frame(version, p.HELLO, payload)


class LoopPort:
    """A pyserial ``loop://`` port with a peer behind it: what the link writes goes to
    ``peer(data) -> answer`` and the answer comes back to the link's reads; ``inject``
    writes device-side bytes directly.  ``opener`` plugs it into a BoardLink."""

    def __init__(self, peer: Callable[[bytes], bytes]) -> None:
        self.peer = peer
        self.port: serial.SerialBase | None = None
        self.written = bytearray()
        self._lock = threading.Lock()

    def opener(self, url: str, timeout: float) -> LoopPort:
        self.port = serial.serial_for_url("loop://", timeout=timeout)
        return self

    # the SerialPort protocol, for the link
    @property
    def in_waiting(self) -> int:
        assert self.port is not None
        return self.port.in_waiting

    def read(self, size: int = 1) -> bytes:
        assert self.port is not None
        return self.port.read(size)

    def write(self, data: bytes) -> int:
        with self._lock:
            assert self.port is not None
            self.written.extend(data)
            answer = self.peer(bytes(data))
            if answer:
                self.port.write(answer)
        return len(data)

    def close(self) -> None:
        if self.port is not None:
            self.port.close()

    def inject(self, data: bytes) -> None:
        """Bytes from the device side, straight to the link's reads."""
        with self._lock:
            assert self.port is not None
            self.port.write(data)


class PtyPeer:
    """A real pseudo-terminal whose far end is ``peer(data) -> answer`` on a thread."""

    def __init__(self, peer: Callable[[bytes], bytes]) -> None:
        self.peer = peer
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.received = bytearray()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            self.received.extend(data)
            answer = self.peer(data)
            if answer:
                self.inject(answer)

    def inject(self, data: bytes) -> None:
        """Bytes from the device side, to the link."""
        view = memoryview(data)
        while view:
            written = os.write(self.master, view)
            view = view[written:]

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class LoopBoard:
    """The firmware on simulated sensors behind ``loop://``: a ``LoopPort`` whose peer is a
    Device, scanned every 20 ms on a thread (a VirtualDevice without the pty)."""

    def __init__(self, seed: int = 1) -> None:
        from simulator.board import PhysicalBoard
        from simulator.hall_sensors import HallSensors

        self.board = PhysicalBoard()
        self.sensors = HallSensors(self.board, random.Random(seed))
        self.device = Device(BoardLogic(self.sensors.layout, self.sensors.calibration))
        self.port = LoopPort(self._receive)
        self.scans = 0
        self._started = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _ms(self) -> int:
        return int((time.monotonic() - self._started) * 1000)

    def _receive(self, data: bytes) -> bytes:
        return self.device.receive(data, self._ms())

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            if self.port.port is None or not self.port.port.is_open:
                continue
            raw = self.sensors.scan()
            self.scans += 1
            with self.port._lock:
                out = self.device.tick(raw, self._ms())
                if out and self.port.port is not None and self.port.port.is_open:
                    self.port.port.write(out)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


def throw(board: object, dice: tuple[int, int]) -> None:
    """Throw the dice on a real-time virtual board as a player does: out of the pockets, then
    landing; first letting the firmware learn the tray (it never reports dice found at start)."""
    wait_for(lambda: board.scans > 15, what="the firmware to learn the tray")  # type: ignore[attr-defined]
    board.sensors.set_dice(None)  # type: ignore[attr-defined]
    seen = board.scans  # type: ignore[attr-defined]
    wait_for(lambda: board.scans > seen + 2, what="a scan of the empty tray")  # type: ignore[attr-defined]
    board.sensors.set_dice(dice)  # type: ignore[attr-defined]
