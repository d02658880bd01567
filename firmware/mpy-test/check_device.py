"""Checks of firmware/device.py that run alike under CPython and MicroPython: a scripted
conversation with a Device over a modelled board (deterministic: ``Lcg``).  ``main()``
prints one line per check, then ``device digest XXXXXXXX`` (the CRC-32 of every byte the
device sent), which must be the same under both interpreters, and returns the failures.
"""

from firmware import protocol as p
from firmware.board_logic import BoardLogic
from firmware.device import Device
from firmware.scan import Layout
from firmware.synthetic import HallBoard, Lcg, calibrate
from firmware.wire_calibration import calibration_of, level_chunks, sensor_levels


class Conversation:
    """A device on a modelled board, a decoder for what it says, and the bytes said so far."""

    def __init__(self):
        self.layout = Layout()
        self.board = HallBoard(self.layout, Lcg(11))
        calibration = calibrate(self.board, scans=3)
        self.stored = []
        self.device = Device(BoardLogic(self.layout, calibration), store=self.stored.append, first_throw=0xFFFE)
        self.decoder = p.Decoder()
        self.sent = bytearray()
        self.now = 0
        self.seq = 0

    def hear(self, data):
        self.sent.extend(data)
        return self.decoder.feed(data)

    def say(self, msg_type, payload=b""):
        frame = p.encode(msg_type, self.seq, payload)
        self.seq = p.next_seq(self.seq)
        return self.hear(self.device.receive(frame, self.now))

    def scans(self, count):
        frames = []
        for _ in range(count):
            self.now += 20
            frames.extend(self.hear(self.device.tick(self.board.scan(), self.now)))
        return frames


def _types(frames):
    return [msg_type for msg_type, _seq, _payload in frames]


def check_boot(c):
    frames = c.hear(c.device.boot(0))
    assert _types(frames) == [p.HELLO], frames
    version, caps, zones, _id, firmware = p.parse_hello(frames[0][2])
    assert version == p.PROTOCOL_VERSION and zones == 28 and caps == p.CAP_ALL, (version, caps, zones)
    assert firmware.startswith("trictrac-fw"), firmware


def check_hello_request(c):
    frames = c.say(p.HELLO_REQUEST)
    assert _types(frames) == [p.HELLO], frames


def check_snapshot_request(c):
    c.board.place(0, white=15)
    c.board.place(12, black=15)
    c.scans(5)
    assert c.say(p.SNAPSHOT_REQUEST) == []
    frames = c.scans(1)
    assert _types(frames) == [p.SNAPSHOT, p.DICE], frames
    _counter, zones = p.parse_snapshot(frames[0][2])
    assert zones[0] == (15, 0) and zones[12] == (0, 15) and zones[1] == (0, 0), zones[:13]
    assert p.parse_dice(frames[1][2]) == (0xFFFE, False, None, _counter, None), "an empty tray, no throw owed"


def check_throws(c):
    c.scans(12)  # the empty tray settles: what it shows at start is no throw
    c.board.dice = [6, 3]
    frames = [f for f in c.scans(12) if f[0] == p.DICE]
    assert [p.parse_dice(f[2])[:3] for f in frames] == [(0xFFFF, True, (6, 3))], frames
    first = p.parse_dice(frames[0][2])[4]
    assert first is not None and first > 0, "the dice landed before they settled: %r" % first
    frames = [f for f in c.scans(13) if f[0] == p.DICE]
    assert [p.parse_dice(f[2])[:3] for f in frames] == [(0xFFFF, True, (6, 3))], "sent again after 250 ms"
    assert p.parse_dice(frames[0][2])[4] > first, "a repeat counts from the same landing"
    assert c.say(p.DICE_ACK, p.dice_ack_payload(0xFFFF)) == []
    assert [f for f in c.scans(30) if f[0] == p.DICE] == [], "acknowledged: not sent again"
    c.board.dice = [0, 0]
    c.scans(12)
    c.board.dice = [6, 3]
    frames = [f for f in c.scans(12) if f[0] == p.DICE]
    assert [p.parse_dice(f[2])[:3] for f in frames] == [(0, True, (6, 3))], "the same numbers thrown again: a new throw"
    assert c.say(p.SNAPSHOT_REQUEST) == []
    frames = c.scans(1)
    assert _types(frames) == [p.SNAPSHOT, p.DICE] and p.parse_dice(frames[1][2])[:3] == (0, True, (6, 3)), frames
    c.say(p.DICE_ACK, p.dice_ack_payload(0))
    assert c.say(p.SNAPSHOT_REQUEST) == []
    frames = c.scans(1)
    assert p.parse_dice(frames[1][2])[:3] == (0, False, (6, 3)), "the tray's state, not a throw"
    heartbeat = [f for f in c.scans(60) if f[0] == p.HEARTBEAT][0]
    assert p.parse_heartbeat(heartbeat[2])[1:] == (c.device.logic.snapshot_counter, 0), heartbeat


