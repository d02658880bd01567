"""The board's warnings and their grace times: a wrong board must stand ``grace`` seconds
before the board warns, a roll held over an unfinished play likewise; behind a quiet link
(``Settings.confirm``) a warning waits for a fresh snapshot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hal.interfaces import BoardSnapshot

from .phases import HeldRoll

CONFIRM_AGAIN = 1.0
"""Seconds after which an unanswered request to confirm a wrong board is made again."""
BLOT_WAIT = 3.0
"""Seconds a winning play that passed a blot waits for the blot to be taken away (the hit
made in passing) before the game is recorded as the board shows it."""


@dataclass(frozen=True)
class WrongBoard:
    """A wrong board waiting out the grace time: what it shows (``key``) and since when."""

    key: tuple[Any, ...]
    since: float
    snapshot: BoardSnapshot | None = None
    """The snapshot it first showed on: a later one hiding zones, the same wherever it reads,
    shows it still standing (its grace time runs on through dropouts one after another)."""


@dataclass
class Alarm:
    """Whether the board warns now, and the grace times running before it does."""

    grace: float
    confirm: bool
    wrong: WrongBoard | None = None
    warning: bool = False
    """The board is warning about a wrong position now."""
    warned: tuple[Any, ...] | None = None
    """The wrong board the standing warning was given for: another wrong board that stands
    its grace time (a second illegal move made before the first was put back) warns again."""
    put: frozenset[int] = frozenset()
    """The mover's points where the illegal move the standing warning is about put checkers
    (more than on the last legal board): a board with one of them no longer too full is a
    hand taking that move back."""
    stale: bool = False
    """The board's link is down: its last board is not to be warned about."""
    asked: float | None = None
    """When the board was last asked to confirm a warning (``confirm``)."""

    def clear(self) -> None:
        """No wrong board, no warning: a new turn or phase judges the board anew."""
        self.wrong = None
        self.warning = False
        self.warned = None
        self.put = frozenset()

    def note_wrong(self, key: tuple[Any, ...], time: float, snapshot: BoardSnapshot | None = None) -> None:
        """A wrong board showing ``key`` (on ``snapshot``): its grace time runs from when it first showed."""
        if self.wrong is None or self.wrong.key != key:
            self.wrong = WrongBoard(key, time, snapshot)

    def wrong_due(self, time: float) -> bool:
        """A wrong board has stood its grace time unwarned."""
        wrong = self.wrong
        return wrong is not None and self._unwarned(wrong) and time >= wrong.since + self.grace

    def warn(self) -> None:
        """The board warns now, about the wrong board that stood its grace time."""
        self.warning = True
        self.warned = self.wrong.key if self.wrong is not None else None

    def _unwarned(self, wrong: WrongBoard) -> bool:
        return not self.warning or wrong.key != self.warned

    def held_due(self, held: HeldRoll | None, time: float) -> bool:
        """A roll held over an unfinished play has waited out its grace time unwarned."""
        return held is not None and not held.warned and not self.stale and time >= held.since + self.grace

    def ask_again(self, time: float) -> bool:
        """Behind a quiet link: should the board be asked (again) for a fresh snapshot now?"""
        if self.asked is None or time >= self.asked + CONFIRM_AGAIN:
            self.asked = time
            return True
        return False

    def deadline(self, held: HeldRoll | None, also: float | None = None) -> float | None:
        """When a grace time runs out, if one is running (``also``: another one's end)."""
        times = [] if also is None else [also]
        if self.wrong is not None and self._unwarned(self.wrong):
            times.append(self.wrong.since + self.grace)
        if held is not None and not held.warned and not self.stale:
            times.append(held.since + self.grace)
        if times and self.asked is not None:  # asked to confirm: ask again if no snapshot comes
            times = [max(when, self.asked + CONFIRM_AGAIN) for when in times]
        return min(times) if times else None
