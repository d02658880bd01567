"""The Pi's side of the wire protocol (firmware/PROTOCOL.md, version 3) without a port or a
thread: bytes from the board in, bytes to send out, hal events and log lines on the side.

Shaped like a ``serial.threaded.Protocol``: the transport (``hal/serial_link.py``) owns the
port, the thread, the lock and the reconnections, and calls ``connection_made``,
``data_received``, ``timers`` and the command methods; each returns the bytes to write.  Time
comes in as an argument (clock seconds), so tests drive this object byte by byte and a
lock-step simulation stays deterministic.

What it guarantees the controller: every throw the board reports reaches the event queue
exactly once (DICE carries a throw number and is repeated by the board until DICE_ACK), and
the last settled snapshot always arrives (a gap in the snapshot counter or the throw number,
seen in a later frame or a heartbeat, or any dropped frame, makes it ask for a snapshot and the
tray again).  Everything a device can push is bounded: error lists, calibration pieces, log
lines (rate-limited, device text escaped).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from firmware import protocol as p

from .interfaces import (
    BoardSnapshot,
    DeviceEvent,
    DiceEvent,
    DiceKind,
    Event,
    SnapshotEvent,
    ZoneReading,
)
from .link_log import RateLimitedLog, printable
from .zones import ZONES

DEVICE = "board"
"""The name the link's DeviceEvents carry."""
MAX_ERRORS = 16
"""Device ERRORs kept for the calibration client (the newest)."""
MAX_SENSORS = 4096
"""More sensors than any board has: a CALIBRATION or RAW claiming more is dropped."""
MAX_RAW_SCANS = 64
"""Raw scans kept at most while the calibration client collects them."""

Post = Callable[[Event], None]


class LinkError(RuntimeError):
    """The board cannot be talked to; the message names the cause."""


class LinkRefused(LinkError):
    """The other side answers but is no board this controller can play with."""


class Phase(str, Enum):
    """Where one connection stands."""

    HANDSHAKE = "handshake"
    CONNECTED = "connected"
    BROKEN = "broken"
    REFUSED = "refused"


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
    answer: float = 1.0
    """Ask for the snapshot again if a request is not answered within this long (clock)."""
    retry: float = 1.0
    """Real seconds between attempts to reopen a lost port."""
    hello: float = 2.0
    """Real seconds the handshake waits for the HELLO."""
    poll: float = 0.05
    """Real seconds the reader blocks at most, so the timers above run."""


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
    throws: int = 0
    """Throws posted as rolls (each once)."""
    throw_repeats: int = 0
    """DICE frames of a throw already taken (the board repeats until DICE_ACK)."""
    throws_missed: int = 0
    """Throws superseded on the board before the Pi heard of them (the later one counts)."""
    snapshot_requests: int = 0
    gaps: int = 0
    """Snapshot or throw counters that jumped: a frame was lost, the snapshot was asked again."""


@dataclass
class Pending:
    """A command waiting for its ACK."""

    msg_type: int
    payload: bytes
    sent_at: float
    tries: int = 1
    status: int | None = None
    failed: bool = False
    done: bool = False


def snapshot_of(zones: list[tuple[int, int] | None]) -> BoardSnapshot:
    """A parsed SNAPSHOT's zones as a BoardSnapshot."""
    return BoardSnapshot(tuple(None if zone is None else ZoneReading(zone[0], zone[1]) for zone in zones))


def check_hello(payload: bytes) -> Hello:
    """The HELLO, checked for version, zone count and sensors; LinkRefused or LinkError naming why."""
    try:
        hello = Hello(*p.parse_hello(payload))
    except p.ProtocolError as error:
        raise LinkError(f"not our firmware: its HELLO does not parse ({error})") from None
    firmware = printable(hello.firmware)
    if hello.protocol_version != p.PROTOCOL_VERSION:
        advice = "update the board's firmware (python -m firmware.deploy)" if hello.protocol_version < p.PROTOCOL_VERSION \
            else "update this controller"
        raise LinkRefused(
            f"the board ({firmware!r}) says it speaks protocol version {hello.protocol_version}, "
            f"this side speaks version {p.PROTOCOL_VERSION}: {advice}"
        )
    if hello.zone_count != len(ZONES):
        raise LinkRefused(f"the board ({firmware!r}) reports {hello.zone_count} zones; this controller plays on {len(ZONES)}")
    if not hello.has(p.CAP_BOARD_SENSOR):
        raise LinkRefused(f"the board ({firmware!r}) has no checker sensors (capabilities 0x{hello.capabilities:02x})")
    return hello


