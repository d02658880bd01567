"""The legal play that leads to each complete board of a turn, found from the boards the
turn map generated, exactly as ``RuleSet.final_plays`` would give it (the same moves in the
same order), and only when asked for: at the end of a turn, not at the roll."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Mapping

from . import state as st
from .values import BAR, IllegalPlayError, Move, Play, Roll

if TYPE_CHECKING:
    from .base import RuleSet

Dice = tuple[int, ...]
"""The dice still to play, high first."""


class Expansion:
    """One die played from every board of a level: the boards its moves leave, board after
    board in one list, as ``RuleSet.successors_of`` gives them (no list a board)."""

    __slots__ = ("die", "after", "boards", "starts", "reached", "_index")

    def __init__(self, die: int, after: Dice, boards: Mapping[int, None], starts: list[int], reached: list[int]) -> None:
        self.die, self.after, self.boards, self.starts, self.reached = die, after, boards, starts, reached
        self._index: dict[int, int] | None = None

    def __contains__(self, board: int) -> bool:
        return board in self.boards

    def spans(self) -> Iterator[tuple[int, int, int]]:
        """Each board with where its successors start and end in ``reached``."""
        starts = self.starts
        return zip(self.boards, starts, starts[1:])

    def leaves(self, board: int) -> list[int]:
        """The boards the moves of ``die`` leave from ``board`` (a board of the level)."""
        if self._index is None:
            self._index = dict(zip(self.boards, range(len(self.boards))))
        i = self._index[board]
        return self.reached[self.starts[i]:self.starts[i + 1]]


class PlayPaths:
    """The legal play to each complete board of one turn (``TurnMap.play_to``, ``plays``)."""

    def __init__(
        self, rules: RuleSet, roll: Roll, start: int, min_bar: int, dice_to_use: int,
        finals: Mapping[int, None] | set[int], raw: Mapping[Dice, list[Expansion]],
    ) -> None:
        self.rules, self.roll, self.start, self.min_bar = rules, roll, start, min_bar
        self.dice_to_use, self.finals, self.raw = dice_to_use, finals, raw
        self.dice: Dice = tuple(sorted(roll.dice, reverse=True))
        self._all: dict[int, Play] | None = None
        self._one: dict[int, Play] = {}
        self._ends: dict[int, tuple[Play, int]] = {}
        """The plays ``play_to`` gave (by id, each kept alive) with their complete boards:
        ``end_given`` of such a play, at the end of the turn, need not walk the map."""

    def play_to(self, key: int) -> Play:
        """The play to complete board ``key`` (found alone unless all are known)."""
        if self._all is not None:
            found = self._all[key]
        else:
            found = self._one.get(key)
            if found is None:
                found = self._one[key] = Play(self._path_to(key))
        self._ends[id(found)] = (found, key)
        return found

    def end_given(self, play: Play) -> int | None:
        """The complete board of ``play`` if ``play_to`` gave this very play, else None."""
        known = self._ends.get(id(play))
        return known[1] if known is not None and known[0] is play else None

    def all(self) -> dict[int, Play]:
        """Every complete board with its play, in ``RuleSet.final_plays``'s order."""
        if self._all is None:
            self._all = self._find_plays()
        return self._all

    def _move_to(self, board: int, die: int, child: int) -> Move:
        """The move of ``die`` that turns ``board`` into ``child`` (one of its successors)."""
        moves, keys = self.rules.successors(board, die, self.min_bar)
        return moves[keys.index(child)]

    def _path_to(self, key: int) -> tuple[Move, ...]:
        """The moves ``RuleSet.final_plays`` gives for complete board ``key``, found alone."""
        if not self.roll.is_double:
            start = self.start
            by_die = {group.die: group.leaves(start) for group in self.raw[self.dice]}
            if self.dice_to_use == 1:  # one die: the higher if it can be played at all (then every final is one)
                for die in self.dice:
                    if key in by_die[die]:
                        return (self._move_to(start, die, key),)
            else:  # the first play found, the roll's first die tried first
                for die, other in ((self.roll.first, self.roll.second), (self.roll.second, self.roll.first)):
                    keys = by_die[die]
                    if not keys:
                        continue
                    later, = self.raw[(other,)]
                    for child in keys:
                        if key in later.leaves(child):
                            return (self._move_to(start, die, child), self._move_to(child, other, key))
            raise IllegalPlayError("no play found for a complete board")  # cannot happen
        memo: dict[tuple[int, int], tuple[int, int, Move] | None] = {}
        path: list[Move] = []
        level = self.dice_to_use
        while level:
            found = self._last_move(level, key, memo)
            if found is None:
                raise IllegalPlayError("no play found for a complete board")  # cannot happen
            _, key, move = found
            path.append(move)
            level -= 1
        path.reverse()
        return tuple(path)

    def _last_move(
        self, level: int, board: int, memo: dict[tuple[int, int], tuple[int, int, Move] | None]
    ) -> tuple[int, int, Move] | None:
        """On doubles: the last move of ``final_plays``'s play to ``board`` (``level`` dice
        used) as (its origin, the board before it, the move), or None if that generation
        does not reach ``board``.  Its play is the one whose last move starts highest among
        plays whose moves never start higher than the move before."""
        if level == 0:
            return (BAR, board, None) if board == self.start else None  # type: ignore[return-value]
        known = memo.get((level, board), memo)
        if known is not memo:
            return known  # type: ignore[return-value]
        die = self.roll.first
        before, = self.raw[self.dice[level - 1:]]
        found = None
        for frm in range(BAR, 0, -1):
            for move, delta in ((st.STEP_PLAIN[die][frm], st.STEP_HIT[die][frm]) if frm > die else (st.STEP_PLAIN[die][frm],)):
                if board - delta not in before or board not in before.leaves(board - delta):
                    continue  # the move that leaves ``board`` from there is ``move``: its change is ``delta``
                previous = self._last_move(level - 1, board - delta, memo)
                if previous is not None and previous[0] >= frm:
                    found = (frm, board - delta, move)
                    break
            if found is not None:
                break
        memo[(level, board)] = found
        return found

    def _find_plays(self) -> dict[int, Play]:
        if not self.finals:
            return {}
        return {board: Play(path) for board, path in self.rules.final_plays(self.start, self.roll)[1].items()}
