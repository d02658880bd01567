"""Game outcomes as the network learns them, and the expected score (equity) they imply.

A network's outputs are, from the view of the side that has just moved: the chance to win,
then the chance to win at least each point level of the rule set (trictrac 2/4/8,
backgammon 2/3, the rally's mars 2), then the chance to lose at least each level.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from controller.rules import BAR, OFF, RuleSet

from .encoding import LEVELS


def win_points(rules_name: str, loser: Sequence[int]) -> int:
    """The points a win is worth by the loser's side (own numbering), mars counted in the rally."""
    if loser[OFF]:
        return 1
    if rules_name == "trictrac":  # RULES.md 2.3
        if not any(loser[7:BAR + 1]):
            return 2
        return 8 if loser[BAR] else 4
    if rules_name == "backgammon":
        return 3 if loser[BAR] or any(loser[19:25]) else 2
    return 2  # the rally's mars (RULES.md 3.2), counted whether or not the option is on


def target(rules_name: str, won: bool, points: int) -> np.ndarray:
    """The output vector of a finished game for the side that won (``won``) or lost."""
    levels = LEVELS[rules_name]
    reached = [1.0 if points >= level else 0.0 for level in levels]
    zeros = [0.0] * len(levels)
    if won:
        return np.array([1.0] + reached + zeros, dtype=np.float32)
    return np.array([0.0] + zeros + reached, dtype=np.float32)


def flip(probs: np.ndarray) -> np.ndarray:
    """The same outcomes seen by the other side (works on one vector or a batch)."""
    k = (probs.shape[-1] - 1) // 2
    out = np.empty_like(probs)
    out[..., 0] = 1 - probs[..., 0]
    out[..., 1:1 + k] = probs[..., 1 + k:]
    out[..., 1 + k:] = probs[..., 1:1 + k]
    return out


def equity_weights(rules: RuleSet) -> np.ndarray:
    """Linear weights turning outputs into expected points (plus the constant -1)."""
    levels = LEVELS[rules.name]
    scored = rules.name in ("trictrac", "backgammon") or rules.options.get("mars", False)
    steps = [(level - previous) if scored else 0.0 for previous, level in zip((1,) + levels, levels)]
    return np.array([2.0] + steps + [-s for s in steps], dtype=np.float32)


def equity(probs: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Expected points for the side the outputs belong to (one vector or a batch)."""
    return probs @ weights - 1.0


__all__ = ["equity", "equity_weights", "flip", "target", "win_points"]
