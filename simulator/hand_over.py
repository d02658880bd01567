"""The bookkeeping of a hand habit: hit checkers handed to their owner, who enters them
straight from the hand with the next roll (``Behaviour.hand_over_rate``); ``Hand`` makes
the moves, this keeps count of what is in the hand."""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.rules.values import Colour


@dataclass
class HandOver:
    """Which hit checkers are in the hand for their owner to enter, and how many so far."""

    handed: dict[Colour, int] = field(default_factory=lambda: {Colour.WHITE: 0, Colour.BLACK: 0})
    """Hit checkers of each colour handed over and not yet entered or put down."""
    allowed: bool = False
    """The play under way does not end the game (a blot handed over then would never go down)."""
    count: int = 0
    """How many hit checkers were handed over so far (for the soaks' figures)."""

    def holds(self, colour: Colour, in_hand: int) -> bool:
        """A checker of ``colour`` was handed over and is still in the hand, which holds
        ``in_hand`` of them (forgotten when the hand was emptied, as by a new game's set-up)."""
        if self.handed[colour] and not in_hand:
            self.handed[colour] = 0
        return self.handed[colour] > 0

    def give(self, colour: Colour) -> None:
        """The hitter hands a blot of ``colour`` to its owner."""
        self.handed[colour] += 1
        self.count += 1

    def take(self, colour: Colour) -> None:
        """One checker of ``colour`` leaves the hand (entered, or put on its bar or pool)."""
        self.handed[colour] -= 1

    def more_than(self, colour: Colour, entering: int) -> bool:
        """More of ``colour`` are in the hand than the play enters."""
        return self.handed[colour] > entering
