"""The wire protocol codec (firmware/protocol.py) under CPython: COBS, frames, the streaming
decoder against garbage and corruption, every message's payload, and the shared vectors
that the MicroPython run (tests/test_protocol_micropython.py) checks too.

``PYTHONPATH=. python tests/test_protocol.py --write-vectors`` rewrites firmware/protocol_vectors.json
from VECTORS below; do that only when the protocol itself changes (and bump its version).
"""

from __future__ import annotations

import ast
import binascii
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware import protocol as p
from hal.interfaces import LightColour, LightMode
from hal.zones import ZONES

ROOT = Path(__file__).resolve().parent.parent
VECTORS_FILE = ROOT / "firmware" / "protocol_vectors.json"
DEVICE_ID = bytes.fromhex("e6614104032b5c2f")


def zones_with(**counts: tuple[int, int] | None) -> list[tuple[int, int] | None]:
    """28 empty zones but those named by index as ``z<index>``."""
    zones: list[tuple[int, int] | None] = [(0, 0)] * p.ZONE_COUNT
    for name, reading in counts.items():
        zones[int(name[1:])] = reading
    return zones


def lights_with(**lit: tuple[int, int]) -> list[tuple[int, int]]:
    """28 dark LEDs but those named by index as ``z<index>``."""
    lights = [(p.COLOUR_CODES["off"], p.STEADY)] * p.ZONE_COUNT
    for name, light in lit.items():
        lights[int(name[1:])] = light
    return lights


# name, type, seq, payload builder name, its arguments, parser name
VECTORS = [
    ("HELLO", p.HELLO, 0, "hello_payload", ["trictrac-fw 0.2.0", p.CAP_ALL, DEVICE_ID], "parse_hello"),
    ("HELLO_REQUEST", p.HELLO_REQUEST, 0, None, [], "parse_empty"),
    ("HEARTBEAT", p.HEARTBEAT, 7, "heartbeat_payload", [123456], "parse_heartbeat"),
    ("HEARTBEAT device", p.HEARTBEAT, 8, "heartbeat_payload", [123456, 513, 40001], "parse_heartbeat"),
    ("ACK ok", p.ACK, 2, "ack_payload", [41, p.OK], "parse_ack"),
    ("ACK store failed", p.ACK, 3, "ack_payload", [42, p.STORE_FAILED], "parse_ack"),
    ("ERROR", p.ERROR, 4, "error_payload", [p.SENSOR_FAULT, "zone VII: no reading"], "parse_error"),
    # trictrac's start: White's 15 on 1 (zone 0), Black's 15 on I (zone 12)
    ("SNAPSHOT start", p.SNAPSHOT, 1, "snapshot_payload", [1, zones_with(z0=(15, 0), z12=(0, 15))],
     "parse_snapshot"),
    ("SNAPSHOT unreadable", p.SNAPSHOT, 255, "snapshot_payload",
     [513, zones_with(z0=(14, 0), z3=(1, 0), z5=None, z12=(0, 15))], "parse_snapshot"),
    ("SNAPSHOT_REQUEST", p.SNAPSHOT_REQUEST, 1, None, [], "parse_empty"),
    ("DICE roll", p.DICE, 9, "dice_payload", [40001, [6, 3], True, 513, 180], "parse_dice"),
    ("DICE no clear roll", p.DICE, 10, "dice_payload", [40002, None, True, 513, 1000], "parse_dice"),
    ("DICE tray state", p.DICE, 11, "dice_payload", [40002, [6, 3], False, 514], "parse_dice"),
    ("DICE_ACK", p.DICE_ACK, 3, "dice_ack_payload", [40001], "parse_dice_ack"),
    ("LEDS", p.LEDS, 41, "leds_payload", [lights_with(z0=(1, 0), z4=(2, 1), z24=(7, 0))], "parse_leds"),
    ("RAW_MODE on", p.RAW_MODE, 5, "raw_mode_payload", [True], "parse_raw_mode"),
    ("RAW_MODE off", p.RAW_MODE, 6, "raw_mode_payload", [False], "parse_raw_mode"),
    ("RAW", p.RAW, 11, "raw_payload", [0, 4, [2048, 2100, 0, 65535]], "parse_raw"),
    ("CALIBRATION_GET", p.CALIBRATION_GET, 8, None, [], "parse_empty"),
    ("CALIBRATION", p.CALIBRATION, 12, "calibration_payload", [0, 2, [[1800, 2300], [1750, 2350]]],
     "parse_calibration"),
    ("CALIBRATION_SET", p.CALIBRATION_SET, 9, "calibration_payload", [2, 4, [[1700, 2400], [1790, 2310]]],
     "parse_calibration"),
    ("CALIBRATION_STORE", p.CALIBRATION_STORE, 10, None, [], "parse_empty"),
]


