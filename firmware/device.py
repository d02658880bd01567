"""The device's side of the link, independent of the transport: bytes from the Pi in, the bytes
to send back out; each scan's raw readings in, the frames they produce out.

The Pico's main loop (``main.py``) and the simulator's virtual board
(``simulator/virtual_device.py``) both run this, so the board the tests talk to answers as the
firmware does.  ``now_ms`` is a monotonic count of milliseconds since boot that never wraps
(``main.py`` adds up ``time.ticks_diff``).  PROTOCOL.md says what each message means; this
module does what it says the device does.  Plain MicroPython-compatible Python.
"""

from . import protocol as p
from .board_logic import DiceRolled, RawScan, SnapshotChanged
from .classify import CalibrationError
from .codes import OFF, STEADY
from .wire_calibration import calibration_of, check_sensor, level_chunks, sensor_levels

FIRMWARE = "trictrac-fw 0.3.0"
HEARTBEAT_MS = 1000
"""Send a HEARTBEAT when nothing was sent for this long."""
LINK_LOST_MS = 3000
"""No valid frame from the Pi for this long: the link is lost (LEDs off, raw mode off)."""
DICE_RESEND_MS = 250
"""A throw the Pi has not acknowledged (DICE_ACK) is sent again this often."""
BAD_FRAME_EVERY_MS = 1000
"""At most one ERROR BAD_FRAME a second, so a noisy line is not answered with more noise."""
RAW_PER_FRAME = (p.MAX_PAYLOAD - 4) // 2
NO_ID = b"\x00" * p.DEVICE_ID_SIZE


def _random16():
    """A random u16 from the hardware (os.urandom), or 0 where there is none."""
    try:
        import os

        data = os.urandom(2)
        return data[0] | (data[1] << 8)
    except Exception:  # a port without urandom: throws still count from 0
        return 0


