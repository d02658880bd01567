"""The Pi's side of the USB serial link to the Pico under the board: the driver behind the
``BoardSensor``, ``PointLights`` and tray ``DiceSource`` interfaces (firmware/PROTOCOL.md).

``BoardLink`` owns one worker thread.  It opens the port (``serial.serial_for_url``, so a
device path, ``loop://`` or ``spy://`` all work), does the handshake, then reads frames and
posts hal events on the one queue: SNAPSHOT -> ``SnapshotEvent``, DICE -> ``DiceEvent``
(tray), ERROR -> ``DeviceEvent(ok=False)``.  It keeps the link alive with heartbeats, resends
unacknowledged commands, and after an unplug (the port vanishes, a read fails, or the board
falls silent) posts ``link lost``, reopens the port every second, and once the board answers
again re-sends the lights, asks for a full snapshot and posts ``link back``.

The protocol's timers (heartbeats, silence, acknowledgements) run on the injected clock, so a
simulation on virtual time stays deterministic; connection attempts and the handshake run on
real time.  ``show`` and ``request_snapshot`` never block; the calibration client methods
(``raw_scans``, ``get_calibration``, ``set_calibration``, ``store_calibration``,
``show_test``) block until the board answers or their timeout passes.
"""

from __future__ import annotations

import glob
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol, Self

import serial
import serial.tools.list_ports

from firmware import protocol as p
from firmware.classify import Calibration
from firmware.scan import Layout
from firmware.wire_calibration import calibration_of, level_chunks, sensor_levels

from .interfaces import (
    BoardSnapshot,
    Clock,
    DeviceEvent,
    DiceEvent,
    DiceKind,
    Event,
    EventQueue,
    LightColour,
    LightFrame,
    LightMode,
    SnapshotEvent,
    ZoneReading,
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
    "LinkTimings",
    "find_port",
    "leds_payload_of",
    "open_board",
]

PICO_VID = 0x2E8A
"""The Raspberry Pi Pico's USB vendor id (Raspberry Pi Ltd)."""
BAUDRATE = 115200
"""Ignored by USB CDC; set for a real UART in between."""
DEVICE = "board"
"""The name the link's DeviceEvents carry."""

Log = Callable[[str], None]


class LinkError(RuntimeError):
    """The board cannot be talked to; the message names the cause."""


class LinkRefused(LinkError):
    """The other side answers but is no board this controller can play with."""


class LinkState(str, Enum):
    """Where the link stands, to show the player."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    LOST = "lost"
    REFUSED = "refused"
    CLOSED = "closed"


@dataclass(frozen=True)
class LinkTimings:
    """The link's timers: protocol ones in clock seconds, connection ones in real seconds."""

    heartbeat: float = 1.0
    """Send a HEARTBEAT when nothing was sent for this long (clock)."""
    silence: float = 3.0
    """No valid frame for this long: the link is lost (clock)."""
    ack: float = 0.25
    """Resend an acknowledged command after this long without its ACK (clock)."""
    resends: int = 3
    """Resends before an unacknowledged command is a device fault."""
    retry: float = 1.0
    """Real seconds between attempts to reopen a lost port."""
    hello: float = 2.0
    """Real seconds the handshake waits for the HELLO."""
    poll: float = 0.05
    """Real seconds the reader blocks at most, so the timers above run."""


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


@dataclass(frozen=True)
class Hello:
    """Who the board said it is."""

    protocol_version: int
    capabilities: int
    zone_count: int
    device_id: bytes
    firmware: str

    def has(self, capability: int) -> bool:
        """The board has that ``CAP_*`` capability."""
        return bool(self.capabilities & capability)


@dataclass
class LinkStats:
    """What the link has counted since it started."""

    frames: int = 0
    rejected: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    resends: int = 0
    unacknowledged: int = 0
    connections: int = 0
    losses: int = 0
    dice_suppressed: int = 0


@dataclass
class _Pending:
    """A command waiting for its ACK."""

    msg_type: int
    payload: bytes
    sent_at: float
    tries: int = 1
    status: int | None = None
    failed: bool = False
    done: bool = False


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


