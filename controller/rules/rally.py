"""Nardy Rally (Russian trictrac, RULES.md section 3) and its hitting variant (otvyazny)."""

from __future__ import annotations

from typing import Iterable

from . import state as st
from .base import Opening, RuleSet
from .geometry import Geometry, rally_geometry
from .registry import register
from .values import BAR, CHECKERS, OFF, WHITE, Colour, Position, Roll

DEFAULT_QUARTER = "I-VI"
"""The start quarter when none is chosen: White's trictrac route, I -> XII -> 12 -> 1."""
BLOCK = 6
START_QUARTER = 19
"""The lowest own point of the start quarter (track positions 1-6 are own points 24-19)."""

_BLOCK_LOWS = st.low_bits(range(1, 25 - BLOCK + 1))
"""The lowest points a six-block may start on (1 to 19), as an occupancy mask."""
MOST_MOVES = 4
"""The most checker moves one turn makes (a double)."""
_POINTS = st.low_bits(range(1, 25))
_TO_TOP_BIT = (7 - MOST_MOVES) * st.low_bits(range(52))
"""Added to every field: a row's shortfall reaches eight (the field's top bit) once it is
more than ``MOST_MOVES``."""


@register
class Rally(RuleSet):
    """Both players enter from the pool and race the same track; no hitting; blockade bans."""

    name = "rally"
    description = "Nardy Rally (Russian trictrac): same track, compulsory entry, no hitting"
    OPTIONS = {"bear_off_higher": False, "mars": False}
    MIRRORED = False
    HITTING = False
    ENTER_ALL_FIRST = False
    START_QUARTER = DEFAULT_QUARTER
    PLAY_BANS = True
    ENTRY_COMPULSORY = True
    BLOCK_NEEDS_TWO = False
    """A point counts as occupied for the blockade bans only with two or more checkers."""

    __slots__ = ()

    def start_position(self) -> Position:
        return Position.from_counts({}, {}, turn=WHITE, white_bar=CHECKERS, black_bar=CHECKERS)

    def geometry(self, start_quarter: str | None = None) -> Geometry:
        return rally_geometry(start_quarter or DEFAULT_QUARTER)

    def _may_bear_off(self, state: int, point: int, die: int) -> bool:
        if point == die:
            return True
        # RULES.md 3.2 option and 3.4.8: a higher die from the highest point, nothing behind
        return self._options["bear_off_higher"] and not state & st.ABOVE_ALL[point]

    def bear_off_points(self, state: int, die: int, candidates: int) -> int:
        """The exact point, and (with ``bear_off_higher``) the highest point below ``die`` if
        nothing stands above it."""
        exact = candidates & st.UNIT[die]
        if not self._options["bear_off_higher"]:
            return exact
        top = candidates.bit_length() - 1
        point = top >> 2
        if point < die and not state & st.ABOVE_ALL[point]:
            return exact | 1 << top
        return exact

    def entry_limit(self, roll: Roll) -> int:
        """RULES.md 3.2: one checker enters a turn, two on a double."""
        return 2 if roll.is_double else 1

    def forbidden_blocks(self, state: int) -> int:
        """The forbidden six-blocks the mover holds, as a bit per lowest own point.

        Bit 19 is the start quarter (ban a); bit p a block p..p+5 with no opposing checker
        on the board on an own point below p (ban b, RULES.md 3.4.4).
        """
        return _blocks(state, st.occupied(state, self.BLOCK_NEEDS_TWO))

    def play_allowed(self, start: int, end: int) -> bool:
        if (start >> st.BAR_SHIFT) & 15 and (end >> st.BAR_SHIFT) & 15 == (start >> st.BAR_SHIFT) & 15:
            return False  # RULES.md 3.2: entering is compulsory while the pool holds checkers
        made = self.forbidden_blocks(end)
        return not made or not made & ~self.forbidden_blocks(start)

    def allowed_ends(self, start: int, ends: Iterable[int]) -> list[int]:
        """``play_allowed`` over a whole level of boards (see ``RuleSet.allowed_ends``), with
        the start's pool and blocks found once."""
        bar_mask = 15 << st.BAR_SHIFT
        pool = start & bar_mask
        before = self.forbidden_blocks(start)
        if not self._may_make_block(start, before):
            return [end for end in ends if end & bar_mask != pool] if pool else list(ends)
        two = self.BLOCK_NEEDS_TWO
        ones, lows = st.ONES, _BLOCK_LOWS
        out = []
        for end in ends:
            if pool and end & bar_mask == pool:
                continue  # RULES.md 3.2: entering is compulsory while the pool holds checkers
            # the points held (field 0 too: no block starts there), pairs, then six in a row
            occupied = ((end >> 1 | end >> 2 | end >> 3) if two else (end | end >> 1 | end >> 2 | end >> 3)) & ones
            pairs = occupied & occupied >> 4
            if pairs & pairs >> 8 & pairs >> 16 & lows and _blocks(end, occupied) & ~before:
                continue
            out.append(end)
        return out

    def _may_make_block(self, start: int, before: int) -> bool:
        """Could one turn from ``start`` hold six points in a row that it does not hold as
        a forbidden block already (``before``)?  Each move brings one checker to one point,
        so a row short of more checkers than a turn moves cannot be made; nor, then, can
        any ban on it (the ban needs the row first).  Every row is summed at once: each
        point's shortfall (0 to 2) in its field, six fields added by shifts."""
        held = st.occupied(start) & _POINTS
        if self.BLOCK_NEEDS_TWO:
            short = (_POINTS & ~held) << 1 | held & ~st.occupied(start, at_least_two=True)
        else:
            short = _POINTS & ~held
        rows = short + (short >> 4) + (short >> 8) + (short >> 12) + (short >> 16) + (short >> 20)  # at most 12 a field
        makeable = ~((rows + _TO_TOP_BIT) >> 3) & _BLOCK_LOWS  # the rows at most MOST_MOVES short
        while before:
            low = before.bit_length() - 1
            before ^= 1 << low
            makeable &= ~st.UNIT[low]
        return bool(makeable)

    def _opening(self, winner: int, roll: Roll) -> Opening:
        # RULES.md 3.1 (interpretation): the starter rolls both dice afresh
        return Opening(winner, WHITE if winner == 0 else WHITE.opponent, None)

    def score(self, position: Position, winner: Colour) -> tuple[int, str]:
        loser = position.side(winner.opponent)
        if self._options["mars"] and not loser[OFF]:
            return 2, "mars"
        return 1, "single"


def _blocks(state: int, occupied: int) -> int:
    """``forbidden_blocks`` of ``state`` given its occupied points (a bit per lowest point)."""
    runs = occupied & occupied >> 4 & occupied >> 8 & occupied >> 12 & occupied >> 16 & occupied >> 20 & _BLOCK_LOWS
    found = 0
    while runs:
        bit = runs.bit_length() - 1
        runs ^= 1 << bit
        low = bit >> 2
        if low == START_QUARTER or not state & st.OPP_BELOW[low]:
            found |= 1 << low
    return found


@register
class RallyHitting(Rally):
    """The otvyazny variant: a lone checker is hit back to its owner's pool."""

    name = "rally-hitting"
    description = "Nardy Rally with hitting (otvyazny): a blot is sent back to the pool"
    HITTING = True
    BLOCK_NEEDS_TWO = True

    __slots__ = ()


__all__ = ["Rally", "RallyHitting", "BAR"]