def check_leds(c):
    lights = [(0, 0)] * 28
    lights[4] = (2, 1)
    frames = c.say(p.LEDS, p.leds_payload(lights))
    assert _types(frames) == [p.ACK] and p.parse_ack(frames[0][2]) == (c.seq - 1 & 0xFF, p.OK), frames
    assert tuple(c.device.lights[4]) == (2, 1), c.device.lights[4]
    frames = c.say(p.LEDS, b"\x09" * 56)
    assert p.parse_ack(frames[0][2])[1] == p.BAD_PAYLOAD, frames


def check_calibration_round_trip(c):
    frames = c.say(p.CALIBRATION_GET)
    assert frames and all(t == p.CALIBRATION for t in _types(frames)), _types(frames)
    levels = [None] * c.layout.sensor_count
    for _t, _s, payload in frames:
        first, _total, chunk = p.parse_calibration(payload)
        for offset in range(len(chunk)):
            levels[first + offset] = chunk[offset]
    calibration = calibration_of(levels, c.layout, c.device.logic.calibration)
    assert calibration == c.device.logic.calibration, "CALIBRATION frames give back the calibration"
    sent = sensor_levels(calibration, c.layout)
    for first, chunk in level_chunks(sent):
        acks = c.say(p.CALIBRATION_SET, p.calibration_payload(first, len(sent), chunk))
        assert p.parse_ack(acks[0][2])[1] == p.OK, acks
    assert c.device.logic.calibration == calibration
    acks = c.say(p.CALIBRATION_STORE)
    assert p.parse_ack(acks[0][2])[1] == p.OK and len(c.stored) == 1, acks


def check_unknown_and_bad(c):
    frames = c.say(0x77)
    assert _types(frames) == [p.ERROR] and p.parse_error(frames[0][2]) == (p.UNKNOWN_MESSAGE, "type 0x77"), frames
    frames = c.hear(c.device.receive(b"\x05garbage\x00", c.now))
    assert _types(frames) == [p.ERROR] and p.parse_error(frames[0][2])[0] == p.BAD_FRAME, frames
    assert c.hear(c.device.receive(b"\x05garbage\x00", c.now)) == [], "one BAD_FRAME a second at most"


def check_other_version(c):
    body = bytearray((1, p.HELLO_REQUEST, 0))
    body.extend(p.crc32(body).to_bytes(4, "little"))
    frames = c.hear(c.device.receive(p.cobs_encode(bytes(body)) + b"\x00", c.now))
    assert _types(frames) == [p.HELLO, p.ERROR], frames
    assert p.parse_error(frames[1][2]) == (p.VERSION_MISMATCH, "protocol 1"), frames


def check_heartbeat_and_link_loss(c):
    frames = c.scans(60)
    assert p.HEARTBEAT in _types(frames), _types(frames)
    c.scans(100)
    assert not c.device.connected, "no frame from the Pi for 3 s: the link is lost"
    assert all(tuple(light) == (0, 0) for light in c.device.lights), "the LEDs went dark"


CHECKS = (
    ("boot", check_boot),
    ("hello request", check_hello_request),
    ("snapshot request", check_snapshot_request),
    ("throws", check_throws),
    ("leds", check_leds),
    ("calibration round trip", check_calibration_round_trip),
    ("unknown and bad frames", check_unknown_and_bad),
    ("other version", check_other_version),
    ("heartbeat and link loss", check_heartbeat_and_link_loss),
)


def main():
    """Run every check in order on one conversation; print the results and the digest."""
    c = Conversation()
    failed = 0
    for name, check in CHECKS:
        try:
            check(c)
            print("ok %s" % name)
        except Exception as error:
            failed += 1
            print("FAIL %s: %s %s" % (name, type(error).__name__, error))
    print("device digest %08x" % p.crc32(bytes(c.sent)))
    print("device: %d passed, %d failed" % (len(CHECKS) - failed, failed))
    return failed


if __name__ == "__main__":
    main()
