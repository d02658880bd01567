"""``hal.serial_link.BoardLink`` over a real pseudo-terminal pair and over pyserial's
``loop://``: the handshake, foreign devices refused by name, fuzzed byte streams, LED frames
acknowledged and resent, unplug and replug (in real time and in the middle of a simulated
game), the calibration client, and whole games through the pty (``Table(link="serial")``).

Real-time waits are generous (a loaded CI box); nothing asserts how long anything took.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serial_kit import (
    WAIT,
    LoopBoard,
    LoopPort,
    ManualClock,
    PtyPeer,
    foreign_frame,
    hello_frame,
    throw,
    wait_for,
)

from controller.machine import Phase, Settings
from controller.records.matfile import read_mat
from controller.records.replay import replay
from controller.rules import get_rule_set
from firmware import protocol as p
from hal.clock import MonotonicClock
from hal.interfaces import (
    BoardSensor,
    DeviceEvent,
    DiceEvent,
    DiceSource,
    Light,
    LightColour,
    LightFrame,
    LightMode,
    PointLights,
    SnapshotEvent,
)
from hal.queue import ThreadSafeQueue
from hal.board_client import BoardClient
from hal.serial_link import (
    PICO_VID,
    BoardLink,
    LinkError,
    LinkRefused,
    LinkState,
    LinkTimings,
    find_port,
    leds_payload_of,
    open_board,
)
from hal.zones import WHITE
from simulator.board import PhysicalBoard
from simulator.table import Table, simulate
from simulator.virtual_device import VirtualDevice

FAST = LinkTimings(retry=0.05, hello=3.0)
FRAME = LightFrame.of({"5": Light(LightColour.SOURCE), "VII": Light(LightColour.TARGET, LightMode.BLINK)})


class Rig:
    """A connected link to a real-time virtual board, over a pty or loop://."""

    def __init__(self, link: BoardLink, events: ThreadSafeQueue, board: PhysicalBoard, dev: object, logs: list[str]):
        self.link, self.events, self.board, self.dev, self.logs = link, events, board, dev, logs
        self.seen: list[object] = []

    def take(self, kind: type, what: str, where: Callable[[object], bool] | None = None) -> object:
        """Wait for the next event of ``kind`` (matching ``where``), keeping the others seen."""
        found: list[object] = []

        def arrived() -> bool:
            for event in self.events.drain():
                self.seen.append(event)
                if isinstance(event, kind) and (where is None or where(event)):
                    found.append(event)
            return bool(found)

        wait_for(arrived, what=what)
        return found[0]


@contextmanager
def rig(transport: str, timings: LinkTimings = FAST) -> Iterator[Rig]:
    events, logs = ThreadSafeQueue(), []
    if transport == "pty":
        virtual = VirtualDevice(PhysicalBoard(), seed=2).start()
        link = open_board(virtual.path, events, MonotonicClock(), logs.append, timings=timings, timeout=WAIT)
        try:
            yield Rig(link, events, virtual.board, virtual, logs)
        finally:
            link.close()
            virtual.close()
    else:
        loop = LoopBoard(seed=2)
        link = open_board("loop://", events, MonotonicClock(), logs.append, timings=timings, timeout=WAIT,
                          opener=loop.port.opener)
        try:
            yield Rig(link, events, loop.board, loop, logs)
        finally:
            link.close()
            loop.close()


# -- the handshake ---------------------------------------------------------------------------------


