"""Move generation on packed boards: every single move of a die, a whole level of boards
at once, and the legal plays of a roll (``MoveGenerator``, the base of ``base.RuleSet``).

The generator works on the packed keys of ``state`` with word-parallel masks and pattern
tables; what differs between rule sets it asks of hooks the rule set overrides
(``bear_off_points``, ``entry_limit``, ``play_allowed``, ``allowed_ends``) and of class
flags (``HITTING``, ``ENTER_ALL_FIRST``, ``PLAY_BANS``, ``ENTRY_COMPULSORY``).
"""

from __future__ import annotations

from itertools import product
from typing import ClassVar, Iterable

from . import state as st
from .values import BAR, Move, Roll

Path = tuple[Move, ...]

_BAR_SHIFT = st.BAR_SHIFT
_OPP_SHIFT_BITS = st.SHIFT[st.OPP]
_BAR_BIT = st.UNIT[BAR]
_BOARD, _BOARD_AND_BAR, _ONES = st.BOARD, st.BOARD_AND_BAR, st.ONES
_ALL_ONES = st.low_bits(range(52))
_FROM_BOARD_AND_BAR = tuple(st.ONES & st.BOARD_AND_BAR & mask for mask in st.UP_TO)
_FROM_BOARD = tuple(st.ONES & st.BOARD & mask for mask in st.UP_TO)
"""``_FROM_...[top]``: the origins on points 1 to ``top`` (the bar included or not)."""
_ALIGN = tuple(st.SHIFT[st.OPP - die] for die in range(7))
"""Shifting a key right by ``_ALIGN[die]`` brings the opponent on my point ``p - die`` to field ``p``."""
_LANDING = tuple(st.mask(range(die + 1, BAR + 1)) for die in range(7))
"""The origins a move of ``die`` leaves on the board (not bearing off)."""
_BEAR_OFF = tuple(st.ONES & st.UP_TO[die] & ~1 for die in range(7))
"""The origins from which a move of ``die`` bears off (points 1 to ``die``)."""
_FEW = 4
"""Up to this many origins the generator walks them one by one; above, it looks their moves up."""
_CHUNK_FIELDS = 9
_NONE: tuple[tuple[Move, ...], tuple[int, ...]] = ((), ())
_CHUNK_LIMIT = 4096
"""The most patterns a table keeps (games meet about a thousand a table; the memory stays bounded)."""
_CHUNK_MASK = (1 << (4 * _CHUNK_FIELDS)) - 1
_CHUNKS: tuple[list[dict[int, tuple[tuple[Move, ...], tuple[int, ...]]]], ...] = tuple(
    [{}, {}, {}] for _ in range(7)
)
"""``_CHUNKS[die][c][bits]``: the moves of ``die`` from points ``9c`` to ``9c + 8`` whose
fields in ``bits`` are marked (first bit: a checker may go, second bit: it hits), high point
first, and the change each makes to a key.  Filled as patterns come up (at most 3 ** 9 a
table, far fewer in games)."""


def _chunk(table: dict[int, tuple[tuple[Move, ...], tuple[int, ...]]], die: int, chunk: int, bits: int
           ) -> tuple[tuple[Move, ...], tuple[int, ...]]:
    """Find and keep the moves of one pattern (see ``_CHUNKS``); a full table starts afresh."""
    if len(table) >= _CHUNK_LIMIT:
        table.clear()
    found = table[bits] = _chunk_moves(die, chunk, bits)
    return found


_DELTAS: tuple[list[dict[int, int]], ...] = tuple([{}, {}, {}] for _ in range(7))
"""``_DELTAS[die][c][bits]``: where in ``_DELTA_LISTS[die][c]`` the key changes alone of
``_CHUNKS[die][c][bits]`` are (what ``successors_of`` needs), kept the same way.  Ints only:
the collector never tracks these dicts.  (A dict of tuples is untracked by each full
collection and tracked again by its next new pattern, to be walked whole by the next young
collections, inside whichever event was running.)"""
_DELTA_LISTS: tuple[list[list[tuple[int, ...]]], ...] = tuple([[()], [()], [()]] for _ in range(7))
"""``_DELTA_LISTS[die][c][i]``: the key changes of the pattern ``_DELTAS[die][c]`` sends to ``i``
(from 1: ``i`` is tested as true; a list stays where the collector put it)."""


