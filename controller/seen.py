"""What the board has shown: its last snapshot, when each colour last left each point (none
of its checkers there, or the zone hidden, after a board with some), and the most of each
colour's checkers its bar or pool showed.

A blot hit and entered again on the very point it was hit from (7/3* then bar/22) leaves
the board as it was: counts alone cannot tell that from a blot never touched.  But a hit
takes the blot off its point, and the board posts every reading that stands a few scans:
a point seen holding its blot on every board since the roll was not hit in that turn (a
hidden zone counts as seen empty: it may have been).  Pure: the caller gives the times.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from hal.interfaces import BoardSnapshot
from hal.zones import WAITING

from .rules.values import BAR, CHECKERS, Colour
from .tracking import BoardReading, checker_of

_POINTS = range(1, BAR)
BAR_KEPT = 512
"""Boards whose bar or pool counts are kept (``bar_between``): a few dozen seconds of them."""
JUMP = 3
"""Zones changed at once (readable on both boards), beyond the checkers put down from hands,
that say boards went unseen between: a hand's lift or put-down changes one zone, and the
sensors post every board that stands."""


@dataclass(frozen=True, slots=True)
class HitsShown:
    """What the boards since a roll showed of blots hit: per colour (White's, Black's), its
    own points seen left (bit ``p`` for point ``p``: none of its checkers there, or hidden,
    after a board with some) and the counts its bar or pool rose above (bit ``n``: a board
    showed ``n`` or fewer there, a later one more).  A blot hit was seen one way or the other."""

    left: tuple[int, int]
    rose: tuple[int, int]
    jumped: bool = False
    """A board showed ``JUMP`` or more zones changed at once: boards went unseen between,
    and a blot may have come and gone in them (quick hands), so every hit may have been."""
    put_unseen: tuple[int, int] = (0, 0)
    """Per colour, when a board showed more of its checkers in a hand (neither on a point, its
    bar or pool nor off) than the board standing at the time: its points no board since showed
    holding any (bit ``p``).  It moved, and a checker of its play put down there and hit
    between two boards was never seen (backgammon 1860155804, blots handed over at 3x:
    White's 13/7 put down and hit by Black's 24/18* within 0.3 s, the hit refused and the
    game lost); a blot seen standing was not hit unseen."""
    bar_at: tuple[int, int] = (0, 0)
    """Per colour, its bar or pool's count on the board standing at the time."""

    def hit_seen(self, colour: Colour, point: int, bar: int) -> bool:
        """Was a blot of ``colour`` hit on its ``point``, its bar or pool holding ``bar`` before,
        seen (or may it have been): its point left, its bar or pool rising above ``bar``, or
        a blot put down there and hit between two boards (``put_unseen``)?"""
        i = 0 if colour is Colour.WHITE else 1
        # (not a checker the run entered from its bar or pool, hit back unseen: a board no
        # different at all, as the hands putting every lifted checker back make it)
        unseen = self.put_unseen[i] if bar >= self.bar_at[i] else 0
        return bool(self.jumped or (self.left[i] | unseen) >> point & 1 or self.rose[i] >> bar & 1)

    def hits_seen(self, colour: Colour, before: tuple[int, ...], after: tuple[int, ...], under: int = 0) -> bool:
        """Was every blot of ``colour`` that a play taking its side from ``before`` to ``after``
        (26 counts each) hit seen, or may it have been (``hit_seen``)?  ``under``: its points
        (bit ``p``) the board shows a blot on under its hitter, a hit under way seen."""
        return all(under >> point & 1 or self.hit_seen(colour, point, before[BAR])
                   for point in range(1, BAR) if after[point] < before[point])


