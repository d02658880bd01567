"""The board's logic, independent of the transport: each scan's raw readings in, the events
to send out (a new settled snapshot, a roll, raw scans while calibrating), and the
light frame the Pi last set rendered for the LED chain.
"""

from .classify import Classifier
from .codes import OFF, STEADY
from .debounce import GIVE_UP_SCANS, SETTLE_SCANS, Debouncer
from .dice import DICE_SETTLE_SCANS, UNCLEAR_SETTLE_SCANS, DiceReader, DiceWatcher
from .leds import BRIGHTNESS, MAX_CURRENT_MA, check_frame, render, status_on

RAW_EVERY_SCANS = 3
"""In raw mode every third scan is sent: under 20 scans a second, as PROTOCOL.md allows."""


class _Event:
    """A small value: compared and printed by its FIELDS."""

    FIELDS = ()

    def __eq__(self, other):
        return type(other) is type(self) and all(getattr(self, f) == getattr(other, f) for f in self.FIELDS)

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (f, getattr(self, f)) for f in self.FIELDS))


class SnapshotChanged(_Event):
    """A new settled reading of the board: per zone ``(white, black)`` or None (unreadable),
    in zone order; ``changes`` numbers the settled snapshots so a lost one shows;
    ``requested``: the answer to ``request_snapshot`` (the device adds the tray's state)."""

    FIELDS = ("time_ms", "zones", "changes")

    def __init__(self, time_ms, zones, changes, requested=False):
        self.time_ms, self.zones, self.changes = time_ms, tuple(zones), changes
        self.requested = requested


class DiceRolled(_Event):
    """A roll read from the tray: ``(a, b)``, or None when the tray shows no clear roll;
    ``landed_ms``: when the dice landed, before they settled (None: not known)."""

    FIELDS = ("time_ms", "dice", "landed_ms")

    def __init__(self, time_ms, dice, landed_ms=None):
        self.time_ms, self.dice, self.landed_ms = time_ms, dice, landed_ms


class RawScan(_Event):
    """One scan's raw readings in sensor order, sent while calibrating (the Pi takes medians)."""

    FIELDS = ("time_ms", "values")

    def __init__(self, time_ms, values):
        self.time_ms, self.values = time_ms, tuple(values)


class BoardLogic:
    """Scan -> classify -> debounce -> events; the LED frame in, pixels out."""

    def __init__(self, layout, calibration=None, settle_scans=SETTLE_SCANS, give_up_scans=GIVE_UP_SCANS,
                 dice_settle_scans=DICE_SETTLE_SCANS, unclear_scans=UNCLEAR_SETTLE_SCANS,
                 brightness=BRIGHTNESS, max_current_ma=MAX_CURRENT_MA):
        self.layout = layout
        self.settle_scans = settle_scans
        self.give_up_scans = give_up_scans
        self.dice_settle_scans = dice_settle_scans
        self.unclear_scans = unclear_scans
        self.brightness = brightness
        self.max_current_ma = max_current_ma
        self.frame = ((OFF, STEADY),) * layout.zones
        self.supply_ok = True
        self._want_snapshot = False
        self.raw_mode = False
        self._scans = 0
        self.set_calibration(calibration)

    # -- commands from the Pi --------------------------------------------------------------
    def set_calibration(self, calibration):
        """Use ``calibration`` (None: none, no snapshots); CalibrationError if it does not fit
        the layout.  The debouncing starts afresh."""
        classifier = dice = None
        if calibration is not None:
            classifier = Classifier(calibration, self.layout)
            dice = DiceReader(calibration, self.layout) if self.layout.dice_sensors else None
        self.calibration, self._classifier, self._dice = calibration, classifier, dice
        self._debouncer = Debouncer(self.layout.zones, self.settle_scans, self.give_up_scans)
        self._watcher = DiceWatcher(self.dice_settle_scans, self.unclear_scans)

    @property
    def calibrated(self):
        """A calibration is loaded."""
        return self.calibration is not None

    def request_snapshot(self):
        """Send the settled snapshot at the next settled scan, changed or not, with its counter
        as it stands, marked ``requested``.  Uncalibrated, the next scan sends every zone
        unreadable."""
        self._want_snapshot = True

    def set_raw_mode(self, on):
        """Send raw scans (every RAW_EVERY_SCANS-th) while on: for calibrating."""
        self.raw_mode = bool(on)

    def set_leds(self, frame):
        """Show a light frame: one ``(colour code, mode code)`` per zone; ValueError if malformed."""
        self.frame = check_frame(frame, self.layout.zones)

    # -- the loop --------------------------------------------------------------------------
    def step(self, raw, now_ms):
        """Take one full scan; the events it produces, oldest first."""
        if len(raw) != self.layout.sensor_count:
            raise ValueError("a scan has %d readings, not %d" % (self.layout.sensor_count, len(raw)))
        events = []
        self._scans += 1
        if self.raw_mode and self._scans % RAW_EVERY_SCANS == 0:
            events.append(RawScan(now_ms, raw))
        if self._classifier is None:
            if self._want_snapshot:  # nothing can be classified: every zone unreadable
                self._want_snapshot = False
                events.append(SnapshotChanged(now_ms, (None,) * self.layout.zones, self._debouncer.changes, True))
            return events
        drift = self._classifier.drift(raw)
        self.supply_ok = drift is not None
        news = None
        if self._dice is not None:
            news = self._watcher.update(self._dice.read(raw, drift), now_ms)
        changed = self._debouncer.update(self._classifier.zones(raw))
        if changed or (self._want_snapshot and self._debouncer.settled):
            requested = self._want_snapshot
            events.append(SnapshotChanged(now_ms, self._debouncer.snapshot, self._debouncer.changes, requested))
            self._want_snapshot = False
        if news is not None:
            events.append(DiceRolled(now_ms, news[0], self._watcher.landed_ms))
        return events

    @property
    def snapshot_counter(self):
        """How many settled snapshots there have been (what the last SNAPSHOT carried)."""
        return self._debouncer.changes

    @property
    def tray(self):
        """What the tray shows now: a roll ``(a, b)``, or None (empty, unclear or not settled)."""
        current = self._watcher.current if self._dice is not None else None
        return None if current is None else current[0]

    def pixels(self, now_ms):
        """The LED chain's RGB triples at ``now_ms``."""
        return render(self.frame, now_ms, self.brightness, self.max_current_ma)

    def status_on(self, now_ms):
        """Whether the Pico's status LED is lit at ``now_ms``."""
        return status_on(now_ms, self.calibrated and self.supply_ok)
