"""Classic trictrac (Mendelev, RULES.md section 2) and modern backgammon scoring."""

from __future__ import annotations

from . import state as st
from .base import GameResult, Opening, RuleSet
from .registry import register
from .values import BAR, OFF, WHITE, Colour, Position, Roll

START = {24: 2, 13: 5, 8: 3, 6: 5}
"""Both players' start, in own points (RULES.md 2.1)."""


@register
class Trictrac(RuleSet):
    """Mendelev's trictrac: hitting, bar entry, bear-off from home, scores 1/2/4/8."""

    name = "trictrac"
    description = "classic trictrac (Mendelev): hitting, scores 1/2/4/8"

    __slots__ = ()

    def start_position(self) -> Position:
        return Position.from_counts(START, START, turn=WHITE)

    def _may_bear_off(self, state: int, point: int, die: int) -> bool:
        if state & st.OUTSIDE_HOME:
            return False
        return point == die or not state & st.ABOVE_IN_HOME[point]

    def bear_off_points(self, state: int, die: int, candidates: int) -> int:
        """The exact point, and the highest point below ``die`` if none stands above it."""
        if state & st.OUTSIDE_HOME:
            return 0
        top = candidates.bit_length() - 1
        point = top >> 2
        if point < die and not state & st.ABOVE_IN_HOME[point]:
            return candidates & st.UNIT[die] | 1 << top
        return candidates & st.UNIT[die]

    def _opening(self, winner: int, roll: Roll) -> Opening:
        # RULES.md 2.1: the higher throw plays White and moves first with both dice.
        return Opening(winner, WHITE, roll)

    def score(self, position: Position, winner: Colour) -> tuple[int, str]:
        loser = position.side(winner.opponent)
        if loser[OFF]:
            return 1, "single"
        all_home = not any(loser[7:BAR + 1])
        if all_home:
            return 2, "home"
        if loser[BAR]:
            return 8, "bar"
        return 4, "outside"


@register
class Backgammon(Trictrac):
    """The same game under modern scoring: gammon 2, backgammon 3, with the doubling cube."""

    name = "backgammon"
    description = "backgammon: as trictrac, scored 1/2/3 with the doubling cube"
    HAS_CUBE = True

    __slots__ = ()

    def _opening(self, winner: int, roll: Roll) -> Opening:
        # the opening winner moves first with the colour already held
        return Opening(winner, WHITE if winner == 0 else WHITE.opponent, roll)

    def score(self, position: Position, winner: Colour) -> tuple[int, str]:
        loser = position.side(winner.opponent)
        if loser[OFF]:
            return 1, "single"
        # the winner's home is the loser's own points 19-24
        if loser[BAR] or any(loser[19:25]):
            return 3, "backgammon"
        return 2, "gammon"


__all__ = ["Trictrac", "Backgammon", "GameResult", "START"]
