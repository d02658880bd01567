"""The controller's phases: each its own immutable value holding only the data valid in it.

``Phase`` names where the game stands (what ``Controller.phase`` reports); the classes below
are the phase values the controller holds, one per ``Phase``.  Data that belongs to one
phase lives only there (the turn under way in ``Moving``, the position to guide back to in
``Restore``), so no field is ever "set only in some phases".  Which phase may follow which
is declared in ``controller.transitions``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, Union

from .opponent import Planned
from .rules.turn import TurnMap
from .rules.values import Colour, Position, Roll
from .tracking import Tracker


class Phase(Enum):
    """Where the game stands."""

    SETUP = "setup"
    OPENING = "opening"
    AWAIT_ROLL = "await roll"
    MOVING = "moving"
    RESTORE = "restore"
    GAME_OVER = "game over"
    CUBE_OFFERED = "cube offered"


@dataclass(frozen=True)
class Setup:
    """The lights guide the checkers to the start position."""

    kind: ClassVar[Phase] = Phase.SETUP
    dice: tuple[int, int] | None = None
    """The opening throw, come while the board stood set up but no reading had shown it yet
    (the sensors settle a moment after the hands): it opens the game once one does."""
    thrown: float = -math.inf
    """When those dice were read (kept ``SETUP_ROLL_KEPT`` seconds)."""


@dataclass(frozen=True)
class Opening:
    """The board stands at the start: each player throws one die."""

    kind: ClassVar[Phase] = Phase.OPENING


@dataclass(frozen=True)
class AwaitRoll:
    """The player to move rolls both dice."""

    kind: ClassVar[Phase] = Phase.AWAIT_ROLL
    last_rolled_at: float = -math.inf
    """When the turn just played was rolled (-inf: not known)."""


@dataclass(frozen=True)
class Turn:
    """The turn under way: who plays which roll, its legal states and the tracker judging the board."""

    colour: Colour
    roll: Roll
    map: TurnMap
    tracker: Tracker
    plan: Planned | None = None
    """The computer's play when the computer is on roll: the board accepts only it."""
    hint: Planned | None = None
    """The engine's best play, shown on the lights after Menu asked for a hint."""
    hints: tuple[tuple[str, float], ...] = ()
    """That hint's best plays in standard notation with their equities, best first."""
    rolled_at: float = -math.inf
    """When its roll was read (-inf: not known, a turn re-read or resumed): a blot its play
    hit must have left its point on a board posted since (``controller.seen``)."""
    last_rolled_at: float = -math.inf
    """When the turn before it was rolled (-inf: not known): the boards between the two rolls
    showed which blots that turn hit (``revise_steps``)."""
    rolled_exact: bool = False
    """``rolled_at`` is the dice's own landing time (``DiceEvent.late`` known): no allowance
    for a roll read late (``next_roll_steps.ROLL_READ``)."""


@dataclass(frozen=True)
class HeldRoll:
    """The next player's roll, thrown before the mover's play was complete: used once it is."""

    roll: Roll
    since: float
    warned: bool = False
    over: int | None = None
    """The complete board it came over, when another play passes through that board (the
    turn waits to see which): nobody throws twice out of turn, so a later roll over a board
    short of it says the mover's play was that one and the players moved on."""
    thrown: float = -math.inf
    """When the roll was thrown (the dice landed) as well as the board knows it (``since``
    moves on to count grace times; this stays)."""
    exact: bool = False
    """``thrown`` is the dice's own time (``DiceEvent.late`` known): no allowance for a roll
    read late (``held_steps.ROLL_READ``)."""


@dataclass(frozen=True)
class Moving:
    """A turn is being played: tracking and guidance until a complete play and the next roll or Done."""

    turn: Turn
    last_legal: int
    """The turn map's key of the last legal board seen."""
    held: tuple[HeldRoll, ...] = ()
    """The next players' rolls thrown before this play was seen complete, in order."""
    done: float | None = None
    """When Done was pressed before the board showed a complete play (honoured if it does
    within the grace time: a quick hand presses Done before the board has settled)."""
    blot_wait: float | None = None
    """Until when a complete play whose checker went past a blot waits for that blot to be
    taken away (the hit made in passing) before it ends the turn as it stands."""
    settle: float | None = None
    """When the next roll came over a complete board that another play passes through (6/off
    of 6/off 3/1 shows as 6/4/off): the mover's hand may be carrying on, unseen yet; a board
    still showing that play a grace time later ends the turn with it."""
    left: tuple[int, float] | None = None
    """The complete board the board last left for another complete board, and when: a roll
    read just after a hit was undone may be the next player's, entering on the hit point."""
    guessed_from: int | None = None
    """The game's first turn record, in a run just before this turn, that was recorded from
    a board further on (the held rolls' catch-up, ``held_steps``) without the board ever showing its play
    complete: a wrong board looks at those again before it is warned about
    (``revise_steps``); a play the board showed is never revised."""
    guessed_hits: tuple[int, ...] = ()
    """For each turn from ``guessed_from`` on, the opponent's checkers the bar (or pool)
    showed its play hit: a revision keeps those hits (a blot seen hit was not passed)."""
    guesses_settled: bool = False
    """The board showed where the guessed turns ended (this turn's start, as the roll came
    over it), not the plays that led there: only a board with the waiting side's checkers
    moved looks at them again (the mover cannot move those; an illegal move of its own is
    never excused by the turns before read otherwise)."""

    kind: ClassVar[Phase] = Phase.MOVING

    def guesses_go_on(self, records: int) -> tuple[int, tuple[int, ...]]:
        """Where a run of guesses that takes in this turn begins, and the hits shown in its
        turns before this one: a run guessed before goes on, unless a board showed its end
        (then a new run begins at this turn, the game's record ``records``)."""
        if self.guessed_from is None or self.guesses_settled:
            return records, ()
        return self.guessed_from, self.guessed_hits


@dataclass(frozen=True)
class Restore:
    """Guide the board back to ``target`` (after a takeback or a restart), then play ``roll``'s
    turn, or await a roll when ``roll`` is None."""

    target: Position
    roll: Roll | None = None

    kind: ClassVar[Phase] = Phase.RESTORE


@dataclass(frozen=True)
class CubeOffered:
    """``by`` doubled to ``value`` before rolling (backgammon): the opponent takes with Done
    or passes with Takeback (``controller.cube_steps``)."""

    by: Colour
    value: int

    kind: ClassVar[Phase] = Phase.CUBE_OFFERED


@dataclass(frozen=True)
class GameOver:
    """The game is won: Done begins the next game of the match."""

    kind: ClassVar[Phase] = Phase.GAME_OVER


State = Union[Setup, Opening, AwaitRoll, Moving, Restore, GameOver, CubeOffered]
"""A phase value."""
