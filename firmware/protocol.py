"""The wire protocol between the Pi and the Pico under the board: one codec for both sides.

The Pi imports it as ``firmware.protocol``; the Pico runs this same file as ``protocol``.
So it is written in the subset of Python that MicroPython runs: no dataclasses, no typing
at run time, no keyword arguments to built-ins, no ``bytes.hex``; and it is pure (no I/O).
``firmware/PROTOCOL.md`` is the specification; ``firmware/protocol_vectors.json`` pins the
exact bytes, checked under CPython and under the real MicroPython.

A frame on the wire is ``COBS(version, type, seq, payload, crc32) 0x00``.
Payload helpers come in pairs, ``<message>_payload(...)`` to build and ``parse_<message>``
to read; a malformed payload raises ``ProtocolError``.  Parsed values are plain tuples and
lists so that both interpreters return the same thing.
"""

import struct

try:
    from binascii import crc32 as _crc32
except ImportError:  # a MicroPython build without binascii.crc32 (see _crc32_soft)
    _crc32 = None

PROTOCOL_VERSION = 3
"""2: DICE carries a throw number and is repeated until DICE_ACK; the device's HEARTBEAT
carries its snapshot counter and throw number, so a lost frame shows as a gap.  3: DICE also
says how many ms ago its dice landed."""
ZONE_COUNT = 28
"""Zones in hal.zones.ZONES order: 1-12, I-XII, wait-white, wait-black, off-white, off-black."""

# -- sizes -------------------------------------------------------------------------------

HEADER_SIZE = 3  # version, type, seq
CRC_SIZE = 4
MAX_PAYLOAD = 1024
MAX_FRAME = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE
"""Largest frame before COBS (1031 bytes)."""
MAX_ENCODED = MAX_FRAME + (MAX_FRAME + 253) // 254
"""Largest COBS-encoded frame, without its 0x00 delimiter (1036 bytes)."""
DELIMITER = b"\x00"

# -- message types -----------------------------------------------------------------------

HELLO = 0x01  # device -> Pi: who the device is
HELLO_REQUEST = 0x02  # Pi -> device
HEARTBEAT = 0x03  # both ways: uptime in ms (device: + snapshot counter, throw number)
ACK = 0x04  # device -> Pi: seq of the acknowledged frame, status
ERROR = 0x05  # device -> Pi: code and short text
SNAPSHOT = 0x10  # device -> Pi: counts in the 28 zones
SNAPSHOT_REQUEST = 0x11  # Pi -> device
DICE = 0x12  # device -> Pi: the dice tray, with its throw number; repeated until DICE_ACK
DICE_ACK = 0x13  # Pi -> device: the throw number taken
LEDS = 0x20  # Pi -> device: colour and mode of the 28 zone LEDs; acknowledged
RAW_MODE = 0x30  # Pi -> device: raw ADC streaming on/off; acknowledged
RAW = 0x31  # device -> Pi: raw ADC readings
CALIBRATION_GET = 0x40  # Pi -> device
CALIBRATION = 0x41  # device -> Pi: thresholds per sensor
CALIBRATION_SET = 0x42  # Pi -> device: thresholds per sensor; acknowledged
CALIBRATION_STORE = 0x43  # Pi -> device: persist the thresholds; acknowledged

MESSAGE_NAMES = {
    HELLO: "HELLO",
    HELLO_REQUEST: "HELLO_REQUEST",
    HEARTBEAT: "HEARTBEAT",
    ACK: "ACK",
    ERROR: "ERROR",
    SNAPSHOT: "SNAPSHOT",
    SNAPSHOT_REQUEST: "SNAPSHOT_REQUEST",
    DICE: "DICE",
    DICE_ACK: "DICE_ACK",
    LEDS: "LEDS",
    RAW_MODE: "RAW_MODE",
    RAW: "RAW",
    CALIBRATION_GET: "CALIBRATION_GET",
    CALIBRATION: "CALIBRATION",
    CALIBRATION_SET: "CALIBRATION_SET",
    CALIBRATION_STORE: "CALIBRATION_STORE",
}
ACKNOWLEDGED = (LEDS, RAW_MODE, CALIBRATION_SET, CALIBRATION_STORE)
"""Pi -> device messages the device answers with ACK."""

