"""The Pi's side of the USB serial link to the Pico under the board: the transport behind the
``BoardSensor``, ``PointLights`` and tray ``DiceSource`` interfaces (firmware/PROTOCOL.md).

Shaped like pyserial's ``serial.threaded.ReaderThread``: ``BoardLink`` owns the port, one
worker thread, a lock and the reconnections, and nothing of the protocol; every byte goes
through a ``hal.link_protocol.LinkProtocol``, which does the framing, the handshake check,
acknowledgements, resends, throw numbers and snapshot gaps, and posts hal events on the one
queue: SNAPSHOT -> ``SnapshotEvent``, a throw -> ``DiceEvent`` (tray, each throw once),
ERROR -> ``DeviceEvent(ok=False)``.  After an unplug (the port vanishes, a read fails, or the
board falls silent) it posts ``link lost``, reopens the port every second, and once the board
answers again the protocol re-sends the lights and asks for the board and the tray; the link
posts ``link back``.

The protocol's timers (heartbeats, silence, acknowledgements) run on the injected clock, so a
simulation on virtual time stays deterministic; connection attempts and the handshake run on
real time.  ``show`` and ``request_snapshot`` never block.  The commands that wait for the
board's answer (raw readings, calibration, LED test) are ``hal.board_client.BoardClient``.
"""

from __future__ import annotations

import glob
import threading
import time
from collections.abc import Callable
from enum import Enum
from typing import Protocol, Self, TypeVar

import serial
import serial.tools.list_ports

from firmware import protocol as p

from .interfaces import Clock, DeviceEvent, DiceKind, Event, EventQueue, LightFrame
from .link_log import printable
from .link_protocol import (
    DEVICE,
    Hello,
    LinkError,
    LinkProtocol,
    LinkRefused,
    LinkStats,
    LinkTimings,
    Phase,
    snapshot_of,
)
from .zones import ZONE_INDEX, ZONES

__all__ = [
    "BAUDRATE",
    "PICO_VID",
    "BoardLink",
    "Hello",
    "LinkError",
    "LinkRefused",
    "LinkState",
    "LinkStats",
    "LinkTimings",
    "find_port",
    "leds_payload_of",
    "open_board",
    "snapshot_of",
]

PICO_VID = 0x2E8A
"""The Raspberry Pi Pico's USB vendor id (Raspberry Pi Ltd)."""
BAUDRATE = 115200
"""Ignored by USB CDC; set for a real UART in between."""

Log = Callable[[str], None]
T = TypeVar("T")


class LinkState(str, Enum):
    """Where the link stands, to show the player."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    LOST = "lost"
    REFUSED = "refused"
    CLOSED = "closed"


class SerialPort(Protocol):
    """What the link needs of a pyserial port."""

    in_waiting: int

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


Opener = Callable[[str, float], SerialPort]
"""Opens ``url`` with a read timeout in seconds."""


def open_serial(url: str, timeout: float) -> SerialPort:
    """The default opener: pyserial's ``serial_for_url`` at 115200 baud, exclusive."""
    return serial.serial_for_url(url, baudrate=BAUDRATE, timeout=timeout, write_timeout=1.0, exclusive=True)


class _Lost(Exception):
    """The link broke; the message says how."""


def find_port() -> str:
    """The board's serial device: a USB port with the Pico's vendor id first, else the first
    ``/dev/ttyACM*``; LinkError listing what there is when neither is found."""
    ports = sorted(serial.tools.list_ports.comports(), key=lambda port: port.device)
    for port in ports:
        if port.vid == PICO_VID:
            return port.device
    acm = sorted(glob.glob("/dev/ttyACM*"))
    if acm:
        return acm[0]
    seen = ", ".join(f"{port.device} ({port.description})" for port in ports) or "none"
    raise LinkError(
        f"no board found: no USB serial device with the Pico's vendor id 0x{PICO_VID:04X} and no /dev/ttyACM* "
        f"(serial ports seen: {seen}); plug the board in, or set board.port in the configuration"
    )


def leds_payload_of(frame: LightFrame) -> bytes:
    """The LEDS payload for a light frame: (colour code, mode code) per zone in ZONES order."""
    pairs = [(p.COLOUR_CODES["off"], p.MODE_CODES["steady"])] * len(ZONES)
    for zone, light in frame.lights:
        pairs[ZONE_INDEX[zone]] = (p.COLOUR_CODES[light.colour.value], p.MODE_CODES[light.mode.value])
    return p.leds_payload(pairs)


