"""``firmware/device.py``, the device's side of the link, under CPython: every message of
PROTOCOL.md answered as it says, bad and foreign frames, the link's timers, calibration over
the wire; and the same conversation under the real MicroPython (WebAssembly), byte for byte.
"""

from __future__ import annotations

import ast
import random
import re
import sys
from pathlib import Path

import pytest
from micropython_node import run_micropython
from hypothesis import given, settings
from hypothesis import strategies as st
from serial_kit import calibration, device, foreign_frame

from firmware import protocol as p
from firmware.board_logic import BoardLogic, RawScan
from firmware.classify import CalibrationError
from firmware.device import (
    BAD_FRAME_EVERY_MS,
    DICE_RESEND_MS,
    HEARTBEAT_MS,
    LINK_LOST_MS,
    RAW_PER_FRAME,
    Device,
)
from firmware.scan import Layout
from firmware.synthetic import HallBoard
from firmware.wire_calibration import (
    calibration_of,
    check_sensor,
    level_chunks,
    sensor_levels,
)

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
MPY = FIRMWARE / "mpy-test"


class Pi:
    """The Pi's end of a conversation with one Device: frames out, decoded answers in."""

    def __init__(self, dev: Device) -> None:
        self.dev = dev
        self.decoder = p.Decoder()
        self.seq = 0
        self.now = 0

    def say(self, msg_type: int, payload: bytes = b"") -> list[tuple[int, int, bytes]]:
        frame = p.encode(msg_type, self.seq, payload)
        self.seq = p.next_seq(self.seq)
        return self.hear(self.dev.receive(frame, self.now))

    def raw(self, data: bytes) -> list[tuple[int, int, bytes]]:
        return self.hear(self.dev.receive(data, self.now))

    def hear(self, data: bytes) -> list[tuple[int, int, bytes]]:
        frames = self.decoder.feed(data)
        assert self.decoder.rejected == 0, self.decoder.reasons
        return frames

    def scans(self, board: HallBoard | None, count: int, step: int = 20) -> list[tuple[int, int, bytes]]:
        frames = []
        for _ in range(count):
            self.now += step
            frames += self.hear(self.dev.tick(None if board is None else board.scan(), self.now))
        return frames


def types(frames: list[tuple[int, int, bytes]]) -> list[int]:
    return [frame[0] for frame in frames]


@pytest.fixture
def board() -> HallBoard:
    return HallBoard(Layout(), random.Random(5))


@pytest.fixture
def pi() -> Pi:
    return Pi(device())


# -- the handshake and requests --------------------------------------------------------------------


def test_boot_sends_a_delimiter_and_hello_and_says_when_uncalibrated():
    data = device().boot(0)
    assert data[0] == 0
    frames = p.Decoder().feed(data)
    assert types(frames) == [p.HELLO]
    assert p.parse_hello(frames[0][2])[:3] == (p.PROTOCOL_VERSION, p.CAP_BOARD_SENSOR | p.CAP_DICE_TRAY | p.CAP_LEDS | p.CAP_RAW_MODE, 28)
    bare = Device(BoardLogic(Layout()), store=lambda text: None)
    frames = p.Decoder().feed(bare.boot(0))
    assert types(frames) == [p.HELLO, p.ERROR]
    assert p.parse_hello(frames[0][2])[1] == p.CAP_ALL
    assert p.parse_error(frames[1][2])[0] == p.CALIBRATION_MISSING


def test_hello_request_is_answered_with_hello(pi):
    frames = pi.say(p.HELLO_REQUEST)
    assert types(frames) == [p.HELLO]
    version, _caps, zones, device_id, firmware = p.parse_hello(frames[0][2])
    assert (version, zones, device_id) == (p.PROTOCOL_VERSION, 28, b"\x00" * 8) and firmware.startswith("trictrac-fw")
    assert pi.dev.connected


