"""The boards of one turn, generated once at the roll: level by level every board the dice
reach, the boards that complete a legal play, and the boards that lead to one.

``TurnMap`` (``controller.rules.turn``) is built on this and answers the questions about a
turn; this module only generates.  Pure: keys are the ints of ``controller.rules.state``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Mapping

from . import state as st
from .turn_plays import Dice, Expansion
from .values import Roll

if TYPE_CHECKING:
    from .base import RuleSet

DICE_LEFT: dict[Dice, Dice] = {
    dice: dice for n in range(5) for dice in combinations_with_replacement(range(6, 0, -1), n)
}
"""Every dice-left tuple a turn names (high first), made once and shared: a tuple of ints the
collector has looked at once is untracked, and a dict holding only untracked keys and values
is never walked, so a turn's dicts of boards (thousands for a double) cost no collection."""
Level = dict[int, Dice]
"""The boards of one level of a turn, each with the dice left (the same for all): a level
whose boards all lead to a legal play is its own set of good nodes, shared, not copied."""
Node = tuple[int, tuple[int, ...]]
"""A packed board and the dice still to play (sorted, high first)."""


@dataclass(slots=True)
class TurnGraph:
    """What one generation of a turn found."""

    dice_to_use: int
    finals: Mapping[int, object]
    """The boards that complete a legal play."""
    raw: dict[Dice, list[Expansion]]
    """Every node's successors, for the levels before the last: {dice left: [each die
    played from the level]}."""
    good: dict[Dice, dict[int, Dice]]
    """The nodes that reach a legal play, level by level: {dice left: {board: dice left}}."""
    where: dict[int, Dice]
    """Every legal board with the dice left the first (fewest dice used) time it is met."""
    more: dict[int, list[Node]]
    """The rare boards met again with other dice left (bearing off by a higher die)."""


def generate(rules: RuleSet, start: int, roll: Roll, min_bar: int) -> TurnGraph:
    """Every board of the turn from ``start`` with ``roll`` (``min_bar``: the fewest checkers
    the bar may keep, -1 for no limit).  One generation gives everything: level by level,
    every node's successors (a whole level in one call, kept as keys; the moves are named
    only when asked for), then the plays the dice-usage rules allow (as
    ``RuleSet.final_plays`` decides them), then which nodes lead to one.  A node is a board
    and the dice left; the dice left name its level, so each level is kept as
    {dice left: {board: None}} in the order found."""
    all_dice = DICE_LEFT[tuple(sorted(roll.dice, reverse=True))]
    expand = rules.successors_of
    # the last die from a board still showing the start's pool: only an entry may complete the play
    enter_only = ((start >> st.BAR_SHIFT) & 15 if rules.ENTRY_COMPULSORY else 0) or -1
    raw: dict[Dice, list[Expansion]] = {}
    levels: list[list[tuple[Dice, Level]]] = [[(all_dice, {start: all_dice})]]
    for _ in all_dice:
        bands: dict[Dice, Level] = {}
        for rest, boards in levels[-1]:
            groups = raw[rest] = []
            for i, die in enumerate(rest):
                if i and rest[i - 1] == die:
                    continue
                after = DICE_LEFT[rest[:i] + rest[i + 1:]]
                starts, reached = expand(boards, die, min_bar, -1 if after else enter_only)
                groups.append(Expansion(die, after, boards, starts, reached))
                band = bands.get(after)
                if band is None:
                    bands[after] = dict.fromkeys(reached, after)
                else:
                    band.update(dict.fromkeys(reached, after))
        found = [(rest, boards) for rest, boards in bands.items() if boards]
        if not found:
            break
        levels.append(found)
    used, finals = _finals_of(rules, start, levels, roll)
    good = _good_of(levels, used, finals, raw)
    where, more = _where_of(levels, used, good)
    return TurnGraph(used, finals, {rest: raw[rest] for level in levels[:used] for rest, _ in level}, good,
                     where, more)


