"""Which phase may follow which, and on what: the table the controller checks every phase
change against (``check``), and from which ``controller.diagram`` draws the state diagram.

The table is plain data.  A change it does not declare raises ``UndeclaredTransition``, so
the table is the truth about the machine: to add a path, add its row here.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from .phases import Phase


class Trigger(Enum):
    """What makes the controller change phase."""

    BOARD_SET_UP = "board at the start"
    OPENING_THROW = "opening throw"
    ROLL = "roll"
    PLAY_COMPLETE = "play complete, next roll or Done"
    WINNING_PLAY = "winning play"
    TAKEBACK = "Takeback"
    RESTORED = "board restored"
    NEXT_GAME = "Done, next game"
    RESUME = "resume from the journal"
    RESUME_EXPLAINED = "restart, board explained"
    RESUME_GUIDE_BACK = "restart, board unexplained"
    DOUBLE = "Menu, double"
    TAKE = "Done, take"
    DROP = "Takeback, pass"
    REVISE = "wrong board, explained by guessed turns played otherwise"


class Transition(NamedTuple):
    """One declared change: from ``source`` on ``trigger`` to ``target``."""

    source: Phase
    trigger: Trigger
    target: Phase


S, O, A, M, R, G = Phase.SETUP, Phase.OPENING, Phase.AWAIT_ROLL, Phase.MOVING, Phase.RESTORE, Phase.GAME_OVER
C = Phase.CUBE_OFFERED
T = Trigger

TRANSITIONS: tuple[Transition, ...] = tuple(Transition(*row) for row in (
    (S, T.BOARD_SET_UP, O),
    (O, T.OPENING_THROW, M),  # the opening throw is the first roll (trictrac)
    (O, T.OPENING_THROW, A),  # the winner of the opening throw rolls both dice
    (A, T.ROLL, M),
    (A, T.ROLL, A),  # the roll has no legal move: the turn passes
    (M, T.PLAY_COMPLETE, A),
    (M, T.WINNING_PLAY, G),
    (M, T.TAKEBACK, R),
    (M, T.REVISE, M),  # turns recorded from boards never seen are played again (controller.revise_steps)
    (A, T.TAKEBACK, R),
    (R, T.RESTORED, M),
    (R, T.RESTORED, A),
    (R, T.RESTORED, O),  # a restore before the opening throw (guided back to the start)
    (G, T.NEXT_GAME, S),
    (S, T.RESUME, A),
    (S, T.RESUME, M),
    (S, T.RESUME, R),
    (S, T.RESUME, G),
    (S, T.RESUME_EXPLAINED, O),  # the tray's opening throw explains the first moves
    (A, T.RESUME_EXPLAINED, M),
    (A, T.RESUME_EXPLAINED, A),
    (M, T.RESUME_EXPLAINED, M),
    (M, T.RESUME_EXPLAINED, A),
    (R, T.RESUME_EXPLAINED, M),
    (R, T.RESUME_EXPLAINED, A),
    (A, T.RESUME_GUIDE_BACK, R),
    (M, T.RESUME_GUIDE_BACK, R),
    (A, T.DOUBLE, C),  # backgammon: the player on roll doubles (controller.cube_steps)
    (C, T.TAKE, A),
    (C, T.DROP, G),  # a pass ends the game
    (S, T.RESUME, C),  # a restart while a double stood
))
"""Every phase change the controller makes."""

_DECLARED = frozenset(TRANSITIONS)


class UndeclaredTransition(RuntimeError):
    """The controller tried a phase change the table does not declare (a bug, never input)."""


def check(source: Phase, trigger: Trigger, target: Phase) -> None:
    """Raise UndeclaredTransition unless the table declares this change."""
    if Transition(source, trigger, target) not in _DECLARED:
        raise UndeclaredTransition(f"{source.value} -> {target.value} on {trigger.value!r} is not declared")
