"""Which legal state of a turn explains a board that a hand is in the middle of changing.

A hand makes boards no rule allows: checkers held in the air, a hit checker still standing
on the point its hitter took, a blot taken off before the hitter has arrived (by one die or
by several, past other points, with doubles, several blots at once).  Every such board is
still a legal state ``S`` of the turn seen through three kinds of difference, each a count
difference per zone, so none needs a search over subsets:

* the mover's side shows at most what ``S`` has on every point (the rest is in a hand);
* the opponent's side is the turn's start except for blots gone from their points (to the
  bar or pool, or into a hand), and those blots are hit on some way on from ``S``;
* a blot ``S`` has hit may still stand on its point (it waits to be carried away).

``Reach`` answers that with one pass of word-parallel compares over the turn's states,
nearest first (a few tenths of a millisecond for the largest turns), and is built lazily
the first time a board is not simply a legal state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Protocol

from . import state as st
from .complete_boards import FIELD_TOPS, CompleteBoards, covers
from .state import MOVER
from .values import BAR, CHECKERS

_OPP_POINTS = st.mask(range(st.OPP + 1, st.OPP + 25))
_OPP_OFF = st.mask([st.OPP])
_OPP_BAR = st.OPP + BAR
_OPP_LOW = st.low_bits(range(st.OPP + 1, st.OPP + 25))
"""The lowest bit of each opposing point's field: the shape of a set of blots."""


class States(Protocol):
    """What ``Reach`` needs of a turn: its legal boards and how they follow each other."""

    start: int

    def states(self) -> tuple[int, ...]:
        """Every legal board of the turn, the fewest dice used first."""
    def is_complete(self, key: int) -> bool: ...
    def remaining_dice(self, key: int) -> tuple[int, ...]: ...
    def next_keys(self, key: int) -> tuple[int, ...]: ...


@dataclass(frozen=True, slots=True)
class Explanation:
    """How a board is a legal state ``key`` of the turn in the middle of a hand's work.

    ``lifted``: the mover's points (25 bar) whose checkers are in a hand, one entry per
    checker; ``waiting``: points where a blot that ``key`` has hit still stands;
    ``early``: points whose blot is already gone though ``key`` has not hit it yet (its
    hitter is still to come); ``blots_in_hand``: hit blots held in a hand, not yet on
    their bar or pool.
    """

    key: int
    lifted: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()
    early: tuple[int, ...] = ()
    blots_in_hand: int = 0

    @property
    def hit_pending(self) -> bool:
        """A hit is under way: a blot waits on its point, is in a hand, or left early."""
        return bool(self.waiting or self.early or self.blots_in_hand)


def _exactly_one(fields: int, low: int) -> int:
    """The fields (marked by their lowest bits in ``low``) whose count is 1."""
    return fields & ~(fields >> 1 | fields >> 2 | fields >> 3) & low


def lone(key: int) -> int:
    """The opposing points of ``key`` holding exactly one checker (a blot set)."""
    return _exactly_one(key & _OPP_POINTS, _OPP_LOW)


def empty(key: int) -> int:
    """The opposing points of ``key`` with no opposing checker (a blot set)."""
    return _OPP_LOW & ~st.nonzero(key & _OPP_POINTS, _OPP_LOW)


def _points(blots: int) -> tuple[int, ...]:
    """The mover's points of a blot set (bits at the opposing fields' lowest bits)."""
    return tuple(p for p in range(1, 25) if blots >> st.SHIFT[st.OPP + p] & 1)


