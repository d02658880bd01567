"""The physical truth of the simulated board: checkers per zone, a hand, and the zones a hand covers.

Every hand action is checked: an impossible one (lifting from an empty zone, placing from
an empty hand) raises ValueError saying why, and leaves the board untouched.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from functools import cache

from hal.interfaces import ZoneReading
from hal.zones import BLACK, LINES, WHITE, ZONE_INDEX, ZONES, Checker, Zone, check_zone

MAX_STACK = 30
"""The most checkers a zone can hold (the sensors' range)."""

WHITE_ROW: tuple[Zone, ...] = LINES[:12]
"""White's side in physical order: 1 to 12."""
BLACK_ROW: tuple[Zone, ...] = LINES[12:]
"""Black's side in physical order: I to XII (I faces 1, XII faces 12)."""

Listener = Callable[[], None]


def _row_neighbours() -> dict[Zone, tuple[Zone, ...]]:
    """Each point's neighbours along its own row."""
    table: dict[Zone, tuple[Zone, ...]] = {}
    for row in (WHITE_ROW, BLACK_ROW):
        for i, zone in enumerate(row):
            table[zone] = row[max(i - 1, 0) : i] + row[i + 1 : i + 2]
    return table


_NEIGHBOURS = _row_neighbours()
_FACING = dict(zip(WHITE_ROW, BLACK_ROW)) | dict(zip(BLACK_ROW, WHITE_ROW))


def neighbours(zone: Zone) -> tuple[Zone, ...]:
    """The points beside ``zone`` along its row (one at a row's end, none for waiting zones and trays)."""
    return _NEIGHBOURS.get(check_zone(zone), ())


def facing(zone: Zone) -> Zone | None:
    """The point across the board from ``zone`` (1 faces I, 12 faces XII); None off the points."""
    return _FACING.get(check_zone(zone))


@cache
def reading(white: int, black: int) -> ZoneReading:
    """A shared ``ZoneReading`` (interned, so unchanged zones compare by identity)."""
    return ZoneReading(white, black)


def _check_colour(colour: Checker) -> Checker:
    """``colour`` if it is a ``Checker``, else TypeError."""
    if not isinstance(colour, Checker):
        raise TypeError(f"not a checker colour: {colour!r} (use hal.zones.Checker.WHITE or BLACK)")
    return colour


def _with(current: ZoneReading, colour: Checker, delta: int) -> ZoneReading:
    """``current`` with ``delta`` more checkers of ``colour``."""
    if colour is WHITE:
        return reading(current.white + delta, current.black)
    return reading(current.white, current.black + delta)


class PhysicalBoard:
    """Where every checker really is, what the hand holds and which zones a hand covers."""

    def __init__(self, zones: Mapping[Zone, ZoneReading | tuple[int, int]] | None = None) -> None:
        self._zones: list[ZoneReading] = [reading(0, 0)] * len(ZONES)
        self._hand: dict[Checker, int] = {WHITE: 0, BLACK: 0}
        self._hovered: frozenset[Zone] = frozenset()
        self._listeners: list[Listener] = []
        self._version = 0
        if zones is not None:
            self.set_zones(zones)

    def __repr__(self) -> str:
        stacks = ", ".join(f"{z}: {r.white}w{r.black}b" for z, r in zip(ZONES, self._zones) if not r.empty)
        return f"<PhysicalBoard {{{stacks}}} hand={self._hand[WHITE]}w{self._hand[BLACK]}b>"

    # -- what is there --------------------------------------------------------------

    @property
    def version(self) -> int:
        """Counts the changes the sensors could notice (checkers moved, a hand moved over zones)."""
        return self._version

    @property
    def hand(self) -> dict[Checker, int]:
        """How many checkers of each colour the hand holds (a copy)."""
        return dict(self._hand)

    @property
    def hovered(self) -> frozenset[Zone]:
        """The zones a hand covers now (the sensors cannot read them)."""
        return self._hovered

    def reading(self, zone: Zone) -> ZoneReading:
        """The checkers really in ``zone``."""
        return self._zones[ZONE_INDEX[check_zone(zone)]]

    def readings(self) -> dict[Zone, ZoneReading]:
        """``{zone: checkers really there}`` for all 28 zones."""
        return dict(zip(ZONES, self._zones))

    def as_tuple(self) -> tuple[ZoneReading, ...]:
        """The true readings in ``ZONES`` order (the fast path for the sensor model)."""
        return tuple(self._zones)

    def total(self, colour: Checker) -> int:
        """Checkers of ``colour`` on the board and in the hand."""
        _check_colour(colour)
        return self._hand[colour] + sum(r.count(colour) for r in self._zones)

    # -- listeners ------------------------------------------------------------------------

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener()`` after every change the sensors could notice."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        self._listeners.remove(listener)

    def _changed(self) -> None:
        """Count a change and tell the listeners."""
        self._version += 1
        for listener in tuple(self._listeners):
            listener()

    # -- hand actions -------------------------------------------------------------------------

    def lift(self, zone: Zone, colour: Checker) -> None:
        """Take one checker of ``colour`` from ``zone`` into the hand."""
        i = ZONE_INDEX[check_zone(zone)]
        current = self._zones[i]
        if current.count(_check_colour(colour)) == 0:
            raise ValueError(
                f"cannot lift a {colour.value} checker from {zone}: it holds none "
                f"({current.white} white, {current.black} black)"
            )
        self._zones[i] = _with(current, colour, -1)
        self._hand[colour] += 1
        self._changed()

    def place(self, zone: Zone, colour: Checker) -> None:
        """Put one checker of ``colour`` from the hand onto ``zone``."""
        i = ZONE_INDEX[check_zone(zone)]
        if self._hand[_check_colour(colour)] == 0:
            raise ValueError(f"cannot place a {colour.value} checker on {zone}: the hand holds no {colour.value} checker")
        current = self._zones[i]
        if _size(current) >= MAX_STACK:
            raise ValueError(f"cannot place a checker on {zone}: it already holds {MAX_STACK}, the most a zone takes")
        self._zones[i] = _with(current, colour, +1)
        self._hand[colour] -= 1
        self._changed()

    def move(self, from_zone: Zone, to_zone: Zone, colour: Checker) -> None:
        """Lift from ``from_zone`` and place on ``to_zone`` in one instant (two changes, one sensor sample)."""
        self.lift(from_zone, colour)
        try:
            self.place(to_zone, colour)
        except ValueError:
            self.place(from_zone, colour)
            raise

    def hover(self, zones: Iterable[Zone]) -> None:
        """A hand now covers exactly ``zones`` (replacing any earlier hover)."""
        covered = frozenset(check_zone(z) for z in zones)
        if covered != self._hovered:
            self._hovered = covered
            self._changed()

    def unhover(self) -> None:
        """The hand leaves the board."""
        self.hover(())

    def knock_over(self, zone: Zone, rng: random.Random) -> list[tuple[Checker, Zone]]:
        """A stack on a point falls: 1 to all of its checkers spill onto the points beside it; returns (colour, where) per checker."""
        i = ZONE_INDEX[check_zone(zone)]
        beside = _NEIGHBOURS.get(zone, ())
        if not beside:
            raise ValueError(f"cannot knock over {zone}: only a stack on a point (1-12, I-XII) can fall")
        current = self._zones[i]
        total = current.white + current.black
        if total == 0:
            raise ValueError(f"cannot knock over {zone}: it holds no checker")
        spilled: list[tuple[Checker, Zone]] = []
        for _ in range(rng.randint(1, total)):
            colour = WHITE if rng.randrange(current.white + current.black) < current.white else BLACK
            room = [z for z in beside if _size(self._zones[ZONE_INDEX[z]]) < MAX_STACK]
            if not room:
                break
            target = rng.choice(room)
            current = _with(current, colour, -1)
            t = ZONE_INDEX[target]
            self._zones[t] = _with(self._zones[t], colour, +1)
            spilled.append((colour, target))
        self._zones[i] = current
        self._changed()
        return spilled

    def set_zones(self, zones: Mapping[Zone, ZoneReading | tuple[int, int]], *, reset: bool = True) -> None:
        """Set up checkers: ``{zone: ZoneReading or (white, black)}``; with ``reset`` other zones and the hand empty first."""
        new = [reading(0, 0)] * len(ZONES) if reset else list(self._zones)
        for zone, value in zones.items():
            r = value if isinstance(value, ZoneReading) else ZoneReading(*value)
            if r.white + r.black > MAX_STACK:
                raise ValueError(f"cannot set {zone} to {r.white} white and {r.black} black: a zone holds at most {MAX_STACK}")
            new[ZONE_INDEX[check_zone(zone)]] = reading(r.white, r.black)
        self._zones = new
        if reset:
            self._hand = {WHITE: 0, BLACK: 0}
        self._changed()


def _size(r: ZoneReading) -> int:
    """How many checkers, of either colour."""
    return r.white + r.black