class LinkProtocol:
    """One board's protocol state; see the module docstring.  ``post`` takes hal events,
    ``log`` takes lines (already rate-limited and escaped here)."""

    def __init__(self, post: Post, log: Callable[[str], None], timings: LinkTimings | None = None) -> None:
        self.timings = timings or LinkTimings()
        self._post = post
        self.log = RateLimitedLog(log)
        self.stats = LinkStats()
        self.hello: Hello | None = None
        self.phase = Phase.HANDSHAKE
        self.problem = ""
        """Why the connection broke or was refused (Phase.BROKEN / REFUSED)."""
        # kept across connections
        self._lights: bytes | None = None
        self._lights_stale = False
        self._snapshot_counter: int | None = None
        self._throw_taken: int | None = None
        self._throw_seen: int | None = None
        self._device_uptime: int | None = None
        self.tray: tuple[int, int] | None = None
        """What the tray showed in the last DICE."""
        self._faults = RateLimitedLog(log)
        """The same limit for the device faults shown to the player (``admit`` only)."""
        self._wants_snapshot = False
        # the calibration client's collections (bounded)
        self.errors: deque[tuple[int, str]] = deque(maxlen=MAX_ERRORS)
        self.raw_wanted = 0
        self.raw_scans: list[list[int]] = []
        self._raw_partial: list[int] | None = None
        self.levels: list[tuple[int, ...] | None] | None = None
        self._reset(0.0)

    def _reset(self, now: float) -> None:
        """Per-connection state: a new decoder, sequence, pending commands and timers."""
        self._decoder = p.Decoder()
        self.foreign: tuple[int, int, int, bytes] | None = None
        self._seq = 0
        self.pending: dict[int, Pending] = {}
        self._last_rx = now
        self._last_tx = now
        self._asked_at: float | None = None

    # -- what the transport calls ----------------------------------------------------------------
    def connection_made(self, now: float) -> bytes:
        """A port was opened: a 0x00 to end any partial frame, then HELLO_REQUEST."""
        self._fail_pending()
        self._reset(now)
        self.phase = Phase.HANDSHAKE
        self.problem = ""
        self._device_uptime = None
        return p.DELIMITER + self._frame(p.HELLO_REQUEST, b"", now)

    def ask_hello(self, now: float) -> bytes:
        """HELLO_REQUEST again (a board still booting may have missed the first)."""
        return self._frame(p.HELLO_REQUEST, b"", now)

    def connection_lost(self, reason: str) -> None:
        """The port is gone: commands waiting for an ACK fail."""
        self.stats.losses += 1
        self._fail_pending()
        self.phase = Phase.BROKEN
        self.problem = reason

    def data_received(self, data: bytes, now: float) -> bytes:
        """Bytes from the board; the bytes to send back."""
        out = bytearray()
        for msg_type, _seq, payload in self._decode(data, now):
            if self.phase is Phase.REFUSED:
                break
            self._last_rx = now
            if self.phase is Phase.HANDSHAKE:
                if msg_type == p.HELLO:
                    out += self._handshake_done(payload, now)
                continue  # frames before the HELLO are from before this connection
            out += self._dispatch(msg_type, payload, now)
        if self._wants_snapshot and self.connected and self._asked_at is None:
            out += self._ask_snapshot(now)
        self._wants_snapshot = False
        return bytes(out)

    def timers(self, now: float) -> bytes:
        """Silence, resends, an unanswered snapshot request, heartbeats: the bytes to send."""
        if self.phase is not Phase.CONNECTED:
            return b""
        timings = self.timings
        if now - self._last_rx > timings.silence:
            self.phase, self.problem = Phase.BROKEN, f"no frame from the board for {timings.silence:g} s"
            return b""
        out = bytearray()
        for seq, pending in list(self.pending.items()):
            if now - pending.sent_at < timings.ack:
                continue
            del self.pending[seq]
            if pending.tries > timings.resends:
                self._unacknowledged(pending, now)
                continue
            self.stats.resends += 1
            pending.tries += 1
            pending.sent_at = now
            out += self._frame(pending.msg_type, pending.payload, now, pending)
        if self._asked_at is not None and now - self._asked_at >= timings.answer:
            out += self._ask_snapshot(now)
        if now - self._last_tx >= timings.heartbeat:
            out += self._frame(p.HEARTBEAT, p.heartbeat_payload(int(now * 1000) & 0xFFFFFFFF), now)
        return bytes(out)

    @property
    def connected(self) -> bool:
        return self.phase is Phase.CONNECTED

    # -- commands -----------------------------------------------------------------------------------
    def show(self, payload: bytes, now: float) -> bytes:
        """New lights (an LEDS payload): sent if they changed, acknowledged and resent."""
        if payload == self._lights and not self._lights_stale:
            return b""
        self._lights, self._lights_stale = payload, False
        return self._send_lights(now) if self.connected else b""

    def lights_replaced(self) -> None:
        """Something else was shown (a test pattern): the next ``show`` sends even unchanged lights."""
        self._lights_stale = True

    def request_snapshot(self, now: float) -> bytes:
        """Ask for the settled snapshot and the tray now (asked again until answered)."""
        return self._ask_snapshot(now) if self.connected else b""

    def command(self, msg_type: int, payload: bytes, now: float) -> tuple[Pending, bytes]:
        """An acknowledged command: its Pending (done, failed, status) and the bytes to send."""
        pending = Pending(msg_type, payload, now)
        return pending, self._frame(msg_type, payload, now, pending)

    def send(self, msg_type: int, payload: bytes, now: float) -> bytes:
        """A plain frame (CALIBRATION_GET, for instance)."""
        return self._frame(msg_type, payload, now)

    # -- frames in ----------------------------------------------------------------------------------
    def _decode(self, data: bytes, now: float) -> list[tuple[int, int, bytes]]:
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
            if decoder.reasons.get("version", 0) != versions and decoder.foreign is not None:
                if self.foreign is None or decoder.foreign[1] == p.HELLO:
                    self.foreign = decoder.foreign
            start = end
        self.stats.frames += len(frames)
        if self.foreign is not None and (self.phase is Phase.HANDSHAKE or self.foreign[1] == p.HELLO):
            self.phase, self.problem = Phase.REFUSED, p.describe_foreign(self.foreign)
            return []
        if decoder.rejected != rejected:
            self._count_rejects(decoder.rejected - rejected, reasons, now)
        return frames

    def _count_rejects(self, count: int, before: dict[str, int], now: float) -> None:
        """Count dropped frames by reason and log them (rate-limited); a dropped frame may have
        been a SNAPSHOT, so ask for the board again."""
        stats, decoder = self.stats, self._decoder
        stats.rejected += count
        for reason, total in decoder.reasons.items():
            if total != before.get(reason, 0):
                stats.reasons[reason] = stats.reasons.get(reason, 0) + total - before.get(reason, 0)
        reasons = ", ".join(f"{reason} {n}" for reason, n in sorted(decoder.reasons.items()))
        self.log.say(now, "rejects", f"board link: dropped {count} bad frame(s) from the board ({reasons} on this connection)")
        self._wants_snapshot = True

    def _take_hello(self, payload: bytes, now: float) -> Hello | None:
        """The HELLO if it is a board to play with; refused (phase REFUSED) or ignored: None."""
        try:
            hello = check_hello(payload)
        except LinkRefused as error:
            self.phase, self.problem = Phase.REFUSED, str(error)
            return None
        except LinkError as error:
            self.log.say(now, "hello", f"board link: ignored a HELLO: {error}")
            return None
        self.hello = hello
        self._device_uptime = None
        return hello

    def _handshake_done(self, payload: bytes, now: float) -> bytes:
        hello = self._take_hello(payload, now)
        if hello is None:
            return b""
        self.phase = Phase.CONNECTED
        self.stats.connections += 1
        firmware = printable(hello.firmware)
        if not hello.has(p.CAP_LEDS):
            self.log.say(now, "caps", f"board link: the board ({firmware!r}) has no LEDs: no lights will show")
        if not hello.has(p.CAP_DICE_TRAY):
            self.log.say(now, "caps", f"board link: the board ({firmware!r}) has no dice tray")
        out = self._ask_snapshot(now)
        if self._lights is not None:
            out += self._send_lights(now)
        return out

    def _dispatch(self, msg_type: int, payload: bytes, now: float) -> bytes:
        """Act on one intact frame from the board; the bytes to send back."""
        out = b""
        try:
            if msg_type == p.SNAPSHOT:
                self._on_snapshot(*p.parse_snapshot(payload), now)
            elif msg_type == p.DICE:
                out = self._on_dice(*p.parse_dice(payload), now)
            elif msg_type == p.ACK:
                self._on_ack(*p.parse_ack(payload), now)
            elif msg_type == p.ERROR:
                self._on_error(*p.parse_error(payload), now)
            elif msg_type == p.HEARTBEAT:
                out = self._on_heartbeat(*p.parse_heartbeat(payload), now)
            elif msg_type == p.HELLO:
                out = self._on_hello(payload, now)
            elif msg_type == p.RAW:
                self._on_raw(*p.parse_raw(payload))
            elif msg_type == p.CALIBRATION:
                self._on_levels(*p.parse_calibration(payload))
            else:
                self.log.say(now, "ignored", f"board link: ignored {p.message_name(msg_type)} from the board")
        except p.ProtocolError as error:
            self.log.say(now, "payload", f"board link: dropped a bad {p.message_name(msg_type)} payload from the board: "
                                         f"{printable(str(error))}")
        return out

    def _on_snapshot(self, counter: int, zones: list[tuple[int, int] | None], now: float) -> None:
        last = self._snapshot_counter
        if last is not None and counter not in (last, (last + 1) & 0xFFFF) and self._asked_at is None:
            missed = (counter - last - 1) & 0xFFFF
            self.stats.gaps += 1
            self.log.say(now, "gap", f"board link: {missed} settled snapshot(s) missed: asking for the board and the tray")
            self._wants_snapshot = True
        self._snapshot_counter = counter
        self._post(SnapshotEvent(now, snapshot_of(zones)))

    def _on_dice(self, throw: int, thrown: bool, dice: tuple[int, int] | None, counter: int, landed_ago: int | None,
                 now: float) -> bytes:
        """A throw is taken once, and only after the board it follows (the SNAPSHOT counter it
        names): otherwise the Pi asks for that board and leaves the throw unacknowledged, so
        the device sends it again.  A tray report without THROWN answers a request.  The roll
        says how long ago its dice landed, as the board counts it (``DiceEvent.late``)."""
        self.tray = dice
        if counter != self._snapshot_counter:
            self.stats.gaps += 1
            self.log.say(now, "gap", "board link: a DICE follows a snapshot that never came: asking for the board first")
            if self._asked_at is None or now - self._asked_at >= self.timings.answer:
                return self._ask_snapshot(now)
            return b""
        seen = self._throw_seen
        self._throw_seen = throw
        self._asked_at = None  # the DICE ends the answer to SNAPSHOT_REQUEST
        if not thrown:
            return b""
        if throw == self._throw_taken:
            self.stats.throw_repeats += 1
        else:
            if seen is not None and throw not in (seen, (seen + 1) & 0xFFFF):
                self.stats.throws_missed += 1
            self._throw_taken = throw
            self.stats.throws += 1
            late = None if landed_ago is None else landed_ago / 1000
            self._post(DiceEvent(now, dice, DiceKind.TRAY, throw, late=late))
        return self._frame(p.DICE_ACK, p.dice_ack_payload(throw), now)

    def _on_heartbeat(self, uptime: int, counter: int | None, throw: int | None, now: float) -> bytes:
        """The board's counters: one that moved past what came means a frame was lost; an
        uptime that went back means the board restarted (its HELLO was lost): as on a HELLO."""
        if counter is None:
            return b""
        last, self._device_uptime = self._device_uptime, uptime
        if last is not None and uptime < last and last - uptime < 0x80000000:  # not the 49-day wrap
            self.log.say(now, "restart", "board link: the board's uptime went back: it restarted; lights and board asked again")
            self._snapshot_counter = None
            out = self._ask_snapshot(now)
            return out + self._send_lights(now) if self._lights is not None else out
        if self._asked_at is not None:
            return b""
        if counter != self._snapshot_counter or (throw is not None and throw != self._throw_seen):
            self.stats.gaps += 1
            self.log.say(now, "gap", "board link: the board's heartbeat shows a frame that never came: asking again")
            self._wants_snapshot = True
        return b""

    def _on_ack(self, seq: int, status: int, now: float) -> None:
        pending = self.pending.pop(seq, None)
        if pending is None:
            return  # a late ACK of a superseded or resent command
        pending.status, pending.done = status, True
        if status != p.OK and pending.msg_type == p.LEDS:
            self.log.say(now, "leds", f"board link: the board refused the lights: {p.CODE_NAMES.get(status, status)}")

    def _on_error(self, code: int, text: str, now: float) -> None:
        name = p.CODE_NAMES.get(code, f"error 0x{code:02x}")
        text = printable(text)
        self.errors.append((code, text))
        self.log.say(now, f"error {code}", f"board link: the board reports {name}: {text}")
        if code in (p.BAD_FRAME, p.UNKNOWN_MESSAGE):  # link noise: the resends deal with it
            return
        # a device fault for the player, but a flood of them must not flood the board's messages
        message = self._faults.admit(now, "faults", f"{name}: {text}" if text else name)
        if message is not None:
            self._post(DeviceEvent(now, DEVICE, message, ok=False))

    def _on_hello(self, payload: bytes, now: float) -> bytes:
        """A HELLO while connected: the board restarted, so it lost the lights and the snapshot owed."""
        hello = self._take_hello(payload, now)
        if hello is None:
            return b""
        self._snapshot_counter = None
        self.log.say(now, "restart", f"board link: the board restarted ({printable(hello.firmware)!r}): lights and snapshot asked again")
        out = self._ask_snapshot(now)
        if self._lights is not None:
            out += self._send_lights(now)
        return out

    def _on_raw(self, first: int, total: int, readings: list[int]) -> None:
        if not self.raw_wanted or total > MAX_SENSORS or len(self.raw_scans) >= self.raw_wanted:
            return
        if first == 0:
            self._raw_partial = list(readings)
        elif self._raw_partial is not None and len(self._raw_partial) == first:
            self._raw_partial.extend(readings)
        else:
            self._raw_partial = None  # a piece went missing: wait for the next scan
            return
        if len(self._raw_partial) >= total:
            self.raw_scans.append(self._raw_partial[:total])
            self._raw_partial = None

    def _on_levels(self, first: int, total: int, levels: list[tuple[int, ...]]) -> None:
        if total > MAX_SENSORS:
            return
        if self.levels is None or len(self.levels) != total:
            self.levels = [None] * total
        for offset, sensor in enumerate(levels):
            self.levels[first + offset] = sensor

    # -- frames out ---------------------------------------------------------------------------------
    def _frame(self, msg_type: int, payload: bytes, now: float, pending: Pending | None = None) -> bytes:
        """One frame under the next seq; with ``pending`` it waits for an ACK under that seq."""
        seq = self._seq
        self._seq = p.next_seq(seq)
        if pending is not None:
            self.pending.pop(seq, None)
            self.pending[seq] = pending
        self._last_tx = now
        return p.encode(msg_type, seq, payload)

    def _ask_snapshot(self, now: float) -> bytes:
        self._asked_at = now
        self._wants_snapshot = False
        self.stats.snapshot_requests += 1
        return self._frame(p.SNAPSHOT_REQUEST, b"", now)

    def _send_lights(self, now: float) -> bytes:
        """Send the last light frame, superseding any older one still unacknowledged."""
        hello = self.hello
        if self._lights is None or (hello is not None and not hello.has(p.CAP_LEDS)):
            return b""
        for seq, pending in list(self.pending.items()):
            if pending.msg_type == p.LEDS and not pending.done:
                del self.pending[seq]
        return self._frame(p.LEDS, self._lights, now, Pending(p.LEDS, self._lights, now))

    def _unacknowledged(self, pending: Pending, now: float) -> None:
        """A command got no ACK after every resend: a device fault."""
        self.stats.unacknowledged += 1
        pending.failed = pending.done = True
        message = f"the board did not acknowledge {p.message_name(pending.msg_type)} ({pending.tries} tries)"
        self.log.say(now, "unacknowledged", f"board link: {message}")
        if pending.msg_type == p.LEDS:
            self._post(DeviceEvent(now, DEVICE, message, ok=False))

    def _fail_pending(self) -> None:
        for pending in self.pending.values():
            pending.failed = pending.done = True
        self.pending = {}

