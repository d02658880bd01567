"""The Pi's LinkProtocol against the real firmware Device, byte by byte, on a virtual clock,
with arbitrary faults on the wire both ways: frames dropped, duplicated, swapped, corrupted,
garbage with and without 0x00, stalls, device reboots.  Whatever happens, once the wire is
calm again the Pi has the board as it stands, every throw it took came from the board once,
in order, the last throw is among them, and memory stays bounded."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from firmware import protocol as p
from firmware.board_logic import BoardLogic
from firmware.device import Device
from firmware.dice import EMPTY
from firmware.scan import Layout
from firmware.synthetic import HallBoard
from hal.interfaces import DeviceEvent, DiceEvent, Event, SnapshotEvent
from hal.link_protocol import MAX_ERRORS, LinkProtocol, LinkTimings, Phase
from serial_kit import calibration

SCAN_MS = 20
TIMINGS = LinkTimings()


def frames_of(data: bytes) -> list[bytes]:
    """Split a byte stream at its 0x00 delimiters (each piece keeps its 0x00)."""
    pieces, start = [], 0
    while start < len(data):
        end = data.find(b"\x00", start)
        end = len(data) if end < 0 else end + 1
        pieces.append(data[start:end])
        start = end
    return pieces


class Wire:
    """One direction: pieces in flight, delivered in order unless a fault says otherwise."""

    def __init__(self) -> None:
        self.pieces: list[bytes] = []

    def send(self, data: bytes) -> None:
        self.pieces.extend(frames_of(data))

    def take_all(self) -> bytes:
        data, self.pieces = b"".join(self.pieces), []
        return data


class LinkUnderFaults(RuleBasedStateMachine):
    """A board (device + modelled sensors), the Pi's protocol, and two faulty wires."""

    @initialize(seed=st.integers(0, 2**16))
    def start(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.layout = Layout()
        self.board = HallBoard(self.layout, random.Random(5))  # the board serial_kit.calibration() measured
        self.now_ms = 0
        self.events: list[Event] = []
        self.logs: list[str] = []
        self.protocol = LinkProtocol(self.events.append, self.logs.append, TIMINGS)
        self.to_pi, self.to_device = Wire(), Wire()
        self.throws: list[tuple[int, int, tuple[int, int] | None]] = []
        """(boot, throw number, dice) of every throw a device reported."""
        self.acked: set[tuple[int, int]] = set()
        self.boot = 0
        self._boot_device()
        self._open()
        self.calm(3.0)
        assert self.protocol.phase is Phase.CONNECTED

    def _open(self) -> None:
        self._opened = self.now
        self.to_device.send(self.protocol.connection_made(self.now))

    @property
    def uptime_ms(self) -> int:
        return self.now_ms - self._boot_ms

    @property
    def now(self) -> float:
        return self.now_ms / 1000

    def _boot_device(self) -> None:
        self.boot += 1
        self._boot_ms = self.now_ms  # a Pico counts its uptime from its boot
        self.device = Device(BoardLogic(self.layout, calibration()), first_throw=self.rng.getrandbits(16), now_ms=0)
        self._seen_throw = self.device.throw
        self.to_pi.send(self.device.boot(self.uptime_ms))

    # -- time passing -------------------------------------------------------------------------
    def scan(self, deliver: bool = True) -> None:
        """One pass of the firmware's loop and of the Pi's timers, 20 ms later."""
        self.now_ms += SCAN_MS
        if deliver:
            self.deliver()
        self.to_pi.send(self.device.tick(self.board.scan(), self.uptime_ms))
        if self.device.throw != self._seen_throw:  # a throw the device just reported
            self._seen_throw = self.device.throw
            self.throws.append((self.boot, self.device.throw, self.device._throw_dice))
        phase = self.protocol.phase
        if phase is Phase.BROKEN or (phase is Phase.HANDSHAKE and self.now - self._opened >= TIMINGS.hello):
            self._open()  # the transport reopens the port, and again when no HELLO came in time
        self.to_device.send(self.protocol.timers(self.now))

    def deliver(self) -> None:
        """Everything in flight, both ways, in order."""
        pending = self.device.throw_pending
        data = self.to_device.take_all()
        if data:
            self.to_pi.send(self.device.receive(data, self.uptime_ms))
        if pending and not self.device.throw_pending:
            self.acked.add((self.boot, self.device.throw))
        data = self.to_pi.take_all()
        if data:
            self.to_device.send(self.protocol.data_received(data, self.now))

    def calm(self, seconds: float) -> None:
        for _ in range(int(seconds * 1000 / SCAN_MS)):
            self.scan()

    # -- the players --------------------------------------------------------------------------
    @rule(zone=st.integers(0, 27), white=st.integers(0, 15), black=st.integers(0, 15))
    def move_checkers(self, zone: int, white: int, black: int) -> None:
        self.board.place(zone, white=white, black=0 if white else black)
        for _ in range(6):
            self.scan()

    @rule(a=st.integers(1, 6), b=st.integers(1, 6))
    def throw_dice(self, a: int, b: int) -> None:
        self.board.dice = [EMPTY, EMPTY]
        for _ in range(12):
            self.scan()
        self.board.dice = [a, b]
        for _ in range(12):
            self.scan()

    @rule(seconds=st.sampled_from([0.1, 0.5, 1.5]))
    def wait(self, seconds: float) -> None:
        self.calm(seconds)

    # -- the faults ---------------------------------------------------------------------------
    @rule(to_pi=st.booleans(), index=st.integers(0, 50))
    def drop_a_frame(self, to_pi: bool, index: int) -> None:
        wire = self.to_pi if to_pi else self.to_device
        if wire.pieces:
            del wire.pieces[index % len(wire.pieces)]

    @rule(to_pi=st.booleans(), index=st.integers(0, 50))
    def duplicate_a_frame(self, to_pi: bool, index: int) -> None:
        wire = self.to_pi if to_pi else self.to_device
        if wire.pieces:
            at = index % len(wire.pieces)
            wire.pieces.insert(at, wire.pieces[at])

    @rule(to_pi=st.booleans(), index=st.integers(0, 50))
    def swap_two_frames(self, to_pi: bool, index: int) -> None:
        wire = self.to_pi if to_pi else self.to_device
        if len(wire.pieces) >= 2:
            at = index % (len(wire.pieces) - 1)
            wire.pieces[at], wire.pieces[at + 1] = wire.pieces[at + 1], wire.pieces[at]

    @rule(to_pi=st.booleans(), index=st.integers(0, 50), offset=st.integers(0, 2000), flip=st.integers(1, 255))
    def corrupt_a_byte(self, to_pi: bool, index: int, offset: int, flip: int) -> None:
        wire = self.to_pi if to_pi else self.to_device
        if wire.pieces:
            at = index % len(wire.pieces)
            piece = bytearray(wire.pieces[at])
            piece[offset % len(piece)] ^= flip
            wire.pieces[at] = bytes(piece)

    @rule(to_pi=st.booleans(), garbage=st.binary(min_size=1, max_size=300), zero=st.booleans())
    def inject_garbage(self, to_pi: bool, garbage: bytes, zero: bool) -> None:
        wire = self.to_pi if to_pi else self.to_device
        wire.pieces.append(garbage + (b"\x00" if zero else b""))

    @rule(seconds=st.sampled_from([0.3, 1.2, 4.0]))
    def stall(self, seconds: float) -> None:
        """Nothing crosses the wire for a while (a hung USB hub): what was sent is lost."""
        for _ in range(int(seconds * 1000 / SCAN_MS)):
            self.scan(deliver=False)
            self.to_pi.pieces.clear()
            self.to_device.pieces.clear()

    @rule()
    def reboot_the_device(self) -> None:
        self.to_pi.pieces.clear()
        self._boot_device()

    # -- what must hold -----------------------------------------------------------------------
    @invariant()
    def memory_stays_bounded(self) -> None:
        protocol = self.protocol
        assert len(protocol.errors) <= MAX_ERRORS
        assert len(protocol.pending) <= 4
        assert len(protocol.log._buckets) <= 64

    @invariant()
    def a_throw_is_taken_at_most_once_and_in_order(self) -> None:
        taken = [e.dice for e in self.events if isinstance(e, DiceEvent)]
        assert len(taken) <= len(self.throws)
        assert _is_subsequence(taken, [dice for _boot, _n, dice in self.throws])

    def teardown(self) -> None:
        if not hasattr(self, "protocol"):
            return
        self.calm(5.0)  # the wire is calm again: resends, heartbeats and gap requests do their work
        protocol = self.protocol
        assert protocol.phase is Phase.CONNECTED, protocol.problem
        snapshots = [e for e in self.events if isinstance(e, SnapshotEvent)]
        stands = tuple(None if zone is None else (zone[0], zone[1]) for zone in self.device.logic._debouncer.snapshot)
        last = snapshots[-1].snapshot.readings
        assert tuple(None if r is None else (r.white, r.black) for r in last) == stands, "the Pi has the board as it stands"
        taken = [e for e in self.events if isinstance(e, DiceEvent)]
        assert len(taken) == protocol.stats.throws
        if self.throws and self.throws[-1][0] == self.boot:
            assert not self.device.throw_pending, "the last throw was acknowledged"
            assert taken and taken[-1].dice == self.throws[-1][2], "the last throw reached the Pi"
        assert all(not isinstance(e, DeviceEvent) or "did not acknowledge" not in e.message for e in self.events[-5:])


def _is_subsequence(part: list[object], whole: list[object]) -> bool:
    it = iter(whole)
    return all(any(item == candidate for candidate in it) for item in part)


LinkUnderFaults.TestCase.settings = settings(
    max_examples=40, stateful_step_count=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
TestLinkUnderFaults = LinkUnderFaults.TestCase


def test_without_faults_every_throw_is_taken_once_and_repeats_are_acknowledged():
    machine = LinkUnderFaults()
    machine.start(seed=7)
    for dice in ((6, 3), (6, 3), (2, 2), (5, 1)):
        machine.throw_dice(*dice)
    machine.calm(1.0)
    taken = [e.dice for e in machine.events if isinstance(e, DiceEvent)]
    assert taken == [(6, 3), (6, 3), (2, 2), (5, 1)], "the same numbers thrown again are a new throw"
    assert machine.protocol.stats.throw_repeats == 0 and not machine.device.throw_pending
    machine.teardown()


def test_a_lost_dice_frame_is_sent_again_and_taken_once():
    """... and says how many ms ago its dice landed (protocol 3), so the Pi knows which
    boards came before the throw (``DiceEvent.late``), a repeated frame as the first."""
    machine = LinkUnderFaults()
    machine.start(seed=8)
    machine.board.dice = [EMPTY, EMPTY]
    for _ in range(12):
        machine.scan()
    machine.board.dice = [4, 2]
    machine.scan(deliver=False)
    landed = machine.now  # the first scan with both dice in their pockets
    while not machine.device.throw_pending:
        machine.scan(deliver=False)
    machine.to_pi.pieces = [piece for piece in machine.to_pi.pieces if p.Decoder().feed(piece)[:1] and
                            p.Decoder().feed(piece)[0][0] != p.DICE]
    machine.calm(1.0)
    (roll,) = [e for e in machine.events if isinstance(e, DiceEvent)]
    assert roll.dice == (4, 2) and not machine.device.throw_pending
    assert roll.late is not None and abs((roll.time - roll.late) - landed) <= SCAN_MS / 1000 + 1e-9, (roll, landed)
    assert roll.late >= 0.25  # the first frame lost: the one taken came a resend later


def test_the_last_snapshot_lost_is_asked_for_again():
    machine = LinkUnderFaults()
    machine.start(seed=9)
    machine.board.place(3, white=2)
    while not any(piece for piece in machine.to_pi.pieces if p.Decoder().feed(piece)[:1] and
                  p.Decoder().feed(piece)[0][0] == p.SNAPSHOT):
        machine.scan(deliver=False)
    machine.to_pi.pieces.clear()  # the snapshot of the last move is lost, and nothing follows it
    before = machine.protocol.stats.snapshot_requests
    machine.calm(2.5)
    assert machine.protocol.stats.snapshot_requests > before, "the device's heartbeat showed the gap"
    last = [e for e in machine.events if isinstance(e, SnapshotEvent)][-1]
    assert last.snapshot.readings[3].white == 2


def test_a_flood_of_device_errors_is_bounded_escaped_and_rate_limited():
    events: list[Event] = []
    logs: list[str] = []
    protocol = LinkProtocol(events.append, logs.append, TIMINGS)
    protocol.connection_made(0.0)
    hello = p.hello_payload("fw\n\x1b[31mFORGED", p.CAP_ALL, b"\x00" * 8)
    protocol.data_received(p.encode(p.HELLO, 0, hello), 0.0)
    assert protocol.connected
    flood = b"".join(
        p.encode(p.ERROR, n & 0xFF, p.error_payload(p.SENSOR_FAULT, "zone %d\nboard link: FORGED \x1b[2J" % n))
        for n in range(20_000)
    )
    for second in range(10):
        protocol.data_received(flood, float(second))
    assert len(protocol.errors) <= MAX_ERRORS
    assert len(logs) <= 5 + 10 + 2, "5 at once, then one a second"
    assert all("\n" not in line and "\x1b" not in line for line in logs)
    assert any("more like it held back" in line for line in logs)
    faults = [e for e in events if isinstance(e, DeviceEvent)]
    assert 0 < len(faults) <= 5 + 10 + 2, "device faults reach the player rate-limited too"
    assert faults and all("\n" not in e.message and "\x1b" not in e.message for e in faults)


def test_a_throw_is_taken_only_after_the_board_it_follows():
    """The last SNAPSHOT of a turn is lost and the next throw lands at once: the Pi must have
    that board before the roll, or the roll would be judged against the board before the play."""
    machine = LinkUnderFaults()
    machine.start(seed=10)
    machine.throw_dice(1, 2)
    machine.calm(1.5)
    machine.board.place(5, white=3)
    while not any(p.Decoder().feed(piece)[:1] and p.Decoder().feed(piece)[0][0] == p.SNAPSHOT
                  for piece in machine.to_pi.pieces):
        machine.scan(deliver=False)
    machine.to_pi.pieces.clear()  # the snapshot of the finished play is lost
    machine.throw_dice(6, 6)  # thrown well within the heartbeat's second
    machine.calm(1.0)
    order = [e for e in machine.events if isinstance(e, (SnapshotEvent, DiceEvent))]
    roll = next(i for i, e in enumerate(order) if isinstance(e, DiceEvent) and e.dice == (6, 6))
    before = [e for e in order[:roll] if isinstance(e, SnapshotEvent)][-1]
    assert before.snapshot.readings[5].white == 3, "the board of the finished play came before the roll"
    assert [e.dice for e in machine.events if isinstance(e, DiceEvent)] == [(1, 2), (6, 6)]


def test_a_reboot_whose_hello_is_lost_is_seen_in_the_heartbeat_and_the_lights_come_back():
    machine = LinkUnderFaults()
    machine.start(seed=11)
    machine.to_device.send(machine.protocol.show(bytes(56), machine.now))
    machine.calm(0.5)
    assert machine.device.counts.get(p.LEDS) == 1
    machine._boot_device()
    machine.to_pi.pieces.clear()  # its HELLO is lost
    machine.calm(2.5)
    assert machine.device.counts.get(p.LEDS) == 1, "the rebooted board was sent the lights again"
    assert machine.protocol.connected
    machine.teardown()
