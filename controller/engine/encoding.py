"""Features of a position for the neural evaluation, seen from the side that has just moved.

Positions come as the rules engine's packed boards (``controller.rules.state``): field
``i`` of a key is the mover's count on own point ``i`` (0 off, 25 bar or pool), field
``26 + p`` the opponent's count on the mover's point ``p``.  Each side is encoded in its
own numbering (pips to go), TD-Gammon style, so the same inputs mean the same thing for
both colours and for every geometry; whether the two sides' points are mirrored
(trictrac, backgammon) or shared (the rally) is the rule set's ``MIRRORED``.
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

_HEX = np.zeros(256, dtype=np.int8)
_HEX[np.frombuffer(b"0123456789abcdef", dtype=np.uint8)] = np.arange(16, dtype=np.int8)
_PIPS = np.arange(1, POINTS + 1, dtype=np.float32)


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


def encode_fields(f: np.ndarray, mirrored: bool) -> np.ndarray:
    """Features of boards given as fields (``fields``), the mover first: ``(n, INPUTS)``."""
    theirs = f[:, st.OPP + 1:st.OPP + 25]
    if mirrored:
        theirs = theirs[:, ::-1]  # the opponent's own point q is the mover's 25 - q
    mine = _side(f[:, 1:25], f[:, 25], f[:, 0])
    other = _side(theirs, f[:, st.OPP + 25], f[:, st.OPP])
    return np.concatenate([mine, other], axis=1)


def encode(keys: Sequence[int], mirrored: bool) -> np.ndarray:
    """Features of packed boards, each seen by the side that has just moved."""
    return encode_fields(fields(keys), mirrored)


def swap(key: int, mirrored: bool) -> int:
    """The same packed board seen by the other side."""
    mine, theirs = st.unpack(key, mirrored)
    return st.pack(theirs, mine, mirrored)


__all__ = ["INPUTS", "LEVELS", "encode", "encode_fields", "fields", "outputs", "swap"]