@pytest.mark.parametrize("transport", ["pty", "loop"])
def test_the_handshake_connects_and_the_board_reports(transport):
    with rig(transport) as r:
        assert r.link.state is LinkState.CONNECTED
        assert isinstance(r.link, PointLights) and isinstance(r.link, BoardSensor) and isinstance(r.link, DiceSource)
        assert r.link.hello.firmware.startswith("trictrac-fw") and r.link.hello.zone_count == 28
        assert r.link.hello.has(p.CAP_BOARD_SENSOR) and r.link.hello.has(p.CAP_LEDS)
        first = r.take(SnapshotEvent, "the snapshot asked for at connection")
        assert first.snapshot.readings == (first.snapshot.readings[0],) * 28  # an empty board
        r.board.set_zones({"1": (15, 0), "I": (0, 15)})
        moved = r.take(SnapshotEvent, "the settled change", lambda e: e.snapshot.reading("1").white == 15)
        assert moved.snapshot.reading("I").black == 15
        r.board.hover(["3"])
        r.take(SnapshotEvent, "a zone under a hand, unreadable", lambda e: e.snapshot.reading("3") is None)
        throw(r.dev, (6, 2))
        assert r.take(DiceEvent, "the roll").dice == (6, 2)
        r.link.show(FRAME)
        payload = p.parse_leds(leds_payload_of(FRAME))
        wait_for(lambda: [tuple(x) for x in r.dev.device.lights] == payload, what="the lights on the board")
        assert not [e for e in r.seen if isinstance(e, DeviceEvent)]


REPL = b"MicroPython v1.27.0 on 2025-01-01; Raspberry Pi Pico with RP2040\r\nType \"help()\" for more information.\r\n>>> "


@pytest.mark.parametrize("transport", ["pty", "loop"])
@pytest.mark.parametrize(
    "answer, error, words",
    [
        (lambda data: hello_frame(version=1, firmware="trictrac-fw 0.1.0") + foreign_frame(1, p.ERROR, b"\x05protocol 2"),
         LinkRefused, ["protocol version 1", "'trictrac-fw 0.1.0'", "this side speaks version 3", "update the board's firmware"]),
        (lambda data: hello_frame(version=2, firmware="trictrac-fw 0.2.0") + foreign_frame(2, p.ERROR, b"\x05protocol 3"),
         LinkRefused, ["protocol version 2", "'trictrac-fw 0.2.0'", "this side speaks version 3", "update the board's firmware"]),
        (lambda data: hello_frame(version=4, firmware="trictrac-fw 4.0.0") + foreign_frame(4, p.ERROR, b"\x05protocol 3"),
         LinkRefused, ["protocol version 4", "'trictrac-fw 4.0.0'", "this side speaks version 3", "update this controller"]),
        (lambda data: REPL, LinkError, ["not our firmware", "no frame of this protocol"]),
        (lambda data: b"", LinkError, ["no answer within", "trictrac firmware"]),
        (lambda data: hello_frame(zones=24), LinkRefused, ["reports 24 zones", "plays on 28"]),
        (lambda data: hello_frame(caps=p.CAP_LEDS), LinkRefused, ["no checker sensors", "0x04"]),
    ],
    ids=["version-1", "version-2", "version-4", "repl-garbage", "silent", "24-zones", "no-sensors"],
)
def test_a_foreign_device_is_refused_with_a_clear_message(transport, answer, error, words):
    timings = LinkTimings(retry=0.05, hello=0.6)
    events = ThreadSafeQueue()
    if transport == "pty":
        peer = PtyPeer(answer)
        url, opener = peer.path, None
    else:
        peer = LoopPort(answer)
        url, opener = "loop://", peer.opener
    try:
        with pytest.raises(error) as raised:
            open_board(url, events, MonotonicClock(), lambda line: None, timings=timings, timeout=WAIT, opener=opener)
    finally:
        if transport == "pty":
            peer.close()
    message = str(raised.value)
    assert url in message and all(word in message for word in words), message
    assert events.drain() == []


def test_no_port_and_a_missing_port_are_named(monkeypatch):
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [])
    monkeypatch.setattr("glob.glob", lambda pattern: [])
    with pytest.raises(LinkError, match=r"no board found.*0x2E8A.*/dev/ttyACM\*.*board.port"):
        find_port()
    with pytest.raises(LinkError, match=r"cannot open /dev/no-such-board"):
        open_board("/dev/no-such-board", ThreadSafeQueue(), MonotonicClock(), lambda line: None, timings=FAST)


