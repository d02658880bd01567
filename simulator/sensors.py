"""The simulated checker sensors: a scan every ``scan_period`` on the grid ``k * scan_period``,
posting a ``SnapshotEvent`` when a reading has stood for ``settle_scans`` scans.

Event-driven, with the same result as scanning every grid point: what the scans read only
changes when the board, a hand or a noise effect changes, so the model keeps the reading
and the scan it was first seen at, and schedules one callback at the scan where it would
settle.  A scan at ``k * scan_period`` reads the board as it was just before that instant:
a change at time ``t`` is first seen by scan ``floor(t / scan_period) + 1``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import TypeVar

from hal.interfaces import BoardSnapshot, SnapshotEvent, ZoneReading
from hal.zones import BLACK, WHITE, ZONE_INDEX, ZONES, Checker, Zone, check_zone

from .board import MAX_STACK, PhysicalBoard, reading
from .clock import VirtualClock
from .queue import SimEventQueue
from .scheduler import ScheduledCall, Scheduler

Reading = tuple[ZoneReading | None, ...]

MISCOUNT, UNREADABLE, STUCK = "miscount", "unreadable", "stuck"
NOISE_KINDS: tuple[str, ...] = (MISCOUNT, UNREADABLE, STUCK)
_GRID_EPSILON = 1e-6  # of a scan period: times this close to a scan count as on it


@dataclass(eq=False, slots=True)
class _Miscount:
    """A zone reading one checker of ``colour`` more or less (compared by identity: each injection is its own)."""

    colour: Checker
    delta: int


@dataclass(eq=False, slots=True)
class _Stuck:
    """A zone frozen on ``frozen`` (compared by identity: a later injection outlives an earlier one)."""

    frozen: ZoneReading | None


_Effect = TypeVar("_Effect", _Miscount, _Stuck)


@dataclass(frozen=True, slots=True)
class NoiseModel:
    """How often the sensors misbehave, per second of virtual time over the whole board; all 0 is a clean sensor."""

    miscount_rate: float = 0.0  # one zone reads ±1 for a single scan
    unreadable_rate: float = 0.0  # one zone reads None for a few scans
    stuck_rate: float = 0.0  # one zone keeps its old reading for a while
    unreadable_scans: tuple[int, int] = (1, 4)
    stuck_seconds: tuple[float, float] = (0.1, 0.5)

    def __post_init__(self) -> None:
        for name in ("miscount_rate", "unreadable_rate", "stuck_rate"):
            rate = getattr(self, name)
            if not rate >= 0 or math.isinf(rate):
                raise ValueError(f"{name} is a rate per second, 0 or more, not {rate!r}")
        low, high = self.unreadable_scans
        if not 1 <= low <= high:
            raise ValueError(f"unreadable_scans is (fewest, most) scans, at least 1, not {self.unreadable_scans!r}")
        shortest, longest = self.stuck_seconds
        if not 0 < shortest <= longest:
            raise ValueError(f"stuck_seconds is (shortest, longest), above 0, not {self.stuck_seconds!r}")

    @classmethod
    def scaled(cls, level: float) -> NoiseModel:
        """One knob: 0 is clean, 1 a poor but usable sensor (2 miscounts, 0.5 dropouts, 0.2 stuck zones a second)."""
        if not level >= 0:
            raise ValueError(f"the noise level is 0 or more, not {level!r}")
        return cls(miscount_rate=2.0 * level, unreadable_rate=0.5 * level, stuck_rate=0.2 * level)

    @property
    def clean(self) -> bool:
        """No noise at all."""
        return self.miscount_rate == self.unreadable_rate == self.stuck_rate == 0

    def rate(self, kind: str) -> float:
        """The rate of one noise kind."""
        return {MISCOUNT: self.miscount_rate, UNREADABLE: self.unreadable_rate, STUCK: self.stuck_rate}[kind]


@dataclass(frozen=True)
class SensorStats:
    """What the sensor model did, for reports."""

    scans: int  # grid scans covered so far (the work a scanning model would have done)
    reading_changes: int  # changes of what a scan would read (the work this model did)
    snapshots: int  # SnapshotEvents posted on settling
    requested: int  # SnapshotEvents posted by request_snapshot
    noise: dict[str, int] = field(default_factory=dict)  # noise effects injected, by kind


class SimulatedSensor:
    """A ``hal.interfaces.BoardSensor`` over a ``PhysicalBoard``, with seeded noise; starts scanning when made."""

    def __init__(
        self,
        clock: VirtualClock,
        scheduler: Scheduler,
        queue: SimEventQueue,
        board: PhysicalBoard,
        *,
        scan_period: float = 0.02,
        settle_scans: int = 3,
        noise: NoiseModel | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if not scan_period > 0:
            raise ValueError(f"scan_period is a time above 0, not {scan_period!r}")
        if not isinstance(settle_scans, int) or settle_scans < 1:
            raise ValueError(f"settle_scans is a whole number of scans, 1 or more, not {settle_scans!r}")
        self._clock, self._scheduler, self._queue, self._board = clock, scheduler, queue, board
        self.scan_period = scan_period
        self.settle_scans = settle_scans
        self._rng = rng if rng is not None else random.Random(0)
        self._noise = NoiseModel()
        self._arrivals: dict[str, ScheduledCall] = {}
        # noise effects in force, by zone index
        self._unreadable: dict[int, int] = {}
        self._miscount: dict[int, _Miscount] = {}
        self._stuck: dict[int, _Stuck] = {}
        # the reading scans see from scan ``_since`` on, and the one before it (None once out of reach)
        self._first_scan = self._first_scan_seeing(clock.now())
        self._reading: Reading = self._compute()
        self._since = self._first_scan
        self._before: tuple[Reading, int] | None = None
        self._settle: ScheduledCall | None = None
        self._settle_scan = -1
        self._posted: Reading | None = None
        self._last: BoardSnapshot | None = None
        self._changes = self._snapshots = self._requested = 0
        self._wanted = False
        """A snapshot was asked for while the reading had not stood: the next settled one answers."""
        self._noise_counts = dict.fromkeys(NOISE_KINDS, 0)
        self._schedule_settle()
        board.add_listener(self._refresh)
        self.set_noise(noise if noise is not None else NoiseModel())

    # -- the BoardSensor protocol and what the simulation may ask ------------------------------

    def request_snapshot(self) -> None:
        """As the board's firmware does (``firmware.board_logic``): post the settled snapshot
        at the next settled scan, changed or not: now when the reading has stood
        ``settle_scans`` scans as last posted, else once the reading settles (a board
        still changing, or noise keeping it from standing, is never confirmed stale)."""
        if self._last is not None and self._reading == self._posted and self._stood():
            self._post_requested()
        else:
            self._wanted = True

    def _stood(self) -> bool:
        """Has the current reading stood ``settle_scans`` scans by now?"""
        return self._clock.now() >= self.scan_time(self._since + self.settle_scans - 1)

    def _post_requested(self) -> None:
        self._wanted = False
        self._requested += 1
        self._queue.put(SnapshotEvent(self._clock.now(), self._last))

    @property
    def last_snapshot(self) -> BoardSnapshot | None:
        """The last snapshot posted (None before the first settles)."""
        return self._last

    @property
    def noise(self) -> NoiseModel:
        """The noise in force."""
        return self._noise

    def set_noise(self, noise: NoiseModel) -> None:
        """Change the noise from now on (``NoiseModel()`` stops new noise; effects under way run out)."""
        for call in self._arrivals.values():
            call.cancel()
        self._arrivals.clear()
        self._noise = noise
        for kind in NOISE_KINDS:
            if noise.rate(kind) > 0:
                self._schedule_arrival(kind)

    def current_reading(self) -> BoardSnapshot:
        """What a scan would read now (hand, noise and all), settled or not."""
        return BoardSnapshot(self._compute())

    def scan_time(self, scan: int) -> float:
        """The virtual time of scan number ``scan``."""
        return scan * self.scan_period

    def stats(self) -> SensorStats:
        """Counts so far, for reports."""
        scans = max(0, self._first_scan_seeing(self._clock.now()) - self._first_scan)
        return SensorStats(scans, self._changes, self._snapshots, self._requested, dict(self._noise_counts))

    def close(self) -> None:
        """Stop: no more noise, settling or listening to the board."""
        self.set_noise(NoiseModel())
        if self._settle is not None:
            self._settle.cancel()
        self._board.remove_listener(self._refresh)

    # -- injected noise (random ones come from the NoiseModel; tests and scenarios call these) --

    def inject_miscount(self, zone: Zone, colour: Checker, delta: int = 1) -> None:
        """``zone`` reads ``delta`` (±1) more checkers of ``colour`` for the next scan only."""
        if delta not in (-1, 1):
            raise ValueError(f"a miscount is off by one (delta -1 or +1), not {delta!r}")
        i = ZONE_INDEX[check_zone(zone)]
        entry = _Miscount(colour, delta)
        self._miscount[i] = entry
        self._count(MISCOUNT)
        end = self.scan_time(self._first_scan_seeing(self._clock.now()))
        self._scheduler.at(max(end, self._clock.now()), lambda: self._end(self._miscount, i, entry))
        self._refresh()

    def inject_unreadable(self, zone: Zone, scans: int = 2) -> None:
        """``zone`` reads None for the next ``scans`` scans."""
        if scans < 1:
            raise ValueError(f"a zone is unreadable for 1 scan or more, not {scans!r}")
        i = ZONE_INDEX[check_zone(zone)]
        self._unreadable[i] = self._unreadable.get(i, 0) + 1
        self._count(UNREADABLE)
        end = self.scan_time(self._first_scan_seeing(self._clock.now()) + scans - 1)
        self._scheduler.at(max(end, self._clock.now()), lambda: self._end_unreadable(i))
        self._refresh()

    def inject_stuck(self, zone: Zone, seconds: float) -> None:
        """``zone`` keeps reporting what it reads now for ``seconds``, whatever happens on it."""
        if not seconds > 0:
            raise ValueError(f"a sensor is stuck for a time above 0, not {seconds!r}")
        i = ZONE_INDEX[check_zone(zone)]
        earlier = self._stuck.get(i)
        entry = _Stuck(earlier.frozen if earlier is not None else self._base(i))
        self._stuck[i] = entry
        self._count(STUCK)
        self._scheduler.after(seconds, lambda: self._end(self._stuck, i, entry))
        self._refresh()

    # -- the model ------------------------------------------------------------------------------

    def _first_scan_seeing(self, t: float) -> int:
        """The first scan that sees a change made at time ``t``."""
        return math.floor(t / self.scan_period + _GRID_EPSILON) + 1

    def _base(self, i: int) -> ZoneReading | None:
        """What zone ``i`` reads without miscounts or stuck sensors: the truth, or None under a hand or a dropout."""
        if i in self._unreadable or ZONES[i] in self._board.hovered:
            return None
        return self._board.as_tuple()[i]

    def _compute(self) -> Reading:
        """What a scan would read now."""
        truth = self._board.as_tuple()
        hovered = self._board.hovered
        if not (hovered or self._unreadable or self._miscount or self._stuck):
            return truth
        out: list[ZoneReading | None] = list(truth)
        for zone in hovered:
            out[ZONE_INDEX[zone]] = None
        for i in self._unreadable:
            out[i] = None
        for i, miscount in self._miscount.items():
            current = out[i]
            if current is not None:
                out[i] = _miscounted(current, miscount.colour, miscount.delta)
        for i, stuck in self._stuck.items():
            out[i] = stuck.frozen
        return tuple(out)

    def _refresh(self) -> None:
        """Something changed: if what the scans read changed, restart the settling run."""
        new = self._compute()
        if new == self._reading:
            return
        self._changes += 1
        first = self._first_scan_seeing(self._clock.now())
        if self._settle is not None and self._settle_scan >= first:
            self._settle.cancel()
        if first > self._since:
            self._before = (self._reading, self._since)
            self._reading, self._since = new, first
        elif self._before is not None and self._before[0] == new:
            # back to what the last scan read before any scan saw the short-lived reading
            (self._reading, self._since), self._before = self._before, None
        else:
            self._reading = new
        self._schedule_settle()

    def _schedule_settle(self) -> None:
        """Call back at the scan where the current reading would have stood ``settle_scans`` scans."""
        scan = self._since + self.settle_scans - 1
        current = self._reading
        self._settle_scan = scan
        when = max(self.scan_time(scan), self._clock.now())
        self._settle = self._scheduler.at(when, lambda: self._settled(current))

    def _settled(self, settled: Reading) -> None:
        """A reading has stood long enough: post it unless it is the one posted last (or
        a snapshot was asked for: ``request_snapshot``)."""
        if settled != self._posted:
            self._posted = settled
            self._last = BoardSnapshot(settled)
            self._snapshots += 1
            self._wanted = False  # the answer
            self._queue.put(SnapshotEvent(self._clock.now(), self._last))
        elif self._wanted:
            self._post_requested()

    # -- noise arrivals and ends -------------------------------------------------------------------

    def _count(self, kind: str) -> None:
        """Count one injected noise effect."""
        self._noise_counts[kind] += 1

    def _schedule_arrival(self, kind: str) -> None:
        """Draw the next Poisson arrival of ``kind``."""
        delay = self._rng.expovariate(self._noise.rate(kind))
        self._arrivals[kind] = self._scheduler.after(delay, lambda: self._arrive(kind))

    def _arrive(self, kind: str) -> None:
        """A random noise effect of ``kind`` starts on a random zone; draw the next."""
        rng, noise = self._rng, self._noise
        zone = rng.choice(ZONES)
        if kind == MISCOUNT:
            colour, delta = _random_miscount(self._board.reading(zone), rng)
            self.inject_miscount(zone, colour, delta)
        elif kind == UNREADABLE:
            self.inject_unreadable(zone, rng.randint(*noise.unreadable_scans))
        else:
            self.inject_stuck(zone, rng.uniform(*noise.stuck_seconds))
        self._schedule_arrival(kind)

    def _end(self, effects: dict[int, _Effect], i: int, entry: _Effect) -> None:
        """An effect on zone ``i`` runs out, unless a later one replaced it."""
        if effects.get(i) is entry:
            del effects[i]
            self._refresh()

    def _end_unreadable(self, i: int) -> None:
        """One dropout on zone ``i`` runs out."""
        left = self._unreadable[i] - 1
        if left:
            self._unreadable[i] = left
        else:
            del self._unreadable[i]
        self._refresh()


def _miscounted(current: ZoneReading, colour: Checker, delta: int) -> ZoneReading:
    """``current`` with one checker of ``colour`` more or less, kept within 0..30."""
    white, black = current.white, current.black
    if colour is WHITE:
        white = min(max(white + delta, 0), MAX_STACK)
    else:
        black = min(max(black + delta, 0), MAX_STACK)
    return reading(white, black)


def _random_miscount(current: ZoneReading, rng: random.Random) -> tuple[Checker, int]:
    """A plausible miscount of a zone: ±1 of a colour there, +1 of either on an empty zone."""
    present = [c for c in (WHITE, BLACK) if current.count(c)]
    if not present:
        return rng.choice((WHITE, BLACK)), +1
    colour = rng.choice(present)
    if current.white + current.black >= MAX_STACK:
        return colour, -1
    return colour, rng.choice((-1, 1))
