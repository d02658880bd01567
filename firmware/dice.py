"""Reading the dice tray: each die's pocket sensor -> the face on top, and a roll reported
once when the dice have settled after moving.

Each die carries one magnet through its centre, tilted so its pull along the 1-6, 2-5 and 3-4
axes differs (HARDWARE.md): the sensor under the pocket reads one of six levels, and a die
turned over reads the opposite level, as its bottom face is the top face's opposite (they sum
to seven).  An empty pocket reads zero; a die cocked against the wall reads between levels.
"""

DICE_SETTLE_SCANS = 10
"""Scans (200 ms) a roll must stand before it is reported: a landing die wobbles."""
UNCLEAR_SETTLE_SCANS = 50
"""Scans (1 s) a cocked die or a lone die must stand before 'no clear roll' is reported, so
taking the dice out one at a time says nothing."""
TOLERANCE = 0.4
"""A face reads within 0.4 of the gap to its nearest neighbouring level; between is unclear."""

EMPTY = 0
UNCLEAR = None
_NOTHING = object()


class DiceReader:
    """Raw readings -> per die the top face 1-6, EMPTY or UNCLEAR, from the calibration's
    ``dice`` entries ``(zero, faces)``."""

    def __init__(self, calibration, layout):
        calibration.check(layout)
        self.layout = layout
        self.window = calibration.window
        self._dice = []
        for zero, faces in calibration.dice:
            points = [0] + list(faces)
            tolerances = []
            for point in points:
                gap = min(abs(point - other) for other in points if other != point)
                tolerances.append(gap * TOLERANCE)
            self._dice.append((zero, points, tolerances))

    def read_die(self, die, value, drift=0):
        """One die: its top face, EMPTY or UNCLEAR."""
        low, high = self.window
        if drift is None or not low <= value <= high:
            return UNCLEAR
        zero, points, tolerances = self._dice[die]
        offset = value - zero - drift
        for face in range(7):
            if abs(offset - points[face]) <= tolerances[face]:
                return face if face else EMPTY
        return UNCLEAR

    def read(self, raw, drift=0):
        """Every die's reading, as a tuple."""
        return tuple(self.read_die(die, raw[self.layout.dice_sensor(die)], drift)
                     for die in range(len(self._dice)))


def roll_of(faces):
    """``(a, b)`` when every die shows a face, EMPTY when the tray is empty, else UNCLEAR."""
    if all(face is not None and face != EMPTY for face in faces):
        return tuple(faces)
    if all(face == EMPTY for face in faces):
        return EMPTY
    return UNCLEAR


class DiceWatcher:
    """Reports each roll once, when the dice readings have stood for their settle time: a
    roll that differs from the last one reported, or any roll after a die left its pocket (the
    same numbers thrown again).  An empty tray is never reported, nor the dice found at start."""

    def __init__(self, settle_scans=DICE_SETTLE_SCANS, unclear_scans=UNCLEAR_SETTLE_SCANS):
        self.settle_scans = settle_scans
        self.unclear_scans = unclear_scans
        self._latest = _NOTHING
        self._run = 0
        self._settled = _NOTHING
        self._lifted = False
        self._back = None
        self.landed_ms = None
        """When the roll ``update`` last reported landed: the first scan with every die back
        in its pocket after one was out (a die turned in place: the first scan it read
        otherwise), so the Pi knows which boards came before the throw."""

    @property
    def current(self):
        """What the tray last settled on, as ``update`` reports it: ``(roll,)`` with a roll
        ``(a, b)`` or UNCLEAR; None when it is empty or has not settled yet."""
        roll = self._settled
        return None if roll is _NOTHING or roll == EMPTY else (roll,)

    def update(self, faces, now_ms=0):
        """Take one scan's readings (at ``now_ms``); ``(roll,)`` with the roll ``(a, b)`` or
        UNCLEAR when there is news to send (``landed_ms`` says when it landed), else None."""
        roll = roll_of(faces)
        if EMPTY in faces:
            self._lifted = True
            self._back = None
        elif self._back is None or (roll != self._latest and not self._lifted):
            self._back = now_ms
        if roll == self._latest:
            if self._run <= self.settle_scans + self.unclear_scans:  # bounded: stays a small int
                self._run += 1
        else:
            self._latest = roll
            self._run = 1
        if self._run != (self.unclear_scans if roll is UNCLEAR else self.settle_scans):
            return None
        if self._settled is _NOTHING:
            self._settled, self._lifted = roll, False
            return None
        if roll == EMPTY:
            self._settled = EMPTY
            return None
        if roll == self._settled and not self._lifted:
            return None
        self._settled, self._lifted = roll, False
        self.landed_ms = self._back
        return (roll,)