class Seen:
    """The last snapshot, and the last time each colour's points 1-24 showed none of its
    checkers (or were hidden) after a board that showed some there."""

    def __init__(self) -> None:
        self.snapshot: BoardSnapshot | None = None
        self._vacated: dict[Colour, list[float]] = {colour: [-math.inf] * (BAR + 1) for colour in Colour}
        self._emptied: dict[Colour, list[float]] = {colour: [-math.inf] * (BAR + 1) for colour in Colour}
        """Per colour and point, the last time a board read that point empty of its checkers
        (its zone not hidden) after one that showed some there."""
        self._shown: dict[Colour, list[float]] = {colour: [-math.inf] * (BAR + 1) for colour in Colour}
        """Per colour and point, the last time a board showed some of its checkers there."""
        self._held: dict[Colour, list[int]] = {colour: [0] * (BAR + 1) for colour in Colour}
        """Each colour's counts on the last board (a point vacated is one that held some)."""
        self._read: dict[Colour, list[int]] = {colour: [0] * (BAR + 1) for colour in Colour}
        """Each colour's counts where a board last read them (a hidden zone keeps its last):
        a point read empty after some was emptied, whatever dropouts came between."""
        self._on_bar: dict[Colour, list[float]] = {colour: [-math.inf] * (CHECKERS + 1) for colour in Colour}
        """Per colour, for n = 0..15: the last time its bar or pool showed n or more (or was
        hidden with as many of its checkers unseen elsewhere)."""
        self._bar_boards: dict[Colour, deque[tuple[float, int, int, bool]]] = {
            colour: deque(maxlen=BAR_KEPT) for colour in Colour}
        """Per colour, the recent boards' times with its bar or pool's count (when hidden, the
        most it may hold) and its checkers off their points (bar or pool, or a hand; -1 when a zone was hidden:
        not read, as ``OpponentShown.off_seen`` reads only whole boards)."""
        self._whole: deque[tuple[float, BoardReading]] = deque(maxlen=BAR_KEPT)
        """The recent whole boards (no zone hidden) with their times."""
        self._jumped = -math.inf
        """The last time a board showed ``JUMP`` or more zones changed from the one before."""
        self._emptied_log: dict[Colour, deque[tuple[float, int, int, int]]] = {
            colour: deque(maxlen=BAR_KEPT) for colour in Colour}
        """Per colour, the recent boards that changed which of its points they read holding
        some: (time, emptied, filled, holding), bit p for point p (emptied: read empty after
        some; filled: read holding some after none or hidden; holding: every point read
        holding some, a hidden one not)."""

    def note(self, snapshot: BoardSnapshot, reading: BoardReading, time: float) -> None:
        """A snapshot read at ``time``: points empty (or unreadable) after holding a checker
        were left then; the bar's count (all, when hidden) was shown then."""
        previous, self.snapshot = self.snapshot, snapshot
        if previous is not None:
            both = [(before, now) for before, now in zip(previous.readings, snapshot.readings)
                    if before is not None and now is not None]
            changed = sum(1 for before, now in both if before != now)
            # (checkers put down from hands at once are no moves gone unseen: the stateful hands
            # test, rally-hitting, everything lifted put back in one board with White's 18/16,
            # read as White's 16/14 pool/22*, Black's 3-3 entering on 22 to hit back and White's
            # 1-1 hitting again, White's pool and Black's blot on 22 the same on every board)
            put_down = max(sum(now.white + now.black - before.white - before.black for before, now in both), 0)
            if changed - put_down >= JUMP:
                self._jumped = time
        for colour in Colour:
            vacated, held, side = self._vacated[colour], self._held[colour], reading.side(colour)
            read = self._read[colour]
            hidden = reading.hidden(colour)
            shown_at = self._shown[colour]
            emptied = filled = holding = 0
            for point in _POINTS:
                if side[point] and point not in hidden:
                    shown_at[point] = time
                    holding |= 1 << point
                    if not held[point]:
                        filled |= 1 << point
                if held[point] and not side[point]:  # left (or hidden) after holding one
                    vacated[point] = time
                if point not in hidden:
                    if read[point] and not side[point]:  # read empty after some (dropouts between or not)
                        self._emptied[colour][point] = time
                        emptied |= 1 << point
                    read[point] = side[point]
                held[point] = side[point]
            log = self._emptied_log[colour]
            if emptied or filled or holding != (log[-1][3] if log else 0):
                log.append((time, emptied, filled, holding))
            on_bar = self._on_bar[colour]
            # (hidden: as many as it may hold, every checker of the colour not seen elsewhere;
            # not 15, or a sensor dropout over a pool holding eleven makes any hit shown:
            # rally-hitting 1250537516 at a person's pace, Black's blot lifted after its roll
            # read as a second hit, the game lost)
            shown = (max(CHECKERS - reading.visible(colour), 0) if WAITING[checker_of(colour)] in reading.unreadable
                     else min(side[BAR], CHECKERS))
            for count in range(shown + 1):
                on_bar[count] = time
            off = -1 if reading.unreadable else min(reading.off_points(colour), CHECKERS)
            self._bar_boards[colour].append((time, shown, off, WAITING[checker_of(colour)] not in reading.unreadable))
        if not reading.unreadable:
            self._whole.append((time, reading))

    def jumped_since(self, since: float) -> bool:
        """Did a board since ``since`` show ``JUMP`` or more zones changed at once (beyond the
        checkers put down from hands): boards gone unseen between?"""
        return self._jumped >= since

    def left_unseen(self, colour: Colour, since: float, until: float = math.inf) -> tuple[int, ...]:
        """``colour``'s 26 counts with 1 on each point left since ``since``, before ``until``
        and no later than the last board that showed ``JUMP`` or more zones changed at once
        (0 elsewhere): a blot gone from there may have visited its bar or pool unseen."""
        vacated, jumped = self._vacated[colour], min(self._jumped, until)
        return tuple(1 if point in _POINTS and since <= vacated[point] <= jumped else 0 for point in range(BAR + 1))

    def hits_shown(self, since: float) -> HitsShown:
        """What the boards since ``since`` showed of hits: each colour's points left, the
        counts its bar or pool rose above (from the board standing at ``since``; any, when
        the boards kept do not reach back), whether boards went unseen, and the points no
        board showed holding a colour's checkers once some were in a hand (``put_unseen``)."""
        left, rose, unseen, bar_at = [], [], [], []
        for colour in Colour:
            vacated, boards = self._vacated[colour], self._bar_boards[colour]
            left.append(sum(1 << point for point in _POINTS if vacated[point] >= since))
            if len(boards) == BAR_KEPT and boards[0][0] > since:
                rose.append((1 << CHECKERS + 1) - 1)
                unseen.append(0)
                bar_at.append(0)
                continue
            bits, lowest, in_hand, more, standing = 0, None, 0, False, 0
            for time, shown, off, _ in boards:
                if time <= since:
                    standing = shown
                if time > since and lowest is not None and shown > lowest:
                    bits |= (1 << shown) - (1 << lowest)  # it rose above lowest .. shown - 1
                lowest = shown if lowest is None or time <= since else min(lowest, shown)
                if off >= 0:  # (a board read whole: off its points less its bar or pool, in a hand)
                    if time <= since:
                        in_hand = off - shown
                    elif off - shown > in_hand:
                        more = True
            rose.append(bits)
            shown_at = self._shown[colour]
            unseen.append(sum(1 << point for point in _POINTS if shown_at[point] < since) if more else 0)
            bar_at.append(standing)
        return HitsShown((left[0], left[1]), (rose[0], rose[1]), self.jumped_since(since), (unseen[0], unseen[1]),
                         (bar_at[0], bar_at[1]))

    def bar_shown(self, colour: Colour, since: float) -> int:
        """The most of ``colour``'s checkers its bar or pool showed on a board since ``since``
        (when it was hidden, the most it may have held; 0 when no board came since)."""
        on_bar = self._on_bar[colour]
        return max((count for count in range(CHECKERS + 1) if on_bar[count] >= since), default=0)

    def bar_between(self, colour: Colour, since: float, until: float, read: bool = False) -> int:
        """The most of ``colour``'s checkers its bar or pool showed from ``since`` to ``until``:
        on the board standing at ``since`` and the boards after (the most it may have held
        when hidden; 15 when the boards kept do not reach back).  ``read``: only the boards
        that read it (a hidden bar or pool, a checker in a hand, shows no hit)."""
        boards = self._bar_boards[colour]
        if len(boards) == BAR_KEPT and boards[0][0] > since:
            return CHECKERS
        standing, most = 0, 0
        for time, shown, _, readable in boards:
            if read and not readable:
                continue
            if time <= since:
                standing = shown  # the board standing at ``since``, so far
            elif time <= until:
                most = max(most, shown)
        return max(standing, most)

    def reaches_back(self, since: float) -> bool:
        """Do the boards kept (their bar or pool counts) reach back to ``since``?"""
        boards = self._bar_boards[Colour.WHITE]
        return len(boards) < BAR_KEPT or boards[0][0] <= since

    def off_between(self, colour: Colour, since: float, until: float) -> int:
        """The most of ``colour``'s checkers the whole boards after ``since`` up to ``until``
        showed off their points (on the bar or pool, or in a hand; 0 with no whole board
        then, 15 when the boards kept do not reach back)."""
        boards = self._bar_boards[colour]
        if len(boards) == BAR_KEPT and boards[0][0] > since:
            return CHECKERS
        return max([0, *(off for when, _, off, _ in boards if since < when <= until)])  # (hidden: -1)

    def whole_between(self, since: float, until: float) -> Iterator[tuple[float, BoardReading]]:
        """The whole boards read after ``since`` up to ``until`` with their times, the latest
        first (none when the boards kept do not reach so far)."""
        for time, reading in reversed(self._whole):
            if time <= since:
                return
            if time <= until:
                yield time, reading

    def emptied_between(self, colour: Colour, since: float, until: float) -> int:
        """``colour``'s points (bit ``p``) a board from ``since`` to ``until`` read empty of its
        checkers after one with some (a hidden zone is not read), and no later board up to
        ``until`` showed holding some again; every point when the boards kept do not reach
        back."""
        log = self._emptied_log[colour]
        if len(log) == BAR_KEPT and log[0][0] > since:
            return sum(1 << point for point in _POINTS)
        bits = 0
        for time, emptied, filled, _ in log:
            if since <= time <= until:
                bits = (bits & ~filled) | emptied
        return bits

    def holding_through(self, colour: Colour, since: float, until: float) -> int:
        """``colour``'s points (bit ``p``) every board standing from ``since`` to ``until``
        read holding some of its checkers (a hidden one not); none when the boards kept do
        not reach back so far.  A blot of its standing there while its owner rolled next was
        not hit in the turn before: nobody but the owner puts it back, and not before rolling."""
        log = self._emptied_log[colour]
        if log and len(log) == BAR_KEPT and log[0][0] > since:
            return 0
        holding = -1
        for time, _, _, now in reversed(log):  # (the latest first: few boards since ``since``)
            if time > until:
                continue
            holding &= now
            if time <= since:
                return holding
        return 0  # no board standing at ``since``

    def never_emptied(self, colour: Colour, since: float) -> tuple[int, ...]:
        """``colour``'s 26 counts with 1 on each of its points 1-24 that no board since
        ``since`` read empty of its checkers after one with some (a hidden zone is not read)."""
        emptied = self._emptied[colour]
        return tuple(1 if point in _POINTS and emptied[point] < since else 0 for point in range(BAR + 1))

    def standing(self, colour: Colour, since: float) -> tuple[int, ...]:
        """``colour``'s 26 counts with 1 on each point the last board shows holding some of
        ``colour``'s checkers that no board since ``since`` showed left (none there, or
        hidden, after some), 0 elsewhere: a blot that came to its point since and stood there
        was not hit either, and a point no board since showed holding one proves nothing (a
        blot carried off before and back unseen: rally-hitting 1010030301)."""
        vacated, held = self._vacated[colour], self._held[colour]
        return tuple(1 if point in _POINTS and held[point] and vacated[point] < since else 0
                     for point in range(BAR + 1))
