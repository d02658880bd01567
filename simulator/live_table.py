"""The simulated board in real time, played by hand from outside (a browser) for some
colours and by simulated players for the others.

A ``Table`` runs on a virtual clock as fast as it can; here the virtual clock follows the
wall clock, and hands from other threads act through ``lift``/``place``/``throw``/``press``,
which only queue the action: the loop thread (``run``) is the one that touches the board,
the sensors and the controller.  A simulated player at this table sets the checkers out
for a new game, throws when it is its turn (after the person's Done), makes its play by
hand and presses Done.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable

from controller.machine import Phase
from controller.rules.values import Colour, Roll
from hal.interfaces import Button
from hal.zones import Checker

from .players import Steps, Strategy, takes_double
from .table import Table

THINK = 0.8
"""Seconds a simulated player at a live table thinks before it throws or sets out the checkers."""


class LiveTable:
    """A ``Table`` on the wall clock, with queued hand actions for the colours in ``people``."""

    def __init__(self, table: Table, people: frozenset[Colour], speed: float = 1.0,
                 on_error: Callable[[str], None] | None = None) -> None:
        if speed <= 0:
            raise ValueError(f"a live table runs at a positive speed, not {speed}")
        self.table = table
        self.people = people
        self.speed = speed
        self.on_error = on_error or (lambda line: None)
        self._inbox: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._busy = False
        """A simulated player's script is under way (it acts one thing at a time)."""
        self._played: tuple[int, int] | None = None
        """The turn (game number, turns recorded) a simulated player last set out to play."""

    # -- any thread -----------------------------------------------------------------------------
    def lift(self, zone: str, colour: Checker) -> None:
        """A hand lifts a checker of ``colour`` from ``zone`` (queued for the loop)."""
        self._inbox.put(lambda: self.table.sim.board.lift(zone, colour))

    def place(self, zone: str, colour: Checker) -> None:
        """The hand puts a checker of ``colour`` on ``zone`` (queued for the loop)."""
        self._inbox.put(lambda: self.table.sim.board.place(zone, colour))

    def throw(self) -> None:
        """The dice are thrown, their faces from the simulator's seeded stream (queued)."""
        self._inbox.put(self._throw)

    def press(self, button: Button) -> None:
        """A board button is pressed (queued)."""
        self._inbox.put(lambda: self.table.sim.buttons.press(button))

    def stop(self) -> None:
        """Ask the loop to return."""
        self._stopping.set()
        self._inbox.put(lambda: None)

    # -- the loop's thread ----------------------------------------------------------------------
    def run(self, until: Callable[[], bool] | None = None, poll: float = 0.05) -> None:
        """Follow the wall clock until ``stop`` (or ``until()``): hand actions, sensor scans,
        the controller's events and the simulated players' steps, each in time order."""
        sim = self.table.sim
        start_wall, start_virtual = time.monotonic(), sim.clock.now()

        def now() -> float:
            return start_virtual + (time.monotonic() - start_wall) * self.speed

        while not self._stopping.is_set() and not (until is not None and until()):
            self._advance(now())
            self._simulated_players()
            due = sim.scheduler.next_time()
            wait = poll if due is None else min(poll, max((due - now()) / self.speed, 0.0))
            try:
                action = self._inbox.get(timeout=wait)
            except queue.Empty:
                continue
            self._advance(now())
            self._act(action)
            while True:  # everything queued meanwhile, in order
                try:
                    action = self._inbox.get_nowait()
                except queue.Empty:
                    break
                self._act(action)
        self._advance(now())

    def _act(self, action: Callable[[], None]) -> None:
        """One queued action; one that the board cannot take (no checker there) is reported."""
        try:
            action()
        except ValueError as error:
            self.on_error(str(error))

    def _advance(self, t: float) -> None:
        """Run the simulation up to virtual time ``t`` and hand every event to the controller."""
        sim = self.table.sim
        while True:
            due = sim.scheduler.next_time()
            if due is None or due > t:
                break
            sim.scheduler.run_next()
            self.table.pump()
        if sim.clock.now() < t:
            sim.clock.advance_to(t)
        self.table.pump()

    def _throw(self) -> None:
        rng = self.table.sim.rng("dice")
        self.table.throw(rng.randint(1, 6), rng.randint(1, 6))

    # -- the simulated players --------------------------------------------------------------------
    def _simulated_players(self) -> None:
        """Start what a simulated player does next, if anything and if it is idle."""
        if self._busy:
            return
        controller = self.table.controller
        phase = controller.phase
        game = controller.game
        if phase is Phase.SETUP:
            self._script(self._set_out())
        elif phase is Phase.AWAIT_ROLL and game.turn not in self.people:
            self._script(self._throw_after(THINK))
        elif phase is Phase.CUBE_OFFERED and game.offered_by is not None and game.offered_by.opponent not in self.people:
            self._script(self._answer_double(game.offered_by.opponent))
        elif phase is Phase.MOVING:
            colour, roll = controller.turn_in_progress or (None, None)
            if colour is None or roll is None:
                return
            if colour not in self.people:
                turn = (len(controller.match.games), len(game.turns()))
                if turn != self._played:
                    self._played = turn
                    self._script(self._play(colour, roll))

    def _script(self, steps: Steps) -> None:
        """Run a simulated player's steps on the scheduler, one at a time."""
        scheduler = self.table.sim.scheduler
        self._busy = True

        def step() -> None:
            try:
                delay = next(steps)
            except StopIteration:
                self._busy = False
                return
            except ValueError as error:  # the board was not as the player thought (a person moved it)
                self._busy = False
                self.on_error(f"simulated player: {error}")
                return
            scheduler.after(max(delay, 0.0), step)

        scheduler.after(0.0, step)

    def _set_out(self) -> Steps:
        yield THINK
        table = self.table
        if table.controller.phase is Phase.SETUP:
            position = table.rules.start_position()
            snapshot = table.controller.reader.snapshot_of(position)
            table.sim.board.set_zones({z: (r.white, r.black) for z, r in snapshot.as_dict().items() if r})
        yield 0.5

    def _answer_double(self, colour: Colour) -> Steps:
        """A simulated player answers a person's double: Done takes, Takeback passes."""
        yield THINK
        controller = self.table.controller
        if controller.phase is Phase.CUBE_OFFERED:
            take = takes_double(self.table.players[colour], controller.game, controller.match)
            self.table.sim.buttons.press(Button.DONE if take else Button.TAKEBACK)
        yield 0.3

    def _throw_after(self, seconds: float) -> Steps:
        yield seconds
        self._throw()
        yield 0.5

    def _play(self, colour: Colour, roll: Roll) -> Steps:
        table = self.table
        position = table.controller.game.position
        plays = table.rules.legal_plays(position, roll)
        if not plays:
            return
        if colour in table.settings.computer:  # the computer's play, carried out from the lights
            yield from table.follower.carry(position, roll)
        else:
            player: Strategy = table.players[colour]
            play = player.choose(table.rules, position, roll, plays, table.rng)
            yield from table.hand.perform(position, roll, play)
        yield 0.4
        if table.controller.turn_in_progress == (colour, roll):
            table.sim.buttons.press(Button.DONE)
        yield 0.3