def jsonable(value):
    """Tuples as lists and bytes as {"hex": ...}: what the vectors file holds."""
    if isinstance(value, (bytes, bytearray)):
        return {"hex": bytes(value).hex()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    return value


def from_json(value):
    """Undo ``jsonable`` for builder arguments."""
    if isinstance(value, dict):
        return bytes.fromhex(value["hex"])
    if isinstance(value, list):
        return [from_json(item) for item in value]
    return value


def build_vectors() -> dict:
    """The vectors file's content, from VECTORS and the codec as it is now."""
    messages = []
    for name, msg_type, seq, builder, args, parser in VECTORS:
        payload = getattr(p, builder)(*args) if builder else b""
        parsed = getattr(p, parser)(payload)
        messages.append({
            "name": name,
            "type": msg_type,
            "seq": seq,
            "build": builder,
            "args": jsonable(args),
            "parse": parser,
            "parsed": jsonable(parsed),
            "payload": payload.hex(),
            "frame": p.encode(msg_type, seq, payload).hex(),
        })
    return {
        "about": "Wire protocol test vectors: every message as exact frame bytes (hex). Checked by "
        "tests/test_protocol.py (CPython) and firmware/mpy-test (MicroPython). Do not edit by hand.",
        "protocol_version": p.PROTOCOL_VERSION,
        "messages": messages,
        "streams": build_streams(),
    }


def foreign_frame(version: int, msg_type: int, seq: int, payload: bytes) -> bytes:
    """A well-formed frame of another protocol version."""
    body = bytes((version, msg_type, seq)) + payload
    return p.cobs_encode(body + binascii.crc32(body).to_bytes(4, "little")) + b"\x00"


def build_streams() -> list[dict]:
    """Byte streams with the frames and rejections a decoder must report for them."""
    beat = p.encode(p.HEARTBEAT, 1, p.heartbeat_payload(1000))
    ack = p.encode(p.ACK, 2, p.ack_payload(1))
    bad_crc = bytearray(beat)
    bad_crc[4] ^= 0x01  # a data byte of the payload
    hello_v1 = p.hello_payload("trictrac-fw 0.1.0", p.CAP_ALL, DEVICE_ID, protocol_version=1)
    foreign = foreign_frame(1, p.HELLO, 0, hello_v1)
    cases = [
        ("garbage then a delimiter, then a frame", b"\xde\xad\xbe\xef\x00" + beat, [beat], {"cobs": 1}),
        ("a bad CRC, then a frame", bytes(bad_crc) + ack, [ack], {"crc": 1}),
        ("a truncated frame runs into the next; the one after is decoded", beat[:5] + ack + beat, [beat], {"crc": 1}),
        ("a frame too short for header and CRC", b"\x04\x01\x02\x03\x00" + ack, [ack], {"short": 1}),
        ("another protocol version", foreign + ack, [ack], {"version": 1}),
        ("padding delimiters are ignored", b"\x00\x00" + ack + b"\x00" + ack, [ack, ack], {}),
        ("an oversize frame", b"\x01" * (p.MAX_ENCODED + 1) + b"\x00" + ack, [ack], {"oversize": 1}),
    ]
    return [
        {"name": name, "stream": stream.hex(), "frames": [frame_row(f) for f in frames], "reasons": reasons}
        for name, stream, frames, reasons in cases
    ]


def frame_row(frame: bytes) -> list:
    """[type, seq, payload hex] of one encoded frame, as the vectors file lists them."""
    msg_type, seq, payload = p.decode_frame(frame)
    return [msg_type, seq, payload.hex()]


def dump_vectors(content: dict) -> str:
    """JSON with one message or stream per line, so that a diff shows which one changed."""
    lines = ["{"]
    for key, value in content.items():
        if isinstance(value, list):
            items = ",\n".join("  " + json.dumps(item, ensure_ascii=False) for item in value)
            lines.append(f" {json.dumps(key)}: [\n{items}\n ],")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "\n}\n"


def load_vectors() -> dict:
    """The vectors file (empty lists if it is missing: the first vector test then fails)."""
    if not VECTORS_FILE.exists():
        return {"messages": [], "streams": []}
    return json.loads(VECTORS_FILE.read_text())


# -- the shared vectors ------------------------------------------------------------------


def test_vectors_file_is_what_the_codec_makes():
    """The frozen bytes still come out of the codec (a change here is a protocol change)."""
    assert load_vectors() == json.loads(json.dumps(build_vectors()))


def test_vectors_cover_every_message_type():
    assert {m["type"] for m in load_vectors()["messages"]} == set(p.MESSAGE_NAMES)


@pytest.mark.parametrize("vector", load_vectors()["messages"], ids=lambda v: v["name"])
def test_vector(vector):
    payload = bytes.fromhex(vector["payload"])
    frame = bytes.fromhex(vector["frame"])
    if vector["build"]:
        assert getattr(p, vector["build"])(*from_json(vector["args"])) == payload
    assert p.encode(vector["type"], vector["seq"], payload) == frame
    assert p.Decoder().feed(frame) == [(vector["type"], vector["seq"], payload)]
    assert jsonable(getattr(p, vector["parse"])(payload)) == vector["parsed"]


@pytest.mark.parametrize("case", load_vectors()["streams"], ids=lambda c: c["name"])
def test_stream_vector(case):
    decoder = p.Decoder()
    frames = decoder.feed(bytes.fromhex(case["stream"]))
    assert [[t, s, payload.hex()] for t, s, payload in frames] == case["frames"]
    assert decoder.reasons == case["reasons"]
    assert decoder.rejected == sum(case["reasons"].values())


# -- COBS --------------------------------------------------------------------------------

COBS_EXAMPLES = [  # the usual published examples
    ("", "01"),
    ("00", "0101"),
    ("0000", "010101"),
    ("001100", "01021101"),
    ("11220033", "0311220233"),
    ("11223344", "0511223344"),
    ("11000000", "0211010101"),
    (bytes(range(1, 255)).hex(), "ff" + bytes(range(1, 255)).hex()),
    ("00" + bytes(range(1, 255)).hex(), "01ff" + bytes(range(1, 255)).hex()),
    (bytes(range(1, 256)).hex(), "ff" + bytes(range(1, 255)).hex() + "02ff"),
    (bytes(range(2, 256)).hex() + "00", "ff" + bytes(range(2, 256)).hex() + "0101"),
    (bytes(range(3, 256)).hex() + "0001", "fe" + bytes(range(3, 256)).hex() + "0201"),
]


@pytest.mark.parametrize("data, encoded", COBS_EXAMPLES)
def test_cobs_examples(data, encoded):
    assert p.cobs_encode(bytes.fromhex(data)).hex() == encoded
    assert p.cobs_decode(bytes.fromhex(encoded)).hex() == data


@given(st.binary(max_size=1200))
def test_cobs_round_trip_has_no_zero_and_bounded_overhead(data):
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + 1 + len(data) // 254
    assert p.cobs_decode(encoded) == data


@pytest.mark.parametrize("bad", [b"", b"\x05\x01", b"\x02\x00", b"\x03\x01"])
def test_cobs_decode_refuses_impossible_data(bad):
    with pytest.raises(p.ProtocolError):
        p.cobs_decode(bad)


# -- frames ------------------------------------------------------------------------------

types = st.integers(0, 255)
seqs = st.integers(0, 255)
payloads = st.binary(max_size=300)
frame_parts = st.tuples(types, seqs, payloads)


@given(frame_parts)
def test_frame_round_trip(parts):
    frame = p.encode(*parts)
    assert frame.endswith(b"\x00") and frame.count(0) == 1
    assert len(frame) <= p.MAX_ENCODED + 1
    assert p.decode_frame(frame) == parts


def test_largest_frame_fits_the_limits():
    payload = bytes(range(1, 256)) * 4 + b"\x01" * (p.MAX_PAYLOAD - 1020)
    frame = p.encode(p.RAW, 0, payload)
    assert len(frame) - 1 <= p.MAX_ENCODED
    assert p.decode_frame(frame) == (p.RAW, 0, payload)
    with pytest.raises(p.ProtocolError, match="at most 1024"):
        p.encode(p.RAW, 0, payload + b"\x01")


@pytest.mark.parametrize("msg_type, seq", [(-1, 0), (256, 0), (0, 256), (0, -1), (True, 0)])
def test_encode_refuses_out_of_range_header(msg_type, seq):
    with pytest.raises(p.ProtocolError):
        p.encode(msg_type, seq, b"")


def test_frame_layout():
    """version, type, seq, payload, CRC-32 little-endian over all before it."""
    body = p.cobs_decode(p.encode(p.DICE, 0x2A, b"\x06\x03")[:-1])
    assert body[:5] == bytes((p.PROTOCOL_VERSION, p.DICE, 0x2A, 6, 3))
    assert body[5:] == binascii.crc32(body[:5]).to_bytes(4, "little")


def test_next_seq_wraps():
    assert p.next_seq(0) == 1 and p.next_seq(255) == 0


def test_software_crc_is_zlibs():
    for data in (b"", b"123456789", bytes(range(256))):
        assert p._crc32_soft(data) == binascii.crc32(data) == p.crc32(data)


# -- the decoder against the world -------------------------------------------------------


@given(st.binary(max_size=2000))
def test_random_bytes_never_raise_nor_make_frames(data):
    decoder = p.Decoder()
    assert decoder.feed(data) == []
    assert decoder.accepted == 0


@given(st.lists(frame_parts, min_size=1, max_size=5), st.data())
def test_chunking_does_not_matter(frames, data):
    stream = b"".join(p.encode(*f) for f in frames)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = p.Decoder()
    out = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        out += decoder.feed(stream[start:end])
    assert out == frames


@given(frame_parts, st.integers(1, 20))
def test_repeated_frames_all_come_through(parts, times):
    decoder = p.Decoder()
    assert decoder.feed(p.encode(*parts) * times) == [parts] * times
    assert decoder.rejected == 0


@given(frame_parts, frame_parts, st.data())
def test_truncated_frame_costs_at_most_the_frame_it_runs_into(cut_parts, parts, data):
    cut = p.encode(*cut_parts)
    piece = cut[: data.draw(st.integers(1, len(cut) - 2))]  # not even the whole COBS body
    first, second = p.encode(*parts), p.encode(p.HEARTBEAT, 9, b"\x01\x02\x03\x04")
    decoder = p.Decoder()
    frames = decoder.feed(piece + first + second)
    assert frames == [(p.HEARTBEAT, 9, b"\x01\x02\x03\x04")]
    assert decoder.rejected == 1
    # a sender that knows it was cut off (a reset) sends 0x00 first: nothing intact is lost
    assert p.Decoder().feed(piece + b"\x00" + first + second) == [parts, (p.HEARTBEAT, 9, b"\x01\x02\x03\x04")]


@given(st.binary(max_size=300), st.lists(frame_parts, min_size=2, max_size=4))
def test_back_in_step_after_garbage(garbage, frames):
    encoded = [p.encode(*f) for f in frames]
    decoder = p.Decoder()
    out = decoder.feed(garbage + b"".join(encoded))
    assert out[-(len(frames) - 1) :] == frames[1:]  # at most the first frame is lost
    assert out in (frames, frames[1:])
    if not garbage or garbage.endswith(b"\x00"):
        assert out == frames


@given(st.lists(st.tuples(st.binary(max_size=50), frame_parts), min_size=1, max_size=6))
def test_garbage_between_frames_ending_in_a_delimiter_loses_nothing(pieces):
    stream = b"".join(garbage + b"\x00" + p.encode(*parts) for garbage, parts in pieces)
    assert p.Decoder().feed(stream) == [parts for _, parts in pieces]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(frame_parts, st.data())
def test_single_byte_corruption_is_rejected(parts, data):
    frame = p.encode(*parts)
    at = data.draw(st.integers(0, len(frame) - 2), label="position")
    value = data.draw(st.integers(0, 255).filter(lambda v: v != frame[at]), label="value")
    corrupt = frame[:at] + bytes((value,)) + frame[at + 1 :]
    after = p.encode(p.ACK, 1, b"\x07\x00")
    decoder = p.Decoder()
    assert decoder.feed(corrupt + after) == [(p.ACK, 1, b"\x07\x00")]
    assert decoder.rejected >= 1


@pytest.mark.parametrize("name", ["DICE roll", "ACK ok", "HEARTBEAT", "HELLO_REQUEST"])
def test_every_single_byte_corruption_of_small_frames_is_rejected(name):
    """Exhaustively: every position (the delimiter too), every other value."""
    frame = bytes.fromhex(next(v["frame"] for v in load_vectors()["messages"] if v["name"] == name))
    after = p.encode(p.ACK, 1, b"\x07\x00")
    for at in range(len(frame)):
        for value in range(256):
            if value == frame[at]:
                continue
            corrupt = frame[:at] + bytes((value,)) + frame[at + 1 :]
            decoder = p.Decoder()
            frames = decoder.feed(corrupt + after + after)
            # a corrupt delimiter merges this frame with the next: that one is lost too
            assert frames == [(p.ACK, 1, b"\x07\x00")] * (1 if at == len(frame) - 1 else 2), (at, value)
            assert decoder.rejected >= 1


@pytest.mark.parametrize("version, firmware, advice", [
    (4, "trictrac-fw 4.0.0", "update this controller"),
    (2, "trictrac-fw 0.2.0", "update the board's firmware"),
    (1, "trictrac-fw 0.1.0", "update the board's firmware"),
])
def test_version_mismatch_is_rejected_and_named(version, firmware, advice):
    hello = p.hello_payload(firmware, p.CAP_ALL, DEVICE_ID, protocol_version=version)
    decoder = p.Decoder()
    assert decoder.feed(foreign_frame(version, p.HELLO, 0, hello)) == []
    assert decoder.reasons == {"version": 1}
    assert decoder.foreign == (version, p.HELLO, 0, hello)
    why = p.describe_foreign(decoder.foreign)
    assert f"version {version}" in why and f"version {p.PROTOCOL_VERSION}" in why and firmware in why
    assert advice in why


def test_oversize_frame_is_dropped_then_the_decoder_is_back_in_step():
    ack = p.encode(p.ACK, 2, b"\x01\x00")
    decoder = p.Decoder()
    assert decoder.feed(b"\x01" * 5000) == []
    assert decoder.feed(b"\x00" + ack) == [(p.ACK, 2, b"\x01\x00")]
    assert decoder.reasons == {"oversize": 1}


def test_unknown_message_types_are_passed_on():
    """The decoder judges framing only; the application answers UNKNOWN_MESSAGE."""
    assert p.Decoder().feed(p.encode(0x7E, 3, b"?")) == [(0x7E, 3, b"?")]
    assert p.message_name(0x7E) == "0x7e" and p.message_name(p.LEDS) == "LEDS"


# -- payloads ----------------------------------------------------------------------------

readings = st.one_of(st.none(), st.tuples(st.integers(0, p.MAX_CHECKERS), st.integers(0, p.MAX_CHECKERS)))


@given(st.integers(0, 0xFFFF), st.lists(readings, min_size=28, max_size=28))
def test_snapshot_round_trip(counter, zones):
    assert p.parse_snapshot(p.snapshot_payload(counter, zones)) == (counter, zones)


@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 1)), min_size=28, max_size=28))
def test_leds_round_trip(lights):
    assert p.parse_leds(p.leds_payload(lights)) == lights


