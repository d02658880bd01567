"""The legal play that leads to each complete board of a turn, found from the moves the
turn map generated, exactly as ``RuleSet.final_plays`` would give it (the same moves in the
same order), and only when asked for: at the end of a turn, not at the roll."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from . import state as st
from .values import BAR, IllegalPlayError, Move, Play, Roll

if TYPE_CHECKING:
    from .base import RuleSet

Group = tuple[list[Move], list[int], tuple[int, ...]]
"""The moves of one die from a board, the boards they leave, and the dice left after them."""


class PlayPaths:
    """The legal play to each complete board of one turn (``TurnMap.play_to``, ``plays``)."""

    def __init__(
        self, rules: RuleSet, roll: Roll, start: int, dice: tuple[int, ...], dice_to_use: int,
        finals: Mapping[int, None] | set[int], raw: Mapping[tuple[int, ...], dict[int, list[Group]]],
        start_groups: list[Group],
    ) -> None:
        self.rules, self.roll, self.start, self.dice = rules, roll, start, dice
        self.dice_to_use, self.finals, self.raw, self.start_groups = dice_to_use, finals, raw, start_groups
        self._all: dict[int, Play] | None = None
        self._one: dict[int, Play] = {}

    def play_to(self, key: int) -> Play:
        """The play to complete board ``key`` (found alone unless all are known)."""
        if self._all is not None:
            return self._all[key]
        found = self._one.get(key)
        if found is None:
            found = self._one[key] = Play(self._path_to(key))
        return found

    def all(self) -> dict[int, Play]:
        """Every complete board with its play, in ``RuleSet.final_plays``'s order."""
        if self._all is None:
            self._all = self._find_plays()
        return self._all

    def _path_to(self, key: int) -> tuple[Move, ...]:
        """The moves ``RuleSet.final_plays`` gives for complete board ``key``, found alone."""
        start_dice = self.dice
        if not self.roll.is_double:
            high, low = start_dice
            by_die = {high if after == (low,) else low: (moves, keys, after) for moves, keys, after in self.start_groups}
            if self.dice_to_use == 1:  # one die: the higher if it can be played at all (then every final is one)
                for die in start_dice:
                    moves, keys, _ = by_die[die]
                    if key in keys:
                        return (moves[keys.index(key)],)
            else:  # the first play found, the roll's first die tried first
                for die in (self.roll.first, self.roll.second):
                    moves, keys, after = by_die[die]
                    later = self.raw.get(after, {})
                    for move, child in zip(moves, keys):
                        (next_moves, next_keys, _), = later[child]
                        if key in next_keys:
                            return (move, next_moves[next_keys.index(key)])
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
        before = self.raw[self.dice[level - 1:]]
        found = None
        for frm in range(BAR, 0, -1):
            for move, delta in ((st.STEP_PLAIN[die][frm], st.STEP_HIT[die][frm]) if frm > die else (st.STEP_PLAIN[die][frm],)):
                groups = before.get(board - delta)
                if groups is None:
                    continue
                (moves, keys, _), = groups
                if board not in keys:
                    continue
                made = moves[keys.index(board)]
                previous = self._last_move(level - 1, board - delta, memo)
                if previous is not None and previous[0] >= frm:
                    found = (frm, board - delta, made)
                    break
            if found is not None:
                break
        memo[(level, board)] = found
        return found

    def _find_plays(self) -> dict[int, Play]:
        used, finals = self.dice_to_use, self.finals
        if not finals:
            return {}
        if not self.roll.is_double:
            return {board: Play(path) for board, path in self.rules.final_plays(self.start, self.roll)[1].items()}
        # ``final_plays`` on doubles, over the moves already found: each board's play is the
        # one whose last move starts highest, among plays whose moves never start higher
        # than the move before (the generator's order), found in the generator's order
        rest = self.dice
        frontier: dict[int, tuple[int, int, Move | None]] = {self.start: (BAR, 0, None)}
        back: list[dict[int, tuple[int, int, Move | None]]] = [frontier]
        for _ in range(used):
            groups_of = self.raw[rest]
            nxt: dict[int, tuple[int, int, Move | None]] = {}
            for board, (top, _, _) in frontier.items():
                (moves, keys, after), = groups_of[board]
                for move, child in zip(moves, keys):
                    frm = move.frm
                    if frm > top:
                        continue
                    known = nxt.get(child)
                    if known is None or known[0] < frm:
                        nxt[child] = (frm, board, move)
            rest = after
            back.append(nxt)
            frontier = nxt
        plays: dict[int, Play] = {}
        for board in frontier:
            if board in finals:
                path: list[Move] = []
                key, depth = board, used
                while depth:
                    _, key, move = back[depth][key]
                    path.append(move)  # type: ignore[arg-type]
                    depth -= 1
                path.reverse()
                plays[board] = Play(tuple(path))
        return plays