class Reach:
    """The legal states of one turn, indexed to explain boards a hand is changing."""

    def __init__(self, turn: States) -> None:
        self.turn = turn
        self.start = turn.start
        self._blots = lone(self.start)
        blots = self._blots
        self._order = [(key, key & MOVER, blots & empty(key)) for key in turn.states()]
        """The legal states nearest the start first (the fewest dice used), each with its
        mover side and the start's blots it has hit."""
        self._by_mover: dict[int, list[tuple[int, int, int]]] = {}
        for entry in self._order:
            self._by_mover.setdefault(entry[1], []).append(entry)
        self._can_hit: dict[tuple[int, int], bool] = {}
        self.complete = CompleteBoards(turn, self._order, self._by_mover)
        """The turn's complete boards, for the questions about where the play ends."""

    def explain(self, board: int, prefer: int | None = None) -> Explanation | None:
        """The legal state that explains ``board`` (a packed key of what the sensors show,
        counts that no position allows included): ``prefer`` (the last legal board) if it
        does, else the one nearest the start whose hits have all been made, else any; None
        when nothing does."""
        gone = self._blots_gone(board)
        if gone is None:
            return None
        early_bits, in_hand = gone
        mover = board & MOVER
        missing = CHECKERS - _count(mover)
        candidates: Iterable[tuple[int, int, int]]
        if not missing:
            candidates = self._by_mover.get(mover, [])
        else:  # the states whose mover side covers the board's (``covers``, written out: the
            # pass over every state is most of a judgement's time on the largest turns)
            candidates = (entry for entry in self._order
                          if not ((~entry[1] & mover) | (~(entry[1] ^ mover) & (entry[1] - mover))) & FIELD_TOPS)
        if prefer is not None and covers(prefer & MOVER, mover):
            hit = self._blots & empty(prefer)
            if self.can_hit(prefer, hit, early_bits & ~hit):
                return self._explanation(prefer, hit, board, early_bits, in_hand)
        # a board with every hit blot where its hitter has been beats one whose hitter is
        # still to come; searching the ways on for those hitters is the slow part, so last
        later = []
        for key, side, hit in candidates:
            if early_bits & ~hit:
                later.append((key, hit))
                continue
            key, hit = self._fewest_waiting(key, side, hit, early_bits)
            return self._explanation(key, hit, board, early_bits, in_hand)
        for key, hit in later:
            if self.can_hit(key, hit, early_bits & ~hit):
                return self._explanation(key, hit, board, early_bits, in_hand)
        return None

    def _fewest_waiting(self, key: int, side: int, hit: int, gone: int) -> tuple[int, int]:
        """Among the states with the mover's side ``side`` that explain the blots ``gone``,
        the one fewest of whose hit blots still stand (the nearest the start first): a blot
        the board shows on its point was passed, not hit, unless every way there hit it
        (9/8/2* over 9/3*/2* when only the blot on 2 is gone)."""
        waiting = (hit & ~gone).bit_count()
        if not waiting:
            return key, hit
        for other, _, other_hit in self._by_mover[side]:
            if gone & ~other_hit:
                continue
            standing = (other_hit & ~gone).bit_count()
            if standing < waiting:
                key, hit, waiting = other, other_hit, standing
                if not waiting:
                    break
        return key, hit

    def hits_standing(self, key: int, board: int) -> bool:
        """Does ``board`` show on its point a blot that legal state ``key`` has hit?"""
        return bool(self._hit_standing(key, board))

    def hits_moved(self, key: int, board: int, unseen: int) -> bool:
        """Has legal state ``key`` hit a blot that ``board`` shows neither back on its point
        (nor ``unseen`` lets have come back unseen) nor under the mover's checkers: one its
        owner may have moved away instead?"""
        both = (st.occupied(key) & st.occupied(board)) << st.SHIFT[st.OPP]
        return bool(self._blots & empty(key) & empty(board) & empty(unseen) & ~both)

    def hits_back(self, key: int, board: int, before: int) -> bool:
        """Does ``board`` show on their points only blots that legal state ``key`` has hit
        and ``before`` showed off them (come back since: entered on the point they were
        hit from)?"""
        standing = self._hit_standing(key, board)
        return bool(standing) and not standing & ~empty(before)

    def standing_hits(self, key: int, board: int) -> int:
        """How many blots that legal state ``key`` has hit ``board`` shows on their points."""
        return self._hit_standing(key, board).bit_count()

    def _hit_standing(self, key: int, board: int) -> int:
        return self._blots & empty(key) & ~empty(board)

    def may_still_hit(self, key: int) -> bool:
        """Is there a complete board with the mover's side of ``key`` that hits more blots
        (a checker carried past a blot, the blot not yet taken away)?"""
        complete = self.turn.is_complete
        hit = self._blots & empty(key)
        return any(
            other & ~hit and not hit & ~other and complete(other_key)
            for other_key, _, other in self._by_mover.get(key & MOVER, ())
        )

    def _blots_gone(self, board: int) -> tuple[int, int] | None:
        """The start's blots gone from their points (a blot set), and how many are in a
        hand; None when the opponent's side changed in any other way."""
        start = self.start
        if (board ^ start) & _OPP_OFF:
            return None
        changed = st.nonzero((start ^ board) & _OPP_POINTS, _OPP_LOW)
        gone = self._blots & empty(board)
        if changed & ~gone:
            return None
        arrived = ((board >> st.SHIFT[_OPP_BAR]) & st.NIBBLE) - ((start >> st.SHIFT[_OPP_BAR]) & st.NIBBLE)
        in_hand = gone.bit_count() - arrived
        if arrived < 0 or in_hand < 0:
            return None
        return gone, in_hand

    def _explanation(self, key: int, hit: int, board: int, gone: int, in_hand: int) -> Explanation:
        """``board`` as legal state ``key`` (which has hit the blots ``hit``) with checkers
        in hand and hits under way."""
        lifted: list[int] = []
        extra = (key & MOVER) - (board & MOVER)
        field = 0
        while extra:
            lifted.extend([field] * (extra & st.NIBBLE))
            extra >>= st.BITS
            field += 1
        return Explanation(key, tuple(lifted), _points(hit & ~gone), _points(gone & ~hit), in_hand)

    def can_hit(self, key: int, hit: int, need: int) -> bool:
        """Is there a way on from legal state ``key`` (which has hit ``hit``) that hits the
        blots ``need`` too?  A depth-first search, cut where the dice left cannot bring a
        checker onto each blot still to hit, with the answers kept for the turn."""
        if not need:
            return True
        known = self._can_hit.get((key, need))
        if known is not None:
            return known
        found = False
        if self._in_reach(key, need):
            for child in self.turn.next_keys(key):
                done = self._blots & empty(child)
                if self.can_hit(child, done, need & ~done):
                    found = True
                    break
        self._can_hit[(key, need)] = found
        return found

    def _in_reach(self, key: int, need: int) -> bool:
        """Can the dice still to play bring some checker onto every point of ``need``?"""
        dice = self.turn.remaining_dice(key)
        if need.bit_count() > len(dice):
            return False
        steps = _distances(dice)
        for point in _points(need):
            if not any(point + d <= BAR and (key >> st.SHIFT[point + d]) & st.NIBBLE for d in steps):
                return False
        return True


def _distances(dice: tuple[int, ...]) -> tuple[int, ...]:
    """How far one checker may go with some of ``dice`` (each partial sum, in any order)."""
    sums = {0}
    for die in dice:
        sums |= {s + die for s in sums}
    sums.discard(0)
    return tuple(sums)


def _count(mover: int) -> int:
    """The mover's checkers in a mover-only key."""
    total = 0
    while mover:
        total += mover & st.NIBBLE
        mover >>= st.BITS
    return total