@given(st.integers(0, 0xFFFF), st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 6))), st.booleans(),
       st.integers(0, 0xFFFF), st.integers(0, 0xFFFF))
def test_dice_round_trip(throw, dice, thrown, counter, landed):
    known = None if landed == p.LANDED_UNKNOWN else landed
    assert p.parse_dice(p.dice_payload(throw, dice, thrown, counter, landed)) == (throw, thrown, dice, counter, known)
    assert p.parse_dice(p.dice_payload(throw, dice, thrown, counter))[4] is None  # the tray's state: not known


@given(st.integers(0, 0xFFFF))
def test_dice_ack_round_trip(throw):
    assert p.parse_dice_ack(p.dice_ack_payload(throw)) == throw


@given(st.text(max_size=40), st.integers(0, 255), st.binary(min_size=8, max_size=8))
def test_hello_round_trip(firmware, capabilities, device_id):
    parsed = p.parse_hello(p.hello_payload(firmware, capabilities, device_id))
    assert parsed[:4] == (p.PROTOCOL_VERSION, capabilities, p.ZONE_COUNT, device_id)
    assert firmware.startswith(parsed[4]) and len(parsed[4].encode()) <= p.MAX_FIRMWARE_TEXT


@given(st.integers(1, 255), st.text(max_size=80))
def test_error_round_trip_cuts_long_text_on_a_character(code, text):
    parsed_code, parsed_text = p.parse_error(p.error_payload(code, text))
    assert parsed_code == code and text.startswith(parsed_text)
    assert len(parsed_text.encode()) <= p.MAX_ERROR_TEXT
    if len(text.encode()) <= p.MAX_ERROR_TEXT:
        assert parsed_text == text