# -- capability bits (HELLO) -------------------------------------------------------------

CAP_BOARD_SENSOR = 0x01
CAP_DICE_TRAY = 0x02
CAP_LEDS = 0x04
CAP_RAW_MODE = 0x08
CAP_CALIBRATION_STORE = 0x10
CAP_ALL = 0x1F

# -- status and error codes (ACK status, ERROR code) -------------------------------------

OK = 0x00
SENSOR_FAULT = 0x01
BAD_FRAME = 0x02
UNKNOWN_MESSAGE = 0x03
CALIBRATION_MISSING = 0x04
VERSION_MISMATCH = 0x05
BAD_PAYLOAD = 0x06
UNSUPPORTED = 0x07
STORE_FAILED = 0x08
DICE_FAULT = 0x09
INTERNAL = 0x0A

CODE_NAMES = {
    OK: "ok",
    SENSOR_FAULT: "sensor fault",
    BAD_FRAME: "bad frame",
    UNKNOWN_MESSAGE: "unknown message",
    CALIBRATION_MISSING: "calibration missing",
    VERSION_MISMATCH: "version mismatch",
    BAD_PAYLOAD: "bad payload",
    UNSUPPORTED: "unsupported",
    STORE_FAILED: "store failed",
    DICE_FAULT: "dice fault",
    INTERNAL: "internal error",
}

# -- LED colours and modes (LEDS) --------------------------------------------------------

COLOUR_NAMES = ("off", "source", "target", "hit", "warning", "setup", "winner", "turn", "engine")
"""Colour code -> hal.interfaces.LightColour value; the code is the index."""
COLOUR_CODES = {name: code for code, name in enumerate(COLOUR_NAMES)}
MODE_NAMES = ("steady", "blink")
"""Mode code -> hal.interfaces.LightMode value; the code is the index."""
MODE_CODES = {name: code for code, name in enumerate(MODE_NAMES)}
STEADY = 0
BLINK = 1

# -- limits of payload fields ------------------------------------------------------------

MAX_CHECKERS = 30  # per colour in one zone, as hal.interfaces.ZoneReading allows
UNREADABLE = 0xFF  # both counts of an unreadable zone
DEVICE_ID_SIZE = 8  # the RP2040 flash's unique id
MAX_FIRMWARE_TEXT = 32
MAX_ERROR_TEXT = 64
MAX_THRESHOLDS = 8  # per sensor


class ProtocolError(ValueError):
    """A frame or payload that breaks the protocol; the message says how."""


# -- small helpers -----------------------------------------------------------------------


def _check_int(value, low, high, what):
    """``value`` if it is an int in [low, high], else ProtocolError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or value > high:
        raise ProtocolError("%s must be an integer %d..%d, not %r" % (what, low, high, value))
    return value


def _check_length(payload, expected, what):
    """ProtocolError unless the payload has exactly ``expected`` bytes."""
    if len(payload) != expected:
        raise ProtocolError("%s payload is %d bytes, not %d" % (what, len(payload), expected))


def _utf8(text, limit):
    """``text`` as UTF-8, cut to ``limit`` bytes without splitting a character."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return data
    end = limit
    while end > 0 and (data[end] & 0xC0) == 0x80:  # do not start on a continuation byte
        end -= 1
    return data[:end]


def _text(data, what):
    """UTF-8 bytes as str, or ProtocolError."""
    try:
        return bytes(data).decode("utf-8")
    except UnicodeError:
        raise ProtocolError("%s is not valid UTF-8" % what) from None


def next_seq(seq):
    """The sequence number after ``seq`` (wraps 255 -> 0)."""
    return (seq + 1) & 0xFF


def message_name(msg_type):
    """A message type's name, or ``0xNN`` for an unknown one."""
    return MESSAGE_NAMES.get(msg_type, "0x%02x" % msg_type)


# -- CRC-32 ------------------------------------------------------------------------------


