"""Which blot a play hit, told by when the boards saw it go (a pure function over a turn map).

Two plays of a turn may leave the mover's side the same and hit as many blots, on other
points.  A blot its owner moves after rolling looks like a blot hit; one the boards saw go
before the owner's roll was hit.  Rally-hitting 1940658219 (blots handed over): Black's
pool/22*/20*, the blot on 22 taken before White threw 6-4; White's own 23 to 22 after its
roll made the board of pool/23*/20*, read so at once, and the game was lost.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .held_evidence import opponent_bar
from .rules import state as st
from .rules.state import count, opponent_field
from .rules.reach import MOVER
from .rules.turn import TurnMap
from .rules.values import BAR


def hit_left_late(turn_map: TurnMap, key: int, gone: int) -> bool:
    """Is the complete board ``key`` better read as another play?  So when its play hits a
    blot not among ``gone`` (bit ``p``: the opponent's point ``p`` read empty before the
    next player's roll), and another complete play leaving the mover's side the same and
    hitting as many hits only blots among them."""
    hits = _hit_points(turn_map)
    mine = hits.get(key, 0)
    if not mine & ~gone:
        return False
    return any(other != key and (theirs := hits.get(other, 0)).bit_count() == mine.bit_count()
               and not theirs & ~gone for other in complete_by_side(turn_map).get(key & MOVER, ()))


def passes_gone(turn_map: TurnMap, key: int, gone: int) -> bool:
    """Does ``key``'s play leave standing a blot of the opponent's that the boards read gone
    before its owner's roll (bit ``p`` of ``gone``), when another complete play hits it?  Its
    owner did not move it before rolling; the mover's hand took it to hit it (rally-hitting
    1851855555, blots handed over: Black's 21/18*/17, White's blot on 18 handed over before
    White's 5-2, read as 21/20/17 on a board White's slide 7/2 crossed, and warned)."""
    standing = gone & _blots(turn_map.start, turn_map.rules.MIRRORED)
    if not standing:  # (most turns of a run: no blot gone, and the hits are not worked out)
        return False
    hits = _hit_points(turn_map)
    standing &= ~hits.get(key, 0)
    return bool(standing) and any(points & standing for points in hits.values())


def hits_standing(turn_map: TurnMap, key: int, standing: int) -> bool:
    """Does the complete board ``key``'s play hit a blot on one of the opponent's points
    ``standing`` (bit ``p``: read holding some of its checkers as its owner rolled next)?
    Read from the two keys' fields alone: it is asked of many boards of many turns."""
    start = turn_map.start
    if not standing or opponent_bar(key) <= opponent_bar(start):
        return False
    mirrored = turn_map.rules.MIRRORED
    points = standing & _blots(start, mirrored)
    while points:
        point = points.bit_length() - 1
        if not count(key, opponent_field(point, mirrored)):
            return True
        points &= ~(1 << point)
    return False


@lru_cache(maxsize=256)
def _blots(key: int, mirrored: bool) -> int:
    """The opponent's blots (bit ``p``, its own point ``p``) on packed board ``key``."""
    return sum(1 << point for point in range(1, BAR) if count(key, opponent_field(point, mirrored)) == 1)


@lru_cache(maxsize=8)
def _hit_points(turn_map: TurnMap) -> dict[int, int]:
    """The turn's complete boards that hit, each with the opponent's points it hits (bit
    ``p``, one blot a point): only those are unpacked."""
    start = turn_map.sides_of(turn_map.start)[1]
    bar = opponent_bar(turn_map.start)
    hits = {}
    for key in turn_map.complete_keys():
        if opponent_bar(key) > bar:
            theirs = turn_map.sides_of(key)[1]
            hits[key] = sum(1 << point for point in range(1, BAR) if theirs[point] < start[point])
    return hits


def containing(turn_map: TurnMap, side: tuple[int, ...]) -> tuple[int, ...]:
    """The turn's complete boards whose mover's side holds ``side`` (26 counts: off, points
    1-24, bar or pool): as many off, at least as many on each point (the rest of the mover's
    checkers on its bar or pool, or in a hand), the fewest such checkers first."""
    sides, keys = _complete_sides(turn_map)
    if not keys:
        return ()
    shown = np.asarray(side, dtype=np.int16)
    holds = (sides[:, 0] == shown[0]) & (sides[:, 1:BAR] >= shown[1:BAR]).all(axis=1)
    found = np.flatnonzero(holds)
    spare = sides[found, 1:BAR].sum(axis=1) - shown[1:BAR].sum()
    return tuple(key for index in found[np.argsort(spare, kind="stable")] for key in keys[index])


@lru_cache(maxsize=8)
def _complete_sides(turn_map: TurnMap) -> tuple[np.ndarray, tuple[tuple[int, ...], ...]]:
    """The mover's sides of the turn's complete boards as an array (a row of 26 counts per
    side, split all at once by ``rules.state.mover_sides``), with the keys of each."""
    by_side = complete_by_side(turn_map)
    sides = np.array(list(st.mover_sides(by_side)), dtype=np.int16).reshape(len(by_side), BAR + 1)
    return sides, tuple(by_side.values())


@lru_cache(maxsize=8)
def complete_by_side(turn_map: TurnMap) -> dict[int, tuple[int, ...]]:
    """The turn's complete boards by the mover's side (its fields of their keys, ``MOVER``)."""
    sides: dict[int, list[int]] = {}
    for key in turn_map.complete_keys():
        sides.setdefault(key & MOVER, []).append(key)
    return {side: tuple(keys) for side, keys in sides.items()}
