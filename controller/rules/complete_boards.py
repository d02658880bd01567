"""The complete boards of one turn, indexed for the questions asked once a play may be done.

The tracker asks whether a board shows the mover's side of some complete play (exactly, with
sensors hidden, or but for checkers still in a hand), which complete plays a later board may
have come from, which ones the turn can still reach, and whether a checker slid further on
makes another complete play.  ``Reach`` explains boards a hand is changing; these are the
questions about where the play ends, kept apart so each index stays small.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from . import state as st
from .state import MOVER
from .values import CHECKERS

FIELD_TOPS = st.ONES << 3
"""The top bit of each mover field: where a word-parallel subtraction's borrow shows (``covers``)."""


class Turn(Protocol):
    """What ``CompleteBoards`` needs of a turn: which boards end it and how boards follow."""

    def is_complete(self, key: int) -> bool: ...
    def next_keys(self, key: int) -> tuple[int, ...]: ...


def covers(big: int, small: int) -> bool:
    """Every mover count of ``small`` is at most that of ``big`` (both mover fields only).

    Word-parallel: the subtraction borrows out of a field exactly where ``small`` is
    larger, and the borrow shows in the field's top bit.
    """
    d = big - small
    return not (((~big & small) | (~(big ^ small) & d)) & FIELD_TOPS)


class CompleteBoards:
    """The complete boards of one turn: built from ``Reach``'s index of the turn's states
    (``order``: every legal state nearest the start first, with its mover side; ``by_mover``:
    the same grouped by mover side), each table made when first asked for."""

    def __init__(self, turn: Turn, order: list[tuple[int, int, int]],
                 by_mover: dict[int, list[tuple[int, int, int]]]) -> None:
        self.turn = turn
        self._order = order
        self._by_mover = by_mover
        self._sides: list[int] | None = None
        self._done: dict[int, bool] = {}
        self._completions: dict[int, frozenset[int]] = {}
        self._finals: tuple[list[int], np.ndarray, np.ndarray] | None = None
        """The complete boards, their mover's sides (one row each, field 0 first) and the
        running sums of those rows."""

    def completes_side(self, board: int) -> bool:
        """Does some complete board have exactly the mover's side of ``board``?"""
        complete = self.turn.is_complete
        return any(complete(entry[0]) for entry in self._by_mover.get(board & MOVER, ()))

    def sides_fitting(self, board: int, hidden: int) -> list[int]:
        """The mover's sides of complete boards that ``board`` shows but for the fields in
        ``hidden`` (a mask: zones the sensors could not read, their counts taken as 0)."""
        keep = MOVER & ~hidden
        shown = board & keep
        return [side for side in self._side_list() if side & keep == shown]

    def done_but_for_hand(self, board: int) -> bool:
        """Does every checker of the mover's that ``board`` shows stand where some complete
        board has it (the play done, but for checkers a hand may still hold)?"""
        mover = board & MOVER
        done = self._done.get(mover)
        if done is None:
            done = any(covers(side, mover) for side in self._side_list())
            if len(self._done) >= 16:
                self._done.clear()
            self._done[mover] = done
        return done

    def slides_on(self, key: int) -> bool:
        """Is there another complete board with one of ``key``'s checkers of the mover's
        further on (a lower point of its own, or off), all else the same?"""
        complete = self.turn.is_complete
        theirs = key & ~MOVER
        for other, side, _ in self._order:
            if other == key or other & ~MOVER != theirs or not complete(other):
                continue
            changed = st.nonzero((side ^ key) & MOVER, st.ONES)
            if changed.bit_count() != 2:
                continue
            low = (changed & -changed).bit_length() - 1  # the lower field's first bit
            high = changed.bit_length() - 1
            if (side >> low & st.NIBBLE) == (key >> low & st.NIBBLE) + 1 \
                    and (side >> high & st.NIBBLE) == (key >> high & st.NIBBLE) - 1:
                return True
        return False

    def finished_before(self, board: int, later: int, mover_later: bool,
                        lifted: tuple[tuple[int, int], ...] = ()) -> list[int]:
        """The complete boards from which the mover's side of ``board`` may have come in
        ``later`` moves of the turns after this one, fewest checkers gone first: every
        checker gone from its point (or bar) is a move of the mover in a later turn
        (``mover_later``) or a blot hit by the opponent (to the bar or pool, or in a hand);
        a checker never goes back (own numbering: towards 0) but to the bar when hit; the
        mover's checkers in a hand went too.  Cheap counts only, over every complete board
        at once: the turns that follow judge each.  ``lifted``: (point, most left) for the
        checkers last seen in a hand: the boards whose play moved them come first (a hand
        seen at work on a checker outweighs fewer checkers gone)."""
        keys, sides, running = self._finals_table()
        if not keys:
            return []
        now = np.frombuffer(st.mover_digits((board,)), dtype=np.uint8).astype(np.int16)
        in_hand = max(CHECKERS - int(now.sum()), 0)
        diff = sides - now
        gone = np.clip(diff[:, 1:], 0, None).sum(axis=1)
        ok = (gone <= later) & (diff[:, 0] <= 0)  # nothing comes back from off the board
        ok &= (np.cumsum(now[:25]) >= running - (later + in_hand)).all(axis=1)
        if not mover_later:  # only the mover's blots may have gone, hit, and only to the bar or a hand
            ok &= (diff[:, :25] >= 0).all(axis=1)
            ok &= ((diff[:, 1:25] <= 0) | (sides[:, 1:25] == 1)).all(axis=1)
        found = np.nonzero(ok)[0]
        order = gone[found]
        if lifted:
            points = [p for p, _ in lifted]
            most = np.array([m for _, m in lifted], dtype=np.int16)
            moved = (sides[found][:, points] <= most).all(axis=1)
            order = order + (~moved) * (CHECKERS + 1)
        found = found[np.argsort(order, kind="stable")]
        return [keys[i] for i in found.tolist()]

    def reachable_from(self, key: int) -> frozenset[int]:
        """The complete boards the turn can still reach from legal board ``key`` (kept for
        the last few asked: a held roll's search asks again for each board)."""
        found = self._completions.get(key)
        if found is None:
            seen, todo, ends = {key}, [key], set()
            while todo:
                at = todo.pop()
                if self.turn.is_complete(at):
                    ends.add(at)
                for child in self.turn.next_keys(at):
                    if child not in seen:
                        seen.add(child)
                        todo.append(child)
            if len(self._completions) >= 8:
                self._completions.clear()
            found = self._completions[key] = frozenset(ends)
        return found

    def _side_list(self) -> list[int]:
        """The mover's sides of the complete boards."""
        if self._sides is None:
            complete = self.turn.is_complete
            self._sides = [side for side, entries in self._by_mover.items()
                           if any(complete(entry[0]) for entry in entries)]
        return self._sides

    def _finals_table(self) -> tuple[list[int], np.ndarray, np.ndarray]:
        if self._finals is None:
            complete = self.turn.is_complete
            keys = [key for key, _, _ in self._order if complete(key)]
            sides = np.frombuffer(st.mover_digits(keys), dtype=np.uint8).reshape(len(keys), 26).astype(np.int16)
            self._finals = (keys, sides, np.cumsum(sides[:, :25], axis=1))
        return self._finals