def _chunk_deltas(table: dict[int, int], store: list[tuple[int, ...]], die: int, chunk: int, bits: int) -> int:
    """Find and keep the key changes of one pattern (see ``_DELTAS``), and return where they
    are in ``store``; a full table starts afresh."""
    if len(table) >= _CHUNK_LIMIT:
        table.clear()
        del store[1:]
    found = table[bits] = len(store)
    store.append(_chunk_moves(die, chunk, bits)[1])
    return found


def _threes(die: int, group: int) -> dict[int, tuple[tuple[Move, ...], tuple[int, ...]]]:
    """Every pattern of the three fields ``3 * group`` to ``3 * group + 2`` (points up to the
    bar) with its moves of ``die``, high point first, and their key changes."""
    fields = [f for f in range(3) if 3 * group + f <= BAR]
    table = {}
    for marks in product((0, 1, 3), repeat=len(fields)):  # no move, a move, a move that hits
        moves = []
        for field, mark in sorted(zip(fields, marks), reverse=True):
            if mark:
                moves.append((st.STEP_HIT if mark == 3 else st.STEP_PLAIN)[die][3 * group + field])
        bits = sum(mark << (4 * field) for field, mark in zip(fields, marks))
        table[bits] = tuple(move for move, _ in moves), tuple(delta for _, delta in moves)
    return table


_THREES = tuple(tuple(_threes(die, group) for group in range(9)) for die in range(7))
"""``_THREES[die][g][bits]``: the moves of every pattern of three fields, all found at
import (27 a table), from which a nine-field pattern met for the first time is put together."""


def _chunk_moves(die: int, chunk: int, bits: int) -> tuple[tuple[Move, ...], tuple[int, ...]]:
    """The moves and key changes of one nine-field pattern: its three three-field patterns'."""
    threes = _THREES[die]
    high = threes[3 * chunk + 2][bits >> 24 & 0xFFF]
    middle = threes[3 * chunk + 1][bits >> 12 & 0xFFF]
    low = threes[3 * chunk][bits & 0xFFF]
    return high[0] + middle[0] + low[0], high[1] + middle[1] + low[1]


