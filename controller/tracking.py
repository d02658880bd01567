"""Tracking: what a board snapshot means for the turn under way.

Every settled snapshot is read into counts per colour in own-point numbering and matched
against the boards the turn may legally pass through (``TurnMap``).  It is either a legal
state (the start, any prefix, or a complete play, in whatever order the checkers moved), a
transient a hand explains (checkers held, a hit checker not yet carried to the bar, zones
hidden under a hand), or wrong.  Only a wrong board that stands for the grace time is
warned about; that is the controller's business, not this module's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from itertools import combinations, combinations_with_replacement

from hal.interfaces import BoardSnapshot, ZoneReading
from hal.zones import TRAY, WAITING, Checker, Zone

from .rules import state as st
from .rules.base import RuleSet
from .rules.geometry import Geometry
from .rules.turn import TurnMap
from .rules.values import BAR, CHECKERS, OFF, Colour, Move, Position

MAX_ENUMERATED_IN_HAND = 2
"""Checkers in hand tried zone by zone; more are matched by a slower scan."""


def checker_of(colour: Colour) -> Checker:
    """The sensors' name for a colour."""
    return Checker(colour.value)


class Fault(Enum):
    """Why a snapshot cannot be a board of this game at all."""

    TOO_MANY = "too many checkers"
    MIXED = "two colours on one point"
    OVERFULL = "more than 15 checkers in one zone"


@dataclass(frozen=True, slots=True)
class BoardReading:
    """A snapshot in the game's terms: counts per colour in own numbering, and what is odd."""

    white: tuple[int, ...]
    black: tuple[int, ...]
    unreadable: tuple[Zone, ...] = ()
    mixed: tuple[Zone, ...] = ()
    overfull: tuple[Zone, ...] = ()

    def side(self, colour: Colour) -> tuple[int, ...]:
        """The 26 counts of ``colour`` (index 0 off, 25 bar or pool)."""
        return self.white if colour.value == "white" else self.black

    def visible(self, colour: Colour) -> int:
        """How many checkers of ``colour`` the sensors see."""
        return sum(self.side(colour))


class BoardReader:
    """Turns snapshots into counts per colour, through the board geometry of a rule set."""

    def __init__(self, rules: RuleSet, geometry: Geometry) -> None:
        self.rules = rules
        self.geometry = geometry
        self._own: dict[Zone, dict[Colour, int]] = {}
        for colour in Colour:
            checker = checker_of(colour)
            for point in range(1, 25):
                self._own.setdefault(geometry.line(colour, point), {})[colour] = point
            self._own.setdefault(WAITING[checker], {})[colour] = BAR
            self._own.setdefault(TRAY[checker], {})[colour] = OFF

    def read(self, snapshot: BoardSnapshot) -> BoardReading:
        """Counts per colour; unreadable zones count as empty and are listed."""
        sides = {colour: [0] * 26 for colour in Colour}
        unreadable: list[Zone] = []
        mixed: list[Zone] = []
        overfull: list[Zone] = []
        for zone, reading in snapshot.as_dict().items():
            if reading is None:
                unreadable.append(zone)
                continue
            if reading.white and reading.black:
                mixed.append(zone)
            for colour in Colour:
                count = reading.count(checker_of(colour))
                if not count:
                    continue
                point = self._own[zone].get(colour)
                if point is None:  # a checker in the other colour's bar or tray
                    mixed.append(zone)
                    continue
                if count > CHECKERS:
                    overfull.append(zone)
                    count = CHECKERS
                sides[colour][point] += count
        white, black = (tuple(sides[c]) for c in (Colour.WHITE, Colour.BLACK))
        return BoardReading(white, black, tuple(unreadable), tuple(mixed), tuple(overfull))

    def snapshot_of(self, position: Position) -> BoardSnapshot:
        """The snapshot a board holding exactly ``position`` gives (for setting up and tests)."""
        zones: dict[Zone, list[int]] = {}
        for colour in Colour:
            side = position.side(colour)
            for point in range(26):
                if side[point]:
                    counts = zones.setdefault(self.zone_of(colour, point), [0, 0])
                    counts[0 if colour is Colour.WHITE else 1] += side[point]
        return BoardSnapshot.from_zones({zone: ZoneReading(w, b) for zone, (w, b) in zones.items()})

    def position_reading(self, position: Position) -> BoardReading:
        """The reading a board holding exactly ``position`` gives."""
        return BoardReading(position.white, position.black)

    def zone_of(self, colour: Colour, point: int) -> Zone:
        """The zone where ``colour``'s own point (or bar 25, off 0) lies."""
        checker = checker_of(colour)
        if point == BAR:
            return WAITING[checker]
        if point == OFF:
            return TRAY[checker]
        return self.geometry.line(colour, point)

    def differing_zones(self, reading: BoardReading, target: BoardReading) -> dict[Zone, tuple[int, int]]:
        """Zones whose counts differ: ``{zone: (shown - wanted white, shown - wanted black)}``."""
        out: dict[Zone, tuple[int, int]] = {}
        for colour in Colour:
            have, want = reading.side(colour), target.side(colour)
            for point in range(26):
                if have[point] != want[point]:
                    zone = self.zone_of(colour, point)
                    white, black = out.get(zone, (0, 0))
                    delta = have[point] - want[point]
                    out[zone] = (white + delta, black) if colour is Colour.WHITE else (white, black + delta)
        return out


