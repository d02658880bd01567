"""The web view wired to a running board: what the command line composes.

``Publisher`` turns each controller output into a published state (on the controller's
thread); ``live_sink`` and ``board_sink`` say where a browser's actions go: into a live
simulated table's hands, or (a real board, whose checkers only real hands move) onto the
controller's event queue as button presses.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Protocol

from controller.listen import Listen
from controller.machine import Output
from hal.interfaces import Button, ButtonEvent, Clock, EventQueue
from hal.zones import Checker

from .actions import Action, Lift, Place, Press, Throw
from .hub import Hub, Sink
from .view import StateView


class Publisher:
    """Called with every output the controller gives: publishes the state it leads to."""

    def __init__(self, hub: Hub, view: StateView, hand: Callable[[], dict[Checker, int]] | None = None,
                 link: Callable[[], str] | None = None) -> None:
        self.hub, self.view, self._hand, self._link = hub, view, hand, link

    def __call__(self, output: Output | None = None) -> None:
        hand = {c.value: n for c, n in self._hand().items()} if self._hand is not None else None
        if self._link is not None:
            self.view.link = self._link()
        self.hub.publish(self.view.state(output, hand))


class Hands(Protocol):
    """What a browser may do at a simulated table (``simulator.live_table.LiveTable``), from any thread."""

    def lift(self, zone: str, colour: Checker) -> None: ...
    def place(self, zone: str, colour: Checker) -> None: ...
    def throw(self) -> None: ...
    def press(self, button: Button) -> None: ...


def live_sink(table: Hands) -> Sink:
    """Browsers' actions into a live simulated table (queued for its thread).  A hand may
    touch any checker (the hitter's carries the hit one to the bar), the dice and the
    buttons; the controller judges what the board then shows."""

    def take(action: Action) -> str | None:
        if isinstance(action, Lift):
            table.lift(action.zone, action.colour)
        elif isinstance(action, Place):
            table.place(action.zone, action.colour)
        elif isinstance(action, Throw):
            table.throw()
        elif isinstance(action, Press):
            table.press(action.button)
        return None

    return take


def board_sink(events: EventQueue, clock: Clock) -> Sink:
    """A real board: the browser's buttons onto the controller's queue; checkers move by hand."""

    def take(action: Action) -> str | None:
        if isinstance(action, Press):
            events.put(ButtonEvent(clock.now(), action.button))
            return None
        if isinstance(action, Throw):
            return "a real board: throw the dice in its tray"
        return "a real board: move its checkers by hand"

    return take


def token_for(listen: Listen, configured: str | None) -> str | None:
    """The token a browser needs to play: none on this machine only, else the configured one
    or a new random one (printed at start)."""
    if listen.loopback:
        return None
    return configured or secrets.token_urlsafe(16)
