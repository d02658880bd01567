"""The controller's steps that guide the board to a position before play goes on: the
setup and the opening throw, a restore (after a takeback, or on resuming), and the next
game.  A base of ``controller.machine.Controller`` beside ``turn_steps``, which starts and
ends the turns (it uses the controller's state and output, declared below; this module
never imports the machine)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from hal.interfaces import LightFrame, Sound

from . import guidance
from .journal_entries import Entry, GameEntry, OpeningEntry, TakebackEntry, stamp
from .phases import AwaitRoll, GameOver, Moving, Opening, Restore, Setup
from .rules.game import TurnRecord
from .steps_base import ControllerState
from .transitions import Trigger

if TYPE_CHECKING:
    from .outputs import Output
    from .phases import State
    from .rules.values import Roll
    from .screens import Screens
    from .tracking import BoardReading

T = Trigger

SETUP_ROLL_KEPT = 3.0
"""Seconds the opening throw is kept while the board is nearly set up (no reading yet, or a
checker or two still in hand or on their way): a board set up within them opens with it."""
NEARLY_SET_UP = 2
"""Checkers at most off their start points for a throw to be kept (``SETUP_ROLL_KEPT``)."""


class SetupSteps(ControllerState):
    """The steps guiding the board to a position (see the module docstring)."""

    if TYPE_CHECKING:  # the controller's state and steps used here, beyond ControllerState's
        _screens: Screens

        def _stay(self, state: State) -> None: ...
        def _resume_explain(self, time: float) -> Output | None: ...
        def _guidance(self) -> LightFrame: ...
        def _start_turn(self, time: float, roll: Roll, trigger: Trigger, journal_roll: bool = True,
                        rolled_at: float | None = None) -> Output: ...
        def _turns_to_take_back(self) -> int: ...
        def _next_seq(self) -> int: ...

    def _guide_restore(self, time: float) -> Output:
        """SETUP, RESTORE and GAME_OVER: lights until the board shows the target position."""
        state = self._state
        target = state.target if isinstance(state, Restore) else self.game.position
        label = "Set up the board for the start" if isinstance(state, Setup) else "Put the checkers back as lit"
        reading = self._reading
        if reading is None:  # no board seen yet: the lights wait for one
            return self._output(message=label)
        wanted = self.reader.position_reading(target)
        # every checker seen where wanted: a zone the sensors missed is empty (no 31st checker)
        exact = reading.white == wanted.white and reading.black == wanted.black
        if not exact and isinstance(state, Restore) and self._window is not None and self._window.lenient:
            resumed = self._resume_explain(time)
            if resumed is not None:
                return resumed
        if exact and isinstance(state, Setup):
            self._go(T.BOARD_SET_UP, Opening())
            if state.dice is not None and time < state.thrown + SETUP_ROLL_KEPT:
                return self._on_opening(time, *state.dice)  # thrown as the board stood set up
            return self._output(frame=self._guidance())
        if isinstance(state, Setup) and state.dice is not None and _checkers_off(reading, wanted) > NEARLY_SET_UP:
            self._stay(Setup())  # the throw kept came before the board was set up after all
            return self._set_up_first()
        if exact and isinstance(state, Restore):
            return self._finish_restore(time, state)
        if isinstance(state, GameOver):
            return self._output()
        frame = guidance.restore_frame(self.reader, reading, wanted, label)
        if isinstance(state, Setup):
            frame = LightFrame.of({**guidance.start_quarter_lights(self._screens.quarter), **dict(frame.lights)}, label)
        return self._output(frame=frame)

    def _dice_in_setup(self, time: float, a: int, b: int) -> Output:
        """Dice thrown before the board was seen set up: kept when it may stand set up already
        (no reading yet, or all but ``NEARLY_SET_UP`` checkers on their start points: the
        sensors settle a moment after the hands), else a warning."""
        reading = self._reading
        if reading is None or _checkers_off(reading, self.reader.position_reading(self.game.position)) <= NEARLY_SET_UP:
            self._stay(Setup(dice=(a, b), thrown=time))
            return self._output(message=f"Throw {a}-{b} kept until the board is seen set up")
        return self._set_up_first()

    def _set_up_first(self) -> Output:
        """Dice thrown while the board is far from set up: refused, with a warning."""
        return self._output(message="Set up the board before rolling", sounds=(Sound.WARNING,))

    def _setup_dice_due(self, time: float) -> Output | None:
        """The opening throw kept in the setup has waited ``SETUP_ROLL_KEPT`` seconds for the
        board: it is dropped, with a warning to set up and throw again."""
        state = self._state
        if not isinstance(state, Setup) or state.dice is None or time < state.thrown + SETUP_ROLL_KEPT:
            return None
        self._stay(Setup())
        return self._output(message="Set up the board, then throw again", sounds=(Sound.WARNING,))

    def _finish_restore(self, time: float, restore: Restore) -> Output:
        if restore.roll is not None:
            return self._start_turn(time, restore.roll, T.RESTORED, journal_roll=False)
        self._go(T.RESTORED, AwaitRoll() if self.game.opening is not None or self.game.history else Opening())
        return self._output(frame=self._guidance())

    def _on_opening(self, time: float, a: int, b: int) -> Output:
        opening = self.game.throw_opening(a, b)
        if opening is None:
            return self._output(message=f"Equal throws ({a}-{b}): throw again")
        entry = OpeningEntry(self._next_seq(), stamp(time), (a, b), self._last_throw)
        who = "the first player" if opening.winner == 0 else "the second player"
        if opening.roll is None:
            self._go(T.OPENING_THROW, AwaitRoll())
            message = f"{opening.first.value.capitalize()} ({who}) starts: roll both dice"
            frame = LightFrame.of(guidance.turn_lights(opening.first), message)
            return self._output(journal=(entry,), frame=frame, sounds=(Sound.TURN,))
        return self._start_turn(time, opening.roll, T.OPENING_THROW, journal_roll=False, rolled_at=time).after((entry,))


    def _takeback(self, time: float) -> Output:
        """The last turn taken back (with the computer, the person's last turn and the
        computer's reply): the board is guided back and the person plays that roll again."""
        count = self._turns_to_take_back() if isinstance(self._state, (Moving, AwaitRoll)) else 0
        if not count:
            return self._output(message="Nothing to take back", sounds=(Sound.WARNING,))
        entries: list[Entry] = []
        for _ in range(count):
            last = cast(TurnRecord, self.game.undo())  # _turns_to_take_back counted turn records only
            entries.append(TakebackEntry(self._next_seq(), stamp(time), last.colour, last.roll))
        self._window = None
        self._verdict = None
        self._alarm.clear()
        self._go(T.TAKEBACK, Restore(last.before, last.roll))
        message = f"Take back {last.colour.value}'s {last.roll}: put the checkers back as lit"
        out = self._guide_restore(time) if self._reading is not None else self._output(message=message)
        return out.after(tuple(entries))

    def _next_game(self, time: float) -> Output:
        winner = self.match.winner()
        if winner is not None:
            return self._output(message=f"The match is over: {winner.value} wins")
        self.game = self.match.new_game()
        self._go(T.NEXT_GAME, Setup())
        entry = GameEntry(self._next_seq(), stamp(time), len(self.match.games))
        out = self._guide_restore(time) if self._reading is not None else self._output(message="Set up the next game")
        return out.after((entry,))


def _checkers_off(reading: BoardReading, wanted: BoardReading) -> int:
    """How many checkers ``reading`` shows off the points ``wanted`` puts them on."""
    return sum(abs(now - then) for side, target in ((reading.white, wanted.white), (reading.black, wanted.black))
               for now, then in zip(side, target)) // 2
