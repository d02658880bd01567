"""Raw hall readings and a stored calibration -> (white, black) per zone, or unreadable.

Each slot sensor reads ``zero`` with no magnet near; White's checkers (north up) push the
reading one way, Black's the other (``polarity`` says which); a stack of ``k`` checkers on the
slot reads about ``levels[k - 1]`` away from zero.  The count is the number of thresholds
(midway between levels) the distance passes, with a hysteresis band around each threshold so
a reading on a threshold does not flicker.  A zone's counts are its slots' counts added up by
colour; a zone with any unreadable sensor is unreadable.
"""

import json

from .codes import ZONE_NAMES

VERSION = 1
HYSTERESIS = 120
"""Counts each side of a threshold a reading must pass to change the count (3 sigma of the
noise after the median); never more than a quarter of that step."""
WINDOW = (1000, 64535)
"""Raw readings outside this are a broken sensor or wire (a DRV5055 output stays 0.2 V from its rails)."""
OVER = 1.5
"""A field stronger than 1.5 times a slot's top level is no stack of checkers: unreadable."""
MAX_DRIFT = 1500
"""The supply reference may move this many counts from its calibrated value (about 2 %)."""
MAX_LEVELS = 8
MIN_STEP = 300
"""Consecutive levels must lie this many counts apart (the reference design's smallest step is ~2100)."""
MIN_FACE_GAP = 200
"""Die face levels (and the empty level, 0) must lie this many counts apart."""

UNREADABLE = None


class CalibrationError(ValueError):
    """A calibration that is malformed or does not fit the board's sensors."""


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _zone_name(zone, zone_count):
    if zone_count == len(ZONE_NAMES):
        return "zone %s" % ZONE_NAMES[zone]
    return "zone %d" % zone


