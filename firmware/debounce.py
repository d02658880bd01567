"""Debouncing the zone readings: a zone's value changes only after N identical scans, and the
whole snapshot is settled when every zone is stable.

A one-scan spike never reaches the settled snapshot.  A zone that cannot hold one value for
``give_up_scans`` (a failing sensor) is reported unreadable rather than freezing the board.
"""

SETTLE_SCANS = 3
"""Identical scans before a zone's value changes: 60 ms at 20 ms a scan (the simulator's figure)."""
GIVE_UP_SCANS = 100
"""Scans (2 s) a zone may flicker before it is reported unreadable."""

_UNSET = object()


class Debouncer:
    """Per zone the value last held for ``settle_scans`` scans; ``changes`` counts the settled
    snapshots that differed from the one before (a u16 that wraps, as the wire carries it)."""

    def __init__(self, size, settle_scans=SETTLE_SCANS, give_up_scans=GIVE_UP_SCANS):
        if settle_scans < 1 or give_up_scans < settle_scans:
            raise ValueError("settle_scans is 1 or more and give_up_scans at least as many")
        self.size = size
        self.settle_scans = settle_scans
        self.give_up_scans = give_up_scans
        self.changes = 0
        self._latest = [_UNSET] * size
        self._run = [0] * size
        self._unsteady = [0] * size
        self._stable = [_UNSET] * size
        self._settled = None

    def update(self, values):
        """Take one scan's values; True when it completes a new settled snapshot."""
        if len(values) != self.size:
            raise ValueError("a scan has %d zone values, not %d" % (self.size, len(values)))
        for zone in range(self.size):
            value = values[zone]
            if value != self._latest[zone]:
                self._latest[zone] = value
                self._run[zone] = 1
            elif self._run[zone] < self.settle_scans:  # counts stop there: small ints forever
                self._run[zone] += 1
            if self._run[zone] >= self.settle_scans:
                self._stable[zone] = value
                self._unsteady[zone] = 0
            elif self._unsteady[zone] < self.give_up_scans:
                self._unsteady[zone] += 1
                if self._unsteady[zone] >= self.give_up_scans:
                    self._stable[zone] = None
        if not self.settled:
            return False
        snapshot = tuple(self._stable)
        if snapshot == self._settled:
            return False
        self._settled = snapshot
        self.changes = (self.changes + 1) & 0xFFFF
        return True

    def is_stable(self, zone):
        """The zone holds its value (or has been given up as unreadable)."""
        return self._run[zone] >= self.settle_scans or self._unsteady[zone] >= self.give_up_scans

    @property
    def settled(self):
        """Every zone is stable."""
        for zone in range(self.size):
            if not self.is_stable(zone):
                return False
        return True

    @property
    def snapshot(self):
        """The last settled snapshot (None before the first)."""
        return self._settled
