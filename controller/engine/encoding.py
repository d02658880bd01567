"""Features of a position for the neural evaluation, seen from the side that has just moved.

Positions come as the rules engine's packed boards (``controller.rules.state``): field
``i`` of a key is the mover's count on own point ``i`` (0 off, 25 bar or pool), field
``26 + p`` the opponent's count on the mover's point ``p``.  Each side is encoded in its
own numbering (pips to go), TD-Gammon style, so the same inputs mean the same thing for
both colours and for every geometry; whether the two sides' points are mirrored
(trictrac, backgammon) or shared (the rally) is the rule set's ``MIRRORED``.

``rally-hitting`` has a few inputs more (``EXTRA_INPUTS``, after the 204 common ones): for
each side, the chance that the other side's next roll hits one of its blots, the expected
progress such a hit sends back to the pool, and whether any checker of the other side is
still behind one of its checkers (contact).  A weights file says which encoding it was
trained on by its input count, so weights of 204 inputs keep working for every rule set.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from controller.rules import state as st

POINTS = 24
SIDE_INPUTS = 4 * POINTS + 6
"""Per side: four units a point, then bar/pool (any, count), off, pips, home, blots."""
INPUTS = 2 * SIDE_INPUTS
"""The length of every encoding: the side that has moved, then the side to roll."""

LEVELS: dict[str, tuple[int, ...]] = {
    "trictrac": (2, 4, 8),
    "backgammon": (2, 3),
    "rally": (2,),
    "rally-hitting": (2,),
}
"""The point levels above a single win each rule set can score (RULES.md 2.3, 3.2 mars)."""

EXTRA_INPUTS: dict[str, int] = {"rally-hitting": 6}
"""Inputs beyond ``INPUTS`` of a rule set's own encoding (shots and contact, see above)."""

_HEX = np.zeros(256, dtype=np.int8)
_HEX[np.frombuffer(b"0123456789abcdef", dtype=np.uint8)] = np.arange(16, dtype=np.int8)
_PIPS = np.arange(1, POINTS + 1, dtype=np.float32)


def inputs(rules_name: str) -> int:
    """How many inputs a rule set's own encoding has (weights may still have ``INPUTS``)."""
    return INPUTS + EXTRA_INPUTS.get(rules_name, 0)


def outputs(rules_name: str) -> int:
    """How many network outputs a rule set has: win, then win and loss at each level."""
    return 1 + 2 * len(LEVELS[rules_name])


def fields(keys: Sequence[int]) -> np.ndarray:
    """The 52 four-bit fields of every packed board, as an ``(n, 52)`` int array."""
    text = "".join([format(key, "052x") for key in keys]).encode("ascii")
    digits = _HEX[np.frombuffer(text, dtype=np.uint8)].reshape(len(keys), 52)
    return digits[:, ::-1]


def _side(counts: np.ndarray, bar: np.ndarray, off: np.ndarray) -> np.ndarray:
    """One side's features from its counts on own points 1-24 (``(n, 24)``), bar and off."""
    c = counts.astype(np.float32)
    n = c.shape[0]
    units = np.empty((n, POINTS, 4), dtype=np.float32)
    units[:, :, 0] = c >= 1
    units[:, :, 1] = c >= 2
    units[:, :, 2] = c >= 3
    units[:, :, 3] = np.maximum(c - 3, 0) / 2
    b = bar.astype(np.float32)
    extra = np.stack([
        b > 0,
        b / 15,
        off.astype(np.float32) / 15,
        (c @ _PIPS + 25 * b) / 200,
        c[:, :6].sum(axis=1) / 15,
        (c == 1).sum(axis=1) / 8,
    ], axis=1).astype(np.float32)
    return np.concatenate([units.reshape(n, 4 * POINTS), extra], axis=1)