@given(st.integers(0, 255), st.integers(0, 255))
def test_ack_round_trip(seq, status):
    assert p.parse_ack(p.ack_payload(seq, status)) == (seq, status)


@given(st.integers(0, 0xFFFFFFFF))
def test_heartbeat_round_trip(uptime):
    assert p.parse_heartbeat(p.heartbeat_payload(uptime)) == (uptime, None, None)


@given(st.integers(0, 0xFFFFFFFF), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF))
def test_device_heartbeat_round_trip(uptime, counter, throw):
    assert p.parse_heartbeat(p.heartbeat_payload(uptime, counter, throw)) == (uptime, counter, throw)


@given(st.booleans())
def test_raw_mode_round_trip(on):
    assert p.parse_raw_mode(p.raw_mode_payload(on)) is on


@given(st.lists(st.integers(0, 0xFFFF), max_size=510), st.integers(0, 100), st.integers(0, 100))
def test_raw_round_trip(values, first, extra):
    total = first + len(values) + extra
    assert p.parse_raw(p.raw_payload(first, total, values)) == (first, total, values)


@given(st.integers(1, p.MAX_THRESHOLDS).flatmap(
    lambda k: st.lists(st.tuples(*[st.integers(0, 0xFFFF)] * k), min_size=1, max_size=1019 // (2 * k))
), st.integers(0, 50))
def test_calibration_round_trip(thresholds, first):
    total = first + len(thresholds)
    assert p.parse_calibration(p.calibration_payload(first, total, thresholds)) == (first, total, thresholds)


PARSERS = [name for name in dir(p) if name.startswith("parse_")]


@pytest.mark.parametrize("parser", PARSERS)
@given(payload=st.binary(max_size=120))
def test_parsers_raise_only_protocol_errors(parser, payload):
    try:
        getattr(p, parser)(payload)
    except p.ProtocolError:
        pass


@pytest.mark.parametrize(
    "build",
    [
        lambda: p.snapshot_payload(0, [(0, 0)] * 27),
        lambda: p.snapshot_payload(0, [(31, 0)] * 28),
        lambda: p.snapshot_payload(0x10000, [(0, 0)] * 28),
        lambda: p.dice_payload(1, (7, 1)),
        lambda: p.dice_payload(1, (0, 3)),
        lambda: p.dice_payload(0x10000, (1, 3)),
        lambda: p.dice_payload(1, (1, 3), True, -1),
        lambda: p.dice_ack_payload(-1),
        lambda: p.heartbeat_payload(1, 2, None),
        lambda: p.leds_payload([(9, 0)] * 28),
        lambda: p.leds_payload([(0, 2)] * 28),
        lambda: p.hello_payload("fw", 0, b"short"),
        lambda: p.error_payload(p.OK, "not an error"),
        lambda: p.raw_payload(3, 4, [1, 2]),
        lambda: p.raw_payload(0, 600, [0] * 511),
        lambda: p.calibration_payload(0, 2, [(1, 2), (3,)]),
        lambda: p.calibration_payload(0, 1, [tuple(range(9))]),
        lambda: p.heartbeat_payload(-1),
    ],
)
def test_builders_refuse_what_does_not_fit(build):
    with pytest.raises(p.ProtocolError):
        build()


@pytest.mark.parametrize(
    "parser, payload, message",
    [
        (p.parse_snapshot, b"\x00" * 57, "58"),
        (p.parse_snapshot, b"\x00\x00" + b"\xff\x00" + b"\x00" * 54, "zone 0"),
        (p.parse_dice, b"\x01\x00\x01\x00\x03\x00\x00\xff\xff", "0 3"),
        (p.parse_dice, b"\x01\x00\x04\x01\x03\x00\x00\xff\xff", "flags 0x04"),
        (p.parse_dice, b"\x01\x00\x01\x06\x03\x00\x00", "not 9"),
        (p.parse_heartbeat, b"\x00" * 6, "not 4 or 8"),
        (p.parse_leds, b"\x09\x00" * 28, "colour 9"),
        (p.parse_raw_mode, b"\x02", "0 or 1"),
        (p.parse_error, b"\x01\xff", "UTF-8"),
        (p.parse_empty, b"\x00", "0"),
        (p.parse_raw, b"\x05\x00\x05\x00\x01\x00", "past the total"),
    ],
)
def test_parsers_say_what_is_wrong(parser, payload, message):
    with pytest.raises(p.ProtocolError, match=message):
        parser(payload)


def test_codes_match_hal():
    """Colour and mode codes name hal's LightColour and LightMode values; zones are hal's 28."""
    assert p.COLOUR_NAMES == tuple(c.value for c in LightColour)
    assert p.MODE_NAMES == tuple(m.value for m in LightMode)
    assert (p.STEADY, p.BLINK) == (p.MODE_CODES["steady"], p.MODE_CODES["blink"])
    assert p.ZONE_COUNT == len(ZONES)


def test_codec_source_stays_in_the_micropython_subset():
    """Cheap guards for what MicroPython lacks; the real check is the MicroPython run."""
    tree = ast.parse((ROOT / "firmware" / "protocol.py").read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"struct", "binascii"}, imported
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)], "f-strings"
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not attributes & {"hex", "fromhex", "to_bytes", "from_bytes", "isascii"}, attributes
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.AnnAssign, ast.Match))], "annotations or match"
    functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)]
    annotated = [f.name for f in functions if f.returns or any(a.annotation for a in f.args.args)]
    assert not annotated, annotated


if __name__ == "__main__" and "--write-vectors" in sys.argv:
    VECTORS_FILE.write_text(dump_vectors(build_vectors()))
    print(f"wrote {VECTORS_FILE.relative_to(ROOT)}")
