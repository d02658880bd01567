"""The packed board the move generator works on: one int, four bits per count.

The generator sees the board from the mover's side.  Field ``i`` (bits ``4i``..``4i+3``)
holds, for ``i`` in 0-25, the mover's count on own point ``i`` (0 off, 25 bar); for ``i`` in
26-51, the opponent's count on the mover's point ``i - 26`` (26 the opponent's tray, 51 the
opponent's bar).  A move is then two additions and bear-off or blockade tests are single
masks, which keeps legal-play generation within the Raspberry Pi's budget.
"""

from __future__ import annotations

from itertools import repeat
from typing import Iterable, Iterator, Sequence

from .values import BAR, Move

BITS = 4
NIBBLE = 15
OPP = 26
"""Field offset of the opponent's counts."""

UNIT = tuple(1 << (BITS * i) for i in range(52))
"""``UNIT[i]``: one checker in field ``i``."""

SHIFT = tuple(BITS * i for i in range(52))


def mask(fields: range | list[int] | tuple[int, ...]) -> int:
    """All four bits of every field listed."""
    total = 0
    for i in fields:
        total |= NIBBLE << (BITS * i)
    return total


def low_bits(fields: range | list[int] | tuple[int, ...]) -> int:
    """The lowest bit of every field listed (the shape of an occupancy mask)."""
    total = 0
    for i in fields:
        total |= 1 << (BITS * i)
    return total


BOARD = mask(range(1, 25))
"""The mover's points 1-24."""
BOARD_AND_BAR = mask(range(1, 26))
ONES = low_bits(range(0, 26))
UP_TO = tuple((1 << (BITS * (p + 1))) - 1 for p in range(26))
"""``UP_TO[p]``: every field from 0 to ``p``."""
BAR_SHIFT = SHIFT[BAR]
OPP_BAR_UNIT = UNIT[OPP + BAR]
OUTSIDE_HOME = mask(range(7, 26))
"""The mover's checkers not yet home (points 7-24 and the bar)."""
ABOVE_IN_HOME = tuple(mask(range(p + 1, 7)) for p in range(7))
"""``ABOVE_IN_HOME[p]``: the mover's home points higher than ``p``."""
ABOVE_ALL = tuple(mask(range(p + 1, 26)) for p in range(7))
"""``ABOVE_ALL[p]``: every mover field higher than ``p``, bar or pool included."""
OPP_BELOW = tuple(mask(range(OPP + 1, OPP + p)) for p in range(25))
"""``OPP_BELOW[p]``: opponent checkers on the mover's points 1 to ``p - 1``."""

MOVES: tuple[tuple[tuple[Move, Move], ...], ...] = tuple(
    tuple((Move(p, max(p - d, 0), d, False), Move(p, max(p - d, 0), d, True)) for d in range(7))
    for p in range(26)
)
"""Every single move as one shared value: ``MOVES[from][die][hit]`` (die 0 unused)."""

STEP_PLAIN = tuple(
    tuple((MOVES[p][d][0], (UNIT[p - d] if p > d else 1) - UNIT[p]) for p in range(BAR + 1))
    for d in range(7)
)
"""``STEP_PLAIN[die][point]``: the move of ``die`` from ``point`` (a bear-off below ``die + 1``) and
the change it makes to a key."""
STEP_HIT = tuple(
    tuple(
        (MOVES[p][d][1], UNIT[p - d] - UNIT[p] - UNIT[OPP + p - d] + OPP_BAR_UNIT)
        if p > d else (MOVES[p][d][1], 0)
        for p in range(BAR + 1)
    )
    for d in range(7)
)
"""``STEP_HIT[die][point]``: the move of ``die`` from ``point`` hitting a blot, and its change to a key."""