class MoveGenerator:
    """The generator half of a rule set: its moves and plays, through the rule set's hooks."""

    HITTING: ClassVar[bool] = True
    """A single opposing checker can be hit; otherwise any opposing checker closes a point."""
    ENTER_ALL_FIRST: ClassVar[bool] = True
    """Every checker on the bar must enter before any other checker moves."""
    PLAY_BANS: ClassVar[bool] = False
    """Some plays are refused as a whole (``play_allowed``: the rally's entries and bans)."""
    ENTRY_COMPULSORY: ClassVar[bool] = False
    """While the bar or pool holds a checker a play must enter one (``play_allowed`` refuses
    the others): the last die of a turn that has entered none need only try entries."""

    __slots__ = ()

    def _may_bear_off(self, state: int, point: int, die: int) -> bool:
        """May a checker on ``point`` (1-6) leave the board with ``die``?"""
        raise NotImplementedError

    def bear_off_points(self, state: int, die: int, candidates: int) -> int:
        """Which of ``candidates`` (the mover's occupied points 1 to ``die``, a bit per
        field) may bear off with ``die``: ``_may_bear_off`` of each, which a rule set may
        answer for all at once (the generator asks for every board that has candidates)."""
        allowed = 0
        for point in range(die, 0, -1):
            bit = st.UNIT[point]
            if candidates & bit and self._may_bear_off(state, point, die):
                allowed |= bit
        return allowed

    def entry_limit(self, roll: Roll) -> int | None:
        """How many checkers one turn may enter, or None for no limit (a hook: the rally limits)."""
        return None

    def play_allowed(self, start: int, end: int) -> bool:
        """May a play that turns packed board ``start`` into ``end`` be made (entries, bans)?
        A hook: only rule sets with ``PLAY_BANS`` refuse any."""
        return True

    def allowed_ends(self, start: int, ends: Iterable[int]) -> list[int]:
        """The boards of ``ends`` (in order) that ``play_allowed`` lets a play from ``start``
        leave: the turn map asks once for a whole level, which rule sets may answer faster."""
        if not self.PLAY_BANS:
            return list(ends)
        allowed = self.play_allowed
        return [end for end in ends if allowed(start, end)]

    # -- the generator -----------------------------------------------------------------
    def single_moves(self, key: int, die: int, min_bar: int = -1, top: int = BAR) -> list[tuple[Move, int]]:
        """Every single move of ``die`` from the packed board ``key``, with the key it leaves.

        Entries are allowed only while the bar holds more than ``min_bar`` checkers; only
        checkers on points up to ``top`` move (doubles are generated high point first).
        Dice-usage rules are not applied here: see ``final_plays``.
        """
        return list(zip(*self.successors(key, die, min_bar, top)))

    def successors(self, key: int, die: int, min_bar: int = -1, top: int = BAR) -> tuple[tuple[Move, ...], list[int]]:
        """``single_moves`` as two parallel sequences, the moves and the keys they leave
        (highest origin first): the generator's inner loop, with no pair built per move.

        Which points are closed or hold a blot is found for every origin at once: the
        opponent's fields shifted onto the origins ``die`` points above them.
        """
        state = key
        above = state >> 1 | state >> 2 | state >> 3
        two = above & _ALL_ONES  # every field holding two or more
        occupied = (above | state) & _ALL_ONES  # every field holding one or more
        bar = (state >> _BAR_SHIFT) & 15
        if bar and self.ENTER_ALL_FIRST:
            sources = _BAR_BIT
        else:
            sources = occupied & (_FROM_BOARD_AND_BAR if bar > min_bar else _FROM_BOARD)[top]
        # field p of a mask shifted right by _ALIGN[die]: the opponent's field on my point p - die
        align = _ALIGN[die]
        high = sources & ~((two if self.HITTING else occupied) >> align) & _LANDING[die]
        code = high | (high & occupied >> align) << 1 if self.HITTING else high  # a hit: the field's second bit
        off = sources & _BEAR_OFF[die]
        if off:  # bearing off: the rules decide each checker
            off = self.bear_off_points(state, die, off)
        if sources.bit_count() <= _FEW:  # a few checkers to move: one by one
            moves_: list[Move] = []
            keys_: list[int] = []
            plain, hitting = st.STEP_PLAIN[die], st.STEP_HIT[die]
            hits = code >> 1
            while sources:
                low = sources.bit_length() - 1
                bit = 1 << low
                sources ^= bit
                point = low >> 2
                if point > die:
                    if not high & bit:
                        continue
                    move, delta = hitting[point] if hits & bit else plain[point]
                elif off & bit:
                    move, delta = plain[point]
                else:
                    continue
                moves_.append(move)
                keys_.append(state + delta)
            return moves_, keys_  # type: ignore[return-value]
        # the moves and key changes of each nine points' pattern, found once and kept
        low_table, middle_table, high_table = _CHUNKS[die]
        bits = code >> 72
        moves, deltas = (high_table.get(bits) or _chunk(high_table, die, 2, bits)) if bits else _NONE
        bits = (code >> 36) & _CHUNK_MASK
        if bits:
            found = middle_table.get(bits) or _chunk(middle_table, die, 1, bits)
            moves += found[0]
            deltas += found[1]
        bits = code & _CHUNK_MASK
        if bits:
            found = low_table.get(bits) or _chunk(low_table, die, 0, bits)
            moves += found[0]
            deltas += found[1]
        if off:
            plain = st.STEP_PLAIN[die]
            while off:
                last = off.bit_length() - 1
                off ^= 1 << last
                move, delta = plain[last >> 2]
                moves += (move,)
                deltas += (delta,)
        return moves, [state + delta for delta in deltas]

    def successors_of(
        self, boards: Iterable[int], die: int, min_bar: int = -1, enter_only: int = -1
    ) -> tuple[list[int], list[int]]:
        """The keys ``successors(board, die, min_bar)`` leaves from each board, in one call
        and one list, board after board; and where each board's keys start in it (one entry
        a board, then the list's length).  The turn map expands a whole level at once: the
        tables and flags are looked up once, and no move and no list a board is built
        (``successors`` pairs the moves up for the few boards asked about).  A board whose
        bar holds ``enter_only`` checkers moves only from the bar (the last die of a play
        that must still enter, see ``ENTRY_COMPULSORY``)."""
        starts: list[int] = []
        mark = starts.append
        reached: list[int] = []
        add = reached.append
        align, landing, bear_off = _ALIGN[die], _LANDING[die], _BEAR_OFF[die]
        low_table, middle_table, high_table = _DELTAS[die]
        low_list, middle_list, high_list = _DELTA_LISTS[die]
        plain = st.STEP_PLAIN[die]
        hitting = self.HITTING
        bar_first = self.ENTER_ALL_FIRST
        bear_off_points = self.bear_off_points
        all_ones, bar_shift, bar_bit, chunk_mask = _ALL_ONES, _BAR_SHIFT, _BAR_BIT, _CHUNK_MASK
        with_bar, without_bar = _FROM_BOARD_AND_BAR[BAR], _FROM_BOARD[BAR]
        bar_field = 15 << bar_shift
        no_bar = with_bar if 0 > min_bar else without_bar  # the origins of a board with no checker to enter
        for state in boards:
            mark(len(reached))
            above = state >> 1 | state >> 2 | state >> 3
            occupied = (above | state) & all_ones
            if not state & bar_field:  # most boards: nothing to enter (and ``enter_only`` is never 0)
                sources = occupied & no_bar
            else:
                bar = (state >> bar_shift) & 15
                if bar_first:
                    sources = bar_bit
                elif bar == enter_only:
                    sources = bar_bit if bar > min_bar else 0
                else:
                    sources = occupied & (with_bar if bar > min_bar else without_bar)
            if hitting:
                high = sources & ~(above >> align) & landing
                code = high | (high & occupied >> align) << 1
            else:
                code = sources & ~(occupied >> align) & landing
            # the key changes of each nine points' pattern, high points first (as ``successors``)
            bits = code >> 72
            if bits:
                for delta in high_list[high_table.get(bits) or _chunk_deltas(high_table, high_list, die, 2, bits)]:
                    add(state + delta)
            bits = (code >> 36) & chunk_mask
            if bits:
                for delta in middle_list[middle_table.get(bits) or _chunk_deltas(middle_table, middle_list, die, 1, bits)]:
                    add(state + delta)
            bits = code & chunk_mask
            if bits:
                for delta in low_list[low_table.get(bits) or _chunk_deltas(low_table, low_list, die, 0, bits)]:
                    add(state + delta)
            low = sources & bear_off
            if low:  # bearing off: the rules decide each checker
                low = bear_off_points(state, die, low)
                while low:
                    last = low.bit_length() - 1
                    low ^= 1 << last
                    add(state + plain[last >> 2][1])
        mark(len(reached))
        return starts, reached

    def final_plays(self, key: int, roll: Roll) -> tuple[int, dict[int, Path]]:
        """The legal plays from the packed board ``key`` as ``(dice used, {end key: moves})``.

        One play per distinct end board; ``(0, {})`` if the turn passes.
        """
        start = key
        limit = self.entry_limit(roll)
        bar0 = (start >> st.BAR_SHIFT) & 15
        min_bar = -1 if limit is None else bar0 - limit
        allowed = self.play_allowed
        if roll.is_double:
            # With one die size the moves of a play can always be ordered from the highest
            # origin down (a move never opens the way for a checker above it), so each
            # state only tries origins up to the last one used on the way to it.
            die = roll.first
            levels: list[dict[int, Path]] = []
            frontier: dict[int, Path] = {start: ()}
            for _ in range(4):
                nxt: dict[int, Path] = {}
                for node, path in frontier.items():
                    top = path[-1].frm if path else BAR
                    for move, child in zip(*self.successors(node, die, min_bar, top)):
                        known = nxt.get(child)
                        if known is None or known[-1].frm < move.frm:
                            nxt[child] = path + (move,)
                if not nxt:
                    break
                levels.append(nxt)
                frontier = nxt
            for used in range(len(levels), 0, -1):
                plays = {s: p for s, p in levels[used - 1].items() if allowed(start, s)}
                if plays:
                    return used, plays
            return 0, {}
        a, b = roll.first, roll.second
        first: dict[tuple[int, int], Path] = {}
        for die, rest in ((a, b), (b, a)):
            for move, child in zip(*self.successors(start, die, min_bar)):
                key = (child, rest)
                if key not in first:
                    first[key] = (move,)
        second: dict[int, Path] = {}
        for (node, rest), path in first.items():
            for move, child in zip(*self.successors(node, rest, min_bar)):
                if child not in second:
                    second[child] = path + (move,)
        plays = {s: p for s, p in second.items() if allowed(start, s)}
        if plays:
            return 2, plays
        singles = [(s, p) for (s, _), p in first.items() if allowed(start, s)]
        if not singles:
            return 0, {}
        high = roll.high
        if any(p[0].die == high for _, p in singles):
            singles = [(s, p) for s, p in singles if p[0].die == high]
        return 1, dict(singles)