class Device:
    """The board's protocol handler around a ``BoardLogic``; ``store(text)`` writes a
    calibration's JSON to flash (None: the device cannot store one)."""

    def __init__(self, logic, firmware=FIRMWARE, device_id=NO_ID, store=None, capabilities=None, now_ms=0,
                 first_throw=None):
        self.logic = logic
        self.layout = logic.layout
        if capabilities is None:
            capabilities = p.CAP_BOARD_SENSOR | p.CAP_LEDS | p.CAP_RAW_MODE
            if self.layout.dice_sensors:
                capabilities |= p.CAP_DICE_TRAY
            if store is not None:
                capabilities |= p.CAP_CALIBRATION_STORE
        self.capabilities = capabilities
        self.firmware = firmware
        self.device_id = bytes(device_id)
        self.store = store
        self.decoder = p.Decoder()
        self.now_ms = now_ms
        self.connected = False
        """A valid frame came from the Pi within LINK_LOST_MS."""
        self.counts = {}
        """Intact frames received, by message type."""
        self._seq = 0
        self._last_rx = now_ms
        self._last_tx = now_ms
        self._last_bad_frame = None
        self._answer_pending = False
        self._incoming = None
        self.throw = _random16() if first_throw is None else first_throw & 0xFFFF
        """The number of the last throw (u16, wraps); it starts at random at boot, so a throw
        after a reboot is not taken for one the Pi already has."""
        self.throw_pending = False
        """That throw is not acknowledged yet: it is sent again every DICE_RESEND_MS."""
        self._throw_dice = None
        self._throw_landed = None
        """When the dice of the pending throw landed (ms, the scans' clock; None: not known)."""
        self._throw_sent = now_ms

    # -- what the transport calls ------------------------------------------------------------
    def boot(self, now_ms=None):
        """The bytes to send once the port is up: a 0x00, an unprompted HELLO, and an ERROR
        CALIBRATION_MISSING if there is no calibration."""
        if now_ms is not None:
            self.now_ms = now_ms
        out = bytearray(p.DELIMITER)
        out.extend(self._hello())
        if not self.logic.calibrated:
            out.extend(self.error(p.CALIBRATION_MISSING, "no calibration: run trictrac calibrate"))
        return bytes(out)

    def receive(self, data, now_ms=None):
        """Take bytes from the Pi; the bytes to send back."""
        if now_ms is not None:
            self.now_ms = now_ms
        decoder = self.decoder
        rejected, foreign = decoder.rejected, decoder.reasons.get("version", 0)
        frames = decoder.feed(data)
        out = bytearray()
        other_version = decoder.reasons.get("version", 0) - foreign
        if other_version:
            out.extend(self._hello())
            out.extend(self.error(p.VERSION_MISMATCH, "protocol %d" % decoder.foreign[0]))
        if decoder.rejected - rejected > other_version:
            last = self._last_bad_frame
            if last is None or self.now_ms - last >= BAD_FRAME_EVERY_MS:
                self._last_bad_frame = self.now_ms
                out.extend(self.error(p.BAD_FRAME, decoder.last_reason or "bad frame"))
        for msg_type, seq, payload in frames:
            self._last_rx = self.now_ms
            self.connected = True
            self.counts[msg_type] = self.counts.get(msg_type, 0) + 1
            out.extend(self._handle(msg_type, seq, payload))
        return bytes(out)

    def tick(self, raw, now_ms):
        """One pass of the main loop: ``raw`` is this scan's readings (None: no scan this pass);
        the bytes to send (the scan's events, a heartbeat when due)."""
        self.now_ms = now_ms
        out = bytearray()
        if raw is not None:
            try:
                events = self.logic.step(raw, now_ms)
            except Exception as error:  # a bad scan must not stop the loop
                events = []
                out.extend(self.error(p.INTERNAL, "scan: %s %s" % (type(error).__name__, error)))
            for event in events:
                out.extend(self._event_frames(event))
        if self.connected and now_ms - self._last_rx >= LINK_LOST_MS:
            self.link_lost()
        if self.throw_pending and self.connected and now_ms - self._throw_sent >= DICE_RESEND_MS:
            out.extend(self._dice_frame())
        if now_ms - self._last_tx >= HEARTBEAT_MS:
            counter = self.logic.snapshot_counter & 0xFFFF
            out.extend(self._frame(p.HEARTBEAT, p.heartbeat_payload(now_ms & 0xFFFFFFFF, counter, self.throw)))
        return bytes(out)

    def link_lost(self):
        """Nothing heard from the Pi: LEDs off, raw mode off, a half-received calibration dropped."""
        self.connected = False
        self.logic.set_leds(((OFF, STEADY),) * self.layout.zones)
        self.logic.set_raw_mode(False)
        self._incoming = None

    def error(self, code, text=""):
        """An ERROR frame to send (a fault the device found on its own)."""
        return self._frame(p.ERROR, p.error_payload(code, text))

    @property
    def busy(self):
        """Scans are needed even with nothing moving: raw mode, or a snapshot still owed."""
        return self.logic.raw_mode or self._answer_pending

    @property
    def resend_due_ms(self):
        """When an unacknowledged throw is sent again (None: nothing to resend)."""
        if not self.throw_pending or not self.connected:
            return None
        return self._throw_sent + DICE_RESEND_MS

    @property
    def lights(self):
        """The light frame the Pi last set: ``(colour code, mode code)`` per zone."""
        return self.logic.frame

    # -- frames out ---------------------------------------------------------------------------
    def _frame(self, msg_type, payload=b""):
        frame = p.encode(msg_type, self._seq, payload)
        self._seq = p.next_seq(self._seq)
        self._last_tx = self.now_ms
        return frame

    def _hello(self):
        return self._frame(p.HELLO, p.hello_payload(self.firmware, self.capabilities, self.device_id))

    def _ack(self, seq, status=p.OK):
        return self._frame(p.ACK, p.ack_payload(seq, status))

    def _dice_frame(self):
        """The DICE for the last throw while it is unacknowledged, else the tray's state."""
        self._throw_sent = self.now_ms
        counter = self.logic.snapshot_counter & 0xFFFF
        if self.throw_pending:
            landed = self._throw_landed
            ago = p.LANDED_UNKNOWN if landed is None else max(0, min(self.now_ms - landed, p.LANDED_UNKNOWN - 1))
            return self._frame(p.DICE, p.dice_payload(self.throw, self._throw_dice, True, counter, ago))
        return self._frame(p.DICE, p.dice_payload(self.throw, self.logic.tray, False, counter))

    def _event_frames(self, event):
        """The frames for one BoardLogic event."""
        try:
            if isinstance(event, SnapshotChanged):
                frame = self._frame(p.SNAPSHOT, p.snapshot_payload(event.changes & 0xFFFF, event.zones))
                if event.requested and self._answer_pending:  # the answer: the tray comes with it
                    self._answer_pending = False
                    return frame + self._dice_frame()
                return frame
            if isinstance(event, DiceRolled):
                self.throw = (self.throw + 1) & 0xFFFF
                self.throw_pending, self._throw_dice = True, event.dice
                self._throw_landed = event.landed_ms
                return self._dice_frame()
            if isinstance(event, RawScan):
                out = bytearray()
                values = event.values
                for first in range(0, len(values), RAW_PER_FRAME):
                    chunk = values[first:first + RAW_PER_FRAME]
                    out.extend(self._frame(p.RAW, p.raw_payload(first, len(values), chunk)))
                return out
        except p.ProtocolError as error:
            return self.error(p.INTERNAL, "%s: %s" % (type(event).__name__, error))
        return b""

    # -- frames in ----------------------------------------------------------------------------
    def _handle(self, msg_type, seq, payload):
        """Carry out one intact frame from the Pi; the answer."""
        try:
            if msg_type == p.HELLO_REQUEST:
                p.parse_empty(payload, "HELLO_REQUEST")
                if not self.logic.calibrated:  # a Pi that connects after boot learns it too
                    return self._hello() + self.error(p.CALIBRATION_MISSING, "no calibration: run trictrac calibrate")
                return self._hello()
            if msg_type == p.HEARTBEAT:
                p.parse_heartbeat(payload)
                return b""
            if msg_type == p.DICE_ACK:
                if p.parse_dice_ack(payload) == self.throw:
                    self.throw_pending = False
                return b""
            if msg_type == p.SNAPSHOT_REQUEST:
                p.parse_empty(payload, "SNAPSHOT_REQUEST")
                self.logic.request_snapshot()
                self._answer_pending = True
                return b""
            if msg_type == p.LEDS:
                if not self.capabilities & p.CAP_LEDS:
                    return self._ack(seq, p.UNSUPPORTED)
                self.logic.set_leds(p.parse_leds(payload))
                return self._ack(seq)
            if msg_type == p.RAW_MODE:
                if not self.capabilities & p.CAP_RAW_MODE:
                    return self._ack(seq, p.UNSUPPORTED)
                self.logic.set_raw_mode(p.parse_raw_mode(payload))
                return self._ack(seq)
            if msg_type == p.CALIBRATION_GET:
                p.parse_empty(payload, "CALIBRATION_GET")
                return self._send_calibration()
            if msg_type == p.CALIBRATION_SET:
                return self._take_calibration(seq, payload)
            if msg_type == p.CALIBRATION_STORE:
                p.parse_empty(payload, "CALIBRATION_STORE")
                return self._store_calibration(seq)
            return self.error(p.UNKNOWN_MESSAGE, "type 0x%02x" % msg_type)
        except p.ProtocolError as error:
            if msg_type in p.ACKNOWLEDGED:
                return self._ack(seq, p.BAD_PAYLOAD)
            return self.error(p.BAD_PAYLOAD, str(error))
        except Exception as error:  # the loop must go on: say what broke
            return self.error(p.INTERNAL, "%s: %s %s" % (p.message_name(msg_type), type(error).__name__, error))

    def _send_calibration(self):
        calibration = self.logic.calibration
        if calibration is None:
            return self.error(p.CALIBRATION_MISSING, "no calibration stored")
        levels = sensor_levels(calibration, self.layout)
        out = bytearray()
        for first, chunk in level_chunks(levels):
            out.extend(self._frame(p.CALIBRATION, p.calibration_payload(first, len(levels), chunk)))
        return out

    def _take_calibration(self, seq, payload):
        """Collect CALIBRATION_SET frames; once every sensor has its levels, use them."""
        first, total, levels = p.parse_calibration(payload)
        layout = self.layout
        if total != layout.sensor_count:
            return self._ack(seq, p.BAD_PAYLOAD) + self.error(
                p.BAD_PAYLOAD, "calibration for %d sensors, the board has %d" % (total, layout.sensor_count))
        for offset in range(len(levels)):
            problem = check_sensor(layout, first + offset, levels[offset])
            if problem is not None:
                return self._ack(seq, p.BAD_PAYLOAD) + self.error(p.BAD_PAYLOAD, problem)
        if first == 0 or self._incoming is None:
            self._incoming = [None] * total
        for offset in range(len(levels)):
            self._incoming[first + offset] = levels[offset]
        if None in self._incoming:
            return self._ack(seq)
        incoming, self._incoming = self._incoming, None
        try:
            calibration = calibration_of(incoming, layout, self.logic.calibration)
            self.logic.set_calibration(calibration)
        except CalibrationError as error:
            return self._ack(seq, p.BAD_PAYLOAD) + self.error(p.BAD_PAYLOAD, str(error))
        return self._ack(seq)

    def _store_calibration(self, seq):
        if self.store is None or not self.capabilities & p.CAP_CALIBRATION_STORE:
            return self._ack(seq, p.UNSUPPORTED)
        calibration = self.logic.calibration
        if calibration is None:
            return self._ack(seq, p.CALIBRATION_MISSING)
        try:
            self.store(calibration.to_json())
        except Exception as error:
            return self._ack(seq, p.STORE_FAILED) + self.error(p.STORE_FAILED, "%s %s" % (type(error).__name__, error))
        return self._ack(seq)
