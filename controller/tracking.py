"""Tracking: what a board snapshot means for the turn under way.

Every settled snapshot is read into counts per colour in own-point numbering and matched
against the boards the turn may legally pass through (``TurnMap``).  It is either a legal
state (the start, any prefix, or a complete play, in whatever order the checkers moved), a
transient a hand explains (checkers held, a hit checker not yet carried to the bar, zones
hidden under a hand), or wrong.  Only a wrong board that stands for the grace time is
warned about; that is the controller's business, not this module's.
"""

from __future__ import annotations

import functools
from collections import deque

from dataclasses import dataclass, replace
from enum import Enum

from hal.interfaces import BoardSnapshot, ZoneReading
from hal.zones import TRAY, WAITING, ZONES, Checker, Zone

from .rules.base import RuleSet
from .rules.geometry import Geometry
from .rules.complete_boards import covers
from .rules.reach import MOVER, Explanation, Reach
from .rules.state import OPP, count, mask
from .rules.turn import TurnMap
from .rules.values import BAR, CHECKERS, OFF, Colour, Move, Position

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
    """Points holding checkers of both colours (a hit checker not yet carried away)."""
    overfull: tuple[Zone, ...] = ()
    foreign: tuple[Zone, ...] = ()
    """A colour's bar or tray holding the other colour's checkers."""
    hidden_white: tuple[int, ...] = ()
    """White's own points (0 off, 25 bar) in the unreadable zones."""
    hidden_black: tuple[int, ...] = ()

    def side(self, colour: Colour) -> tuple[int, ...]:
        """The 26 counts of ``colour`` (index 0 off, 25 bar or pool)."""
        return self.white if colour.value == "white" else self.black

    def hidden(self, colour: Colour) -> tuple[int, ...]:
        """``colour``'s own points in the unreadable zones (their counts read as 0)."""
        return self.hidden_white if colour.value == "white" else self.hidden_black

    def visible(self, colour: Colour) -> int:
        """How many checkers of ``colour`` the sensors see."""
        return sum(self.side(colour))

    def off_points(self, colour: Colour) -> int:
        """How many checkers of ``colour`` are off the points: on the bar or pool, or not seen
        at all (in a hand)."""
        side = self.side(colour)
        return side[BAR] + max(CHECKERS - sum(side), 0)


class BoardReader:
    """Turns snapshots into counts per colour, through the board geometry of a rule set."""

    def __init__(self, rules: RuleSet, geometry: Geometry) -> None:
        self.rules = rules
        self.geometry = geometry
        self._own: dict[Zone, dict[Colour, int]] = {}
        self._points = frozenset(geometry.line(colour, point) for colour in Colour for point in range(1, 25))
        for colour in Colour:
            checker = checker_of(colour)
            for point in range(1, 25):
                self._own.setdefault(geometry.line(colour, point), {})[colour] = point
            self._own.setdefault(WAITING[checker], {})[colour] = BAR
            self._own.setdefault(TRAY[checker], {})[colour] = OFF
        self._zones = {colour: tuple(self._zone_of(colour, point) for point in range(26)) for colour in Colour}
        """Each colour's own point (0 off .. 25 bar) -> zone, looked up on every light frame."""
        self._table = tuple((zone, self._own[zone].get(Colour.WHITE), self._own[zone].get(Colour.BLACK),
                             zone in self._points) for zone in ZONES)
        """Per zone, in snapshot order: (zone, White's own point or None, Black's, is a point),
        so that reading a snapshot (every event) is one pass with no look-ups."""

    def read(self, snapshot: BoardSnapshot) -> BoardReading:
        """Counts per colour; unreadable zones count as empty and are listed."""
        white = [0] * 26
        black = [0] * 26
        unreadable: list[Zone] = []
        mixed: list[Zone] = []
        overfull: list[Zone] = []
        foreign: list[Zone] = []
        hidden_white: list[int] = []
        hidden_black: list[int] = []
        for (zone, white_point, black_point, is_point), reading in zip(self._table, snapshot.readings):
            if reading is None:
                unreadable.append(zone)
                if white_point is not None:
                    hidden_white.append(white_point)
                if black_point is not None:
                    hidden_black.append(black_point)
                continue
            w, b = reading.white, reading.black
            if not (w or b):
                continue
            if w and b and is_point:
                mixed.append(zone)
            for count, point, side in ((w, white_point, white), (b, black_point, black)):
                if not count:
                    continue
                if point is None:  # a checker in the other colour's bar or tray
                    foreign.append(zone)
                    continue
                if count > CHECKERS:
                    overfull.append(zone)
                    count = CHECKERS
                side[point] += count
        return BoardReading(tuple(white), tuple(black), tuple(unreadable), tuple(mixed), tuple(overfull), tuple(foreign),
                            tuple(hidden_white), tuple(hidden_black))

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
        return self._zones[colour][point]

    def _zone_of(self, colour: Colour, point: int) -> Zone:
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
        self.start = rules.board_key(position)

    def key_of(self, mover: tuple[int, ...], opponent: tuple[int, ...]) -> int:
        """The packed key of a board showing these counts."""
        return self.rules.key_of(mover, opponent)

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

    def next_keys(self, key: int) -> tuple[int, ...]:
        """Nothing follows the position between turns."""
        return ()

    def destinations(self, key: int, frm: int) -> tuple[int, ...]:
        """No checker may go anywhere between turns."""
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