class StillMap:
    """The one legal board between turns: the position itself (nothing may move)."""

    def __init__(self, rules: RuleSet, position: Position) -> None:
        self.rules = rules
        self.mover = position.turn
        self.start = rules._pack(position)

    def key_of(self, mover: tuple[int, ...], opponent: tuple[int, ...]) -> int:
        """The packed key of a board showing these counts."""
        return st.pack(tuple(mover), tuple(opponent), self.rules.MIRRORED)

    def __contains__(self, key: int) -> bool:
        return key == self.start

    def is_complete(self, key: int) -> bool:
        """Between turns the position itself is the only complete board."""
        return key == self.start

    def states(self) -> tuple[int, ...]:
        """The one legal key."""
        return (self.start,)

    def next_moves(self, key: int) -> tuple[Move, ...]:
        """Nothing may move between turns."""
        return ()

    def remaining_dice(self, key: int) -> tuple[int, ...]:
        """No dice are in play between turns."""
        return ()


class Kind(Enum):
    """What a snapshot shows."""

    LEGAL = "legal"  # a legal state of the turn, play not complete
    COMPLETE = "complete"  # a complete legal play
    IN_HAND = "in hand"  # a legal state with checkers lifted
    HIT_PENDING = "hit pending"  # a hit checker still on its point or in a hand
    HIDDEN = "hidden"  # zones unreadable under a hand
    WRONG = "wrong"  # no legal state explains it


@dataclass(frozen=True, slots=True)
class Verdict:
    """The tracker's judgement of one snapshot.

    ``key`` is the legal state matched (for a transient, the state the hand is making or
    unmaking); ``lifted`` the own points of the mover from which checkers are held;
    ``hits`` the mover's points where a hit checker still waits to be carried away.
    """

    kind: Kind
    key: int | None = None
    lifted: tuple[int, ...] = ()
    hits: tuple[int, ...] = ()
    fault: Fault | None = None
    ahead: Move | None = None
    """For a blot taken off before the hitting checker arrives: the hitting move expected."""

    @property
    def is_legal(self) -> bool:
        """A legal state of the turn, complete or not."""
        return self.kind in (Kind.LEGAL, Kind.COMPLETE)


