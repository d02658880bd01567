"""The controller's steps of play: the setup and a restore guided to their position, the
opening throw, a turn started and ended, Done, Takeback and the next game, with the journal
entries each makes (a roll during a turn: ``held_steps``).  A base of ``controller.machine.Controller``: it
uses the controller's state and output (declared below; this module never imports the machine).
"""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import islice
from typing import TYPE_CHECKING, cast

from hal.interfaces import LightFrame, Sound

from . import guidance
from .alarm import BLOT_WAIT, WrongBoard
from .journal_entries import Entry, GameEntry, GameOverEntry, OpeningEntry, RollEntry, TakebackEntry, TurnEntry
from .notation.moves import format_play
from .notation.position_json import position_to_json
from .phases import AwaitRoll, GameOver, HeldRoll, Moving, Opening, Restore, Setup, Turn
from .rules.game import TurnRecord
from .rules.turn import turn_map as turn_map_for
from .rules.values import Colour, IllegalPlayError, Play, Roll
from .screens import score_message
from .steps_base import ControllerState
from .tracking import BoardReading, Kind, Tracker
from .transitions import Trigger, UndeclaredTransition

if TYPE_CHECKING:
    from .outputs import Output
    from .phases import State
    from .screens import Screens
    from .tracking import Verdict

T = Trigger


SETUP_ROLL_KEPT = 3.0
"""Seconds the opening throw is kept while the board is nearly set up (no reading yet, or a
checker or two still in hand or on their way): a board set up within them opens with it."""
NEARLY_SET_UP = 2
"""Checkers at most off their start points for a throw to be kept (``SETUP_ROLL_KEPT``)."""
BOARDS_LOOKED = 64
"""The boards between a roll and the next looked at, the latest first, for the turn before
short of its play (a few seconds of a busy hand; a bound on one event's work)."""


class TrackerError(RuntimeError):
    """The tracker accepted a play the rules refuse (its map holds only legal plays: a bug)."""