def _where_of(
    levels: list[list[tuple[Dice, Level]]], used: int, good: dict[Dice, dict[int, Dice]],
) -> tuple[dict[int, Dice], dict[int, list[Node]]]:
    """Every legal board with the dice left the first time it is met, level by level (the
    fewest dice used first), and the boards met again with other dice left."""
    where: dict[int, Dice] = {}
    for level in levels[:used + 1]:
        for rest, _ in level:
            kept = good.get(rest)
            if not kept:
                continue
            size = len(where)
            where.update(kept)
            if len(where) != size + len(kept):  # a board met before: keep its first dice left
                return _remeet(levels, used, good)
    return where, {}


def _remeet(
    levels: list[list[tuple[Dice, Level]]], used: int, good: dict[Dice, dict[int, Dice]],
) -> tuple[dict[int, Dice], dict[int, list[Node]]]:
    """``_where_of`` node by node, for a turn that meets a board twice."""
    where: dict[int, Dice] = {}
    more: dict[int, list[Node]] = {}
    for level in levels[:used + 1]:
        for rest, _ in level:
            for board in good.get(rest, ()):
                if board in where:
                    more.setdefault(board, []).append((board, rest))
                else:
                    where[board] = rest
    return where, more


def _good_of(
    levels: list[list[tuple[Dice, Level]]], used: int, finals: Mapping[int, object],
    raw: dict[Dice, list[Expansion]],
) -> dict[Dice, dict[int, Dice]]:
    """The nodes that reach a legal play: the last level's finals, then back up level by
    level (a board is good when one of its moves leaves a good board)."""
    good: dict[Dice, dict[int, Dice]] = {}
    if not finals:
        return good
    last = levels[used]
    for rest, boards in last:
        if len(finals) == len(boards) and len(last) == 1:
            good[rest] = boards
        else:
            good[rest] = dict.fromkeys([board for board in boards if board in finals], rest)
    sizes = {rest: len(boards) for level in levels for rest, boards in level}
    for level in reversed(levels[:used]):
        for rest, boards in level:
            groups = raw[rest]
            if len(groups) == 1:
                group = groups[0]
                reached = good.get(group.after)
                if not reached:
                    kept: list[int] = []
                elif len(reached) == sizes[group.after]:  # every board one die on is good
                    starts = group.starts
                    if len(set(starts)) == len(starts):  # and every board has a move: all are
                        good[rest] = boards
                        continue
                    kept = [board for board, first, end in group.spans() if first != end]
                else:
                    disjoint, keys = reached.keys().isdisjoint, group.reached
                    kept = [board for board, first, end in group.spans() if not disjoint(keys[first:end])]
            else:
                kept = [
                    board for board in boards
                    if any(good.get(group.after) and not good[group.after].keys().isdisjoint(group.leaves(board))
                           for group in groups)
                ]
            good[rest] = dict.fromkeys(kept, rest)
    return good


def _finals_of(
    rules: RuleSet, start: int, levels: list[list[tuple[Dice, Level]]], roll: Roll
) -> tuple[int, Mapping[int, object]]:
    """The dice the turn must use and the boards that complete a legal play, exactly as
    ``RuleSet.final_plays`` finds them (most dice, ``play_allowed``, the higher die)."""
    deepest = len(levels) - 1
    if roll.is_double or deepest == 2:
        for used in range(deepest, 0, -1):
            (_, boards), = levels[used]
            finals = boards if not rules.PLAY_BANS else dict.fromkeys(rules.allowed_ends(start, boards))
            if finals:
                return used, finals
            if not roll.is_double:
                break
        if roll.is_double:
            return 0, {}
    if deepest == 0:
        return 0, {}
    high = roll.high
    singles = [(rest, rules.allowed_ends(start, boards)) for rest, boards in levels[1]]
    if any(rest[0] != high and kept for rest, kept in singles):  # a play of the higher die (the lower one left)
        singles = [(rest, kept) for rest, kept in singles if rest[0] != high]
    finals = {board: None for _, kept in singles for board in kept}
    return (1, finals) if finals else (0, {})
