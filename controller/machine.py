"""The controller: an explicit state machine that follows the game from the sensors.

``Controller.handle(event)`` takes one event (a settled snapshot, a roll, a button, a
tick) and returns an ``Output``: the journal entries to make durable first, then the
light frame, sounds and turn LED to show.  It does no I/O, starts no thread and reads no
clock: time comes with the events.

Phases: SETUP (lights guide the start position) -> OPENING (one die each) -> AWAIT_ROLL
-> MOVING (tracking and guidance until a complete legal play and the next roll or Done)
-> ... -> GAME_OVER -> SETUP of the next game of the match.  RESTORE guides the player
back to a known position after a takeback or a resume.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
from hal.zones import Checker

from . import guidance
from .journal_entries import (
    JOURNAL_VERSION, Entry, GameEntry, GameOverEntry, OpeningEntry, RollEntry, StartEntry, TakebackEntry, TurnEntry,
    encode,
)
from .notation.moves import format_play
from .notation.position_json import position_to_json
from .phase import Phase
from .phase import Restore as _Restore
from .resume import ResumeError, ResumePoint, Window
from .resume_steps import ResumeSteps
from .rules.base import GameResult, RuleSet
from .rules.game import Game, Match, TurnRecord
from .rules.values import Colour, IllegalPlayError, Play, Position, Roll
from .rules.turn import TurnMap
from .tracking import BoardReader, BoardReading, Kind, StillMap, Tracker, Verdict, checker_of


__all__ = ["Controller", "Output", "Phase", "ResumeError", "Settings"]


@dataclass(frozen=True)
class Settings:
    """What a game on the board is played with."""

    rules: RuleSet
    quarter: str | None = None
    match_length: int = 1
    grace: float = 1.0
    """Seconds a wrong board must stand before the board warns."""
    confirm: bool = False
    """The board is behind a link that can go quiet (the serial link): before a warning, ask
    it for the board and warn only if the fresh snapshot still shows it wrong."""


CONFIRM_AGAIN = 1.0
"""Seconds after which an unanswered request to confirm a wrong board is made again."""


@dataclass(frozen=True)
class Output:
    """What the controller asks for after one event: journal first, then lights and sounds."""

    frame: LightFrame
    sounds: tuple[Sound, ...] = ()
    turn: Checker | None = None
    entries: tuple[Entry, ...] = ()
    """The journal entries to make durable first (``journal`` gives them as written)."""
    log: tuple[str, ...] = ()
    deadline: float | None = None
    finished: GameResult | None = None
    warning: str | None = None
    """A warning began with this event: ``illegal`` (a wrong board stood for the grace
    time), ``fault`` (impossible counts stood), or ``more to play`` (a roll over an
    unfinished play)."""
    request_snapshot: bool = False
    """Ask the board for a fresh snapshot (to confirm a warning first, ``Settings.confirm``)."""

    @property
    def journal(self) -> tuple[dict[str, Any], ...]:
        """The journal entries as the journal writes them (``journal_entries.encode``)."""
        return tuple(encode(entry) for entry in self.entries)


@dataclass
class _Turn:
    """The turn under way."""

    colour: Colour
    roll: Roll
    map: TurnMap
    tracker: Tracker
    last_legal: int


@dataclass
class _Held:
    """A roll that came before the board was ready for it; used once the play is complete."""

    roll: Roll
    since: float
    warned: bool = False
    opening: bool = False
    """The opening throw (one die each) rather than a roll."""


@dataclass
class _Wrong:
    """A wrong board waiting out the grace time."""

    key: tuple[Any, ...]
    since: float


@dataclass
class Controller(ResumeSteps):
    """Follows one match on the board; see the module docstring (and ``resume_steps``
    for what it does after a restart)."""

    settings: Settings
    match: Match = field(init=False)
    game: Game = field(init=False)
    phase: Phase = field(init=False, default=Phase.SETUP)
    reader: BoardReader = field(init=False)
    _turn: _Turn | None = field(init=False, default=None)
    _restore: _Restore | None = field(init=False, default=None)
    _reading: BoardReading | None = field(init=False, default=None)
    _snapshot: BoardSnapshot | None = field(init=False, default=None)
    _verdict: Verdict | None = field(init=False, default=None)
    _held: _Held | None = field(init=False, default=None)
    _wrong: _Wrong | None = field(init=False, default=None)
    _stale: bool = field(init=False, default=False)
    """The board's link is down: its last board is not to be warned about."""
    _warning: bool = field(init=False, default=False)
    _frame: LightFrame = field(init=False, default_factory=LightFrame)
    _message: str = field(init=False, default="")
    _seq: int = field(init=False, default=0)
    _last_throw: int | None = field(init=False, default=None)
    _asked: float | None = field(init=False, default=None)
    """When the board was last asked to confirm a warning (``Settings.confirm``)."""
    """The board's number of the last throw seen (journalled with the roll it gave)."""
    _window: Window | None = field(init=False, default=None)
    resume_point: ResumePoint | None = field(init=False, default=None)
    """Where the journal left the game, when this controller was resumed from one."""

    def __post_init__(self) -> None:
        rules = self.settings.rules
        self.reader = BoardReader(rules, rules.geometry(self.settings.quarter))
        self.quarter = self.settings.quarter or rules.START_QUARTER
        """The rally's start quarter in play (lit during setup and the opening)."""
        self.match = Match(rules, self.settings.match_length)
        self.game = self.match.new_game()

    # -- entry points ----------------------------------------------------------------------
    def begin(self, time: float) -> Output:
        """The first output: a new match's journal header and the setup lights."""
        rules = self.settings.rules
        entry = StartEntry(
            self._next_seq(), _stamp(time), rules.name, rules.changed_options(), self.settings.quarter,
            self.settings.match_length, JOURNAL_VERSION,
        )
        return self._output(journal=(entry,), message="Set up the board for the start")

    def handle(self, event: Event) -> Output:
        """One event in, what to show out."""
        if self._window is not None and isinstance(event, (SnapshotEvent, DiceEvent, ButtonEvent, TickEvent, DeviceEvent)):
            self._window.note(event.time)
        if isinstance(event, SnapshotEvent):
            previous, self._snapshot = self._snapshot, event.snapshot
            self._asked = None
            if previous is not None and _same_where_readable(previous, event.snapshot) and self._wrong is not None:
                # zones hidden for a moment over a board still wrong: its grace time runs on
                self._reading = self.reader.read(event.snapshot)
                return self._on_tick(event.time, fresh=True)
            return self._on_snapshot(event.time, self.reader.read(event.snapshot))
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

    def _on_device(self, event: DeviceEvent) -> Output:
        """A device's news, shown; while the board's link is down its last board is stale, so
        no grace time runs on it (the fresh snapshot after the link is back is judged anew)."""
        note = f"{event.device}: {event.message}"
        if event.stale:
            self._stale = True
            self._wrong = None
        elif event.ok and self._stale:
            self._stale = False
            if self._held is not None:
                self._held.since = max(self._held.since, event.time)
        return self._output(log=(note,), message=note if not event.ok else None)

    # -- snapshots ---------------------------------------------------------------------------
    def _on_snapshot(self, time: float, reading: BoardReading) -> Output:
        self._reading = reading
        if self.phase in (Phase.SETUP, Phase.RESTORE, Phase.GAME_OVER):
            return self._guide_restore(time)
        tracker = self._tracker()
        last = self._turn.last_legal if self._turn else None
        verdict = tracker.judge(reading, last)
        self._verdict = verdict
        if verdict.kind is Kind.WRONG and self._window is not None and self.phase in (Phase.MOVING, Phase.AWAIT_ROLL):
            resumed = self._resume_wrong(time)
            if resumed is not None:
                return resumed
        if verdict.is_legal:
            if self._window is not None:
                self._window.lenient = False
            self._wrong = None
            self._warning = False
            if self._turn is not None and verdict.key is not None:
                self._turn.last_legal = verdict.key
            if self.phase is Phase.MOVING and verdict.kind is Kind.COMPLETE:
                assert self._turn is not None
                plays = self._turn.map.play_to(verdict.key)  # type: ignore[arg-type]
                if self._turn.map.position_of(verdict.key).winner() is not None:  # type: ignore[arg-type]
                    return self._end_turn(time, plays)
                if self._held is not None:
                    roll, self._held = self._held.roll, None
                    return self._end_turn(time, plays, next_roll=roll)
            if self.phase is Phase.AWAIT_ROLL and self._held is not None:
                roll, self._held = self._held.roll, None
                return self._start_turn(time, roll)
            if self.phase is Phase.OPENING and self._held is not None and self._held.opening:
                roll, self._held = self._held.roll, None
                return self._on_opening(time, roll.first, roll.second)
            return self._confirmed(time, self._output(frame=self._guidance()))
        if verdict.kind is Kind.WRONG:
            key = (tracker.key(reading), verdict.fault)
            if self._warning:  # the warning stands: the red lights follow the board
                return self._output(frame=self._warning_frame())
            if self._wrong is None or self._wrong.key != key:
                self._wrong = _Wrong(key, time)
            return self._on_tick(time, fresh=True)
        # a transient: checkers in hand, a hit on its way, a hand over the board
        self._wrong = None
        if self._warning:
            return self._output()
        return self._confirmed(time, self._output(frame=self._guidance()))

    def _confirmed(self, time: float, out: Output) -> Output:
        """With ``Settings.confirm``, a held roll's warning waits for a fresh snapshot: this one."""
        if self.settings.confirm and self._held_due(time):
            return self._on_tick(time, fresh=True)
        return out

    def _tracker(self) -> Tracker:
        if self.phase is Phase.MOVING and self._turn is not None:
            return self._turn.tracker
        return Tracker(StillMap(self.settings.rules, self.game.position))

    def _on_tick(self, time: float, fresh: bool = False) -> Output:
        """A grace time may have run out; ``fresh``: the board was just read (a snapshot)."""
        grace = self.settings.grace
        wrong = self._wrong
        due = wrong is not None and not self._warning and time >= wrong.since + grace
        if (due or self._held_due(time)) and self.settings.confirm and not fresh:
            # the last snapshot may be stale behind a quiet link: warn only on a fresh one
            if self._asked is None or time >= self._asked + CONFIRM_AGAIN:
                self._asked = time
                return self._output(request_snapshot=True)
            return self._output()
        if due:
            self._warning = True
            frame = self._warning_frame()
            reason = "fault" if self._verdict is not None and self._verdict.fault else "illegal"
            return self._output(frame=frame, sounds=(Sound.WARNING,), log=(frame.message,), warning=reason)
        held = self._held
        if held is not None and self._held_due(time):
            held.warned = True
            assert self._turn is not None
            message = f"More must be played: {self._turn.colour.value} has not finished ({held.roll} held)"
            return self._output(message=message, sounds=(Sound.WARNING,), log=(message,), warning="more to play")
        return self._output()

    def _held_due(self, time: float) -> bool:
        """A roll held over an unfinished play has waited out its grace time unwarned."""
        held = self._held
        return (held is not None and not held.warned and not self._stale and self.phase is Phase.MOVING
                and time >= held.since + self.settings.grace)

    def _warning_frame(self) -> LightFrame:
        """Red on every zone that differs from the last legal board, with what is wrong."""
        legal = self._legal_reading()
        return guidance.warning_frame(self.reader, self._reading or legal, legal, self._wrong_message())

    def _wrong_message(self) -> str:
        verdict = self._verdict
        if verdict is not None and verdict.fault is not None:
            return f"Check the board: {verdict.fault.value}"
        if self.phase is Phase.MOVING:
            return "Illegal move: put the checker back"
        who = self.game.turn.value.capitalize()
        return f"Nothing may move now: {who} rolls first"

    def _legal_reading(self) -> BoardReading:
        """The last legal board, as counts."""
        if self.phase is Phase.MOVING and self._turn is not None:
            mover, opponent = self._turn.map.sides_of(self._turn.last_legal)
            colour = self._turn.colour
            white, black = (mover, opponent) if colour is Colour.WHITE else (opponent, mover)
            return BoardReading(white, black)
        return self.reader.position_reading(self.game.position)

    def _guide_restore(self, time: float) -> Output:
        """SETUP, RESTORE and GAME_OVER: lights until the board shows the target position."""
        target = self._target()
        reading = self._reading
        assert reading is not None
        wanted = self.reader.position_reading(target)
        exact = not reading.unreadable and reading.white == wanted.white and reading.black == wanted.black
        if not exact and self.phase is Phase.RESTORE and self._window is not None and self._window.lenient:
            resumed = self._resume_explain(time)
            if resumed is not None:
                return resumed
        if exact:
            if self.phase is Phase.SETUP:
                self.phase = Phase.OPENING
                return self._output(frame=self._guidance())
            if self.phase is Phase.RESTORE:
                return self._finish_restore(time)
        if self.phase is Phase.GAME_OVER:
            return self._output()
        label = "Set up the board for the start" if self.phase is Phase.SETUP else "Put the checkers back as lit"
        frame = guidance.restore_frame(self.reader, reading, wanted, label)
        if self.phase is Phase.SETUP:
            frame = LightFrame.of({**guidance.start_quarter_lights(self.quarter), **dict(frame.lights)}, label)
        return self._output(frame=frame)

    def _target(self) -> Position:
        if self.phase is Phase.RESTORE and self._restore is not None:
            return self._restore.target
        return self.game.position

    def _finish_restore(self, time: float) -> Output:
        restore = self._restore
        assert restore is not None
        self._restore = None
        if restore.then == "move" and restore.roll is not None:
            return self._start_turn(time, restore.roll, journal_roll=False)
        self.phase = Phase.AWAIT_ROLL if self.game.opening is not None or self.game.history else Phase.OPENING
        return self._output(frame=self._guidance())

    # -- dice ---------------------------------------------------------------------------------
    def _on_dice(self, event: DiceEvent) -> Output:
        time = event.time
        if event.dice is None:
            return self._output(log=("dice: no clear roll in the tray",), message="Throw the dice again")
        a, b = event.dice
        if self._window is not None and self.phase is not Phase.SETUP:
            resumed = self._resume_dice(time, Roll(a, b), numbered=event.throw is not None)
            if resumed is not None:
                return resumed
        if self.phase is Phase.SETUP:
            resumed = self._resume_opening(time, a, b) if self._window is not None and self._window.lenient else None
            if resumed is not None:
                return resumed
            return self._output(message="Set up the board before rolling", sounds=(Sound.WARNING,))
        if self.phase is Phase.OPENING:
            if self._verdict is not None and not self._verdict.is_legal:
                self._held = _Held(Roll(a, b), time, warned=True, opening=True)
                return self._output(message="Opening throw held until the board stands at the start")
            return self._on_opening(time, a, b)
        if self.phase is Phase.GAME_OVER:
            return self._output(message="The game is over: press Done for the next game")
        roll = Roll(a, b)
        if self.phase is Phase.RESTORE:
            return self._output(message="Put the checkers back first", sounds=(Sound.WARNING,))
        if self.phase is Phase.AWAIT_ROLL:
            if self._verdict is not None and not self._verdict.is_legal:
                self._held = _Held(roll, time, warned=True)
                return self._output(message=f"Roll {roll} held until the board is settled")
            return self._start_turn(time, roll)
        # MOVING: the next player's roll ends a complete play
        verdict = self._verdict
        turn = self._turn
        assert turn is not None
        if verdict is not None and verdict.kind is Kind.COMPLETE and verdict.key is not None:
            return self._end_turn(time, turn.map.play_to(verdict.key), next_roll=roll)
        if verdict is None and turn.map.is_complete(turn.last_legal):
            return self._end_turn(time, turn.map.play_to(turn.last_legal), next_roll=roll)
        if self._held is None or self._held.roll != roll:
            self._held = _Held(roll, time)
        return self._output(message=f"Roll {roll} held until {turn.colour.value} has finished")

    def _on_opening(self, time: float, a: int, b: int) -> Output:
        opening = self.game.throw_opening(a, b)
        if opening is None:
            return self._output(message=f"Equal throws ({a}-{b}): throw again")
        entry = OpeningEntry(self._next_seq(), _stamp(time), (a, b), self._last_throw)
        who = "the first player" if opening.winner == 0 else "the second player"
        if opening.roll is None:
            self.phase = Phase.AWAIT_ROLL
            message = f"{opening.first.value.capitalize()} ({who}) starts: roll both dice"
            frame = LightFrame.of(guidance.turn_lights(opening.first), message)
            return self._output(journal=(entry,), frame=frame, sounds=(Sound.TURN,))
        out = self._start_turn(time, opening.roll, journal_roll=False)
        return self._combine((entry,), out)

    # -- turns ---------------------------------------------------------------------------------
    def _start_turn(self, time: float, roll: Roll, journal_roll: bool = True) -> Output:
        colour = self.game.turn
        self._held = None  # whatever was held, this roll is the one in play now
        turn_map = TurnMap(self.settings.rules, self.game.position, roll)
        journal: list[Entry] = []
        if journal_roll:
            self._window = self._window.after_turn() if self._window else None  # a fresh roll: play on as usual
            journal.append(self._roll_entry(time, colour, roll))
        if turn_map.passes:
            record = self.game.play(roll, Play())
            journal.append(self._turn_entry(time, record))
            self._window = self._window.after_turn() if self._window else None
            self.phase = Phase.AWAIT_ROLL
            self._turn = None
            self._verdict = None
            message = f"{colour.value.capitalize()} cannot move with {roll}: the turn passes"
            return self._output(
                journal=tuple(journal), frame=guidance.pass_frame(colour, message), sounds=(Sound.TURN,), log=(message,)
            )
        self._turn = _Turn(colour, roll, turn_map, Tracker(turn_map), turn_map.start)
        self.phase = Phase.MOVING
        self._verdict = None
        self._warning = False
        self._wrong = None
        if self._reading is not None:
            self._verdict = self._turn.tracker.judge(self._reading, turn_map.start)
            if self._verdict.kind is Kind.WRONG:  # the board was already wrong: its grace starts now
                self._wrong = _Wrong((self._turn.tracker.key(self._reading), self._verdict.fault), time)
        return self._output(journal=tuple(journal), frame=self._guidance(), sounds=(Sound.TURN,))

    def _end_turn(self, time: float, play: Play, next_roll: Roll | None = None) -> Output:
        turn = self._turn
        assert turn is not None
        try:
            record = self.game.play(turn.roll, play)
        except IllegalPlayError as error:  # cannot happen: the map only holds legal plays
            raise AssertionError(f"tracker accepted an illegal play: {error}") from error
        journal = [self._turn_entry(time, record)]
        self._turn = None
        self._verdict = None
        self._window = self._window.after_turn() if self._window else None
        result = self.game.result()
        if result is not None:
            self.match.finish_game()
            self.phase = Phase.GAME_OVER
            self._held = None  # a roll thrown during the winning turn belongs to no one
            journal.append(GameOverEntry(self._next_seq(), _stamp(time), result.winner, result.points, result.kind))
            message = self._score_message(result)
            return self._output(
                journal=tuple(journal),
                frame=guidance.winner_frame(result.winner, message),
                sounds=(Sound.GAME_OVER,),
                log=(message,),
                finished=result,
            )
        self.phase = Phase.AWAIT_ROLL
        if next_roll is not None:
            return self._combine(tuple(journal), self._start_turn(time, next_roll))
        return self._output(journal=tuple(journal), frame=self._guidance())

    def _turn_entry(self, time: float, record: TurnRecord) -> TurnEntry:
        rules = self.settings.rules
        return TurnEntry(
            self._next_seq(), _stamp(time), record.colour, record.roll, format_play(record.play, rules),
            record.play, position_to_json(rules, record.after),
        )

    def _roll_entry(self, time: float, colour: Colour, roll: Roll) -> RollEntry:
        """A roll's entry, with the board's throw number so a restart knows the board's repeat."""
        return RollEntry(self._next_seq(), _stamp(time), colour, roll, self._last_throw)

    # -- buttons -----------------------------------------------------------------------------------
    def _on_button(self, event: ButtonEvent) -> Output:
        time = event.time
        if event.button is Button.DONE:
            if self.phase is Phase.GAME_OVER:
                return self._next_game(time)
            if self.phase is Phase.MOVING and self._turn is not None:
                verdict = self._verdict
                key = verdict.key if verdict is not None and verdict.kind is Kind.COMPLETE else None
                if key is None and verdict is None and self._turn.map.is_complete(self._turn.last_legal):
                    key = self._turn.last_legal
                if key is not None:
                    return self._end_turn(time, self._turn.map.play_to(key))
                message = "More must be played before Done"
                return self._output(message=message, sounds=(Sound.WARNING,), log=(message,), warning="more to play")
            return self._output(message=f"Done does nothing now ({self.phase.value})")
        if event.button is Button.TAKEBACK:
            return self._takeback(time)
        if event.button is Button.ROLL:
            return self._output(message="Roll the dice in the tray" if self.phase is not Phase.SETUP else "Set up first")
        return self._output(message=self._status())

    def _takeback(self, time: float) -> Output:
        turns = self.game.turns()
        if self.phase not in (Phase.MOVING, Phase.AWAIT_ROLL) or not turns:
            return self._output(message="Nothing to take back", sounds=(Sound.WARNING,))
        record = self.game.undo()
        assert isinstance(record, TurnRecord)
        self._window = None
        self._turn = None
        self._verdict = None
        self._held = None
        self._warning = False
        self._wrong = None
        self.phase = Phase.RESTORE
        self._restore = _Restore(record.before, "move", record.roll)
        entry = TakebackEntry(self._next_seq(), _stamp(time), record.colour, record.roll)
        message = f"Take back {record.colour.value}'s {record.roll}: put the checkers back as lit"
        out = self._guide_restore(time) if self._reading is not None else self._output(message=message)
        return self._combine((entry,), out)

    def _next_game(self, time: float) -> Output:
        if self.match.winner() is not None:
            return self._output(message=f"The match is over: {self.match.winner().value} wins")  # type: ignore[union-attr]
        self.game = self.match.new_game()
        self.phase = Phase.SETUP
        self._held = None
        entry = GameEntry(self._next_seq(), _stamp(time), len(self.match.games))
        out = self._guide_restore(time) if self._reading is not None else self._output(message="Set up the next game")
        return self._combine((entry,), out)

    # -- output -------------------------------------------------------------------------------------------
    def _guidance(self) -> LightFrame:
        """The lights for the current phase and the last verdict."""
        turn = self._turn
        if self.phase is Phase.OPENING:
            return LightFrame.of(guidance.start_quarter_lights(self.quarter), self._opening_message())
        if self.phase is not Phase.MOVING or turn is None:
            return LightFrame.of(guidance.turn_lights(self.game.turn), self._await_message())
        verdict = self._verdict
        colour = turn.colour
        key = verdict.key if verdict is not None and verdict.key is not None else turn.last_legal
        if verdict is not None and verdict.ahead is not None:
            move = verdict.ahead
            if verdict.lifted:
                targets = turn.map.destinations(key, move.frm)
                return guidance.target_frame(self.reader, colour, move.frm, targets, "Now put your checker on the lit point")
            return guidance.target_frame(self.reader, colour, move.frm, (move.to,), "Now move your checker onto the lit point")
        if verdict is not None and verdict.kind is Kind.HIT_PENDING:
            return guidance.hit_frame(
                self.reader, colour, verdict.hits, f"Hit! Put the {colour.opponent.value} checker on its {self._waiting()}"
            )
        if verdict is not None and verdict.kind is Kind.IN_HAND and len(verdict.lifted) == 1:
            frm = verdict.lifted[0]
            targets = turn.map.destinations(key, frm)
            return guidance.target_frame(self.reader, colour, frm, targets, f"{colour.value.capitalize()} {turn.roll}: put it on a lit point")
        if turn.map.is_complete(key):
            return LightFrame.of(
                guidance.turn_lights(colour.opponent), f"{colour.value.capitalize()} has played: next roll or Done"
            )
        moves = turn.map.next_moves(key)
        dice = "-".join(str(d) for d in turn.map.remaining_dice(key))
        message = f"{colour.value.capitalize()} to play {dice}"
        if any(move.to == 0 for move in moves):
            message += " (bearing off)"
        return guidance.source_frame(self.reader, colour, moves, message)

    def _waiting(self) -> str:
        return "bar" if self.settings.rules.MIRRORED else "pool"

    def _await_message(self) -> str:
        return f"{self.game.turn.value.capitalize()} to roll"

    def _opening_message(self) -> str:
        return "Each player throws one die (first die: the player on White's side)"

    def _score_message(self, result: GameResult) -> str:
        score = self.match.score
        return (
            f"{result.winner.value.capitalize()} wins {result.points} ({result.kind}); "
            f"score White {score[Colour.WHITE]}, Black {score[Colour.BLACK]}"
        )

    def _status(self) -> str:
        return f"{self.settings.rules.name}: {self.phase.value}, {self.game.turn.value} to play"

    def _next_seq(self) -> int:
        """The next journal entry's number."""
        self._seq += 1
        return self._seq

    def _output(
        self,
        *,
        frame: LightFrame | None = None,
        sounds: tuple[Sound, ...] = (),
        journal: tuple[Entry, ...] = (),
        log: tuple[str, ...] = (),
        message: str | None = None,
        deadline: float | None = None,
        finished: GameResult | None = None,
        warning: str | None = None,
        request_snapshot: bool = False,
    ) -> Output:
        if frame is None:
            frame = self._frame
            if message is not None:
                frame = LightFrame(frame.lights, message)
        self._frame = frame
        if deadline is None:
            deadline = self._next_deadline()
        turn = checker_of(self.game.turn) if self.phase in (Phase.AWAIT_ROLL, Phase.MOVING) else None
        return Output(frame, sounds, turn, journal, log, deadline, finished, warning, request_snapshot)

    def _next_deadline(self) -> float | None:
        """When a grace time runs out, if one is running."""
        times = []
        if self._wrong is not None and not self._warning:
            times.append(self._wrong.since + self.settings.grace)
        if self._held is not None and not self._held.warned and not self._stale and self.phase is Phase.MOVING:
            times.append(self._held.since + self.settings.grace)
        if times and self._asked is not None:  # asked to confirm: ask again if no snapshot comes
            times = [max(when, self._asked + CONFIRM_AGAIN) for when in times]
        return min(times) if times else None

    def _combine(self, journal: tuple[Entry, ...], out: Output) -> Output:
        return Output(
            out.frame, out.sounds, out.turn, journal + out.entries, out.log, out.deadline, out.finished, out.warning,
            out.request_snapshot,
        )

    @property
    def message(self) -> str:
        """The message the board shows now."""
        return self._frame.message

    @property
    def last_verdict(self) -> Verdict | None:
        """How the last snapshot was judged (None before any, or between turns)."""
        return self._verdict

    @property
    def warning(self) -> bool:
        """Is the board warning about a wrong position now?"""
        return self._warning

    @property
    def turn_in_progress(self) -> tuple[Colour, Roll] | None:
        """Who is moving with which roll."""
        return (self._turn.colour, self._turn.roll) if self._turn else None


def _stamp(time: float) -> float:
    """A journal entry's time: to the millisecond."""
    return round(time, 3)


def _same_where_readable(before: BoardSnapshot, now: BoardSnapshot) -> bool:
    """``now`` hides some zones and agrees with ``before`` on every zone it can read."""
    hidden = False
    for old, new in zip(before.readings, now.readings):
        if new is None:
            hidden = True
        elif old != new:
            return False
    return hidden
