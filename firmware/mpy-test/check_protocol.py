"""Checks firmware/protocol.py under the real MicroPython (run by run.mjs, never by CPython's
pytest): the shared vectors, encode and decode both ways, and the decoder against garbage.

Written in the MicroPython subset too.  ``main(path)`` prints one line per failure and a
last line ``micropython: N passed, M failed``, and returns M.
"""

import json
import sys
from binascii import hexlify, unhexlify

import protocol as p

_results = [0, 0]  # passed, failed


def check(ok, what):
    """Count one check; print it if it failed."""
    if ok:
        _results[0] += 1
    else:
        _results[1] += 1
        print("FAIL: " + what)


def hexs(data):
    """Bytes as a hex str (no bytes.hex() on every port)."""
    return hexlify(data).decode()


def jsonable(value):
    """Tuples as lists and bytes as {"hex": ...}, as in the vectors file."""
    if isinstance(value, (bytes, bytearray)):
        return {"hex": hexs(value)}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    return value


def from_json(value):
    """{"hex": ...} as bytes, lists kept."""
    if isinstance(value, dict):
        return unhexlify(value["hex"])
    if isinstance(value, list):
        return [from_json(item) for item in value]
    return value


def check_message(vector):
    """One message: build, encode, decode and parse give the frozen bytes and values."""
    name = vector["name"]
    payload = unhexlify(vector["payload"])
    frame = unhexlify(vector["frame"])
    if vector["build"]:
        built = getattr(p, vector["build"])(*from_json(vector["args"]))
        check(built == payload, name + ": built payload " + hexs(built))
    encoded = p.encode(vector["type"], vector["seq"], payload)
    check(encoded == frame, name + ": encoded " + hexs(encoded))
    decoded = p.Decoder().feed(frame)
    check(decoded == [(vector["type"], vector["seq"], payload)], name + ": decoded " + repr(decoded))
    parsed = jsonable(getattr(p, vector["parse"])(payload))
    check(parsed == vector["parsed"], name + ": parsed " + repr(parsed))


def check_stream(case):
    """A stream: the frames it holds come out, the rest is rejected for the right reasons."""
    decoder = p.Decoder()
    frames = [[t, s, hexs(payload)] for t, s, payload in decoder.feed(unhexlify(case["stream"]))]
    check(frames == case["frames"], case["name"] + ": frames " + repr(frames))
    check(decoder.reasons == case["reasons"], case["name"] + ": reasons " + repr(decoder.reasons))
    if "version" in case["reasons"]:
        why = p.describe_foreign(decoder.foreign)
        check("version %d" % p.PROTOCOL_VERSION in why and "version %d" % decoder.foreign[0] in why, why)


class Noise:
    """A small deterministic byte generator (the same garbage on every run)."""

    def __init__(self, seed):
        self.state = seed

    def byte(self):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 16) & 0xFF

    def bytes(self, count):
        return bytes([self.byte() for _ in range(count)])


def check_garbage(frames):
    """Garbage never raises nor makes frames; the decoder is back in step within one frame."""
    noise = Noise(2024)
    for round_ in range(40):
        garbage = noise.bytes(noise.byte() + 1)
        decoder = p.Decoder()
        check(decoder.feed(garbage) == [], "garbage %d made a frame" % round_)
        first, second = frames[round_ % len(frames)], frames[(round_ + 1) % len(frames)]
        out = decoder.feed(first[0] + second[0])
        check(out and out[-1] == second[1], "garbage %d: frame after it lost: %r" % (round_, out))
        out = p.Decoder().feed(garbage + b"\x00" + first[0])
        check(out == [first[1]], "garbage %d then 0x00: frame lost: %r" % (round_, out))


def check_parsers_on_noise(messages):
    """Parsers given random payloads (of any length, and of the vectors' lengths) return or
    raise ProtocolError, nothing else."""
    noise = Noise(7)
    for name in [name for name in dir(p) if name.startswith("parse_")]:
        lengths = [len(m["payload"]) // 2 for m in messages if m["parse"] == name]
        other = []
        for attempt in range(150):
            size = lengths[attempt % len(lengths)] if lengths and attempt % 2 else noise.byte() % 70
            payload = noise.bytes(size)
            try:
                getattr(p, name)(payload)
            except p.ProtocolError:
                pass
            except Exception as error:  # anything but ProtocolError is a failure
                other.append(repr(error))
        check(not other, name + " raised " + ", ".join(other[:3]))


def check_corruption(frame, expected):
    """Every single-byte change inside a frame is rejected; the next frame still comes."""
    after = p.encode(p.ACK, 1, b"\x07\x00")
    bad = 0
    for at in range(len(frame) - 1):
        for value in range(256):
            if value == frame[at]:
                continue
            corrupt = frame[:at] + bytes([value]) + frame[at + 1 :]
            decoder = p.Decoder()
            if decoder.feed(corrupt + after) != [(p.ACK, 1, b"\x07\x00")] or not decoder.rejected:
                bad += 1
    check(bad == 0, "%d single-byte corruptions of %r were not rejected" % (bad, expected))


def check_byte_by_byte(frames):
    """Frames fed one byte at a time come out the same."""
    decoder = p.Decoder()
    out = []
    for frame, _ in frames:
        for i in range(len(frame)):
            out += decoder.feed(frame[i : i + 1])
    check(out == [parts for _, parts in frames], "byte by byte: " + repr(out))


def check_codec():
    """COBS examples, the software CRC, refusals."""
    check(p.cobs_encode(b"\x11\x22\x00\x33") == b"\x03\x11\x22\x02\x33", "COBS example")
    block = bytes(range(1, 256))
    check(p.cobs_encode(block) == b"\xff" + block[:254] + b"\x02\xff", "COBS 255 bytes")
    check(p.cobs_decode(p.cobs_encode(block + b"\x00")) == block + b"\x00", "COBS round trip")
    check(p._crc32_soft(b"123456789") == 0xCBF43926 == p.crc32(b"123456789"), "CRC-32 check value")
    for bad in (lambda: p.encode(256, 0, b""), lambda: p.parse_dice(b"\x07\x01"), lambda: p.parse_error(b"\x01\xff")):
        try:
            bad()
            check(False, "no ProtocolError")
        except p.ProtocolError:
            check(True, "")
    check(p.next_seq(255) == 0, "seq wraps")


def main(path):
    """Run every check on the vectors file at ``path``; the number of failures."""
    print("MicroPython %s, protocol version %d" % (sys.version, p.PROTOCOL_VERSION))
    with open(path) as file:
        vectors = json.load(file)
    check(vectors["protocol_version"] == p.PROTOCOL_VERSION, "vectors are for another version")
    frames = []
    for vector in vectors["messages"]:
        check_message(vector)
        frames.append((unhexlify(vector["frame"]), (vector["type"], vector["seq"], unhexlify(vector["payload"]))))
    for case in vectors["streams"]:
        check_stream(case)
    check_codec()
    check_garbage(frames)
    check_byte_by_byte(frames)
    check_parsers_on_noise(vectors["messages"])
    dice = next(f for f in frames if f[1][0] == p.DICE)
    check_corruption(dice[0], dice[1])
    print("micropython: %d passed, %d failed" % (_results[0], _results[1]))
    return _results[1]
