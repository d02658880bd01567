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

from .rules.reach import MOVER
from .rules.turn import TurnMap
from .rules.values import BAR


def hit_left_late(turn_map: TurnMap, key: int, gone: int) -> bool:
    """Is the complete board ``key`` better read as another play?  So when its play hits a
    blot not among ``gone`` (bit ``p``: the opponent's point ``p`` read empty before the
    next player's roll), and another complete play leaving the mover's side the same and
    hitting as many hits only blots among them."""
    start = turn_map.sides_of(turn_map.start)[1]

    def seen_gone(theirs: tuple[int, ...]) -> bool:
        return all(gone >> point & 1 for point in range(1, BAR) if theirs[point] < start[point])

    theirs = turn_map.sides_of(key)[1]
    if theirs[BAR] == start[BAR] or seen_gone(theirs):
        return False
    for other in complete_by_side(turn_map).get(key & MOVER, ()):
        other_theirs = turn_map.sides_of(other)[1]
        if other != key and other_theirs[BAR] == theirs[BAR] and seen_gone(other_theirs):
            return True
    return False


@lru_cache(maxsize=8)
def passes_gone(turn_map: TurnMap, key: int, gone: int) -> bool:
    """Does ``key``'s play leave standing a blot of the opponent's that the boards read gone
    before its owner's roll (bit ``p`` of ``gone``), when another complete play hits it?  Its
    owner did not move it before rolling; the mover's hand took it to hit it (rally-hitting
    1851855555, blots handed over: Black's 21/18*/17, White's blot on 18 handed over before
    White's 5-2, read as 21/20/17 on a board White's slide 7/2 crossed, and warned)."""
    start, theirs = turn_map.sides_of(turn_map.start)[1], turn_map.sides_of(key)[1]
    standing = [point for point in range(1, BAR)
                if gone >> point & 1 and start[point] == 1 and theirs[point] >= start[point]]
    if not standing:
        return False
    for other in turn_map.complete_keys():
        other_theirs = turn_map.sides_of(other)[1]
        if any(other_theirs[point] < start[point] for point in standing):
            return True
    return False


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


_HEX = np.zeros(256, dtype=np.int16)
_HEX[np.frombuffer(b"0123456789abcdef", dtype=np.uint8)] = np.arange(16, dtype=np.int16)


@lru_cache(maxsize=8)
def _complete_sides(turn_map: TurnMap) -> tuple[np.ndarray, tuple[tuple[int, ...], ...]]:
    """The mover's sides of the turn's complete boards as an array (a row of 26 counts per
    side, read from the keys' four-bit fields at once), with the keys of each."""
    by_side = complete_by_side(turn_map)
    keys = tuple(by_side.values())
    text = "".join([format(side, "052x") for side in by_side]).encode("ascii")
    digits = _HEX[np.frombuffer(text, dtype=np.uint8)].reshape(len(keys), 52)
    return digits[:, ::-1][:, :BAR + 1], keys


def complete_by_side(turn_map: TurnMap) -> dict[int, tuple[int, ...]]:
    """The turn's complete boards by the mover's side (its fields of their keys, ``MOVER``)."""
    sides: dict[int, list[int]] = {}
    for key in turn_map.complete_keys():
        sides.setdefault(key & MOVER, []).append(key)
    return {side: tuple(keys) for side, keys in sides.items()}
