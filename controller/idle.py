"""What the board does while no event waits: the work that would otherwise fall inside the
next roll.

A roll is the event that builds its turn's map, and a double's map (thousands of boards)
takes a millisecond or more; the collector's young generation, due every few hundred new
objects, lands inside whichever event passes its threshold.  Both can be done before the
roll: ``work_while_idle`` collects the young generation (``collector.collect_young``),
finds the play the board shows complete (the roll that ends the turn names it) and then
builds, one map at a time, the maps of every roll from the position the next roll will
be played from (``rules.turn.build_ahead``), while its caller says nothing waits.
The caller is whatever waits for the board's events: the runner's loop on a real board,
the simulator's pump between performance steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .collector import collect_young
from .phases import Phase
from .rules.turn import build_ahead, find_play_ahead
from .tracking import Kind

if TYPE_CHECKING:
    from .machine import Controller
    from .rules.values import Position


def next_position(controller: Controller) -> Position | None:
    """The position the next roll will be played from, as far as the board shows it now:
    the game's while a roll is awaited; during a turn, the end of the complete play the
    board shows (the next roll usually ends the turn there); else None.  For such a play,
    the play itself is found now too (``rules.turn.find_play_ahead``): the roll asks for it."""
    phase = controller.phase
    if phase is Phase.AWAIT_ROLL:
        return controller.game.position
    if phase is not Phase.MOVING:
        return None
    verdict, moving = controller.last_verdict, controller.turn_in_progress
    if verdict is None or verdict.kind is not Kind.COMPLETE or verdict.key is None or moving is None:
        return None
    rules = controller.settings.rules
    find_play_ahead(rules, controller.game.position, moving[1], verdict.key)
    return rules.position_after(verdict.key, moving[0])


def work_while_idle(controller: Controller, waiting: Callable[[], bool], build: bool = True) -> None:
    """Collect the young garbage, find the play shown complete, then build the next turn's
    maps one at a time until all are built or ``waiting()`` says an event has come (with
    one waiting already, nothing is done: the event comes first).  ``build=False``: only
    the collection (a simulation run as fast as possible has no idle time to fill)."""
    if waiting():
        return
    collect_young()
    if not build:
        return
    position = next_position(controller)
    if position is None or position.winner() is not None:
        return
    rules = controller.settings.rules
    while not waiting() and build_ahead(rules, position):
        pass


__all__ = ["next_position", "work_while_idle"]