class BoardLink:
    """The board over one serial port; see the module docstring.  ``start()`` begins
    connecting; ``close()`` ends it."""

    kind = DiceKind.TRAY

    def __init__(
        self,
        url: str,
        events: EventQueue,
        clock: Clock,
        log: Log = print,
        *,
        timings: LinkTimings | None = None,
        opener: Opener | None = None,
        own_timers: bool = True,
    ) -> None:
        self.url = url
        self.timings = timings or LinkTimings()
        self.own_timers = own_timers
        """The worker runs the protocol timers; False: the owner calls ``run_timers`` (lock-step)."""
        self._events = events
        self._clock = clock
        self._log = log
        self._opener = opener or open_serial
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: SerialPort | None = None
        self._state = LinkState.CONNECTING
        self._attempts = 0
        self.reason = ""
        """Why the link is not connected: the last failure, in words."""
        self.protocol = LinkProtocol(self._post, self._say, self.timings)
        self._connection = 0
        self._sent = 0
        self._received = 0
        self._broken: str | None = None

    @property
    def hello(self) -> Hello | None:
        """Who the board said it is (its last HELLO)."""
        return self.protocol.hello

    @property
    def stats(self) -> LinkStats:
        """What the link has counted since it started."""
        return self.protocol.stats

    # -- lifecycle ----------------------------------------------------------------------------
    def start(self) -> BoardLink:
        """Start the worker thread (connect, then read and reconnect until closed)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"board-link {self.url}", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the worker and close the port; no events after this."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)
        with self._lock:
            self._close_port()
            self._set_state(LinkState.CLOSED)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def state(self) -> LinkState:
        """connecting, connected, lost, refused or closed."""
        return self._state

    def wait_connected(self, timeout: float, *, first_attempt: bool = False) -> Hello:
        """Block until the board is connected; LinkRefused at once for a foreign board, else
        LinkError after ``timeout`` (or after the first failed attempt) naming the cause."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                if self._state is LinkState.CONNECTED and self.hello is not None:
                    return self.hello
                if self._state is LinkState.REFUSED:
                    raise LinkRefused(f"{self.url}: {self.reason}")
                if self._state is LinkState.CLOSED:
                    raise LinkError(f"{self.url}: the link is closed")
                if first_attempt and self._attempts:
                    raise LinkError(f"{self.url}: {self.reason}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise LinkError(f"{self.url}: {self.reason or 'no answer'} (waited {timeout:g} s)")
                self._changed.wait(left)

    # -- the hal interfaces ---------------------------------------------------------------------
    def show(self, frame: LightFrame) -> None:
        """PointLights: send the frame's lights (if they changed); acknowledged and resent."""
        payload = leds_payload_of(frame)
        with self._lock:
            self._write(self.protocol.show(payload, self._clock.now()))

    def request_snapshot(self) -> None:
        """BoardSensor: ask for the settled snapshot and the tray now (asked again on every
        reconnection, and until answered)."""
        with self._lock:
            self._write(self.protocol.request_snapshot(self._clock.now()))

    # -- for the blocking client (hal/board_client.py) ------------------------------------------
    def exchange(self, step: Callable[[LinkProtocol, float], tuple[T, bytes]], *, connected: bool = True) -> T:
        """Run ``step(protocol, now)`` under the link's lock and write the bytes it returns;
        its result back.  ``connected``: LinkError if the board is not connected."""
        with self._changed:
            if connected:
                self._require_connected()
            result, data = step(self.protocol, self._clock.now())
            self._write(data)
            self._changed.notify_all()
            return result

    def say(self, line: str) -> None:
        """Log a line the way the link does."""
        self._say(line)

    # -- for a lock-step simulation -------------------------------------------------------------
    def traffic(self) -> tuple[int, int, int]:
        """(connection number, bytes written, bytes read and handled) on the current connection."""
        with self._lock:
            return self._connection, self._sent, self._received

    def wait_until(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Block until ``condition()`` (checked under the link's lock at every change) holds."""
        with self._changed:
            return self._changed.wait_for(condition, timeout)

    def wait_received(self, connection: int, count: int, timeout: float) -> bool:
        """Block until ``count`` bytes of connection ``connection`` have been read and handled."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._connection == connection and self._received < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            return self._connection == connection

    def run_timers(self) -> None:
        """Run the protocol timers now (heartbeat, resends, silence): for an owner that drives
        the link in lock-step with a virtual clock (``own_timers=False``)."""
        with self._lock:
            if self._state is LinkState.CONNECTED and self._broken is None:
                self._timers()

    # -- the worker -------------------------------------------------------------------------------
    def _run(self) -> None:
        """Connect, serve, reconnect, until closed."""
        was_connected = False
        while not self._stop.is_set():
            try:
                port = self._open()
                self._handshake(port)
            except LinkRefused as error:
                self._failed(str(error), refused=True, post=was_connected)
                self._pause()
                continue
            except (LinkError, _Lost, serial.SerialException, OSError, TypeError) as error:
                self._failed(str(error), refused=False, post=False)
                self._pause()
                continue
            self._connected(back=was_connected)
            was_connected = True
            try:
                self._serve(port)
            except _Lost as lost:
                self._lost(str(lost))
            except LinkRefused as error:
                self._failed(str(error), refused=True, post=True)
            except Exception as error:  # a bug must not kill the link silently: report, reconnect
                self._lost(f"internal error in the link: {type(error).__name__}: {error}")
        with self._lock:
            self._close_port()

    def _pause(self) -> None:
        """Wait before the next attempt (real time)."""
        self._stop.wait(self.timings.retry)

    def _open(self) -> SerialPort:
        """Open the port afresh: new per-connection counters."""
        try:
            port = self._opener(self.url, self.timings.poll)
        except (serial.SerialException, OSError, ValueError) as error:
            raise LinkError(f"cannot open {self.url}: {error}") from None
        with self._lock:
            self._port = port
            self._connection += 1
            self._sent = self._received = 0
            self._broken = None
            self._changed.notify_all()
        return port

    def _handshake(self, port: SerialPort) -> None:
        """0x00 and HELLO_REQUEST, then wait (real time) for a HELLO the protocol accepts."""
        protocol = self.protocol
        with self._lock:
            self._write(protocol.connection_made(self._clock.now()))
            if self._broken is not None:
                raise LinkError(f"cannot write to {self.url}: {self._broken}")
        started = time.monotonic()
        deadline = started + self.timings.hello
        asked_again = False
        received = 0
        frames = protocol.stats.frames
        while not self._stop.is_set() and time.monotonic() < deadline:
            if not asked_again and time.monotonic() >= started + self.timings.hello / 2:
                asked_again = True  # a board still booting may have missed the first request
                with self._lock:
                    self._write(protocol.ask_hello(self._clock.now()))
            data = self._read(port)
            if not data:
                continue
            with self._lock:
                received += len(data)
                self._feed(data)
            if protocol.phase is Phase.REFUSED:
                raise LinkRefused(protocol.problem)
            if protocol.phase is Phase.CONNECTED:
                return
        if self._stop.is_set():
            raise LinkError("closed")
        if not received:
            raise LinkError(
                f"no answer within {self.timings.hello:g} s: is this the board's Pico, running the trictrac firmware?"
            )
        valid = protocol.stats.frames - frames
        if not valid:
            raise LinkError(
                f"not our firmware: {received} bytes came back but no frame of this protocol "
                "(another program on the Pico, or the wrong port?)"
            )
        raise LinkError(f"the board sent {valid} frames but no HELLO within {self.timings.hello:g} s")

    def _connected(self, back: bool) -> None:
        """Handshake done: say so (the protocol already asked for the board and re-sent the lights)."""
        now = self._clock.now()
        hello = self.hello
        assert hello is not None
        with self._lock:
            if back:  # posted before the state changes, so whoever waits for it finds the event
                self._post(DeviceEvent(now, DEVICE, f"link back: firmware {printable(hello.firmware)}", ok=True))
            self._set_state(LinkState.CONNECTED)
            self.reason = ""
        self._say(f"board link: {'back' if back else 'connected'} on {self.url}: firmware {printable(hello.firmware)!r}")

    def _serve(self, port: SerialPort) -> None:
        """Read, feed the protocol and keep the timers until the link breaks."""
        protocol = self.protocol
        while not self._stop.is_set():
            data = self._read(port)
            with self._lock:
                if data:
                    self._feed(data)
                if self.own_timers:
                    self._timers()
                if protocol.phase is Phase.REFUSED:
                    raise LinkRefused(protocol.problem)
                if protocol.phase is Phase.BROKEN and self._broken is None:
                    self._broken = protocol.problem
                if self._broken is not None:
                    raise _Lost(self._broken)

    def _feed(self, data: bytes) -> None:
        """Bytes read: through the protocol, its answer written (lock held)."""
        self._write(self.protocol.data_received(data, self._clock.now()))
        self._received += len(data)
        self._changed.notify_all()

    def _timers(self) -> None:
        self._write(self.protocol.timers(self._clock.now()))
        if self.protocol.phase is Phase.BROKEN and self._broken is None:
            self._broken = self.protocol.problem
        self._changed.notify_all()

    def _read(self, port: SerialPort) -> bytes:
        """What has arrived (blocks up to the poll time); _Lost if the port is gone."""
        try:
            data = port.read(1)
            if data:
                waiting = port.in_waiting
                if waiting:
                    data += port.read(min(waiting, 1 << 16))
            return bytes(data)
        except (serial.SerialException, OSError, TypeError, AttributeError) as error:
            raise _Lost(f"the port failed ({error})") from None

    def _lost(self, reason: str) -> None:
        """The link broke: close the port, say so once; the worker then tries to reopen."""
        with self._lock:
            self._close_port()
            if self._stop.is_set():
                return
            self.reason = reason
            self.protocol.connection_lost(reason)
            self._changed.notify_all()
            self._post(DeviceEvent(self._clock.now(), DEVICE, f"link lost: {reason}", ok=False, stale=True))
            self._set_state(LinkState.LOST)
        self._say(f"board link: lost on {self.url}: {reason}")

    def _failed(self, reason: str, refused: bool, post: bool) -> None:
        """An attempt failed (cannot open, no or wrong answer) or the board was refused."""
        with self._lock:
            self._close_port()
            if self._stop.is_set():
                return
            self._attempts += 1
            changed = reason != self.reason
            self.reason = reason
            if changed and post and refused:
                self._post(DeviceEvent(self._clock.now(), DEVICE, f"link refused: {reason}", ok=False, stale=True))
            if refused:
                self._set_state(LinkState.REFUSED)
            else:
                self._set_state(LinkState.LOST if self.stats.connections else LinkState.CONNECTING)
        if changed:
            self._say(f"board link: {self.url}: {reason}")

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:  # closing a vanished port may fail; it is gone either way
                pass

    def _set_state(self, state: LinkState) -> None:
        self._state = state
        self._changed.notify_all()

    # -- frames out --------------------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        """Write bytes (lock held); a failure is noted for the worker, which treats it as a loss."""
        port = self._port
        if port is None or not data:
            return
        try:
            port.write(data)
        except (serial.SerialException, OSError, TypeError, AttributeError) as error:
            self._broken = f"writing failed ({error})"
            return
        self._sent += len(data)

    def _require_connected(self) -> None:
        if self._state is not LinkState.CONNECTED:
            raise LinkError(f"{self.url}: the board is not connected ({self._state.value}: {self.reason or 'starting'})")

    def _post(self, event: Event) -> None:
        self._events.put(event)

    def _say(self, line: str) -> None:
        """Log a line; a failing log callback must not stop the link."""
        try:
            self._log(line)
        except Exception:  # noqa: BLE001 - the link outlives a broken logger
            pass


def open_board(
    port: str | None,
    events: EventQueue,
    clock: Clock,
    log: Log = print,
    *,
    timeout: float = 5.0,
    timings: LinkTimings | None = None,
    opener: Opener | None = None,
) -> BoardLink:
    """The board on ``port`` (None: found with ``find_port``), connected and checked; LinkError
    or LinkRefused naming the cause when it cannot be played with."""
    url = port if port is not None else find_port()
    link = BoardLink(url, events, clock, log, timings=timings, opener=opener).start()
    try:
        link.wait_connected(timeout, first_attempt=True)
    except LinkError:
        link.close()
        raise
    return link