class Tracker:
    """Matches board readings against the legal states of one turn."""

    def __init__(self, turn_map: TurnMap | StillMap) -> None:
        self.map = turn_map
        self.mover = turn_map.mover

    def _dice_left(self, key: int) -> int:
        """How many dice are still to play on the way to ``key`` (0 between turns)."""
        return len(self.map.remaining_dice(key))

    def key(self, reading: BoardReading) -> int:
        """The packed key of a reading (counts above 15 are clipped: they are faults anyway)."""
        mover = reading.side(self.mover)
        opponent = reading.side(self.mover.opponent)
        return self.map.key_of(mover, opponent)

    def judge(self, reading: BoardReading, last_legal: int | None = None) -> Verdict:
        """What this reading shows; ``last_legal`` helps name the point a checker was lifted from."""
        turn_map = self.map
        if reading.unreadable:
            return Verdict(Kind.HIDDEN)
        if reading.overfull:
            return Verdict(Kind.WRONG, fault=Fault.OVERFULL)
        mover_missing = CHECKERS - reading.visible(self.mover)
        opponent_missing = CHECKERS - reading.visible(self.mover.opponent)
        if mover_missing < 0 or opponent_missing < 0:
            return Verdict(Kind.WRONG, fault=Fault.TOO_MANY)
        key = self.key(reading)
        if not mover_missing and not opponent_missing and not reading.mixed:
            if key in turn_map:
                return Verdict(Kind.COMPLETE if turn_map.is_complete(key) else Kind.LEGAL, key)
            return self._hit_ahead(key, 0, 0) or Verdict(Kind.WRONG)
        # a hit checker still standing on the point the mover took
        mover_side = reading.side(self.mover)
        opponent_mine = [(key >> st.SHIFT[st.OPP + p]) & 15 for p in range(25)]
        hit_points = tuple(p for p in range(1, 25) if mover_side[p] and opponent_mine[p] == 1)
        if len(hit_points) > 0:
            for chosen in _subsets(hit_points):
                moved = key
                for p in chosen:
                    moved += st.OPP_BAR_UNIT - st.UNIT[st.OPP + p]
                found = self._with_hand(moved, mover_missing, opponent_missing, last_legal)
                if found is not None:
                    return Verdict(Kind.HIT_PENDING, found[0], found[1], chosen)
        if reading.mixed:
            return Verdict(Kind.WRONG, fault=Fault.MIXED)
        ahead = self._hit_ahead(key, mover_missing, opponent_missing)
        if ahead is not None:
            return ahead
        found = self._with_hand(key, mover_missing, opponent_missing, last_legal)
        if found is not None:
            # an opposing checker missing is a hit checker in a hand, on its way to the bar
            return Verdict(Kind.HIT_PENDING if opponent_missing else Kind.IN_HAND, found[0], found[1])
        return Verdict(Kind.WRONG)

    def _hit_ahead(self, key: int, mover_missing: int, opponent_missing: int) -> Verdict | None:
        """A blot taken off (in a hand or on its bar) before the checker that hits it arrives.

        The board is then a legal state with one opposing checker moved to its bar, and a
        next move of that state hits there (the hitter still on its point, or in the hand).
        Any legal state qualifies, not only the last one seen: a move made while zones
        were hidden is not missed.
        """
        if mover_missing > 1:
            return None
        turn_map = self.map
        base = key + st.OPP_BAR_UNIT * opponent_missing
        bar = st.SHIFT[st.OPP + BAR]
        if (base >> bar) & 15 <= (turn_map.start >> bar) & 15:
            return None  # no opposing checker has gone to its bar this turn
        fields: tuple[int | None, ...] = (None,) if not mover_missing else tuple(range(26))
        for point in range(1, 25):
            if (base >> st.SHIFT[st.OPP + point]) & 15 or (base >> st.SHIFT[point]) & 15:
                continue  # the blot's point is empty until the hitter arrives
            before = base - st.OPP_BAR_UNIT + st.UNIT[st.OPP + point]
            for field in fields:
                legal = before if field is None else before + st.UNIT[field]
                if legal not in turn_map:
                    continue
                for move in turn_map.next_moves(legal):
                    if move.hit and move.to == point and (field is None or move.frm == field):
                        # while the blot is still in a hand it must go to its bar; then the hitter comes
                        expected = None if opponent_missing else move
                        lifted = () if field is None else (field,)
                        return Verdict(Kind.HIT_PENDING, legal, lifted, (point,), ahead=expected)
        return None

    def _with_hand(
        self, key: int, mover_missing: int, opponent_missing: int, last_legal: int | None
    ) -> tuple[int, tuple[int, ...]] | None:
        """A legal key this board reaches when the checkers in hand are put down, and the
        points they were lifted from (as seen against ``last_legal``)."""
        turn_map = self.map
        if opponent_missing:
            # only a hit checker on its way to the bar may be in a hand
            key += st.OPP_BAR_UNIT * opponent_missing
        if not mover_missing:
            return (key, ()) if key in turn_map else None
        if mover_missing <= MAX_ENUMERATED_IN_HAND:
            fields = range(26)
            matches = []
            for places in combinations_with_replacement(fields, mover_missing):
                candidate = key
                for field in places:
                    candidate += st.UNIT[field]
                if candidate in turn_map:
                    matches.append(candidate)
                    if candidate == last_legal:
                        break
            if not matches:
                return None
            # the board nearest the last legal one: the fewest dice used since
            best = last_legal if last_legal in matches else max(matches, key=self._dice_left)
        else:
            best = next((k for k in turn_map.states() if _covers(k, key)), None)
            if best is None:
                return None
        return best, _lifted(best, key)


def _subsets(points: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every non-empty subset of ``points``, largest first."""
    out: list[tuple[int, ...]] = []
    for size in range(len(points), 0, -1):
        out.extend(combinations(points, size))
    return out


def _covers(big: int, small: int) -> bool:
    """Every mover count of ``small`` is at most that of ``big``; opponent counts equal."""
    for field in range(26):
        if (small >> st.SHIFT[field]) & 15 > (big >> st.SHIFT[field]) & 15:
            return False
    return (big >> st.SHIFT[st.OPP]) == (small >> st.SHIFT[st.OPP])


def _lifted(full: int, shown: int) -> tuple[int, ...]:
    """The mover's points where ``full`` has more checkers than ``shown``."""
    out: list[int] = []
    for field in range(26):
        extra = ((full >> st.SHIFT[field]) & 15) - ((shown >> st.SHIFT[field]) & 15)
        out.extend([field] * max(extra, 0))
    return tuple(out)