def snapshot_of(zones: Sequence[tuple[int, int] | None]) -> BoardSnapshot:
    """A parsed SNAPSHOT's zones as a BoardSnapshot."""
    return BoardSnapshot(tuple(None if zone is None else ZoneReading(zone[0], zone[1]) for zone in zones))


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
        self.hello: Hello | None = None
        self.stats = LinkStats()
        # per connection
        self._decoder = p.Decoder()
        self._foreign: tuple[int, int, int, bytes] | None = None
        self._seq = 0
        self._connection = 0
        self._sent = 0
        self._received = 0
        self._last_rx = 0.0
        self._last_tx = 0.0
        self._broken: str | None = None
        self._pending: dict[int, _Pending] = {}
        # board state the link keeps across connections
        self._lights: bytes | None = None
        self._lights_stale = False
        self._snapshot_counter: int | None = None
        self._requested = False
        self._state_dice_next = False
        self._last_dice: tuple[int, int] | None = None
        self._dice_known = False
        self._last_reject_log = 0.0
        # the client API's collections
        self._raw_on = False
        self._raw_partial: list[int] | None = None
        self._raw_scans: list[list[int]] = []
        self._levels: list[tuple[int, ...] | None] | None = None
        self._errors: list[tuple[int, str]] = []

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
            if payload == self._lights and not self._lights_stale:
                return
            self._lights, self._lights_stale = payload, False
            if self._state is LinkState.CONNECTED:
                self._send_lights()

    def request_snapshot(self) -> None:
        """BoardSensor: ask for the settled snapshot now (sent again on every reconnection)."""
        with self._lock:
            self._requested = True
            if self._state is LinkState.CONNECTED:
                self._send(p.SNAPSHOT_REQUEST)

    # -- the calibration and diagnosis client -------------------------------------------------
    def set_raw_mode(self, on: bool, timeout: float = 2.0) -> None:
        """Turn the board's raw readings stream on or off."""
        self._command(p.RAW_MODE, p.raw_mode_payload(on), timeout)

    def raw_scans(self, count: int, timeout: float = 10.0) -> list[list[int]]:
        """``count`` whole raw scans (every sensor's reading, sensor order), raw mode on meanwhile."""
        with self._lock:
            self._raw_on, self._raw_partial, self._raw_scans = True, None, []
        try:
            self.set_raw_mode(True)
            deadline = time.monotonic() + timeout
            with self._changed:
                while len(self._raw_scans) < count:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise LinkError(f"{self.url}: only {len(self._raw_scans)} of {count} raw scans came in {timeout:g} s")
                    self._changed.wait(left)
                return [list(scan) for scan in self._raw_scans[:count]]
        finally:
            with self._lock:
                self._raw_on = False
            if self._state is LinkState.CONNECTED:
                try:
                    self.set_raw_mode(False)
                except LinkError as error:
                    self._say(f"board link: raw mode left on: {error}")

    def get_levels(self, timeout: float = 3.0) -> list[tuple[int, ...]]:
        """The board's calibration as the wire carries it: per sensor a tuple of levels."""
        with self._lock:
            self._levels, self._errors = None, []
            self._require_connected()
            self._send(p.CALIBRATION_GET)
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._levels is None or None in self._levels:
                for code, text in self._errors:
                    if code == p.CALIBRATION_MISSING:
                        raise LinkError(f"{self.url}: the board has no calibration ({text}): run trictrac calibrate")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise LinkError(f"{self.url}: the board sent no whole calibration within {timeout:g} s")
                self._changed.wait(left)
            return [levels for levels in self._levels if levels is not None]

    def get_calibration(self, layout: Layout | None = None, timeout: float = 3.0) -> Calibration:
        """The board's calibration (hysteresis, window and over-range are the defaults: not sent)."""
        return calibration_of(self.get_levels(timeout), layout or Layout())

    def set_calibration(self, calibration: Calibration, layout: Layout | None = None, timeout: float = 3.0) -> None:
        """Send a calibration; the board uses it at once (in RAM).  LinkError names a refusal."""
        levels = sensor_levels(calibration, layout or Layout())
        for first, chunk in level_chunks(levels):
            self._command(p.CALIBRATION_SET, p.calibration_payload(first, len(levels), chunk), timeout)

    def store_calibration(self, timeout: float = 5.0) -> None:
        """Have the board write its calibration to flash."""
        self._command(p.CALIBRATION_STORE, b"", timeout)

    def show_test(self, colour: LightColour, mode: LightMode = LightMode.STEADY, timeout: float = 2.0) -> None:
        """Light every zone in one colour (``trictrac doctor``); the next ``show`` restores the game's lights."""
        code = (p.COLOUR_CODES[colour.value], p.MODE_CODES[mode.value])
        with self._lock:
            self._lights_stale = True
        self._command(p.LEDS, p.leds_payload([code] * len(ZONES)), timeout)

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

    # -- the worker -------------------------------------------------------------------------------
    def _run(self) -> None:
        """Connect, serve, reconnect, until closed."""
        was_connected = False
        while not self._stop.is_set():
            try:
                port = self._open()
                hello, rest = self._handshake(port)
            except LinkRefused as error:
                self._failed(str(error), refused=True, post=was_connected)
                self._pause()
                continue
            except (LinkError, _Lost, serial.SerialException, OSError, TypeError) as error:
                self._failed(str(error), refused=False, post=False)
                self._pause()
                continue
            self._connected(hello, rest, back=was_connected)
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
        """Open the port afresh: a new decoder and new per-connection counters."""
        try:
            port = self._opener(self.url, self.timings.poll)
        except (serial.SerialException, OSError, ValueError) as error:
            raise LinkError(f"cannot open {self.url}: {error}") from None
        with self._lock:
            self._port = port
            self._connection += 1
            self._sent = self._received = 0
            self._decoder = p.Decoder()
            self._foreign = None
            self._broken = None
            self._pending.clear()
            self._changed.notify_all()
        return port

    def _handshake(self, port: SerialPort) -> tuple[Hello, list[tuple[int, int, bytes]]]:
        """0x00 and HELLO_REQUEST, then the HELLO: checked for version, zones and capabilities;
        with it, the frames that came after it in the same read."""
        with self._lock:
            self._write(b"\x00")
            self._send(p.HELLO_REQUEST)
            if self._broken is not None:
                raise LinkError(f"cannot write to {self.url}: {self._broken}")
        started = time.monotonic()
        deadline = started + self.timings.hello
        asked_again = False
        received = valid = 0
        while not self._stop.is_set():
            if time.monotonic() >= deadline:
                break
            if not asked_again and time.monotonic() >= started + self.timings.hello / 2:
                asked_again = True  # a board still booting may have missed the first request
                with self._lock:
                    self._send(p.HELLO_REQUEST)
            data = self._read(port)
            if not data:
                continue
            with self._lock:
                frames = self._decode(data)
                received += len(data)
                self._received += len(data)
                self._changed.notify_all()
            if self._foreign is not None:
                raise LinkRefused(p.describe_foreign(self._foreign))
            for index, (msg_type, _seq, payload) in enumerate(frames):
                valid += 1
                if msg_type == p.HELLO:
                    return self._check_hello(payload), frames[index + 1 :]
        if self._stop.is_set():
            raise LinkError("closed")
        if not received:
            raise LinkError(
                f"no answer within {self.timings.hello:g} s: is this the board's Pico, running the trictrac firmware?"
            )
        if not valid:
            raise LinkError(
                f"not our firmware: {received} bytes came back but no frame of this protocol "
                "(another program on the Pico, or the wrong port?)"
            )
        raise LinkError(f"the board sent {valid} frames but no HELLO within {self.timings.hello:g} s")

    def _check_hello(self, payload: bytes) -> Hello:
        try:
            hello = Hello(*p.parse_hello(payload))
        except p.ProtocolError as error:
            raise LinkError(f"not our firmware: its HELLO does not parse ({error})") from None
        if hello.protocol_version != p.PROTOCOL_VERSION:
            raise LinkRefused(
                f"the board ({hello.firmware!r}) says it speaks protocol version {hello.protocol_version}, "
                f"this side speaks version {p.PROTOCOL_VERSION}"
            )
        if hello.zone_count != len(ZONES):
            raise LinkRefused(
                f"the board ({hello.firmware!r}) reports {hello.zone_count} zones; this controller plays on {len(ZONES)}"
            )
        if not hello.has(p.CAP_BOARD_SENSOR):
            raise LinkRefused(
                f"the board ({hello.firmware!r}) has no checker sensors (capabilities 0x{hello.capabilities:02x})"
            )
        return hello

    def _connected(self, hello: Hello, rest: list[tuple[int, int, bytes]], back: bool) -> None:
        """Handshake done: take the frames that followed the HELLO, ask for the board, re-send
        the lights, say so."""
        now = self._clock.now()
        with self._lock:
            self.hello = hello
            self._last_rx = now
            self._state_dice_next = False
            self.stats.connections += 1
            if back:  # posted before the state changes, so whoever waits for it finds the event
                self._post(DeviceEvent(now, DEVICE, f"link back: firmware {hello.firmware}", ok=True))
            self._set_state(LinkState.CONNECTED)
            self.reason = ""
            if not hello.has(p.CAP_LEDS):
                self._say(f"board link: the board ({hello.firmware!r}) has no LEDs: no lights will show")
            if not hello.has(p.CAP_DICE_TRAY):
                self._say(f"board link: the board ({hello.firmware!r}) has no dice tray")
            for frame in rest:
                self._dispatch(*frame)
            self._requested = True
            self._send(p.SNAPSHOT_REQUEST)
            if self._lights is not None:
                self._send_lights()
        self._say(f"board link: {'back' if back else 'connected'} on {self.url}: firmware {hello.firmware!r}")

    def _serve(self, port: SerialPort) -> None:
        """Read, decode, dispatch and keep the timers until the link breaks."""
        while not self._stop.is_set():
            data = self._read(port)
            with self._lock:
                if data:
                    now = self._clock.now()
                    frames = self._decode(data)
                    for frame in frames:
                        self._last_rx = now
                        self._dispatch(*frame)
                    self._received += len(data)
                    self._changed.notify_all()
                    if self._foreign is not None and self._foreign[1] == p.HELLO:
                        raise LinkRefused(p.describe_foreign(self._foreign))
                if self.own_timers:
                    self._housekeeping()
                if self._broken is not None:
                    raise _Lost(self._broken)

    def _read(self, port: SerialPort) -> bytes:
        """What has arrived (blocks up to the poll time); _Lost if the port is gone."""
        try:
            data = port.read(1)
            if data:
                waiting = port.in_waiting
                if waiting:
                    data += port.read(waiting)
            return bytes(data)
        except (serial.SerialException, OSError, TypeError, AttributeError) as error:
            raise _Lost(f"the port failed ({error})") from None

    def _decode(self, data: bytes) -> list[tuple[int, int, bytes]]:
        """Feed the decoder frame by frame, so a foreign HELLO is kept even when more follows."""
        decoder = self._decoder
        frames: list[tuple[int, int, bytes]] = []
        rejected, reasons = decoder.rejected, dict(decoder.reasons)
        start = 0
        while start < len(data):
            zero = data.find(b"\x00", start)
            end = len(data) if zero < 0 else zero + 1
            versions = decoder.reasons.get("version", 0)
            frames.extend(decoder.feed(data[start:end]))
            if decoder.reasons.get("version", 0) != versions:
                if self._foreign is None or decoder.foreign[1] == p.HELLO:  # type: ignore[index]
                    self._foreign = decoder.foreign
            start = end
        self.stats.frames += len(frames)
        if decoder.rejected != rejected:
            self._count_rejects(decoder.rejected - rejected, reasons)
        return frames

    def _count_rejects(self, count: int, before: dict[str, int]) -> None:
        """Count dropped frames by reason; log them at most once a second."""
        stats, decoder = self.stats, self._decoder
        stats.rejected += count
        for reason, total in decoder.reasons.items():
            if total != before.get(reason, 0):
                stats.reasons[reason] = stats.reasons.get(reason, 0) + total - before.get(reason, 0)
        now = time.monotonic()
        if now - self._last_reject_log >= 1.0:
            self._last_reject_log = now
            reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(decoder.reasons.items()))
            self._say(f"board link: dropped {count} bad frame(s) from the board ({reasons} on this connection)")

    def run_timers(self) -> None:
        """Run the protocol timers now (heartbeat, resends, silence): for an owner that drives
        the link in lock-step with a virtual clock (``own_timers=False``)."""
        with self._lock:
            if self._state is LinkState.CONNECTED and self._broken is None:
                self._housekeeping()

    def _housekeeping(self) -> None:
        """Silence, resends and heartbeats (lock held); a broken link is noted for the worker."""
        now = self._clock.now()
        timings = self.timings
        if now - self._last_rx > timings.silence:
            self._broken = f"no frame from the board for {timings.silence:g} s"
            return
        for seq, pending in list(self._pending.items()):
            if now - pending.sent_at < timings.ack:
                continue
            del self._pending[seq]
            if pending.tries > timings.resends:
                self._unacknowledged(pending)
                continue
            self.stats.resends += 1
            pending.tries += 1
            pending.sent_at = now
            self._send(pending.msg_type, pending.payload, pending)
        if now - self._last_tx >= timings.heartbeat:
            self._send(p.HEARTBEAT, p.heartbeat_payload(int(time.monotonic() * 1000) & 0xFFFFFFFF))

    def _unacknowledged(self, pending: _Pending) -> None:
        """A command got no ACK after every resend: a device fault."""
        self.stats.unacknowledged += 1
        pending.failed = pending.done = True
        self._changed.notify_all()
        message = f"the board did not acknowledge {p.message_name(pending.msg_type)} ({pending.tries} tries)"
        self._say(f"board link: {message}")
        if pending.msg_type == p.LEDS:
            self._post(DeviceEvent(self._clock.now(), DEVICE, message, ok=False))

    def _lost(self, reason: str) -> None:
        """The link broke: close the port, say so once; the worker then tries to reopen."""
        with self._lock:
            self._close_port()
            if self._stop.is_set():
                return
            self.reason = reason
            self.stats.losses += 1
            self._fail_pending()
            self._post(DeviceEvent(self._clock.now(), DEVICE, f"link lost: {reason}", ok=False))
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
                self._post(DeviceEvent(self._clock.now(), DEVICE, f"link refused: {reason}", ok=False))
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

    def _fail_pending(self) -> None:
        for pending in self._pending.values():
            pending.failed = pending.done = True
        self._pending.clear()
        self._changed.notify_all()

    def _set_state(self, state: LinkState) -> None:
        self._state = state
        self._changed.notify_all()

    # -- frames in ---------------------------------------------------------------------------------
    def _dispatch(self, msg_type: int, seq: int, payload: bytes) -> None:
        """Act on one intact frame from the board (lock held)."""
        if msg_type != p.DICE:
            state_dice, self._state_dice_next = self._state_dice_next, False
        else:
            state_dice = self._state_dice_next
            self._state_dice_next = False
        try:
            if msg_type == p.SNAPSHOT:
                self._on_snapshot(payload)
            elif msg_type == p.DICE:
                self._on_dice(p.parse_dice(payload), state_dice)
            elif msg_type == p.ACK:
                self._on_ack(*p.parse_ack(payload))
            elif msg_type == p.ERROR:
                self._on_error(*p.parse_error(payload))
            elif msg_type == p.HEARTBEAT:
                p.parse_heartbeat(payload)
            elif msg_type == p.HELLO:
                self._on_hello(payload)
            elif msg_type == p.RAW:
                self._on_raw(*p.parse_raw(payload))
            elif msg_type == p.CALIBRATION:
                self._on_levels(*p.parse_calibration(payload))
            else:
                self._say(f"board link: ignored {p.message_name(msg_type)} from the board")
        except p.ProtocolError as error:
            self._say(f"board link: dropped a bad {p.message_name(msg_type)} payload from the board: {error}")

    def _on_snapshot(self, payload: bytes) -> None:
        counter, zones = p.parse_snapshot(payload)
        last = self._snapshot_counter
        if last is not None and counter not in (last, (last + 1) & 0xFFFF) and not self._requested:
            self._say(f"board link: {(counter - last - 1) & 0xFFFF} settled snapshot(s) missed (the next one has them)")
        self._snapshot_counter = counter
        if self._requested:
            self._requested = False
            self._state_dice_next = True
        self._post(SnapshotEvent(self._clock.now(), snapshot_of(zones)))

    def _on_dice(self, dice: tuple[int, int] | None, state: bool) -> None:
        """A roll; the DICE that answers a snapshot request only if it differs from the last roll."""
        if state and (not self._dice_known or dice == self._last_dice):
            self.stats.dice_suppressed += 1
            return
        self._last_dice, self._dice_known = dice, True
        self._post(DiceEvent(self._clock.now(), dice, DiceKind.TRAY))

    def _on_ack(self, seq: int, status: int) -> None:
        pending = self._pending.pop(seq, None)
        if pending is None:
            return  # a late ACK of a superseded or resent command
        pending.status, pending.done = status, True
        self._changed.notify_all()
        if status != p.OK and pending.msg_type == p.LEDS:
            self._say(f"board link: the board refused the lights: {p.CODE_NAMES.get(status, status)}")

    def _on_error(self, code: int, text: str) -> None:
        name = p.CODE_NAMES.get(code, f"error 0x{code:02x}")
        self._errors.append((code, text))
        self._changed.notify_all()
        self._say(f"board link: the board reports {name}: {text}")
        if code not in (p.BAD_FRAME, p.UNKNOWN_MESSAGE):  # link noise: the resends deal with it
            self._post(DeviceEvent(self._clock.now(), DEVICE, f"{name}: {text}" if text else name, ok=False))

    def _on_hello(self, payload: bytes) -> None:
        """A HELLO while connected: the board restarted, so it lost the lights and the snapshot owed."""
        try:
            hello = self._check_hello(payload)
        except LinkRefused:
            raise
        except LinkError as error:
            self._say(f"board link: ignored a HELLO: {error}")
            return
        self.hello = hello
        self._say(f"board link: the board restarted ({hello.firmware!r}): lights and snapshot asked again")
        self._requested = True
        self._send(p.SNAPSHOT_REQUEST)
        if self._lights is not None:
            self._send_lights()

    def _on_raw(self, first: int, total: int, readings: list[int]) -> None:
        if not self._raw_on:
            return
        if first == 0:
            self._raw_partial = list(readings)
        elif self._raw_partial is not None and len(self._raw_partial) == first:
            self._raw_partial.extend(readings)
        else:
            self._raw_partial = None  # a piece went missing: wait for the next scan
            return
        if len(self._raw_partial) == total:
            self._raw_scans.append(self._raw_partial)
            self._raw_partial = None
            self._changed.notify_all()

    def _on_levels(self, first: int, total: int, levels: list[tuple[int, ...]]) -> None:
        if self._levels is None or len(self._levels) != total:
            self._levels = [None] * total
        for offset, sensor in enumerate(levels):
            self._levels[first + offset] = sensor
        self._changed.notify_all()

    # -- frames out --------------------------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        """Write bytes (lock held); a failure is noted for the worker, which treats it as a loss."""
        port = self._port
        if port is None:
            return
        try:
            port.write(data)
        except (serial.SerialException, OSError, TypeError, AttributeError) as error:
            self._broken = f"writing failed ({error})"
            return
        self._sent += len(data)
        self._last_tx = self._clock.now()

    def _send(self, msg_type: int, payload: bytes = b"", pending: _Pending | None = None) -> int:
        """Send one frame (lock held); with ``pending`` it waits for an ACK under this seq."""
        seq = self._seq
        self._seq = p.next_seq(seq)
        if pending is not None:
            self._pending[seq] = pending
        self._write(p.encode(msg_type, seq, payload))
        return seq

    def _send_lights(self) -> None:
        """Send the last light frame, superseding any older one still unacknowledged."""
        hello = self.hello
        if self._lights is None or (hello is not None and not hello.has(p.CAP_LEDS)):
            return
        for seq, pending in list(self._pending.items()):
            if pending.msg_type == p.LEDS and not pending.done:
                del self._pending[seq]
        self._send(p.LEDS, self._lights, _Pending(p.LEDS, self._lights, self._clock.now()))

    def _require_connected(self) -> None:
        if self._state is not LinkState.CONNECTED:
            raise LinkError(f"{self.url}: the board is not connected ({self._state.value}: {self.reason or 'starting'})")

    def _command(self, msg_type: int, payload: bytes, timeout: float) -> None:
        """Send an acknowledged command and wait for its ACK; LinkError unless it is OK."""
        name = p.message_name(msg_type)
        deadline = time.monotonic() + timeout
        with self._changed:
            self._require_connected()
            self._errors = []
            pending = _Pending(msg_type, payload, self._clock.now())
            self._send(msg_type, payload, pending)
            while not pending.done:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise LinkError(f"{self.url}: no acknowledgement of {name} within {timeout:g} s")
                self._changed.wait(left)
            if pending.failed:
                raise LinkError(f"{self.url}: {name} was not acknowledged ({self.reason or f'{pending.tries} tries'})")
            if pending.status != p.OK:
                self._changed.wait_for(lambda: bool(self._errors), timeout=0.2)  # the ERROR that says why
                why = "; ".join(text for _code, text in self._errors if text)
                status = p.CODE_NAMES.get(pending.status or 0, str(pending.status))
                raise LinkError(f"{self.url}: the board refused {name}: {status}{': ' + why if why else ''}")

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