RECENT_REACHES = 32
"""Turn maps whose ``Reach`` is kept for the next tracker of the same map (a map is a pure
function of its turn: ``rules.turn.turn_map`` keeps the last few maps; a tracker keeps its
own).  Bounded: a Reach refers to its map, so a weak mapping would never let either go."""
_REACHES: dict[TurnMap | StillMap, Reach] = {}


HIDDEN_KEPT = 8
"""Boards partly hidden kept for ``Tracker.side_seen`` (the most recent)."""
MARKS_KEPT = 16
"""What the tracker knew before each of the last boards judged with no roll held
(``Tracker.rewind``: a roll read late landed before some of them)."""


@dataclass(frozen=True, slots=True)
class _Memory:
    """What a tracker knew of the boards judged so far (``Tracker.remember``)."""

    complete_seen: int | None
    lifted_seen: tuple[int, tuple[int, ...]] | None
    side_seen: int | None
    hidden: tuple[BoardReading, ...]
    complete_after: int | None
    shown: OpponentShown


@dataclass(slots=True)
class OpponentShown:
    """What the boards one turn's tracker judged showed of the opponent's checkers: the
    evidence a held roll's search weighs (``controller.held_evidence``) of which blots the
    mover's play hit, kept apart from the matching of boards to the turn's states."""

    bar_seen: int = 0
    """The most of the opponent's checkers the bar (or pool) has shown in a reading judged
    (a blot hit in passing seen on its way, even while other zones were hidden)."""
    bar_unmoved: int = 0
    """The most of the opponent's checkers the bar (or pool) has shown on a board where the
    opponent had put none on a point (only taken some off): a blot hit late, after the
    next roll, shows there before its owner moves on (``controller.held``)."""
    hit_bar: int = 0
    """The most of the opponent's checkers the bar (or pool) has shown before the mover
    rolled again (only the mover's play puts them there until then: its hits, seen)."""
    off_seen: int = 0
    """The most of the opponent's checkers a whole reading has shown off their points (on
    the bar or pool, or missing: in a hand) before their roll, the blots of two hits seen
    one at a time (after it, their own hand may hold one)."""
    before_roll: int | None = None
    """The last whole board judged before the next player's roll: a blot it shows on its
    point was hit, if at all, after it, and no board could show it off before the roll."""

    def note_bar(self, side: tuple[int, ...], start: tuple[int, ...] | None, mover_rolled: bool) -> None:
        """The opponent's counts ``side`` on a board judged (``start``: its counts when the
        turn began, None between turns; ``mover_rolled``: the mover's next roll is held)."""
        on_bar = side[BAR]
        self.bar_seen = max(self.bar_seen, on_bar)
        if on_bar > self.bar_unmoved and start is not None and all(
                now <= then for now, then in zip(side[1:BAR], start[1:BAR])):
            self.bar_unmoved = on_bar
        if not mover_rolled:
            self.hit_bar = max(self.hit_bar, on_bar)