def _crc32_soft(data):
    """CRC-32 (IEEE, as zlib) bit by bit, for a MicroPython without binascii.crc32."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def crc32(data):
    """CRC-32 of ``data`` as an unsigned int (zlib's, = binascii.crc32)."""
    if _crc32 is None:
        return _crc32_soft(data)
    return _crc32(data) & 0xFFFFFFFF


# -- COBS --------------------------------------------------------------------------------


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: ``data`` with no 0x00 left, one byte per 254 more.

    Canonical form: a run of exactly 254 non-zero bytes at the end gets no empty block.
    """
    out = bytearray()
    block = bytearray()
    after_full_block = False
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
            after_full_block = False
            continue
        block.append(byte)
        if len(block) == 0xFE:
            out.append(0xFF)
            out.extend(block)
            block = bytearray()
            after_full_block = True
    if block or not after_full_block:
        out.append(len(block) + 1)
        out.extend(block)
    return bytes(out)


def cobs_decode(data):
    """The bytes that ``cobs_encode`` made ``data`` from; ProtocolError if it cannot have."""
    if not data:
        raise ProtocolError("empty COBS data")
    if data.find(DELIMITER) >= 0:
        raise ProtocolError("0x00 inside COBS data at byte %d" % data.find(DELIMITER))
    out = bytearray()
    at = 0
    end = len(data)
    while at < end:
        code = data[at]
        block_end = at + code
        if block_end > end:
            raise ProtocolError("COBS block at byte %d runs past the end" % at)
        out.extend(data[at + 1 : block_end])
        at = block_end
        if code != 0xFF and at < end:
            out.append(0)
    return bytes(out)


# -- frames ------------------------------------------------------------------------------


def encode(msg_type, seq, payload=b""):
    """One frame ready to send: COBS(version, type, seq, payload, CRC-32 LE) then 0x00."""
    _check_int(msg_type, 0, 0xFF, "message type")
    _check_int(seq, 0, 0xFF, "sequence number")
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError("payload is %d bytes, at most %d" % (len(payload), MAX_PAYLOAD))
    body = bytearray((PROTOCOL_VERSION, msg_type, seq))
    body.extend(payload)
    body.extend(struct.pack("<I", crc32(body)))
    return cobs_encode(body) + DELIMITER


def _unframe(encoded):
    """(version, type, seq, payload) of one COBS-encoded frame, or ProtocolError with a reason."""
    try:
        body = cobs_decode(encoded)
    except ProtocolError:
        raise ProtocolError("cobs") from None
    if len(body) < HEADER_SIZE + CRC_SIZE:
        raise ProtocolError("short")
    content = body[: len(body) - CRC_SIZE]
    (expected,) = struct.unpack("<I", body[len(body) - CRC_SIZE :])
    if crc32(content) != expected:
        raise ProtocolError("crc")
    return content[0], content[1], content[2], bytes(content[HEADER_SIZE:])


class Decoder:
    """Turns the received byte stream into frames; never raises on garbage.

    ``feed`` returns the intact frames of this protocol version as (type, seq, payload).
    Everything else is dropped and counted: ``rejected`` in all, ``reasons`` by reason
    ("cobs", "short", "crc", "oversize", "version"), ``last_reason``.  A frame with a good
    CRC but another protocol version is kept in ``foreign`` as (version, type, seq, payload)
    so the Pi can say which version the other side speaks.  Unknown message types are
    passed on: the decoder checks framing, CRC and version, never payload meaning.
    """

    def __init__(self):
        self._buffer = bytearray()
        self._overflow = False
        self.accepted = 0
        self.rejected = 0
        self.reasons = {}
        self.last_reason = None
        self.foreign = None

    def feed(self, data):
        """The frames completed by ``data`` (bytes or bytearray), in order."""
        frames = []
        start = 0
        end = len(data)
        while start < end:
            zero = data.find(DELIMITER, start)
            if zero < 0:
                self._collect(data, start, end)
                break
            self._collect(data, start, zero)
            self._finish(frames)
            start = zero + 1
        return frames

    def reset(self):
        """Forget a partly received frame (e.g. after the port was reopened)."""
        self._buffer = bytearray()
        self._overflow = False

    def _collect(self, data, start, stop):
        """Keep bytes of the frame being received, up to MAX_ENCODED."""
        if self._overflow or start == stop:
            return
        if len(self._buffer) + stop - start > MAX_ENCODED:
            self._overflow = True
            self._buffer = bytearray()
            return
        self._buffer.extend(data[start:stop])

    def _finish(self, frames):
        """A delimiter came: decode the collected frame, or count why not."""
        encoded = self._buffer
        overflow = self._overflow
        self.reset()
        if overflow:
            self._reject("oversize")
            return
        if not encoded:  # back-to-back delimiters: an empty frame is only padding
            return
        try:
            version, msg_type, seq, payload = _unframe(encoded)
        except ProtocolError as reason:
            self._reject(str(reason))
            return
        if version != PROTOCOL_VERSION:
            self.foreign = (version, msg_type, seq, payload)
            self._reject("version")
            return
        self.accepted += 1
        frames.append((msg_type, seq, payload))

    def _reject(self, reason):
        """Count a dropped frame."""
        self.rejected += 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        self.last_reason = reason


def decode_frame(frame):
    """(type, seq, payload) of exactly one encoded frame with its 0x00; ProtocolError if not."""
    if not frame or frame[len(frame) - 1] != 0:
        raise ProtocolError("a frame ends with 0x00")
    decoder = Decoder()
    frames = decoder.feed(frame)
    if len(frames) != 1 or decoder.rejected:
        raise ProtocolError("not one intact frame: %s" % (decoder.last_reason or "no frame"))
    return frames[0]


def describe_foreign(foreign):
    """Why the other side cannot be played with, from ``Decoder.foreign``; names both versions."""
    version, msg_type, _seq, payload = foreign
    firmware = ""
    if msg_type == HELLO:  # HELLO's layout is the same in every version
        try:
            firmware = " (firmware %r)" % parse_hello(payload)[4]
        except ProtocolError:
            pass
    advice = ""
    if version < PROTOCOL_VERSION:
        advice = ": update the board's firmware (python -m firmware.deploy)"
    elif version > PROTOCOL_VERSION:
        advice = ": update this controller"
    return "the other side speaks protocol version %d%s, this side speaks version %d%s" % (
        version,
        firmware,
        PROTOCOL_VERSION,
        advice,
    )


# -- empty payloads: HELLO_REQUEST, SNAPSHOT_REQUEST, CALIBRATION_GET, CALIBRATION_STORE --


def parse_empty(payload, what="request"):
    """Check that a request carries no payload."""
    _check_length(payload, 0, what)


# -- HELLO -------------------------------------------------------------------------------


def hello_payload(firmware, capabilities, device_id, zone_count=ZONE_COUNT, protocol_version=PROTOCOL_VERSION):
    """HELLO: protocol version, capability bits, zone count, 8-byte device id, firmware text."""
    _check_int(protocol_version, 0, 0xFF, "protocol version")
    _check_int(capabilities, 0, 0xFF, "capabilities")
    _check_int(zone_count, 0, 0xFF, "zone count")
    if len(device_id) != DEVICE_ID_SIZE:
        raise ProtocolError("a device id is %d bytes, not %d" % (DEVICE_ID_SIZE, len(device_id)))
    text = _utf8(firmware, MAX_FIRMWARE_TEXT)
    out = bytearray((protocol_version, capabilities, zone_count))
    out.extend(device_id)
    out.append(len(text))
    out.extend(text)
    return bytes(out)


def parse_hello(payload):
    """(protocol version, capabilities, zone count, device id bytes, firmware text)."""
    fixed = 3 + DEVICE_ID_SIZE + 1
    if len(payload) < fixed:
        raise ProtocolError("HELLO payload is %d bytes, at least %d" % (len(payload), fixed))
    text_size = payload[fixed - 1]
    _check_length(payload, fixed + text_size, "HELLO")
    if text_size > MAX_FIRMWARE_TEXT:
        raise ProtocolError("HELLO firmware text is %d bytes, at most %d" % (text_size, MAX_FIRMWARE_TEXT))
    device_id = bytes(payload[3 : 3 + DEVICE_ID_SIZE])
    firmware = _text(payload[fixed:], "HELLO firmware text")
    return payload[0], payload[1], payload[2], device_id, firmware


# -- SNAPSHOT ----------------------------------------------------------------------------


def snapshot_payload(counter, zones):
    """SNAPSHOT: u16 counter, then per zone (white, black), 0xFF 0xFF for None (unreadable)."""
    _check_int(counter, 0, 0xFFFF, "snapshot counter")
    if len(zones) != ZONE_COUNT:
        raise ProtocolError("a snapshot has %d zones, not %d" % (ZONE_COUNT, len(zones)))
    out = bytearray(struct.pack("<H", counter))
    for zone in zones:
        if zone is None:
            out.append(UNREADABLE)
            out.append(UNREADABLE)
            continue
        white, black = zone
        out.append(_check_int(white, 0, MAX_CHECKERS, "white count"))
        out.append(_check_int(black, 0, MAX_CHECKERS, "black count"))
    return bytes(out)


def parse_snapshot(payload):
    """(counter, list of 28 (white, black) or None)."""
    _check_length(payload, 2 + 2 * ZONE_COUNT, "SNAPSHOT")
    (counter,) = struct.unpack("<H", payload[:2])
    zones = []
    for index in range(ZONE_COUNT):
        white = payload[2 + 2 * index]
        black = payload[3 + 2 * index]
        if white == UNREADABLE and black == UNREADABLE:
            zones.append(None)
        elif white > MAX_CHECKERS or black > MAX_CHECKERS:
            raise ProtocolError("SNAPSHOT zone %d counts %d white, %d black" % (index, white, black))
        else:
            zones.append((white, black))
    return counter, zones


# -- DICE --------------------------------------------------------------------------------


DICE_THROWN = 0x01
"""DICE flag: a throw the Pi has not acknowledged yet (an event to take once); without it the
frame only reports what the tray shows (a throw already taken, or none)."""
DICE_FLAGS = DICE_THROWN


LANDED_UNKNOWN = 0xFFFF
"""DICE ``landed_ago`` when the device cannot say (the tray's state, not a throw)."""


def dice_payload(throw, dice, thrown=True, snapshot_counter=0, landed_ago=LANDED_UNKNOWN):
    """DICE: the throw number (u16, wraps), flags, two dice 1-6 or 0 0 for None (an empty
    tray or no clear roll), then the counter of the last SNAPSHOT sent before this frame, so
    the Pi takes a throw only once it has the board the throw follows, then how many ms
    before this frame the dice landed (u16, 65534 at most; 65535: not known), so the Pi
    knows which boards came before the throw though it is read after the dice settle."""
    out = bytearray(struct.pack("<H", _check_int(throw, 0, 0xFFFF, "throw number")))
    out.append(DICE_THROWN if thrown else 0)
    if dice is None:
        out.extend(b"\x00\x00")
    else:
        first, second = dice
        out.append(_check_int(first, 1, 6, "a die"))
        out.append(_check_int(second, 1, 6, "a die"))
    out.extend(struct.pack("<H", _check_int(snapshot_counter, 0, 0xFFFF, "snapshot counter")))
    out.extend(struct.pack("<H", _check_int(landed_ago, 0, 0xFFFF, "ms since the dice landed")))
    return bytes(out)


def parse_dice(payload):
    """(throw number, thrown, dice, snapshot counter, ms since the dice landed) with dice
    (die, die) or None, and the ms None when the device could not say."""
    _check_length(payload, 9, "DICE")
    throw, flags, first, second, counter, landed = struct.unpack("<HBBBHH", payload)
    if flags & ~DICE_FLAGS:
        raise ProtocolError("DICE flags 0x%02x: only 0x%02x is defined" % (flags, DICE_FLAGS))
    landed_ago = None if landed == LANDED_UNKNOWN else landed
    if first == 0 and second == 0:
        return throw, bool(flags & DICE_THROWN), None, counter, landed_ago
    if not (1 <= first <= 6 and 1 <= second <= 6):
        raise ProtocolError("DICE %d %d: dice are 1-6, or 0 0 for no clear roll" % (first, second))
    return throw, bool(flags & DICE_THROWN), (first, second), counter, landed_ago


def dice_ack_payload(throw):
    """DICE_ACK: the throw number the Pi has taken."""
    return struct.pack("<H", _check_int(throw, 0, 0xFFFF, "throw number"))


def parse_dice_ack(payload):
    """The acknowledged throw number."""
    _check_length(payload, 2, "DICE_ACK")
    return struct.unpack("<H", payload)[0]


# -- LEDS --------------------------------------------------------------------------------


def leds_payload(lights):
    """LEDS: per zone (colour code, mode code), 28 zones in order."""
    if len(lights) != ZONE_COUNT:
        raise ProtocolError("LEDS has %d zones, not %d" % (ZONE_COUNT, len(lights)))
    out = bytearray()
    for colour, mode in lights:
        out.append(_check_int(colour, 0, len(COLOUR_NAMES) - 1, "colour code"))
        out.append(_check_int(mode, 0, len(MODE_NAMES) - 1, "mode code"))
    return bytes(out)


def parse_leds(payload):
    """List of 28 (colour code, mode code)."""
    _check_length(payload, 2 * ZONE_COUNT, "LEDS")
    lights = []
    for index in range(ZONE_COUNT):
        colour = payload[2 * index]
        mode = payload[2 * index + 1]
        if colour >= len(COLOUR_NAMES) or mode >= len(MODE_NAMES):
            raise ProtocolError("LEDS zone %d: colour %d, mode %d unknown" % (index, colour, mode))
        lights.append((colour, mode))
    return lights


# -- ACK ---------------------------------------------------------------------------------


def ack_payload(acked_seq, status=OK):
    """ACK: the acknowledged frame's seq and a status (OK or an error code)."""
    return bytes((_check_int(acked_seq, 0, 0xFF, "acknowledged seq"), _check_int(status, 0, 0xFF, "status")))


def parse_ack(payload):
    """(acknowledged seq, status)."""
    _check_length(payload, 2, "ACK")
    return payload[0], payload[1]


# -- HEARTBEAT ---------------------------------------------------------------------------


def heartbeat_payload(uptime_ms, snapshot_counter=None, throw=None):
    """HEARTBEAT: the sender's uptime in ms, u32 (wraps); the device adds its snapshot counter
    and throw number (u16 each), so the Pi sees a SNAPSHOT or DICE it missed."""
    out = struct.pack("<I", _check_int(uptime_ms, 0, 0xFFFFFFFF, "uptime"))
    if snapshot_counter is None and throw is None:
        return out
    return out + struct.pack(
        "<HH", _check_int(snapshot_counter, 0, 0xFFFF, "snapshot counter"), _check_int(throw, 0, 0xFFFF, "throw number"))


def parse_heartbeat(payload):
    """(uptime in ms, snapshot counter, throw number); the counters are None from the Pi."""
    if len(payload) == 4:
        return struct.unpack("<I", payload)[0], None, None
    if len(payload) == 8:
        uptime, counter, throw = struct.unpack("<IHH", payload)
        return uptime, counter, throw
    raise ProtocolError("HEARTBEAT payload is %d bytes, not 4 or 8" % len(payload))


# -- ERROR -------------------------------------------------------------------------------


def error_payload(code, text=""):
    """ERROR: a code, then UTF-8 text cut to 64 bytes."""
    out = bytearray((_check_int(code, 1, 0xFF, "error code"),))
    out.extend(_utf8(text, MAX_ERROR_TEXT))
    return bytes(out)


def parse_error(payload):
    """(code, text)."""
    if len(payload) < 1 or len(payload) > 1 + MAX_ERROR_TEXT:
        raise ProtocolError("ERROR payload is %d bytes, 1..%d" % (len(payload), 1 + MAX_ERROR_TEXT))
    if payload[0] == OK:
        raise ProtocolError("ERROR code 0 is not an error")
    return payload[0], _text(payload[1:], "ERROR text")


# -- RAW_MODE and RAW --------------------------------------------------------------------


def raw_mode_payload(on):
    """RAW_MODE: 1 to stream raw readings, 0 to stop."""
    return b"\x01" if on else b"\x00"


def parse_raw_mode(payload):
    """True for on."""
    _check_length(payload, 1, "RAW_MODE")
    if payload[0] > 1:
        raise ProtocolError("RAW_MODE is 0 or 1, not %d" % payload[0])
    return payload[0] == 1


def _check_span(first, count, total, what):
    """ProtocolError unless sensors first..first+count-1 lie within total."""
    _check_int(first, 0, 0xFFFF, what + " first sensor")
    _check_int(total, 0, 0xFFFF, what + " sensor total")
    if first + count > total:
        raise ProtocolError("%s sensors %d..%d past the total %d" % (what, first, first + count - 1, total))


def raw_payload(first, total, readings):
    """RAW: u16 first sensor index, u16 sensor total, then u16 readings from ``first`` on."""
    count = len(readings)
    if 4 + 2 * count > MAX_PAYLOAD:
        raise ProtocolError("RAW holds at most %d readings, not %d" % ((MAX_PAYLOAD - 4) // 2, count))
    _check_span(first, count, total, "RAW")
    out = bytearray(struct.pack("<HH", first, total))
    for reading in readings:
        out.extend(struct.pack("<H", _check_int(reading, 0, 0xFFFF, "raw reading")))
    return bytes(out)


def parse_raw(payload):
    """(first sensor index, sensor total, list of readings)."""
    if len(payload) < 4 or len(payload) % 2:
        raise ProtocolError("RAW payload is %d bytes: 4, plus 2 per reading" % len(payload))
    first, total = struct.unpack("<HH", payload[:4])
    readings = [struct.unpack("<H", payload[at : at + 2])[0] for at in range(4, len(payload), 2)]
    _check_span(first, len(readings), total, "RAW")
    return first, total, readings


# -- CALIBRATION and CALIBRATION_SET -----------------------------------------------------


def calibration_payload(first, total, thresholds):
    """CALIBRATION / CALIBRATION_SET: u16 first sensor, u16 total, u8 thresholds per sensor,
    then that many u16 thresholds for each sensor from ``first`` on."""
    count = len(thresholds)
    per_sensor = len(thresholds[0]) if count else 0
    _check_int(per_sensor, 1 if count else 0, MAX_THRESHOLDS, "thresholds per sensor")
    if 5 + 2 * per_sensor * count > MAX_PAYLOAD:
        raise ProtocolError("CALIBRATION of %d sensors x %d thresholds is too long" % (count, per_sensor))
    _check_span(first, count, total, "CALIBRATION")
    out = bytearray(struct.pack("<HHB", first, total, per_sensor))
    for sensor in thresholds:
        if len(sensor) != per_sensor:
            raise ProtocolError("every sensor has %d thresholds, not %d" % (per_sensor, len(sensor)))
        for threshold in sensor:
            out.extend(struct.pack("<H", _check_int(threshold, 0, 0xFFFF, "threshold")))
    return bytes(out)


def parse_calibration(payload):
    """(first sensor index, sensor total, list of per-sensor tuples of thresholds)."""
    if len(payload) < 5:
        raise ProtocolError("CALIBRATION payload is %d bytes, at least 5" % len(payload))
    first, total, per_sensor = struct.unpack("<HHB", payload[:5])
    if per_sensor > MAX_THRESHOLDS:
        raise ProtocolError("CALIBRATION has %d thresholds per sensor, at most %d" % (per_sensor, MAX_THRESHOLDS))
    size = 2 * per_sensor
    body = len(payload) - 5
    if (per_sensor == 0 and body) or (per_sensor and body % size):
        raise ProtocolError("CALIBRATION body of %d bytes is not whole sensors of %d thresholds" % (body, per_sensor))
    thresholds = []
    for at in range(5, len(payload), size or 1):
        sensor = struct.unpack("<" + "H" * per_sensor, payload[at : at + size])
        thresholds.append(tuple(sensor))
    _check_span(first, len(thresholds), total, "CALIBRATION")
    return first, total, thresholds
