"""A calibration as the CALIBRATION frames carry it: per sensor a tuple of u16 levels on the
``read_u16`` scale, in sensor order; and back.  Both sides use this, so the Pi and the Pico
agree on what the numbers mean (PROTOCOL.md leaves that to the firmware):

* a slot sensor: its readings with 0, 1, 2, 3 ... White checkers on it, i.e. ``zero`` then
  ``zero + polarity * level`` (k = 1 + levels, at most 8);
* a die sensor: its readings with the pocket empty, then with face 1 ... 6 on top (k = 7);
* the supply reference: its calibrated reading (k = 1).

Polarity is the direction the slot readings move (every slot sensor must agree).  The
hysteresis, the valid window and the over-range factor are not sent: the receiver keeps
its own (those of ``base``, else the defaults).  Plain MicroPython-compatible Python.
"""

from .classify import HYSTERESIS, OVER, WINDOW, Calibration, CalibrationError

MAX_LEVELS = 8
"""Levels a sensor may carry in one frame (protocol.MAX_THRESHOLDS)."""
MAX_PAYLOAD = 1024
"""protocol.MAX_PAYLOAD, repeated so this module stays importable on its own."""
FACES = 6


def _u16(value, where):
    """``value`` if it fits a u16, else CalibrationError naming ``where``."""
    if value < 0 or value > 65535:
        raise CalibrationError("%s: level %d does not fit 0-65535" % (where, value))
    return value


def sensor_levels(calibration, layout):
    """Per sensor of ``layout``, in sensor order, the tuple of levels the wire carries;
    CalibrationError if the calibration does not fit the layout or the wire."""
    calibration.check(layout)
    polarity = calibration.polarity
    out = []
    for z, zone in enumerate(calibration.zones):
        for s, (zero, levels) in enumerate(zone):
            where = "zone %d sensor %d" % (z, s)
            if len(levels) + 1 > MAX_LEVELS:
                raise CalibrationError("%s: %d levels do not fit a frame (at most %d)" % (where, len(levels), MAX_LEVELS - 1))
            out.append(tuple([zero] + [_u16(zero + polarity * level, where) for level in levels]))
    for d, (zero, faces) in enumerate(calibration.dice):
        where = "die %d" % (d + 1)
        out.append(tuple([zero] + [_u16(zero + face, where) for face in faces]))
    if layout.reference_sensor is not None:
        reference = calibration.reference
        if reference is None:
            raise CalibrationError("the board has a supply reference sensor but the calibration has no reference")
        out.append((reference,))
    return out


def check_sensor(layout, sensor, levels):
    """None if ``levels`` has the right size for that sensor, else the problem as text."""
    k = len(levels)
    if sensor < layout.zone_sensor_count:
        if not 2 <= k <= MAX_LEVELS:
            return "slot sensor %d takes 2-%d levels, not %d" % (sensor, MAX_LEVELS, k)
    elif sensor < layout.first_dice_sensor + layout.dice_sensors:
        if k != 1 + FACES:
            return "die sensor %d takes %d levels, not %d" % (sensor, 1 + FACES, k)
    elif k != 1:
        return "reference sensor %d takes 1 level, not %d" % (sensor, k)
    return None


def calibration_of(levels, layout, base=None):
    """The Calibration that ``levels`` (one tuple per sensor, as ``sensor_levels`` gives them)
    describes; the hysteresis, window and over-range come from ``base`` (else the defaults).
    CalibrationError names the first thing wrong."""
    if len(levels) != layout.sensor_count:
        raise CalibrationError("%d sensors' levels for a board of %d sensors" % (len(levels), layout.sensor_count))
    for sensor in range(layout.sensor_count):
        problem = check_sensor(layout, sensor, levels[sensor])
        if problem is not None:
            raise CalibrationError(problem)
    first = levels[0]
    polarity = 1 if first[1] >= first[0] else -1
    zones = []
    per_zone = layout.sensors_per_zone
    for z in range(layout.zones):
        zone = []
        for sensor in range(z * per_zone, (z + 1) * per_zone):
            readings = levels[sensor]
            zero = readings[0]
            zone.append((zero, [(reading - zero) * polarity for reading in readings[1:]]))
        zones.append(zone)
    dice = []
    for die in range(layout.dice_sensors):
        readings = levels[layout.dice_sensor(die)]
        zero = readings[0]
        dice.append((zero, [reading - zero for reading in readings[1:]]))
    reference = levels[layout.reference_sensor][0] if layout.reference_sensor is not None else None
    if base is not None:
        hysteresis, window, over = base.hysteresis, base.window, base.over
    else:
        hysteresis, window, over = HYSTERESIS, WINDOW, OVER
    calibration = Calibration(zones, dice, reference, polarity, hysteresis, window, over)
    calibration.check(layout)
    return calibration


def level_chunks(levels):
    """``levels`` cut into ``(first, tuples)`` runs of one size that fit a frame each."""
    chunks = []
    start = 0
    while start < len(levels):
        k = len(levels[start])
        most = (MAX_PAYLOAD - 5) // (2 * k)
        end = start + 1
        while end < len(levels) and end - start < most and len(levels[end]) == k:
            end += 1
        chunks.append((start, levels[start:end]))
        start = end
    return chunks