class TurnSteps(ControllerState):
    """The steps of play between the phases (see the module docstring)."""

    if TYPE_CHECKING:  # the controller's state and steps used here, beyond ControllerState's
        _screens: Screens

        def _stay(self, state: State) -> None: ...
        def _resume_explain(self, time: float) -> Output | None: ...
        def _guidance(self) -> LightFrame: ...
        def _on_legal(self, time: float, verdict: Verdict) -> Output: ...

    # -- setup and restore ---------------------------------------------------------------------
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
        entry = OpeningEntry(self._next_seq(), _stamp(time), (a, b), self._last_throw)
        who = "the first player" if opening.winner == 0 else "the second player"
        if opening.roll is None:
            self._go(T.OPENING_THROW, AwaitRoll())
            message = f"{opening.first.value.capitalize()} ({who}) starts: roll both dice"
            frame = LightFrame.of(guidance.turn_lights(opening.first), message)
            return self._output(journal=(entry,), frame=frame, sounds=(Sound.TURN,))
        return self._start_turn(time, opening.roll, T.OPENING_THROW, journal_roll=False, rolled_at=time).after((entry,))

    # -- turns ---------------------------------------------------------------------------------
    def _start_turn(
        self, time: float, roll: Roll, trigger: Trigger, journal_roll: bool = True, later: tuple[HeldRoll, ...] = (),
        rolled_at: float | None = None, searched: Tracker | None = None, previous: Turn | None = None,
    ) -> Output:
        """The player to move plays ``roll`` (journalled unless it already is); a roll with
        no legal move passes at once.  ``later``: rolls thrown since, held in this turn;
        ``rolled_at``: when ``roll`` was read (a held roll's; else now for a fresh roll,
        not known for one journalled already); ``searched``: this turn as a held roll's
        search followed it (``Tracker.following``); ``previous``: the turn just ended."""
        if rolled_at is None:
            rolled_at = time if journal_roll else -math.inf
        last_rolled_at = self._state.last_rolled_at if isinstance(self._state, AwaitRoll) else -math.inf
        colour = self.game.turn
        turn_map = turn_map_for(self.settings.rules, self.game.position, roll)
        journal: list[Entry] = []
        if journal_roll:
            self._window = self._window.after_turn() if self._window else None  # a fresh roll: play on as usual
            journal.append(self._roll_entry(time, colour, roll))
        if turn_map.passes:
            record = self.game.record(turn_map, Play())
            journal.append(self._turn_entry(time, record))
            self._window = self._window.after_turn() if self._window else None
            self._go(trigger, AwaitRoll(rolled_at))
            self._verdict = None
            if later:  # the next roll was thrown already
                out = self._start_turn(time, later[0].roll, T.ROLL, later=later[1:], rolled_at=later[0].thrown)
                return out.after(tuple(journal))
            message = f"{colour.value.capitalize()} cannot move with {roll}: the turn passes"
            return self._output(
                journal=tuple(journal), frame=guidance.pass_frame(colour, message), sounds=(Sound.TURN,), log=(message,)
            )
        planned, said = self._plan_turn(colour, roll, turn_map)
        turn = Turn(colour, roll, turn_map, Tracker.following(turn_map, searched), planned, rolled_at=rolled_at,
                    last_rolled_at=last_rolled_at)
        if later and rolled_at > -math.inf:
            # the next roll came before this turn began: what the boards between showed is
            # evidence this turn's tracker would have kept (rally-hitting 1071432143: Black's
            # pool/19*/14, White's blot taken off long before White's 6-3, read as pool/20/14)
            self._seen_before_next_roll(turn, previous, rolled_at, later[0].thrown)
        self._go(trigger, Moving(turn, turn_map.start, held=later))
        self._verdict = None
        self._alarm.clear()
        if self._reading is not None:
            # (with rolls held already, judged as the boards after them are: this board came
            # after the next roll, and is no board "before the roll": rally-hitting 1071432143,
            # Black's turn begun by a catch-up over White's 6-3, its board taken for the last
            # before that roll, and pool/19*/14 refused as a late hit)
            self._verdict = self._off_plan(self._state, turn.tracker.judge(
                self._reading, turn_map.start, opponent_rolled=len(later) > 0, mover_rolled=len(later) > 1))
            if self._verdict.kind is Kind.WRONG:  # the board was already wrong: its grace starts now
                self._alarm.wrong = WrongBoard((turn.tracker.key(self._reading), self._verdict.fault), time)
            elif self._verdict.kind is Kind.LEGAL and self._verdict.key is not None:
                # part of the play stands already: the board showed it (rally-hitting 1310139303
                # at 8x: White's 8/3 shown as this turn began, then 9/5* with Black's pass and
                # White's 6-5 held; the search, its part made forgotten, read 14/9 9/5*)
                self._stay(replace(self._state, last_legal=self._verdict.key))
            elif self._verdict.kind is Kind.COMPLETE:  # a quick hand played it all before the roll was seen:
                # judged as a fresh board showing it would be (a win ends the game, a held roll starts)
                follow = self._on_legal(time, self._verdict)
                if follow.entries or follow.finished is not None:
                    return follow.after(tuple(journal))
        return self._output(journal=tuple(journal), frame=self._guidance(), sounds=(Sound.TURN,), log=said)

    def _seen_before_next_roll(self, turn: Turn, previous: Turn | None, rolled_at: float, thrown: float) -> None:
        """Give ``turn``'s tracker what the boards between its roll and the next showed: the
        last of them, and the most of the opponent's checkers they showed off their points.
        A board showing the turn before short of its play (its mover's checkers as at its
        start or part way, none in a hand) and the boards before it are that turn's: if it
        is the last, the next roll came before this turn began, and the board before that
        roll is this turn's start (the stateful hands test, rally-hitting: White's 2-1, then
        Black's 1-1 and White's 1-1 thrown before White had moved; White's entry, in its own
        turn, read as made after its 1-1, Black's boards all wrong and its 19/18 recorded as
        a whole play with two entries and a hit)."""
        tracker, since, before, taken = turn.tracker, rolled_at, None, False
        for when, reading in islice(self._seen.whole_between(rolled_at, thrown), BOARDS_LOOKED):  # latest first
            if previous is not None and previous.tracker.short_of_play(reading):
                since, before = when, (before if taken else turn.map.start)
                break
            if not taken:
                taken, before = True, None if reading.overfull or reading.foreign else tracker.key(reading)
        tracker.seen_before_roll(before, self._seen.off_between(turn.colour.opponent, since, thrown))

    def _end_turn(
        self, time: float, play: Play, next_roll: Roll | None = None, later: tuple[HeldRoll, ...] = (),
        rolled_at: float | None = None, searched: Tracker | None = None,
    ) -> Output:
        state = self._state
        if not isinstance(state, Moving):
            raise UndeclaredTransition(f"a turn ends in {state.kind.value}")
        try:
            record = self.game.record(state.turn.map, play)
        except IllegalPlayError as error:  # cannot happen: the map only holds legal plays
            raise TrackerError(f"tracker accepted an illegal play: {error}") from error
        journal: list[Entry] = [self._turn_entry(time, record)]
        self._verdict = None
        self._window = self._window.after_turn() if self._window else None
        result = self.game.result()
        if result is not None:  # a roll thrown during the winning turn belongs to no one
            self.match.finish_game()
            self._go(T.WINNING_PLAY, GameOver())
            journal.append(GameOverEntry(self._next_seq(), _stamp(time), result.winner, result.points, result.kind))
            message = score_message(result, self.match)
            return self._output(
                journal=tuple(journal),
                frame=guidance.winner_frame(result.winner, message),
                sounds=(Sound.GAME_OVER,),
                log=(message,),
                finished=result,
            )
        self._go(T.PLAY_COMPLETE, AwaitRoll(state.turn.rolled_at))
        if next_roll is not None:
            return self._start_turn(time, next_roll, T.ROLL, later=later, rolled_at=rolled_at,
                                    searched=searched, previous=state.turn).after(tuple(journal))
        return self._output(journal=tuple(journal), frame=self._guidance())

    def _done(self, time: float, state: Moving) -> Output:
        """Done during a turn: ends a complete play, else waits the grace time for the board to show one."""
        verdict = self._verdict
        key = verdict.key if verdict is not None and verdict.kind is Kind.COMPLETE else None
        if key is None and verdict is None and state.turn.map.is_complete(state.last_legal):
            key = state.last_legal
        if key is not None:
            play = state.turn.map.play_to(key)
            return self._play_held_roll(time, play) if state.held else self._end_turn(time, play)
        # a quick hand may press Done before the board has settled: a complete board within
        # the grace time still ends the turn; over a checker in a hand the warning waits too
        self._stay(replace(state, done=time))
        if verdict is not None and verdict.kind in (Kind.IN_HAND, Kind.HIT_PENDING, Kind.HIDDEN):
            return self._output(message="Done: the board does not show a whole play yet")
        return self._more_before_done()

    def _more_before_done(self) -> Output:
        message = "More must be played before Done"
        return self._output(message=message, sounds=(Sound.WARNING,), log=(message,), warning="more to play")

    def _done_due(self, time: float) -> Output | None:
        """Done was pressed over a board a hand was changing, and the grace time passed
        without a complete play: warn now."""
        state = self._state
        if not isinstance(state, Moving) or state.done is None or time < state.done + self.settings.grace:
            return None
        self._stay(replace(state, done=None))
        verdict = self._verdict
        if verdict is not None and verdict.kind is Kind.COMPLETE:
            return None  # a play waiting for a blot it passed: see _blot_wait_due
        if verdict is not None and verdict.kind in (Kind.LEGAL, Kind.WRONG):
            return None  # warned when pressed (a wrong board has its own warning)
        return self._more_before_done()

    def _wait_for_blot(self, time: float) -> Output:
        """A winning play whose checker went past a blot it may have hit (10/6*/off shows as
        10/4/off until the blot is taken away): the game ends on the board that shows the
        hit, or, after ``BLOT_WAIT`` (or Done), as it stands.  (Before the next roll the
        blot is simply taken away; a roll thrown first ends the turn as the board shows it.)"""
        state = self._state
        if isinstance(state, Moving) and state.blot_wait is None:
            self._stay(replace(state, blot_wait=time + BLOT_WAIT))
        return self._output(frame=self._guidance())

    def _blot_wait_due(self, time: float) -> Output | None:
        """The wait for a blot passed: a play still complete ends the turn as it stands."""
        state = self._state
        if not isinstance(state, Moving) or state.blot_wait is None or time < state.blot_wait:
            return None
        self._stay(replace(state, blot_wait=None))
        return self._end_as_it_stands(time, state)

    def _takeback(self, time: float) -> Output:
        """The last turn taken back (with the computer, the person's last turn and the
        computer's reply): the board is guided back and the person plays that roll again."""
        count = self._turns_to_take_back() if isinstance(self._state, (Moving, AwaitRoll)) else 0
        if not count:
            return self._output(message="Nothing to take back", sounds=(Sound.WARNING,))
        entries: list[Entry] = []
        for _ in range(count):
            last = cast(TurnRecord, self.game.undo())  # _turns_to_take_back counted turn records only
            entries.append(TakebackEntry(self._next_seq(), _stamp(time), last.colour, last.roll))
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
        entry = GameEntry(self._next_seq(), _stamp(time), len(self.match.games))
        out = self._guide_restore(time) if self._reading is not None else self._output(message="Set up the next game")
        return out.after((entry,))

    # -- journal entries -------------------------------------------------------------------------------
    def _next_seq(self) -> int:
        """The next journal entry's number."""
        self._seq += 1
        return self._seq

    def _roll_entry(self, time: float, colour: Colour, roll: Roll) -> RollEntry:
        """A roll's entry, with the board's throw number so a restart knows the board's repeat."""
        return RollEntry(self._next_seq(), _stamp(time), colour, roll, self._last_throw)

    def _turn_entry(self, time: float, record: TurnRecord) -> TurnEntry:
        """A turn's entry; its position is a legal play's end (``Game.record``), possible
        by construction, so it is not checked again."""
        rules = self.settings.rules
        return TurnEntry(
            self._next_seq(), _stamp(time), record.colour, record.roll, format_play(record.play, rules),
            record.play, position_to_json(rules, record.after, checked=True),
        )


def _stamp(time: float) -> float:
    """A journal entry's time: to the millisecond."""
    return round(time, 3)


def _checkers_off(reading: BoardReading, wanted: BoardReading) -> int:
    """How many checkers ``reading`` shows off the points ``wanted`` puts them on."""
    return sum(abs(now - then) for side, target in ((reading.white, wanted.white), (reading.black, wanted.black))
               for now, then in zip(side, target)) // 2