MOVE_OF: tuple[dict[int, Move], ...] = tuple(
    {delta: move for move, delta in (*STEP_PLAIN[d][1:], *STEP_HIT[d][d + 1:])} if d else {} for d in range(7)
)
"""``MOVE_OF[die][change]``: the move of ``die`` that makes this change to a key (one a change:
the origin and whether it hits tell them apart), to name the moves between two known keys."""


def occupied(state: int, at_least_two: bool = False) -> int:
    """The mover's points 1-25 holding a checker (or two), as the low bit of each field."""
    x = state & BOARD_AND_BAR
    if at_least_two:
        return (x >> 1 | x >> 2 | x >> 3) & ONES
    return (x | x >> 1 | x >> 2 | x >> 3) & ONES


def count(state: int, field: int) -> int:
    """The count stored in ``field``."""
    return (state >> SHIFT[field]) & NIBBLE


def opponent_field(point: int, mirrored: bool) -> int:
    """The field holding the opponent's own point ``point`` (1-24): its points are packed in
    the mover's numbering, mirrored where the sides number the board from opposite ends."""
    return OPP + (25 - point if mirrored else point)


_TO_HEX = bytes(b"0123456789abcdef"[i] if i < 16 else ord("g") for i in range(256))
"""A count as its hex digit (one field); 16 and more as no digit at all."""


def pack(mover: Sequence[int], opponent: Sequence[int], mirrored: bool) -> int:
    """The packed board of a position seen by ``mover`` (both sides in own numbering).

    One hex digit is one field, so the key is read from the counts in one C-level call;
    counts that do not fit a field (sensor faults) are packed field by field as ever."""
    try:
        theirs = opponent[1:25] if mirrored else opponent[24:0:-1]
        return int(bytes((opponent[25], *theirs, opponent[0], *mover[25::-1])).translate(_TO_HEX), 16)
    except ValueError:  # a count below 0 or above 15
        return _pack_fields(mover, opponent, mirrored)


def _pack_fields(mover: Sequence[int], opponent: Sequence[int], mirrored: bool) -> int:
    """``pack`` one field at a time, whatever the counts."""
    state = 0
    for i in range(26):
        state |= mover[i] << SHIFT[i]
    state |= opponent[0] << SHIFT[OPP] | opponent[BAR] << SHIFT[OPP + BAR]
    for p in range(1, 25):
        state |= opponent[25 - p if mirrored else p] << SHIFT[OPP + p]
    return state


_HEX_DIGITS = bytes.maketrans(b"0123456789abcdef", bytes(range(16)))
MOVER = UNIT[OPP] - 1
"""The mover's fields of a state (0 off, 1-24, 25 bar)."""


def nonzero(fields: int, low: int) -> int:
    """The fields (marked by their lowest bits in ``low``) whose count is not 0."""
    return (fields | fields >> 1 | fields >> 2 | fields >> 3) & low


def mover_digits(states: Iterable[int]) -> bytes:
    """The mover's counts of each state, in order, 26 bytes a state (field 0 first).

    One hex digit is one field, so all the states are split by a few C-level calls (the end
    boards of a turn are unpacked by the thousand).
    """
    masked = map(MOVER.__and__, reversed(list(states)))
    digits = "".join(map(format, masked, repeat("026x"))).encode("ascii")
    return digits.translate(_HEX_DIGITS)[::-1]


def mover_sides(states: Iterable[int]) -> Iterator[tuple[int, ...]]:
    """The mover's side (own numbering) of each state, in order."""
    fields = iter(mover_digits(states))
    return zip(*[fields] * 26)


def unpack(state: int, mirrored: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The mover's and the opponent's sides, each in its own numbering."""
    digits = format(state, "052x").encode("ascii").translate(_HEX_DIGITS)  # field i at 51 - i
    mover = tuple(digits[51:25:-1])
    if mirrored:  # the opponent's own point q is the mover's 25 - q: field 51 - q, digit q
        return mover, (digits[25],) + tuple(digits[1:25]) + (digits[0],)
    return mover, tuple(digits[25::-1])