def test_find_port_prefers_the_pico_then_ttyacm(monkeypatch):
    class Port:
        def __init__(self, device, vid):
            self.device, self.vid, self.description = device, vid, "usb"

    monkeypatch.setattr("glob.glob", lambda pattern: ["/dev/ttyACM3", "/dev/ttyACM1"])
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [Port("/dev/ttyACM0", 0x1234), Port("/dev/ttyACM2", PICO_VID)])
    assert find_port() == "/dev/ttyACM2"
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [Port("/dev/ttyUSB0", 0x1234)])
    assert find_port() == "/dev/ttyACM1"


# -- fuzzing the link ------------------------------------------------------------------------------


def snapshot_frame(ident: int, seq: int) -> bytes:
    """An intact SNAPSHOT whose first zones spell ``ident`` (so each frame is recognisable)."""
    zones = [(ident % 31, 0), (ident // 31 % 31, 0), (0, ident // 961 % 31)] + [(0, 0)] * 25
    return p.encode(p.SNAPSHOT, seq & 0xFF, p.snapshot_payload(ident & 0xFFFF, zones))


def ident_of(event: SnapshotEvent) -> int:
    r = event.snapshot.readings
    return r[0].white + 31 * r[1].white + 961 * r[2].black


class Fuzzed:
    """One connected link whose board side the test writes by hand."""

    def __init__(self, transport: str) -> None:
        self.transport = transport
        self.events = ThreadSafeQueue()
        self.next_id = 1

        def board(data: bytes) -> bytes:
            frames = p.Decoder().feed(data)
            return b"".join(p.encode(p.HELLO, 0, p.hello_payload("fuzz", p.CAP_ALL, b"\x00" * 8))
                            for t, _s, _p in frames if t == p.HELLO_REQUEST)

        timings = LinkTimings(silence=1e9, heartbeat=1e9, ack=1e9, retry=0.05)
        if transport == "pty":
            self.peer: PtyPeer | LoopPort = PtyPeer(board)
            url, opener = self.peer.path, None
        else:
            self.peer = LoopPort(board)
            url, opener = "loop://", self.peer.opener
        self.link = open_board(url, self.events, ManualClock(), lambda line: None, timings=timings, timeout=WAIT, opener=opener)
        self.send([self.frame()[1]])
        self.collect()

    def frame(self) -> tuple[int, bytes]:
        ident = self.next_id
        self.next_id += 1
        return ident, snapshot_frame(ident, ident)

    def send(self, chunks: list[bytes]) -> None:
        for chunk in chunks:
            self.peer.inject(chunk)

    def collect(self) -> list[int]:
        """Send a sentinel after a delimiter; the idents received before it."""
        sentinel, frame = self.frame()
        self.send([b"\x00" + frame])
        got: list[int] = []
        wait_for(lambda: self._drain(got, sentinel), what="the sentinel frame")
        return got[:-1]

    def _drain(self, got: list[int], sentinel: int) -> bool:
        for event in self.events.drain():
            assert isinstance(event, SnapshotEvent), event
            got.append(ident_of(event))
        return bool(got) and got[-1] == sentinel


_FUZZED: dict[str, Fuzzed] = {}


def fuzzed(transport: str) -> Fuzzed:
    if transport not in _FUZZED:
        _FUZZED[transport] = Fuzzed(transport)
    return _FUZZED[transport]


@pytest.fixture(scope="module", autouse=True)
def _close_fuzzed() -> Iterator[None]:
    yield
    for rig_ in _FUZZED.values():
        rig_.link.close()
        if isinstance(rig_.peer, PtyPeer):
            rig_.peer.close()
    _FUZZED.clear()


piece = st.one_of(
    st.tuples(st.just("frame")),
    st.tuples(st.just("repeat")),
    st.tuples(st.just("garbage"), st.binary(min_size=1, max_size=80)),
    st.tuples(st.just("garbage"), st.binary(min_size=1037, max_size=1300).map(lambda b: b.replace(b"\x00", b"\x01"))),
    st.tuples(st.just("truncated"), st.integers(1, 60)),
    st.tuples(st.just("corrupted"), st.integers(0, 200), st.integers(1, 255)),
)


def explains(sent: list[tuple[int, bool]], got: list[int]) -> bool:
    """``got`` is ``sent`` in order, with only frames not right after a delimiter left out."""
    from functools import cache

    @cache
    def fits(i: int, j: int) -> bool:
        if i == len(sent):
            return j == len(got)
        ident, clean = sent[i]
        if j < len(got) and got[j] == ident and fits(i + 1, j + 1):
            return True
        return not clean and fits(i + 1, j)

    return fits(0, 0)


def fuzz(transport: str, pieces: list[tuple], cuts: list[int]) -> None:
    rig_ = fuzzed(transport)
    stream = bytearray(b"\x00")
    sent: list[tuple[int, bool]] = []  # (ident, clean: right after a delimiter)
    last: tuple[int, bytes] | None = None
    for kind, *args in pieces:
        clean = stream[-1] == 0
        if kind == "frame" or (kind == "repeat" and last is None):
            last = rig_.frame()
            sent.append((last[0], clean))
            stream += last[1]
        elif kind == "repeat":
            sent.append((last[0], clean))
            stream += last[1]
        elif kind == "garbage":
            stream += args[0]
        elif kind == "truncated":
            _ident, frame = rig_.frame()
            stream += frame[: min(args[0], len(frame) - 1)]
        else:
            _ident, frame = rig_.frame()
            corrupt = bytearray(frame)
            at = args[0] % (len(frame) - 1)
            corrupt[at] ^= args[1]
            stream += corrupt
    chunks, at = [], 0
    for cut in cuts:
        if at >= len(stream):
            break
        chunks.append(bytes(stream[at : at + cut]))
        at += cut
    chunks.append(bytes(stream[at:]))
    rig_.send(chunks)
    got = rig_.collect()
    # nothing but intact frames, in order; every frame sent after a delimiter arrives; a frame
    # glued to garbage (no delimiter between) may be lost, and only that one
    assert explains(sent, got), f"received {got} for the intact frames (ident, after a delimiter) {sent}"
    assert rig_.link.state is LinkState.CONNECTED


@given(st.lists(piece, max_size=14), st.lists(st.integers(1, 300), max_size=6))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fuzzed_streams_over_loop_never_pass_a_bad_frame_and_resync_within_one_frame(pieces, cuts):
    fuzz("loop", pieces, cuts)


@given(st.lists(piece, max_size=10), st.lists(st.integers(1, 300), max_size=4))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fuzzed_streams_over_a_pty_never_pass_a_bad_frame_and_resync_within_one_frame(pieces, cuts):
    fuzz("pty", pieces, cuts)


def test_every_single_byte_change_of_a_frame_is_dropped():
    rig_ = fuzzed("loop")
    ident, frame = rig_.frame()
    for at in range(len(frame) - 1):
        for flip in (0x01, 0x80, 0xFF):
            corrupt = bytearray(frame)
            corrupt[at] ^= flip
            rig_.send([bytes(corrupt) + b"\x00"])
    assert rig_.collect() == []
    assert rig_.link.stats.rejected >= 3 * (len(frame) - 1)
    rig_.send([frame])
    assert rig_.collect() == [ident]


# -- errors from the board --------------------------------------------------------------------------


def test_board_errors_become_device_events_and_link_noise_is_only_logged():
    events, logs = ThreadSafeQueue(), []
    loop = LoopPort(lambda data: hello_frame() if p.HELLO_REQUEST in [t for t, _s, _p in p.Decoder().feed(data)] else b"")
    link = open_board("loop://", events, ManualClock(), logs.append, timings=LinkTimings(silence=1e9, heartbeat=1e9),
                      opener=loop.opener)
    try:
        loop.inject(p.encode(p.ERROR, 1, p.error_payload(p.SENSOR_FAULT, "zone VII: no reading")))
        loop.inject(p.encode(p.ERROR, 2, p.error_payload(p.BAD_FRAME, "crc")))
        loop.inject(p.encode(p.SNAPSHOT, 3, b"\x01\x02"))  # a malformed payload: logged, dropped
        loop.inject(p.encode(p.ERROR, 4, p.error_payload(p.CALIBRATION_MISSING, "no calibration")))
        got: list[object] = []
        wait_for(lambda: got.extend(events.drain()) or len(got) >= 2, what="two device events")
        assert [(type(e), e.device, e.message, e.ok) for e in got] == [
            (DeviceEvent, "board", "sensor fault: zone VII: no reading", False),
            (DeviceEvent, "board", "calibration missing: no calibration", False),
        ]
        assert any("bad frame: crc" in line for line in logs) and any("bad SNAPSHOT payload" in line for line in logs)
    finally:
        link.close()


# -- lights: acknowledged and resent -----------------------------------------------------------------


class LedsBoard:
    """A board on loop:// that drops the first ``deaf`` LEDS frames, then acknowledges them."""

    def __init__(self, deaf: int) -> None:
        self.deaf = deaf
        self.leds: list[tuple[int, bytes]] = []
        self.port = LoopPort(self.answer)
        self._seq = 0

    def answer(self, data: bytes) -> bytes:
        out = b""
        for msg_type, seq, payload in p.Decoder().feed(data):
            if msg_type == p.HELLO_REQUEST:
                out += hello_frame()
            elif msg_type == p.LEDS:
                self.leds.append((seq, payload))
                if len(self.leds) > self.deaf:
                    out += p.encode(p.ACK, len(self.leds) & 0xFF, p.ack_payload(seq))
        return out


def leds_link(board: LedsBoard, clock: ManualClock, events: ThreadSafeQueue) -> BoardLink:
    return open_board("loop://", events, clock, lambda line: None, timings=LinkTimings(silence=1e9),
                      opener=board.port.opener, timeout=WAIT)


def test_leds_are_resent_until_acknowledged():
    board, clock, events = LedsBoard(deaf=2), ManualClock(), ThreadSafeQueue()
    link = leds_link(board, clock, events)
    try:
        link.show(FRAME)
        wait_for(lambda: len(board.leds) == 1, what="the LEDS frame")
        for tries in (2, 3):
            clock.advance(0.1)
            assert len(board.leds) == tries - 1  # no resend before 250 ms
            clock.advance(0.2)
            wait_for(lambda tries=tries: len(board.leds) == tries, what=f"LEDS try {tries}")
        clock.advance(5.0)
        wait_for(lambda: link.stats.resends == 2 and not link.protocol.pending, what="the ACK")
        assert len({payload for _seq, payload in board.leds}) == 1 and len({seq for seq, _ in board.leds}) == 3
        assert len(board.leds) == 3 and link.stats.unacknowledged == 0
        assert not [e for e in events.drain() if isinstance(e, DeviceEvent)]
        link.show(FRAME)  # the same lights again: nothing to send
        link.show(LightFrame.of({"5": Light(LightColour.SOURCE)}, "another message"))
        wait_for(lambda: len(board.leds) == 4, what="the changed lights")
    finally:
        link.close()


def test_leds_never_acknowledged_are_a_device_fault_after_three_resends():
    board, clock, events = LedsBoard(deaf=10**6), ManualClock(), ThreadSafeQueue()
    link = leds_link(board, clock, events)
    try:
        link.show(FRAME)
        for tries in range(2, 6):
            wait_for(lambda tries=tries: len(board.leds) == min(tries - 1, 4), what=f"LEDS try {tries - 1}")
            clock.advance(0.3)
        fault = []
        wait_for(lambda: fault.extend(events.drain()) or bool(fault), what="the device fault")
        assert len(board.leds) == 4
        assert fault[0].ok is False and fault[0].message == "the board did not acknowledge LEDS (4 tries)"
        assert link.state is LinkState.CONNECTED
    finally:
        link.close()


def test_new_lights_supersede_unacknowledged_ones():
    board, clock, events = LedsBoard(deaf=1), ManualClock(), ThreadSafeQueue()
    link = leds_link(board, clock, events)
    try:
        link.show(FRAME)
        wait_for(lambda: len(board.leds) == 1, what="the first frame")
        newer = LightFrame.of({"6": Light(LightColour.HIT)})
        link.show(newer)
        wait_for(lambda: len(board.leds) == 2 and not link.protocol.pending, what="the newer frame acknowledged")
        clock.advance(1.0)
        assert [payload for _s, payload in board.leds] == [leds_payload_of(FRAME), leds_payload_of(newer)]
    finally:
        link.close()


# -- unplug and replug ----------------------------------------------------------------------------


def test_unplug_and_replug_in_real_time():
    with rig("pty") as r:
        virtual: VirtualDevice = r.dev
        r.take(SnapshotEvent, "the first snapshot")
        r.board.set_zones({"1": (15, 0), "I": (0, 15)})
        r.take(SnapshotEvent, "the start position", lambda e: e.snapshot.reading("1").white == 15)
        throw(virtual, (4, 1))
        assert r.take(DiceEvent, "the roll").dice == (4, 1)
        r.link.show(FRAME)
        wait_for(lambda: virtual.device.counts.get(p.LEDS, 0) == 1, what="the lights")
        before = dict(virtual.device.counts)

        virtual.unplug()
        lost = r.take(DeviceEvent, "link lost")
        assert not lost.ok and lost.message.startswith("link lost: ") and r.link.state is LinkState.LOST
        r.board.move("1", "5", WHITE)  # moved while unplugged
        virtual.replug()
        back = r.take(DeviceEvent, "link back", lambda e: e.ok)
        assert back.message == f"link back: firmware {virtual.device.firmware}"
        assert r.link.state is LinkState.CONNECTED
        after = r.take(SnapshotEvent, "the full snapshot after the replug", lambda e: e.snapshot.reading("5").white == 1)
        assert after.snapshot.reading("1").white == 14
        wait_for(lambda: virtual.device.counts.get(p.LEDS, 0) == before[p.LEDS] + 1, what="the lights re-sent")
        assert virtual.device.counts[p.SNAPSHOT_REQUEST] == before[p.SNAPSHOT_REQUEST] + 1
        assert virtual.device.counts[p.HELLO_REQUEST] > before[p.HELLO_REQUEST]
        assert [tuple(x) for x in virtual.device.lights] == p.parse_leds(leds_payload_of(FRAME))
        assert not [e for e in r.seen if isinstance(e, DiceEvent) and e.time > lost.time]
        assert r.link.stats.throws == 1 and r.link.protocol.tray == (4, 1)  # the tray still shows 4-1: no new roll

        virtual.unplug()
        r.take(DeviceEvent, "link lost again", lambda e: not e.ok)
        throw(virtual, (5, 5))  # thrown while unplugged
        virtual.replug()
        assert r.take(DiceEvent, "the roll thrown while unplugged").dice == (5, 5)


def test_a_silent_board_is_lost_and_found_again():
    timings = LinkTimings(retry=0.05, hello=3.0, silence=0.6)
    with rig("pty", timings) as r:
        virtual: VirtualDevice = r.dev
        virtual.stop()  # the firmware hangs: the port stays, the frames stop
        lost = r.take(DeviceEvent, "link lost")
        assert lost.message == "link lost: no frame from the board for 0.6 s"
        virtual.start()
        r.take(DeviceEvent, "link back", lambda e: e.ok)
        assert r.link.state is LinkState.CONNECTED


def test_an_uncalibrated_board_says_so_at_every_connection():
    from firmware.board_logic import BoardLogic
    from firmware.device import Device
    from firmware.scan import Layout

    bare = Device(BoardLogic(Layout()))
    events = ThreadSafeQueue()
    loop = LoopPort(lambda data: bare.receive(data, 0))
    link = open_board("loop://", events, ManualClock(), lambda line: None, opener=loop.opener,
                      timings=LinkTimings(silence=1e9, heartbeat=1e9))
    try:
        got: list[object] = []
        wait_for(lambda: got.extend(events.drain()) or bool(got), what="the calibration fault")
        assert got[0].ok is False and got[0].message.startswith("calibration missing: no calibration")
    finally:
        link.close()


def test_close_stops_the_link():
    with rig("loop") as r:
        r.link.close()
        assert r.link.state is LinkState.CLOSED
        with pytest.raises(LinkError, match="not connected"):
            BoardClient(r.link).set_raw_mode(True)


# -- the calibration client --------------------------------------------------------------------------


def test_the_calibration_client_over_a_pty():
    with rig("pty") as r:
        virtual: VirtualDevice = r.dev
        calibration = BoardClient(r.link).get_calibration()
        assert calibration == virtual.logic.calibration
        scans = BoardClient(r.link).raw_scans(3)
        assert len(scans) == 3 and all(len(scan) == 143 for scan in scans)
        assert not virtual.logic.raw_mode
        data = calibration.to_dict()
        data["zones"][0][0]["zero"] += 25
        from firmware.classify import Calibration

        changed = Calibration.from_dict(data)
        BoardClient(r.link).set_calibration(changed)
        assert virtual.logic.calibration == changed
        BoardClient(r.link).store_calibration()
        assert Calibration.from_json(virtual.stored) == changed
        r.link.show(FRAME)
        BoardClient(r.link).show_test(LightColour.WINNER)
        assert set(virtual.device.lights) == {(p.COLOUR_CODES["winner"], p.STEADY)}
        r.link.show(FRAME)  # the game's lights come back
        wait_for(lambda: [tuple(x) for x in virtual.device.lights] == p.parse_leds(leds_payload_of(FRAME)),
                 what="the game's lights")


def test_the_calibration_client_names_refusals():
    with rig("loop") as r:  # this board has no flash to store into, and forgets on request
        with pytest.raises(LinkError, match="refused CALIBRATION_STORE: unsupported"):
            BoardClient(r.link).store_calibration()
        r.dev.device.logic.set_calibration(None)
        with pytest.raises(LinkError, match="no calibration"):
            BoardClient(r.link).get_levels()


# -- through the pty in the middle of games ----------------------------------------------------------


def test_unplug_and_replug_in_the_middle_of_a_game():
    settings = Settings(get_rule_set("backgammon"))
    table = Table(settings, seed=5, link="serial")
    serial = table.serial
    assert serial is not None
    plan: dict[str, object] = {}
    seen: list[DeviceEvent] = []
    handle = table.controller.handle

    def watching(event):
        if isinstance(event, DeviceEvent):
            seen.append(event)
        return handle(event)

    def unplug() -> None:
        plan["before"] = dict(serial.device.device.counts)
        serial.unplug()

    def replug() -> None:
        serial.replug()
        plan["after"] = dict(serial.device.device.counts)

    def observe(out) -> None:  # in the 7th turn, a moment after the roll, pull the cable
        controller = table.controller
        if "at" not in plan and controller.phase is Phase.MOVING and len(controller.game.history) == 6:
            now = table.sim.clock.now()
            plan["at"] = now
            table.sim.scheduler.at(now + 0.2, unplug)
            table.sim.scheduler.at(now + 1.0, replug)

    table.controller.handle = watching
    table.observer = observe
    try:
        report = table.play_match()
    finally:
        table.close()
    assert "after" in plan, "the cable was never pulled"
    before, after = plan["before"], plan["after"]
    assert after[p.SNAPSHOT_REQUEST] == before[p.SNAPSHOT_REQUEST] + 1  # a full snapshot asked for
    assert after[p.LEDS] >= before[p.LEDS] + 1  # the lights re-sent
    assert after[p.HELLO_REQUEST] >= before[p.HELLO_REQUEST] + 1  # the handshake redone
    assert [(e.ok, e.message.split(":")[0]) for e in seen] == [(False, "link lost"), (True, "link back")]
    assert serial.link.stats.connections == 2 and serial.link.stats.losses == 1
    assert report.finished == report.games == 1
    assert report.mismatches == [] and report.plays_recorded_identically == report.plays_made > 20
    assert report.false_warnings == []


def test_whole_games_through_the_pty(tmp_path: Path):
    settings = Settings(get_rule_set("trictrac"))
    report = simulate(settings, 2, seed=3, illegal_rate=0.2, records=tmp_path, link="serial")
    assert report.games == report.finished == 2
    assert report.mismatches == []
    assert report.plays_recorded_identically == report.plays_made > 60
    assert report.illegal_attempts > 0 and report.attempts_warned == report.illegal_attempts
    assert report.false_warnings == []
    for path in sorted(tmp_path.glob("*.mat")):
        assert replay(read_mat(path.read_text(), source=str(path))).games[0].result is not None


def test_a_serial_run_is_deterministic():
    settings = Settings(get_rule_set("backgammon"))

    def run() -> tuple[list[object], list[LightFrame]]:
        table = Table(settings, seed=3, link="serial")  # a short game
        events: list[object] = []
        handle = table.controller.handle
        table.controller.handle = lambda event: (events.append(event), handle(event))[1]
        try:
            report = table.play_match()
            assert table.serial is not None and table.serial.device.device.connected  # never timed out
        finally:
            table.close()
        assert report.mismatches == [] and report.false_warnings == []
        assert not [e for e in events if isinstance(e, DeviceEvent)]
        return events, table.sim.lights.frames

    assert run() == run()


def test_an_unknown_link_is_refused():
    with pytest.raises(ValueError, match="link is one of direct, serial, not 'usb'"):
        Table(Settings(get_rule_set("trictrac")), link="usb")



def test_serve_plays_live_on_a_pty_for_the_real_controller():
    import time

    from controller.machine import Controller
    from controller.runner import BoardRunner
    from hal.interfaces import Hardware
    from simulator.virtual_device import serve

    class Quiet:
        def play(self, sound: object) -> None:
            pass

    path, board = serve("backgammon", 4, speed=8)
    link = None
    try:
        assert path.startswith("/dev/pts/")
        events, clock = ThreadSafeQueue(), MonotonicClock()
        link = open_board(path, events, clock, lambda line: None, timeout=WAIT)
        controller = Controller(Settings(get_rule_set("backgammon")))
        hardware = Hardware(clock=clock, events=events, lights=link, sounder=Quiet(), sensor=link, dice=[link])
        warnings: list[str] = []
        runner = BoardRunner(controller, hardware, log=lambda line: None)
        apply = runner.apply
        runner.apply = lambda out: (out.warning and warnings.append(out.warning), apply(out))[1]
        runner.apply(controller.begin(clock.now()))
        deadline = time.monotonic() + 60
        while len([t for t in controller.game.turns() if t.play]) < 3:
            assert time.monotonic() < deadline, "the live players made no 3 plays within 60 s"
            runner.step(wait=0.05)
        truth = board.table.truth[0]
        made = [(t.colour, t.after) for t in truth.turns() if t.play][:3]
        recorded = [(t.colour, t.after) for t in controller.game.turns() if t.play][:3]
        assert recorded == made and warnings == []
    finally:
        board.stop()
        if link is not None:
            link.close()
