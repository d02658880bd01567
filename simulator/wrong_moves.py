"""The illegal move a simulated player tries on purpose: a checker moved where no legal play
of the turn goes, and no hand at work on a hit could explain the board either (so that the
board must warn)."""

from __future__ import annotations

import random
from typing import Callable, Iterable

from controller.rules.base import RuleSet
from controller.rules.turn import TurnMap
from controller.rules.values import BAR, OFF, Colour, Position, Roll
from hal.zones import Zone


def wrong_move(rules: RuleSet, zone_of: Callable[[Colour, int], Zone], start: Position, roll: Roll,
               board_position: Position, rng: random.Random) -> tuple[Zone, Zone] | None:
    """A checker and a point for it (zones, by ``zone_of``) such that the board is in no
    legal state of the turn of ``roll`` from ``start``, nor a hit under way from one."""
    colour = board_position.turn
    turn_map = TurnMap(rules, start, roll)
    mine = board_position.side(colour)
    theirs = board_position.side(colour.opponent)
    candidates: list[tuple[Zone, Zone]] = []
    legal_sides: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for key in turn_map.states():
        mover_side, opponent_side = turn_map.sides_of(key)
        legal_sides.setdefault(mover_side, []).append(opponent_side)
    for frm in range(1, 25):
        if not mine[frm]:
            continue
        for to in range(1, 25):
            if to == frm or theirs[rules.opponent_point(to)]:
                continue
            moved = list(mine)
            moved[frm] -= 1
            moved[to] += 1
            key = turn_map.key_of(moved, theirs)
            if key not in turn_map and not _hit_under_way(legal_sides.get(tuple(moved), ()), theirs):
                candidates.append((zone_of(colour, frm), zone_of(colour, to)))
    return rng.choice(candidates) if candidates else None


def _hit_under_way(legal_opponents: Iterable[tuple[int, ...]], theirs: tuple[int, ...]) -> bool:
    """Could a hand explain this board as a hit under way from some legal state of the turn
    (the mover's side as it stands)?  Its blots, one or several, already on their bar or pool
    with the hitters not yet arrived; or hit blots still standing on their points (a checker
    carried past a blot it hit, 8/6*/4).  Such a board is not an unmistakable illegal move,
    so the player does not try it."""
    return any(_blots_to_bar(legal, theirs) or _blots_to_bar(theirs, legal) for legal in legal_opponents)


def _blots_to_bar(before: tuple[int, ...], after: tuple[int, ...]) -> bool:
    """Is one side ``after`` the same side ``before`` with one or more of its blots moved
    to the bar or pool?"""
    moved = [p for p in range(1, 25) if after[p] != before[p]]
    return (bool(moved) and after[OFF] == before[OFF] and all(after[p] == 0 and before[p] == 1 for p in moved)
            and after[BAR] - before[BAR] == len(moved))