def test_snapshot_request_is_answered_at_the_next_settled_scan_then_the_dice(pi, board):
    board.place(0, white=2)
    board.dice = [6, 3]
    pi.scans(board, 15)
    assert pi.say(p.SNAPSHOT_REQUEST) == [] and pi.dev.busy
    frames = pi.scans(board, 1)
    assert types(frames) == [p.SNAPSHOT, p.DICE] and not pi.dev.busy
    counter, zones = p.parse_snapshot(frames[0][2])
    assert zones[0] == (2, 0) and zones[1:] == [(0, 0)] * 27 and counter == 1
    assert p.parse_dice(frames[1][2])[:3] == (0, False, (6, 3)), "dice found at start: the tray's state, no throw"


def test_a_throw_is_sent_until_acknowledged_and_survives_a_lost_link(pi, board):
    pi.say(p.HELLO_REQUEST)
    pi.scans(board, 12)
    board.dice = [4, 4]
    dice = [p.parse_dice(f[2])[:3] for f in pi.scans(board, 12) if f[0] == p.DICE]
    assert dice == [(1, True, (4, 4))]
    assert pi.now < pi.dev.resend_due_ms <= pi.now + DICE_RESEND_MS
    pi.say(p.DICE_ACK, p.dice_ack_payload(7))  # not this throw: ignored
    dice = [p.parse_dice(f[2])[:3] for f in pi.scans(board, 13) if f[0] == p.DICE]
    assert dice == [(1, True, (4, 4))], "resent after DICE_RESEND_MS"
    pi.scans(board, LINK_LOST_MS // 20)
    assert not pi.dev.connected and pi.dev.throw_pending, "a lost link keeps the throw owed"
    assert [f for f in pi.scans(board, 50) if f[0] == p.DICE] == [], "nobody listens: no resends"
    pi.say(p.SNAPSHOT_REQUEST)
    frames = pi.scans(board, 1)
    assert types(frames) == [p.SNAPSHOT, p.DICE] and p.parse_dice(frames[1][2])[:3] == (1, True, (4, 4))
    pi.say(p.DICE_ACK, p.dice_ack_payload(1))
    assert not pi.dev.throw_pending and pi.dev.resend_due_ms is None
    beat = [f for f in pi.scans(board, HEARTBEAT_MS // 20) if f[0] == p.HEARTBEAT][0]
    assert p.parse_heartbeat(beat[2])[1:] == (pi.dev.logic.snapshot_counter, 1)


def test_settled_changes_are_sent_with_a_rising_counter(pi, board):
    counters = []
    for white in (1, 2, 3):
        board.place(3, white=white)
        frames = [f for f in pi.scans(board, 6) if f[0] == p.SNAPSHOT]
        assert len(frames) == 1
        counter, zones = p.parse_snapshot(frames[0][2])
        counters.append(counter)
        assert zones[3] == (white, 0)
    assert counters == [counters[0], counters[0] + 1, counters[0] + 2]


def test_leds_are_acknowledged_with_their_seq_and_shown(pi):
    lights = [(0, 0)] * 28
    lights[5], lights[24] = (p.COLOUR_CODES["target"], p.BLINK), (p.COLOUR_CODES["turn"], p.STEADY)
    frames = pi.say(p.LEDS, p.leds_payload(lights))
    assert types(frames) == [p.ACK] and p.parse_ack(frames[0][2]) == (pi.seq - 1, p.OK)
    assert [tuple(light) for light in pi.dev.lights] == lights
    assert pi.dev.logic.pixels(0)[5] != (0, 0, 0)


@pytest.mark.parametrize("payload", [b"", b"\x00" * 55, b"\x09\x00" * 28, b"\x00\x02" * 28])
def test_malformed_leds_get_ack_bad_payload_and_change_nothing(pi, payload):
    before = pi.dev.lights
    frames = pi.say(p.LEDS, payload)
    assert types(frames) == [p.ACK] and p.parse_ack(frames[0][2])[1] == p.BAD_PAYLOAD
    assert pi.dev.lights == before


def test_a_device_without_leds_answers_unsupported():
    pi = Pi(device(capabilities=p.CAP_BOARD_SENSOR))
    frames = pi.say(p.LEDS, p.leds_payload([(1, 0)] * 28))
    assert p.parse_ack(frames[0][2])[1] == p.UNSUPPORTED
    frames = pi.say(p.RAW_MODE, p.raw_mode_payload(True))
    assert p.parse_ack(frames[0][2])[1] == p.UNSUPPORTED


def test_raw_mode_streams_raw_scans_and_stops(pi, board):
    frames = pi.say(p.RAW_MODE, p.raw_mode_payload(True))
    assert p.parse_ack(frames[0][2])[1] == p.OK and pi.dev.busy
    raws = [f for f in pi.scans(board, 9) if f[0] == p.RAW]
    assert len(raws) == 3  # every third scan: under 20 a second
    first, total, readings = p.parse_raw(raws[0][2])
    assert (first, total, len(readings)) == (0, 143, 143)
    pi.say(p.RAW_MODE, p.raw_mode_payload(False))
    assert not [f for f in pi.scans(board, 9) if f[0] == p.RAW]


def test_a_big_raw_scan_is_split_over_frames(pi):
    values = list(range(1200))
    frames = pi.hear(pi.dev._event_frames(RawScan(0, values)))
    parsed = [p.parse_raw(f[2]) for f in frames]
    assert [(first, total, len(r)) for first, total, r in parsed] == [
        (0, 1200, RAW_PER_FRAME), (RAW_PER_FRAME, 1200, RAW_PER_FRAME), (2 * RAW_PER_FRAME, 1200, 1200 - 2 * RAW_PER_FRAME)]
    assert [value for _f, _t, readings in parsed for value in readings] == values


# -- bad, unknown and foreign frames ----------------------------------------------------------------


@pytest.mark.parametrize("msg_type", [0x77, p.HELLO, p.SNAPSHOT, p.ACK])
def test_unknown_and_misdirected_types_get_error_unknown_message(pi, msg_type):
    frames = pi.say(msg_type)
    assert types(frames) == [p.ERROR]
    assert p.parse_error(frames[0][2]) == (p.UNKNOWN_MESSAGE, f"type 0x{msg_type:02x}")


@pytest.mark.parametrize("msg_type, payload", [(p.HEARTBEAT, b"\x01\x02"), (p.HELLO_REQUEST, b"x"),
                                               (p.SNAPSHOT_REQUEST, b"x"), (p.CALIBRATION_GET, b"x")])
def test_malformed_requests_get_error_bad_payload(pi, msg_type, payload):
    frames = pi.say(msg_type, payload)
    assert types(frames) == [p.ERROR]
    code, text = p.parse_error(frames[0][2])
    assert code == p.BAD_PAYLOAD and "payload" in text


def test_bad_frames_are_answered_at_most_once_a_second(pi):
    corrupt = bytearray(p.encode(p.HEARTBEAT, 3, p.heartbeat_payload(1234)))
    corrupt[4] ^= 0x40
    frames = pi.raw(bytes(corrupt))
    assert types(frames) == [p.ERROR] and p.parse_error(frames[0][2]) == (p.BAD_FRAME, "crc")
    assert pi.raw(b"\x09garbage\x00") == []
    pi.now += BAD_FRAME_EVERY_MS
    assert types(pi.raw(b"\x09garbage\x00")) == [p.ERROR]
    assert types(pi.say(p.HELLO_REQUEST)) == [p.HELLO]  # and back in step at once


def test_a_frame_of_another_version_gets_hello_and_version_mismatch(pi):
    frames = pi.raw(foreign_frame(1, p.HELLO_REQUEST))
    assert types(frames) == [p.HELLO, p.ERROR]
    assert p.parse_error(frames[1][2]) == (p.VERSION_MISMATCH, "protocol 1")


def test_a_failing_scan_is_reported_and_the_loop_goes_on(pi, board):
    frames = pi.hear(pi.dev.tick([1, 2, 3], 20))
    assert types(frames) == [p.ERROR]
    code, text = p.parse_error(frames[0][2])
    assert code == p.INTERNAL and "ValueError" in text and "143" in text
    assert types(pi.say(p.HELLO_REQUEST)) == [p.HELLO]


# -- the link's timers -------------------------------------------------------------------------------


def test_heartbeat_after_a_second_of_silence_and_link_loss_after_three(pi):
    pi.say(p.LEDS, p.leds_payload([(1, 1)] * 28))
    pi.say(p.RAW_MODE, p.raw_mode_payload(True))
    sent = pi.scans(None, HEARTBEAT_MS // 20)
    assert types(sent) == [p.HEARTBEAT] and p.parse_heartbeat(sent[0][2])[0] == pi.now
    assert pi.dev.connected
    pi.scans(None, (LINK_LOST_MS - HEARTBEAT_MS) // 20)
    assert not pi.dev.connected
    assert set(pi.dev.lights) == {(0, 0)} and not pi.dev.logic.raw_mode


def test_any_frame_from_the_pi_keeps_the_link(pi):
    for _ in range(5):
        pi.scans(None, (LINK_LOST_MS - 100) // 20)
        pi.say(p.HEARTBEAT, p.heartbeat_payload(pi.now))
    assert pi.dev.connected


# -- calibration over the wire ------------------------------------------------------------------------


def collect_levels(frames):
    levels = {}
    total = None
    for msg_type, _seq, payload in frames:
        assert msg_type == p.CALIBRATION
        first, total, chunk = p.parse_calibration(payload)
        for offset, sensor in enumerate(chunk):
            levels[first + offset] = sensor
    return [levels[i] for i in range(total)]


def test_calibration_get_sends_every_sensor_and_round_trips(pi):
    frames = pi.say(p.CALIBRATION_GET)
    assert len(frames) >= 2
    levels = collect_levels(frames)
    assert len(levels) == 143 and [len(levels[i]) for i in (0, 139, 140, 141, 142)] == [4, 4, 7, 7, 1]
    assert calibration_of(levels, Layout()) == calibration()


def test_calibration_get_without_one_says_it_is_missing():
    pi = Pi(Device(BoardLogic(Layout())))
    frames = pi.say(p.CALIBRATION_GET)
    assert types(frames) == [p.ERROR] and p.parse_error(frames[0][2])[0] == p.CALIBRATION_MISSING


def test_calibration_set_in_several_frames_is_used_once_complete(board):
    pi = Pi(Device(BoardLogic(Layout())))
    levels = sensor_levels(calibration(), Layout())
    chunks = level_chunks(levels)
    assert len(chunks) >= 3
    for first, chunk in chunks:
        assert not pi.dev.logic.calibrated
        frames = pi.say(p.CALIBRATION_SET, p.calibration_payload(first, len(levels), chunk))
        assert p.parse_ack(frames[0][2])[1] == p.OK
    assert pi.dev.logic.calibration == calibration()
    board.place(7, black=4)
    pi.say(p.SNAPSHOT_REQUEST)
    snapshot = [f for f in pi.scans(board, 5) if f[0] == p.SNAPSHOT][-1]
    assert p.parse_snapshot(snapshot[2])[1][7] == (0, 4)


def test_calibration_set_that_does_not_fit_is_refused_with_the_reason(pi):
    before = pi.dev.logic.calibration
    frames = pi.say(p.CALIBRATION_SET, p.calibration_payload(0, 100, [(1, 2)] * 10))
    assert types(frames) == [p.ACK, p.ERROR] and p.parse_ack(frames[0][2])[1] == p.BAD_PAYLOAD
    assert "100 sensors" in p.parse_error(frames[1][2])[1] and "143" in p.parse_error(frames[1][2])[1]
    frames = pi.say(p.CALIBRATION_SET, p.calibration_payload(140, 143, [(1, 2)] * 3))
    assert "die sensor 140 takes 7 levels" in p.parse_error(frames[1][2])[1]
    levels = sensor_levels(calibration(), Layout())
    levels[3] = (30000, 29000, 28000, 27000)  # one sensor reading the other way
    for first, chunk in level_chunks(levels):
        frames = pi.say(p.CALIBRATION_SET, p.calibration_payload(first, len(levels), chunk))
    assert types(frames) == [p.ACK, p.ERROR] and p.parse_ack(frames[0][2])[1] == p.BAD_PAYLOAD
    assert "zone 1 sensor 3" in p.parse_error(frames[1][2])[1]
    assert pi.dev.logic.calibration == before


def test_calibration_store_writes_the_json_or_says_why_not():
    stored = []
    pi = Pi(device(store=stored.append))
    assert p.parse_ack(pi.say(p.CALIBRATION_STORE)[0][2])[1] == p.OK
    assert stored == [calibration().to_json()]

    def broken(text):
        raise OSError(28, "no space left")

    pi = Pi(device(store=broken))
    frames = pi.say(p.CALIBRATION_STORE)
    assert types(frames) == [p.ACK, p.ERROR] and p.parse_ack(frames[0][2])[1] == p.STORE_FAILED
    assert "no space left" in p.parse_error(frames[1][2])[1]
    assert p.parse_ack(Pi(device()).say(p.CALIBRATION_STORE)[0][2])[1] == p.UNSUPPORTED


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=20, deadline=None)
def test_any_modelled_calibration_survives_the_wire(seed):
    layout = Layout(zones=28)
    board = HallBoard(layout, random.Random(seed), offset_spread=3000, gain_spread=0.1, polarity=-1 if seed % 2 else 1)
    from firmware.synthetic import calibrate

    measured = calibrate(board, scans=1)
    assert calibration_of(sensor_levels(measured, layout), layout, measured) == measured


def test_sizes_of_levels_are_checked_per_sensor_kind():
    layout = Layout()
    assert check_sensor(layout, 0, (1, 2, 3, 4)) is None
    assert "slot sensor 0 takes 2-8" in check_sensor(layout, 0, (1,))
    assert "reference sensor 142 takes 1" in check_sensor(layout, 142, (1, 2))
    with pytest.raises(CalibrationError, match="142 sensors' levels for a board of 143"):
        calibration_of([(1,)] * 142, layout)


# -- MicroPython ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["device", "wire_calibration", "main"])
def test_new_firmware_stays_within_micropython(name):
    source = (FIRMWARE / f"{name}.py").read_text()
    tree = ast.parse(source)
    banned = {"dataclasses", "typing", "enum", "abc", "__future__", "functools", "itertools", "collections"}
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
        assert not isinstance(node, (ast.AnnAssign, ast.JoinedStr)), f"{name}:{node.lineno}"
        if isinstance(node, ast.FunctionDef):
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            assert node.returns is None and all(a.annotation is None for a in arguments), f"{name}.{node.name}"
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("to_bytes", "from_bytes", "hex"):
            assert not node.keywords, f"{name}:{node.lineno}"
    assert not banned & imported, f"{name} imports {sorted(banned & imported)}"
    assert not {"machine", "neopixel", "rp2"} & imported, f"only hw.py touches the hardware, not {name}"
    assert not re.search(r"\bf\"|\bf'", source)


def test_the_device_check_passes_under_cpython(capsys):
    sys.path.insert(0, str(MPY))
    try:
        import check_device
    finally:
        sys.path.remove(str(MPY))
    assert check_device.main() == 0
    out = capsys.readouterr().out
    assert "device: 9 passed, 0 failed" in out


def test_the_device_speaks_the_same_bytes_under_micropython(capsys):
    run = run_micropython("run_device.mjs")
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "device: 9 passed, 0 failed" in run.stdout and "ok main:" in run.stdout, output
    digest = re.search(r"device digest ([0-9a-f]{8})", run.stdout)
    sys.path.insert(0, str(MPY))
    try:
        import check_device
    finally:
        sys.path.remove(str(MPY))
    check_device.main()
    mine = re.search(r"device digest ([0-9a-f]{8})", capsys.readouterr().out)
    assert digest and mine and digest.group(1) == mine.group(1), output