def _roll_reach() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distances one checker can cover with one roll (ignoring what stands between),
    for each of the 21 distinct rolls the columns of its distances among them (a last
    column for none), and the rolls' chances."""
    reach, chance = [], []
    for a in range(1, 7):
        for b in range(a, 7):
            reach.append([a, 2 * a, 3 * a, 4 * a] if a == b else [a, b, a + b])
            chance.append((1 if a == b else 2) / 36)
    distances = sorted({d for r in reach for d in r})
    columns = [[distances.index(d) for d in r] + [len(distances)] * (4 - len(r)) for r in reach]
    return (np.array(distances, dtype=np.int64), np.array(columns, dtype=np.intp),
            np.array(chance, dtype=np.float32))


_DISTANCES, _REACH, _ROLL_CHANCE = _roll_reach()
_BITS = np.int64(1) << np.arange(POINTS + 1, dtype=np.int64)


def _shots(blots: np.ndarray, attackers: np.ndarray) -> np.ndarray:
    """On the shared track of the rally (both sides' own point p is the same point): the
    chance that the attacker's next roll hits a blot, the expected progress the hit costs
    (25 - p pips of the most advanced blot it reaches, as a fraction of 24), and contact
    (an attacking checker, the pool counted as point 25, behind one of the blot side's
    checkers on the board).

    ``blots``: ``(n, 24)`` counts of the side that may be hit; ``attackers``: ``(n, 25)``
    counts of the other side on points 1-24 then its pool.  Intermediate points of a
    combined move are taken as open (an approximation).  Points are bits (point p: bit
    p - 1), every distance at once."""
    single = (blots == 1) @ _BITS[:POINTS]
    board = (blots > 0) @ _BITS[:POINTS]
    occupied = (attackers > 0) @ _BITS
    hit = single[:, None] & (occupied[:, None] >> _DISTANCES[None, :])  # (n, distances)
    lowest = hit & -hit  # the most advanced blot hit, as its bit
    exponent = np.frexp(lowest.astype(np.float64))[1]  # bit index + 1 = p
    loss = np.zeros((blots.shape[0], len(_DISTANCES) + 1), dtype=np.float32)
    loss[:, :-1] = np.where(hit != 0, (POINTS + 1 - exponent) / POINTS, 0.0)
    per_roll = loss[:, _REACH].max(axis=2)  # (n, 21)
    contact = (board != 0) & (occupied >= 2 * (board & -board))
    return np.stack([(per_roll > 0) @ _ROLL_CHANCE, per_roll @ _ROLL_CHANCE, contact], axis=1).astype(np.float32)


def encode_fields(f: np.ndarray, mirrored: bool, rules_name: str | None = None) -> np.ndarray:
    """Features of boards given as fields (``fields``), the mover first: ``(n, INPUTS)``,
    or ``(n, inputs(rules_name))`` with the rule set's extra inputs when it is named."""
    theirs = f[:, st.OPP + 1:st.OPP + 25]
    if mirrored:
        theirs = theirs[:, ::-1]  # the opponent's own point q is the mover's 25 - q
    mine = _side(f[:, 1:25], f[:, 25], f[:, 0])
    other = _side(theirs, f[:, st.OPP + 25], f[:, st.OPP])
    if not EXTRA_INPUTS.get(rules_name or ""):
        return np.concatenate([mine, other], axis=1)
    # rally-hitting: the shared track, the mover's blots against the side to roll, and back
    my_counts, their_counts = f[:, 1:26], f[:, st.OPP + 1:st.OPP + 26]
    n = f.shape[0]
    shots = _shots(np.concatenate([my_counts[:, :POINTS], their_counts[:, :POINTS]]),
                   np.concatenate([their_counts, my_counts]))  # both sides in one pass
    return np.concatenate([mine, other, shots[:n], shots[n:]], axis=1)


def encode(keys: Sequence[int], mirrored: bool, rules_name: str | None = None) -> np.ndarray:
    """Features of packed boards, each seen by the side that has just moved."""
    return encode_fields(fields(keys), mirrored, rules_name)


def swap(key: int, mirrored: bool) -> int:
    """The same packed board seen by the other side."""
    mine, theirs = st.unpack(key, mirrored)
    return st.pack(theirs, mine, mirrored)


__all__ = ["EXTRA_INPUTS", "INPUTS", "LEVELS", "encode", "encode_fields", "fields", "inputs", "outputs", "swap"]