class Calibration:
    """What a board's sensors read: per slot sensor ``(zero, levels)``, per die sensor
    ``(zero, faces)`` (the offset from zero with face 1..6 on top), the supply reference,
    the polarity (+1: above zero is White), the hysteresis, the valid raw window and the
    over-range factor.  Serialises to JSON; CalibrationError names what is wrong."""

    def __init__(self, zones, dice=(), reference=None, polarity=1, hysteresis=HYSTERESIS,
                 window=WINDOW, over=OVER):
        self.zones = tuple(tuple((zero, tuple(levels)) for zero, levels in zone) for zone in zones)
        self.dice = tuple((zero, tuple(faces)) for zero, faces in dice)
        self.reference = reference
        self.polarity = polarity
        self.hysteresis = hysteresis
        self.window = tuple(window)
        self.over = over
        self._validate()

    # -- checks -------------------------------------------------------------------------------
    def _validate(self):
        if self.polarity not in (1, -1) or isinstance(self.polarity, bool):
            raise CalibrationError("polarity is 1 (north up reads above zero) or -1, not %r" % (self.polarity,))
        if not _is_int(self.hysteresis) or self.hysteresis < 0:
            raise CalibrationError("hysteresis is a whole count, 0 or more, not %r" % (self.hysteresis,))
        if (len(self.window) != 2 or not _is_int(self.window[0]) or not _is_int(self.window[1])
                or not 0 <= self.window[0] < self.window[1] <= 65535):
            raise CalibrationError("window is [low, high] raw counts within 0-65535, not %r" % (list(self.window),))
        if not _is_number(self.over) or self.over < 1:
            raise CalibrationError("over is a factor of 1 or more, not %r" % (self.over,))
        if self.reference is not None:
            self._check_zero("the reference", self.reference)
        if not self.zones:
            raise CalibrationError("a calibration needs its zones")
        for z, zone in enumerate(self.zones):
            if not zone:
                raise CalibrationError("%s has no sensors" % _zone_name(z, len(self.zones)))
            for s, (zero, levels) in enumerate(zone):
                where = "%s sensor %d" % (_zone_name(z, len(self.zones)), s)
                self._check_zero(where, zero)
                self._check_levels(where, levels)
        for d, (zero, faces) in enumerate(self.dice):
            self._check_zero("die %d" % (d + 1), zero)
            self._check_faces("die %d" % (d + 1), faces)

    def _check_zero(self, where, zero):
        low, high = self.window
        if not _is_int(zero) or not low <= zero <= high:
            raise CalibrationError("%s: zero is a raw count within %d-%d, not %r" % (where, low, high, zero))

    def _check_levels(self, where, levels):
        if not 1 <= len(levels) <= MAX_LEVELS:
            raise CalibrationError("%s: 1 to %d levels (one per stacked checker), not %d"
                                   % (where, MAX_LEVELS, len(levels)))
        previous = 0
        for count, level in enumerate(levels):
            if not _is_int(level) or level <= previous:
                raise CalibrationError("%s: levels are whole counts rising from above 0, not %r"
                                       % (where, list(levels)))
            if level - previous < MIN_STEP:
                raise CalibrationError("%s: %d and %d checkers read %d counts apart, %d at least: measure again"
                                       % (where, count, count + 1, level - previous, MIN_STEP))
            previous = level

    def _check_faces(self, where, faces):
        if len(faces) != 6 or not all(_is_int(face) for face in faces):
            raise CalibrationError("%s: six whole-count face levels (top face 1 to 6), not %r" % (where, list(faces)))
        points = sorted(list(faces) + [0])
        for low, high in zip(points, points[1:]):
            if high - low < MIN_FACE_GAP:
                names = ["empty" if p == 0 else "face %d" % (list(faces).index(p) + 1) for p in (low, high)]
                raise CalibrationError("%s: %s and %s read %d counts apart, %d at least"
                                       % (where, names[0], names[1], high - low, MIN_FACE_GAP))

    def check(self, layout):
        """CalibrationError unless this calibration fits ``layout``'s sensors."""
        sizes = {len(zone) for zone in self.zones}
        fits = (len(self.zones) == layout.zones and sizes == {layout.sensors_per_zone}
                and len(self.dice) == layout.dice_sensors
                and (self.reference is None or layout.reference_sensor is not None))
        if not fits:
            has = "%d zones of %s sensors, %d dice sensors%s" % (
                len(self.zones), "/".join(str(n) for n in sorted(sizes)), len(self.dice),
                ", a reference" if self.reference is not None else "")
            wants = "%d zones of %d sensors, %d dice sensors%s" % (
                layout.zones, layout.sensors_per_zone, layout.dice_sensors,
                ", a reference" if layout.reference_sensor is not None else "")
            raise CalibrationError("the calibration has %s; this board has %s: recalibrate (trictrac calibrate)"
                                   % (has, wants))

    # -- serialising --------------------------------------------------------------------------
    def to_dict(self):
        """Plain lists and dicts, as stored in ``calibration.json``."""
        return {
            "version": VERSION,
            "polarity": self.polarity,
            "hysteresis": self.hysteresis,
            "window": list(self.window),
            "over": self.over,
            "reference": self.reference,
            "zones": [[{"zero": zero, "levels": list(levels)} for zero, levels in zone] for zone in self.zones],
            "dice": [{"zero": zero, "faces": list(faces)} for zero, faces in self.dice],
        }

    @classmethod
    def from_dict(cls, data):
        """A calibration from ``to_dict``'s form; CalibrationError names a missing or bad field."""
        if not isinstance(data, dict):
            raise CalibrationError("a calibration is a JSON object, not %s" % type(data).__name__)
        if data.get("version") != VERSION:
            raise CalibrationError("calibration version %r is not supported (this firmware reads %d)"
                                   % (data.get("version"), VERSION))
        try:
            zones = [[(sensor["zero"], sensor["levels"]) for sensor in zone] for zone in data["zones"]]
            dice = [(die["zero"], die["faces"]) for die in data.get("dice", [])]
            return cls(zones, dice, data.get("reference"), data.get("polarity", 1),
                       data.get("hysteresis", HYSTERESIS), data.get("window", WINDOW), data.get("over", OVER))
        except CalibrationError:
            raise
        except KeyError as missing:
            raise CalibrationError("calibration entry without %r" % (missing.args[0],))
        except (TypeError, ValueError):
            raise CalibrationError("zones are lists of {zero, levels}, dice a list of {zero, faces}, "
                                   "window a [low, high] pair")

    def to_json(self):
        """The calibration as compact JSON text."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def to_bytes(self):
        """The JSON as UTF-8 bytes, as written to flash."""
        return self.to_json().encode()

    @classmethod
    def from_json(cls, text):
        """A calibration from JSON text or UTF-8 bytes (``to_bytes``)."""
        try:
            if isinstance(text, (bytes, bytearray)):
                text = bytes(text).decode()
            data = json.loads(text)
        except ValueError as error:  # UnicodeError is a ValueError in CPython and MicroPython
            raise CalibrationError("calibration is not JSON: %s" % error)
        return cls.from_dict(data)

    def __eq__(self, other):
        return isinstance(other, Calibration) and self.to_dict() == other.to_dict()

    def __ne__(self, other):
        return not self == other


def slot_bounds(levels, hysteresis):
    """Per count ``k`` of a slot, the distance to pass to rise to ``k + 1`` and the one to fall
    below to drop to ``k - 1``: the midpoints between levels, widened by the hysteresis (at
    most a quarter of that step)."""
    rise, fall, below = [], [-1], 0
    for level in levels:
        middle, band = (below + level) // 2, min(hysteresis, (level - below) // 4)
        rise.append(middle + band)
        fall.append(middle - band)
        below = level
    return rise, fall


def step_count(distance, rise, fall, previous):
    """How many steps ``distance`` is up, moving from ``previous`` only past a bound, so a
    reading on a threshold keeps its count."""
    count = previous
    top = len(rise)
    while count < top and distance > rise[count]:
        count += 1
    while count > 0 and distance < fall[count]:
        count -= 1
    return count


class Classifier:
    """Raw readings -> per zone ``(white, black)`` or UNREADABLE, keeping each slot's count
    for the hysteresis; CalibrationError if the calibration does not fit the layout."""

    def __init__(self, calibration, layout):
        calibration.check(layout)
        self.calibration = calibration
        self.layout = layout
        self._slots = []
        for zone in calibration.zones:
            for zero, levels in zone:
                rise, fall = slot_bounds(levels, calibration.hysteresis)
                self._slots.append((zero, rise, fall, int(levels[-1] * calibration.over)))
        self._counts = [0] * layout.zone_sensor_count

    def reset(self):
        """Forget the counts held for the hysteresis."""
        self._counts = [0] * len(self._counts)

    def drift(self, raw):
        """How many counts the sensor supply has moved since calibration (0 without a
        reference); None when it moved more than MAX_DRIFT, a supply fault."""
        return supply_drift(self.calibration, self.layout, raw)

    def sensor(self, index, value, drift=0):
        """One slot's signed count (+ White, - Black), or UNREADABLE for a reading outside the
        window or beyond the over-range ceiling."""
        calibration = self.calibration
        low, high = calibration.window
        if value < low or value > high:
            return UNREADABLE
        zero, rise, fall, ceiling = self._slots[index]
        offset = (value - zero - drift) * calibration.polarity
        held = self._counts[index]
        if offset >= 0:
            if offset > ceiling:
                return UNREADABLE
            count = step_count(offset, rise, fall, held if held > 0 else 0)
        else:
            if -offset > ceiling:
                return UNREADABLE
            count = -step_count(-offset, rise, fall, -held if held < 0 else 0)
        self._counts[index] = count
        return count

    def zones(self, raw):
        """``(white, black)`` or UNREADABLE for every zone, in zone order."""
        drift = self.drift(raw)
        if drift is None:
            return [UNREADABLE] * self.layout.zones
        sensor = self.sensor
        per_zone = self.layout.sensors_per_zone
        result = []
        index = 0
        for _ in range(self.layout.zones):
            white = black = 0
            readable = True
            for _ in range(per_zone):
                count = sensor(index, raw[index], drift)
                index += 1
                if count is None:
                    readable = False
                elif count > 0:
                    white += count
                else:
                    black -= count
            result.append((white, black) if readable else UNREADABLE)
        return result


def supply_drift(calibration, layout, raw):
    """The supply reference's move since calibration in counts, 0 without one; None past MAX_DRIFT."""
    if calibration.reference is None or layout.reference_sensor is None:
        return 0
    drift = raw[layout.reference_sensor] - calibration.reference
    return drift if -MAX_DRIFT <= drift <= MAX_DRIFT else None