class Tracker:
    """Matches board readings against the legal states of one turn."""

    def __init__(self, turn_map: TurnMap | StillMap) -> None:
        self.map = turn_map
        self.mover = turn_map.mover
        self._reach: Reach | None = None
        self.kept: dict[object, object] = {}
        """What ``controller.held`` found for this turn (the turns that may follow it)."""
        self.complete_seen: int | None = None
        """The complete board this turn's tracker last judged (the play the board last showed,
        whole or with a blot it hit still on its way)."""
        self.lifted_seen: tuple[int, tuple[int, ...]] | None = None
        """The state a hand was last seen at work on and the mover's points it held checkers
        from (cleared by a legal board): a play never shown complete is more likely the one
        that moves them (``lifted_evidence``)."""
        self._side_seen: int | None = None
        self._hidden: list[BoardReading] = []
        """The boards partly hidden since (the last few; ``side_seen`` reads them when asked)."""
        self.shown = OpponentShown()
        """What the boards judged showed of the opponent's checkers (a held roll's evidence)."""
        self.complete_after: int | None = None
        """The first complete board with a checker of the mover in a hand judged after the
        mover rolled again: weaker than ``complete_seen`` (its hand may be at its next play,
        and the more of it is done, the likelier the board reads as another play), tried
        first only when no board before told (``controller.held``)."""
        self.run_seen: int | None = None
        """The mover's complete board that began the run of turns last found to explain a
        board (``controller.held``): the next board, a hand still at work, tries it first."""
        self._marks: deque[tuple[float, _Memory]] = deque(maxlen=MARKS_KEPT)

    @property
    def side_seen(self) -> int | None:
        """The mover's side (``MOVER`` bits) of a complete play, last seen whole on a board
        wrong only on the opponent's side (the next player's hand already at work, or
        knocking checkers over), or on a board partly hidden whose readable zones fit that
        side alone (a dropout, a hand over a zone): a play never shown complete is more
        likely that one.  Worked out from a hidden board only when asked (a held roll's
        search), not on every snapshot."""
        if self._hidden:
            for reading in self._hidden:
                sides = self.reach.complete.sides_fitting(self.key(reading), mask(reading.hidden(self.mover)))
                if len(sides) == 1:
                    self._side_seen = sides[0]
            self._hidden.clear()
        return self._side_seen

    @side_seen.setter
    def side_seen(self, side: int | None) -> None:
        self._side_seen = side
        self._hidden.clear()

    def remember(self, time: float) -> None:
        """Before judging a board read at ``time`` with no roll held: what the boards so far
        showed, for a roll found to have landed before it (``rewind``)."""
        self._marks.append((time, _Memory(self.complete_seen, self.lifted_seen, self._side_seen,
                                          tuple(self._hidden), self.complete_after, replace(self.shown))))

    def rewind(self, since: float) -> bool:
        """The next roll landed at ``since`` and was read only after later boards (a serial
        link's delay): forget what they showed as boards before it (the complete board, the
        board before the roll, the opponent's checkers off their points); True when any
        was judged after ``since`` (then judge them again as boards after the roll)."""
        marks, self._marks = self._marks, deque(maxlen=MARKS_KEPT)
        for when, memory in marks:
            if when > since:
                self.complete_seen, self.lifted_seen = memory.complete_seen, memory.lifted_seen
                self._side_seen, self._hidden = memory.side_seen, list(memory.hidden)
                self.complete_after, self.shown = memory.complete_after, memory.shown
                return True
        return False

    @classmethod
    def following(cls, turn_map: TurnMap, searched: Tracker | None) -> Tracker:
        """A tracker for a turn begun by a held roll's search (``controller.held``): with
        the turns the search found after it and the run it found there, when ``searched`` is
        that search's tracker of this turn (its readings' evidence is not taken: the search
        judged them without knowing which rolls were held)."""
        tracker = cls(turn_map)
        if searched is not None and isinstance(searched.map, TurnMap) and (
                searched.map.start, searched.map.roll) == (turn_map.start, turn_map.roll):
            tracker.kept, tracker.run_seen = searched.kept, searched.run_seen
        return tracker

    @functools.cached_property
    def _start_opponent(self) -> tuple[int, ...]:
        """The opponent's counts when the turn began (own numbering)."""
        return self.map.sides_of(self.map.start)[1]  # type: ignore[union-attr]

    @property
    def reach(self) -> Reach:
        """The turn's states indexed to explain boards a hand makes (built when first needed,
        once per map: the trackers of one turn share it)."""
        if self._reach is None:
            found = _REACHES.get(self.map)
            if found is None:
                if len(_REACHES) >= RECENT_REACHES:
                    del _REACHES[next(iter(_REACHES))]  # the oldest
                found = _REACHES[self.map] = Reach(self.map)
            self._reach = found
        return self._reach

    def key(self, reading: BoardReading) -> int:
        """The packed key of a reading (counts above 15 are clipped: they are faults anyway)."""
        mover = reading.side(self.mover)
        opponent = reading.side(self.mover.opponent)
        return self.map.key_of(mover, opponent)

    def judge(self, reading: BoardReading, last_legal: int | None = None, opponent_rolled: bool = False,
              mover_rolled: bool = False) -> Verdict:
        """What this reading shows; among several explanations the one nearest
        ``last_legal`` (else the fewest dice used) is taken.  ``opponent_rolled``: the next
        player's roll is held (their hand may be at work: ``OpponentShown.off_seen`` counts
        only before); ``mover_rolled``: the mover's next roll is held too (its next play may
        hit and lift: ``OpponentShown.hit_bar`` and ``lifted_seen`` count only before)."""
        turn_map = self.map
        opponent = self.mover.opponent
        side = reading.side(opponent)
        shown = self.shown
        shown.note_bar(side, self._start_opponent if isinstance(turn_map, TurnMap) else None, mover_rolled)
        if reading.unreadable:
            if isinstance(turn_map, TurnMap) and reading.visible(self.mover) <= CHECKERS:
                if len(self._hidden) >= HIDDEN_KEPT:
                    del self._hidden[0]
                self._hidden.append(reading)  # a play that stood complete only while a zone was hidden
            return Verdict(Kind.HIDDEN)
        if not opponent_rolled:
            shown.off_seen = max(shown.off_seen, reading.off_points(opponent))
        if reading.overfull:
            return Verdict(Kind.WRONG, fault=Fault.OVERFULL)
        if reading.foreign:
            return Verdict(Kind.WRONG, fault=Fault.MIXED)
        if reading.visible(self.mover) > CHECKERS or reading.visible(self.mover.opponent) > CHECKERS:
            return Verdict(Kind.WRONG, fault=Fault.TOO_MANY)
        key = self.key(reading)
        if not opponent_rolled:
            shown.before_roll = key
        elif self._entered_since_roll(side) or self._sent_back_since_roll(reading):
            # more of the opponent's checkers on its points than before its roll: its hand put
            # them there (an entry from the bar, the pool or the hand that held a blot hit, or an
            # illegal move), never this turn's: the held search's runs explain the board, if
            # anything does (trictrac 1150534516: White's checker from the bar put on its own 1
            # point, where Black had hit it, stood four seconds unwarned as Black's hit still to
            # be carried away; rally-hitting 42600891, blots handed over at 5x);
            # and more of the mover's checkers there than before that roll: the next player's
            # hits, its blot taken off first (rally-hitting 1210236306 at a person's pace:
            # Black's pool/22 shown, White's hand took it off for its 4-3, "more must be
            # played" warned as Black's entry undone)
            return Verdict(Kind.WRONG)
        if key in turn_map:
            self.lifted_seen = self.side_seen = None
            if turn_map.is_complete(key):
                self.complete_seen = key
                return Verdict(Kind.COMPLETE, key)
            return Verdict(Kind.LEGAL, key)
        found = self.reach.explain(key, last_legal)
        if found is not None and mover_rolled and self.complete_seen is not None and (
                not turn_map.is_complete(found.key)
                or (found.early and not found.lifted and found.key != self.complete_seen)):
            # the play stood complete and the mover has rolled again: a board short of it is no
            # hand at work on this turn (an illegal move of the next looks so: rally-hitting
            # 1051031530, Black's 17 carried back to 23 read as pool/23 with two blots taken off
            # first, unwarned), nor is another play's hit whose hitter is still to come with
            # nothing in a hand (trictrac 1070332109, serial: Black's hitter carried on from
            # White's 9 to its 8 after both rolls, four seconds unwarned as a hitter to come);
            # the turns after it explain such a board, if anything does
            found = None
        if found is not None and opponent_rolled and self._lifted_after_roll(key):
            # the play stood done on the last board before the next player's roll (but for
            # checkers still in the hand), and a checker of the mover's standing there is gone:
            # no hand at work on this play lifts it after that roll (its hand only puts down
            # what it held); the next player's hand, hitting, or an illegal move of the next
            # player's does (trictrac 43101036, blots handed over at 5x: Black's 22 carried
            # back to 13, White's hitter in Black's hand, read as White's hitter lifted again,
            # four seconds unwarned; rally-hitting 399511986)
            found = None
        if found is None:
            if isinstance(turn_map, TurnMap) and self.reach.complete.completes_side(key):
                self.side_seen = key & MOVER
            return Verdict(Kind.WRONG, fault=Fault.MIXED if reading.mixed else None)
        if turn_map.is_complete(found.key) and not found.hit_pending:
            # the play shown whole, a hand lifting a checker it left: the next turn's, or a
            # change of mind; either way the board showed this play (not one moving that checker),
            # unless the mover has rolled again: its hand at its next play makes such boards of
            # other plays (11/9 with the next 2-1 and a checker lifted from 8: 10/8 read as 11/9)
            # (once the next player has rolled, its hand may hold that checker, a blot taken
            # off before its hitter, and its own checkers stand where its play put them: no
            # sign against the play the board showed before the roll, rally-hitting
            # 1070432113: bar/20*/19 shown, Black's bar/20 and 16 taken off first read as
            # bar/24/19 with White's 16 lifted)
            if not mover_rolled and not (opponent_rolled and self.complete_seen not in (None, found.key)):
                self.complete_seen = found.key
                self.lifted_seen = None
            elif self.complete_after is None:
                self.complete_after = found.key
        elif found.lifted and not mover_rolled:  # (once it has rolled again, its hand is at its next play)
            self.lifted_seen = (found.key, found.lifted)
        if not found.hit_pending:
            return Verdict(Kind.IN_HAND, found.key, found.lifted)
        ahead = None if found.blots_in_hand else self._hitter(found)
        if not found.lifted and turn_map.is_complete(found.key) and not (
                opponent_rolled and found.blots_in_hand and shown.bar_seen <= count(turn_map.start, OPP + BAR)):
            # the play shown, a blot on its way (not one in a hand once its owner has rolled,
            # the bar never showing any hit: more likely its owner's hand at its own turn)
            self.complete_seen = found.key
        return Verdict(Kind.HIT_PENDING, found.key, found.lifted, found.waiting + found.early, ahead=ahead)

    def _lifted_after_roll(self, key: int) -> bool:
        """Is a checker of the mover's gone from where the last board before the next player's
        roll showed it, the play done on that board but for checkers in a hand?"""
        before = self.shown.before_roll
        return (before is not None and not covers(key & MOVER, before & MOVER)
                and self.reach.complete.done_but_for_hand(before))

    def _entered_since_roll(self, side: tuple[int, ...]) -> bool:
        """Does the opponent's ``side`` show more of its checkers on its points than the last
        board before its roll (from the bar or pool, or from a hand that held a blot hit)?"""
        before = self.shown.before_roll
        if before is None or not isinstance(self.map, TurnMap):
            return False
        return sum(side[1:BAR]) > sum(self.map.sides_of(before)[1][1:BAR])

    def _sent_back_since_roll(self, reading: BoardReading) -> bool:
        """Does ``reading`` show more of the mover's checkers on its bar or pool than the last
        board before the next player's roll?"""
        before = self.shown.before_roll
        return before is not None and reading.side(self.mover)[BAR] > count(before, BAR)

    def seen_before_roll(self, key: int | None, off: int) -> None:
        """For a turn begun after the next roll (a held roll's catch-up): the last board of
        this turn before that roll (``key``; its start when the turn began after it) and the
        most of the opponent's checkers the boards of this turn before it showed off their
        points, as this tracker would have judged them."""
        self.shown.off_seen = max(self.shown.off_seen, off)
        if key is not None:
            self.shown.before_roll = key

    def short_of_play(self, reading: BoardReading) -> bool:
        """Do the mover's checkers on ``reading`` stand as at this turn's start or part way
        through its play (none in a hand), whatever the opponent's show?"""
        if reading.overfull or reading.foreign or not isinstance(self.map, TurnMap):
            return False
        return self.key(reading) & MOVER in self.map.short_sides()

    def lifted_evidence(self) -> tuple[tuple[int, int], ...]:
        """For the checkers last seen in a hand: each point they were held from, with the
        most checkers that stay there once they have moved on (worked out only when a held
        roll's search asks, not on every snapshot)."""
        if self.lifted_seen is None or not isinstance(self.map, TurnMap):
            return ()
        key, lifted = self.lifted_seen
        side = self.map.sides_of(key)[0]
        return tuple((point, side[point] - lifted.count(point)) for point in sorted(set(lifted)))

    def _hitter(self, found: Explanation) -> Move | None:
        """For a blot taken off before its hitter came: the checker that is to hit it, as a
        move from its point (a held checker's point first) to the blot's point."""
        if not found.early:
            return None
        target = found.early[0]
        sources = dict.fromkeys(found.lifted + tuple(m.frm for m in self.map.next_moves(found.key)))
        for frm in sources:
            if target in self.map.destinations(found.key, frm):
                return Move(frm, target, frm - target, True)
        return None
