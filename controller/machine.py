"""The controller: an explicit state machine that follows the game from the sensors.

``Controller.handle(event)`` takes one event (a settled snapshot, a roll, a button, a
tick) and returns an ``Output``: the journal entries to make durable first, then the
light frame, sounds and turn LED to show.  It does no I/O, starts no thread and reads no
clock: time comes with the events.

Phases (``controller.phases``, one value each holding only its own data): SETUP (lights
guide the start position) -> OPENING (one die each) -> AWAIT_ROLL -> MOVING (tracking and
guidance until a complete legal play and the next roll or Done) -> ... -> GAME_OVER ->
SETUP of the next game of the match.  RESTORE guides the player back to a known position
after a takeback or a resume.  Every phase change is checked against the table in
``controller.transitions`` (drawn in docs/state-machine.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from hal.interfaces import (
    BoardSnapshot,
    Button,
    ButtonEvent,
    DeviceEvent,
    DiceEvent,
    Event,
    LightFrame,
    SnapshotEvent,
    Sound,
    TickEvent,
)

from .alarm import CONFIRM_AGAIN, Alarm
from .board_steps import BoardSteps
from .computer_steps import ComputerSteps
from .cube_steps import CubeSteps
from .journal_entries import JOURNAL_VERSION, Entry, StartEntry, stamp
from .outputs import Output, Settings
from .opponent import Planned
from .phases import AwaitRoll, CubeOffered, GameOver, HeldRoll, Moving, Opening, Phase, Restore, Setup, State
from .resume import ResumeError, ResumePoint, Window
from .resume_steps import ResumeSteps
from .rules.base import GameResult
from .rules.game import Game, Match
from .rules.values import Colour, Roll
from .screens import Screens
from .seen import Seen
from .tracking import BoardReader, BoardReading, Kind, Verdict, checker_of
from .transitions import Trigger, UndeclaredTransition, check
from .chain_steps import ChainSteps
from .held_steps import HeldSteps
from .next_roll_steps import NextRollSteps
from .revise_steps import ReviseSteps
from .setup_steps import SETUP_ROLL_KEPT, SetupSteps
from .turn_steps import TrackerError, TurnSteps

__all__ = [
    "CONFIRM_AGAIN", "JOURNAL_VERSION", "Controller", "Output", "Phase", "ResumeError", "Settings", "TrackerError",
]

T = Trigger


@dataclass
class Controller(ResumeSteps, BoardSteps, SetupSteps, TurnSteps, HeldSteps, NextRollSteps, ChainSteps, ReviseSteps,
                 ComputerSteps, CubeSteps):
    """Follows one match on the board; see the module docstring (``board_steps`` judges
    what the board shows, ``setup_steps`` guides it to a position, ``turn_steps`` and
    ``held_steps`` hold the steps of play, ``resume_steps`` what it does after a restart)."""

    settings: Settings
    match: Match = field(init=False)
    game: Game = field(init=False)
    reader: BoardReader = field(init=False)
    resume_point: ResumePoint | None = field(init=False, default=None)
    """Where the journal left the game, when this controller was resumed from one."""
    _state: State = field(init=False, default_factory=Setup)
    _reading: BoardReading | None = field(init=False, default=None)
    _seen: Seen = field(init=False, default_factory=Seen)
    """The last snapshot, when each colour last left each point, and the most on each bar."""
    _verdict: Verdict | None = field(init=False, default=None)
    _alarm: Alarm = field(init=False)
    _screens: Screens = field(init=False)
    _frame: LightFrame = field(init=False, default_factory=LightFrame)
    _seq: int = field(init=False, default=0)
    _last_throw: int | None = field(init=False, default=None)
    """The board's number of the last throw seen (journalled with the roll it gave)."""
    _window: Window | None = field(init=False, default=None)
    _cube_asked: tuple[int, int] | None = field(init=False, default=None)
    """The game and turn at which the computer last considered a double (once a turn)."""

    def __post_init__(self) -> None:
        rules = self.settings.rules
        self.reader = BoardReader(rules, rules.geometry(self.settings.quarter))
        computer = tuple((colour, engine.name) for colour, engine in self.settings.computer.items())
        self._screens = Screens(self.reader, rules, self.settings.quarter or rules.START_QUARTER, computer)
        self._alarm = Alarm(self.settings.grace, self.settings.confirm)
        self.match = Match(rules, self.settings.match_length)
        self.game = self.match.new_game()

    # -- entry points ----------------------------------------------------------------------
    def begin(self, time: float) -> Output:
        """The first output: a new match's journal header and the setup lights."""
        rules = self.settings.rules
        entry = StartEntry(
            self._next_seq(), stamp(time), rules.name, rules.changed_options(), self.settings.quarter,
            self.settings.match_length, JOURNAL_VERSION,
        )
        return self._output(journal=(entry,), message="Set up the board for the start")

    def handle(self, event: Event) -> Output:
        """One event in, what to show out (with the computer's double when its turn to roll began)."""
        return self._computer_cube(event.time, self._handle(event))

    def _handle(self, event: Event) -> Output:
        if self._window is not None and isinstance(event, (SnapshotEvent, DiceEvent, ButtonEvent, TickEvent, DeviceEvent)):
            self._window.note(event.time)
        if isinstance(event, SnapshotEvent):
            return self._on_snapshot_event(event)
        if isinstance(event, DiceEvent):
            if event.throw is not None:
                if event.throw == self._last_throw:  # the board repeats it: taken before a restart
                    return self._output(log=(f"dice: throw {event.throw} was taken before; not a new roll",))
                self._last_throw = event.throw
            return self._on_dice(event)
        if isinstance(event, ButtonEvent):
            return self._on_button(event)
        if isinstance(event, TickEvent):
            return self._on_tick(event.time)
        if isinstance(event, DeviceEvent):
            return self._on_device(event)
        raise TypeError(f"not an event: {event!r}")

    # -- phase changes -------------------------------------------------------------------------
    def _go(self, trigger: Trigger, state: State) -> None:
        """Change phase, as ``controller.transitions`` declares (else UndeclaredTransition)."""
        check(self._state.kind, trigger, state.kind)
        self._state = state

    def _stay(self, state: State) -> None:
        """New data for the phase the controller is in (no phase change)."""
        if state.kind is not self._state.kind:
            raise UndeclaredTransition(f"{self._state.kind.value} -> {state.kind.value} without a trigger")
        self._state = state

    def _held(self) -> HeldRoll | None:
        """The roll held over a play that stands unfinished: a legal board short of a complete
        play (while a checker is in a hand or the board is hidden the mover is still at it)."""
        verdict = self._verdict
        if isinstance(self._state, Moving) and self._state.held and verdict is not None and verdict.kind is Kind.LEGAL:
            return self._state.held[0]
        return None

    def _on_device(self, event: DeviceEvent) -> Output:
        """A device's news, shown; while the board's link is down its last board is stale, so
        no grace time runs on it (the fresh snapshot after the link is back is judged anew)."""
        note = f"{event.device}: {event.message}"
        alarm, state = self._alarm, self._state
        if event.stale:
            alarm.stale = True
            alarm.wrong = None
        elif event.ok and alarm.stale:
            alarm.stale = False
            if isinstance(state, Moving) and state.held:
                held = tuple(replace(h, since=max(h.since, event.time)) for h in state.held)
                self._stay(replace(state, held=held))
        return self._output(log=(note,), message=note if not event.ok else None)

    # -- dice ---------------------------------------------------------------------------------
    def _on_dice(self, event: DiceEvent) -> Output:
        time = event.time
        if event.dice is None:
            return self._output(log=("dice: no clear roll in the tray",), message="Throw the dice again")
        a, b = event.dice
        if self._window is not None and not isinstance(self._state, Setup):
            resumed = self._resume_dice(time, Roll(a, b), numbered=event.throw is not None)
            if resumed is not None:
                return resumed
        state = self._state
        if isinstance(state, CubeOffered):
            return self._roll_during_offer(state)
        if isinstance(state, Setup):
            resumed = self._resume_opening(time, a, b) if self._window is not None and self._window.lenient else None
            if resumed is not None:
                return resumed
            return self._dice_in_setup(time, a, b)
        if isinstance(state, Opening):  # whatever the board shows: the turn's tracker judges it
            return self._on_opening(time, a, b)
        if isinstance(state, GameOver):
            return self._output(message="The game is over: press Done for the next game")
        if isinstance(state, Restore):
            return self._output(message="Put the checkers back first", sounds=(Sound.WARNING,))
        roll = Roll(a, b)
        if isinstance(state, AwaitRoll):  # whatever the board shows: the turn's tracker judges it
            if event.late is not None:  # (the dice's own landing time known)
                return self._start_turn(time, roll, T.ROLL, rolled_at=time - event.late, rolled_exact=True)
            return self._start_turn(time, roll, T.ROLL)
        return self._computer_first(time, state, roll) or self._next_roll_while_moving(time, state, roll, event.late)

    # -- buttons -----------------------------------------------------------------------------------
    def _on_button(self, event: ButtonEvent) -> Output:
        time, state = event.time, self._state
        if isinstance(state, CubeOffered):
            return self._on_cube_button(time, state, event.button)
        if event.button is Button.MENU and isinstance(state, AwaitRoll) and self.settings.rules.HAS_CUBE:
            return self._offer(time)
        if event.button is Button.DONE:
            if isinstance(state, GameOver):
                return self._next_game(time)
            if isinstance(state, Moving):
                return self._done(time, state)
            return self._output(message=f"Done does nothing now ({state.kind.value})")
        if event.button is Button.TAKEBACK:
            return self._takeback(time)
        if event.button is Button.ROLL:
            return self._output(message="Roll the dice in the tray" if not isinstance(state, Setup) else "Set up first")
        if event.button is Button.MENU and isinstance(state, Moving) and self.settings.hints is not None:
            return self._hint(state)
        return self._output(message=f"{self.settings.rules.name}: {state.kind.value}, {self.game.turn.value} to play")


    # -- output ------------------------------------------------------------------------------------
    def _guidance(self) -> LightFrame:
        """The lights for the current phase and the last verdict."""
        return self._screens.guidance(self._state, self._verdict, self.game)

    def _output(
        self,
        *,
        frame: LightFrame | None = None,
        sounds: tuple[Sound, ...] = (),
        journal: tuple[Entry, ...] = (),
        log: tuple[str, ...] = (),
        message: str | None = None,
        finished: GameResult | None = None,
        warning: str | None = None,
        request_snapshot: bool = False,
    ) -> Output:
        if frame is None:
            frame = self._frame
            if message is not None:
                frame = LightFrame(frame.lights, message)
        self._frame = frame
        state = self._state
        waits = []
        if isinstance(state, Moving):
            if state.done is not None:
                waits.append(state.done + self.settings.grace)
            if state.blot_wait is not None:
                waits.append(state.blot_wait)
            if state.settle is not None:
                waits.append(state.settle + self.settings.grace)
        if isinstance(state, Setup) and state.dice is not None:
            waits.append(state.thrown + SETUP_ROLL_KEPT)
        deadline = self._alarm.deadline(self._held(), min(waits) if waits else None)
        turn = checker_of(self.game.turn) if isinstance(self._state, (AwaitRoll, Moving)) else None
        if isinstance(state, CubeOffered):  # the answer is the opponent's
            turn = checker_of(state.by.opponent)
        return Output(frame, sounds, turn, journal, log, deadline, finished, warning, request_snapshot)

    # -- what tests and the CLI read ------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """Where the game stands (the phase value's kind)."""
        return self._state.kind

    @property
    def message(self) -> str:
        """The message the board shows now."""
        return self._frame.message

    @property
    def snapshot(self) -> BoardSnapshot | None:
        """The board as the sensors read it last (None before the first snapshot)."""
        return self._seen.snapshot

    @property
    def frame(self) -> LightFrame:
        """What the lights show now."""
        return self._frame

    @property
    def hints(self) -> tuple[tuple[str, float], ...]:
        """The last hint of this turn: plays in standard notation with their equity, best first."""
        state = self._state
        return state.turn.hints if isinstance(state, Moving) else ()

    @property
    def plan(self) -> Planned | None:
        """The computer's play the board holds the person to now, if any."""
        state = self._state
        return state.turn.plan if isinstance(state, Moving) else None

    @property
    def computer_play(self) -> str | None:
        """The computer's play the board is showing now (standard notation), if any."""
        plan = self.plan
        return plan.text if plan is not None else None

    @property
    def last_verdict(self) -> Verdict | None:
        """How the last snapshot was judged (None before any, or between turns)."""
        return self._verdict

    @property
    def warning(self) -> bool:
        """Is the board warning about a wrong position now?"""
        return self._alarm.warning

    @property
    def turn_in_progress(self) -> tuple[Colour, Roll] | None:
        """Who is moving with which roll."""
        state = self._state
        return (state.turn.colour, state.turn.roll) if isinstance(state, Moving) else None
