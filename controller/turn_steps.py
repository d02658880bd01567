"""The controller's steps of play: a turn started and ended, Done, and a winning play
waiting for a blot it passed, with the journal entries each makes (the setup, opening,
restore, takeback and next game: ``setup_steps``; a roll during a turn: ``held_steps``).
A base of ``controller.machine.Controller``: it uses the controller's state and output
(declared below; this module never imports the machine).
"""

from __future__ import annotations

import math
from dataclasses import replace
from itertools import islice
from typing import TYPE_CHECKING

from hal.interfaces import Sound

from . import guidance
from .alarm import BLOT_WAIT, WrongBoard
from .held import hits_shown
from .revise_steps import REVISE_TURNS
from .journal_entries import Entry, GameOverEntry, RollEntry, TurnEntry, stamp
from .notation.moves import format_play
from .notation.position_json import position_to_json
from .phases import AwaitRoll, GameOver, HeldRoll, Moving, Turn
from .rules.game import TurnRecord
from .rules.turn import turn_map as turn_map_for
from .rules.values import Colour, IllegalPlayError, Play, Roll
from .screens import score_message
from .steps_base import ControllerState
from .tracking import Kind, Tracker
from .transitions import Trigger, UndeclaredTransition

if TYPE_CHECKING:
    from .outputs import Output
    from hal.interfaces import LightFrame

    from .phases import State
    from .tracking import Verdict

T = Trigger


BOARDS_LOOKED = 64
"""The boards between a roll and the next looked at, the latest first, for the turn before
short of its play (a few seconds of a busy hand; a bound on one event's work)."""


class TrackerError(RuntimeError):
    """The tracker accepted a play the rules refuse (its map holds only legal plays: a bug)."""


class TurnSteps(ControllerState):
    """The steps of play between the phases (see the module docstring)."""

    if TYPE_CHECKING:  # the controller's state and steps used here, beyond ControllerState's
        def _stay(self, state: State) -> None: ...
        def _resume_explain(self, time: float) -> Output | None: ...
        def _guidance(self) -> LightFrame: ...
        def _on_legal(self, time: float, verdict: Verdict) -> Output: ...

    # -- turns ---------------------------------------------------------------------------------
    def _start_turn(
        self, time: float, roll: Roll, trigger: Trigger, journal_roll: bool = True, later: tuple[HeldRoll, ...] = (),
        rolled_at: float | None = None, searched: Tracker | None = None, previous: Turn | None = None,
        rolled_exact: bool = False,
    ) -> Output:
        """The player to move plays ``roll`` (journalled unless it already is); a roll with
        no legal move passes at once.  ``later``: rolls thrown since, held in this turn;
        ``rolled_at``: when ``roll`` was read (a held roll's; else now for a fresh roll,
        not known for one journalled already; ``rolled_exact``: that is when the dice
        landed); ``searched``: this turn as a held roll's search followed it
        (``Tracker.following``); ``previous``: the turn just ended."""
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
                out = self._start_turn(time, later[0].roll, T.ROLL, later=later[1:], rolled_at=later[0].thrown,
                                       rolled_exact=later[0].exact)
                return out.after(tuple(journal))
            message = f"{colour.value.capitalize()} cannot move with {roll}: the turn passes"
            return self._output(
                journal=tuple(journal), frame=guidance.pass_frame(colour, message), sounds=(Sound.TURN,), log=(message,)
            )
        planned, said = self._plan_turn(colour, roll, turn_map)
        turn = Turn(colour, roll, turn_map, Tracker.following(turn_map, searched), planned, rolled_at=rolled_at,
                    last_rolled_at=last_rolled_at, rolled_exact=rolled_exact)
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
        rolled_at: float | None = None, searched: Tracker | None = None, rolled_exact: bool = False,
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
            journal.append(GameOverEntry(self._next_seq(), stamp(time), result.winner, result.points, result.kind))
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
            out = self._start_turn(time, next_roll, T.ROLL, later=later, rolled_at=rolled_at, rolled_exact=rolled_exact,
                                   searched=searched, previous=state.turn)
            self._carry_guesses(state)
            return out.after(tuple(journal))
        return self._output(journal=tuple(journal), frame=self._guidance())

    def _carry_guesses(self, ended: Moving) -> None:
        """The turn begun after ``ended`` keeps the turns ``ended`` had guessed (a board
        showing the end of a run of turns caught up at once says nothing of the plays that
        led there): a wrong board in it may still be those turns played otherwise.  Trictrac
        386311590 at 20x: White's 24/21 24/22, Black's 6/3* 13/11 and White's bar/23 with an
        illegal 6/2 all made between two boards, read as 24/21 6/4, 6/3 13/11 and a complete
        24/23 4/2; White put the 6/2 right and played 8/7 after Black had thrown, warned for
        good and the game lost."""
        new, first = self._state, ended.guessed_from
        if (first is None or not isinstance(new, Moving) or len(self.game.history) - first > REVISE_TURNS
                or new.guessed_from is not None and new.guessed_from <= first):
            return  # (turns never looked at again are guesses no more)
        later = len(self.game.history) if new.guessed_from is None else new.guessed_from
        hits = (*ended.guessed_hits, hits_shown(ended.turn.tracker))[:later - first]
        hits = (*hits, *(0,) * (later - first - len(hits)), *new.guessed_hits)  # (a pass between hit nothing)
        self._stay(replace(new, guessed_from=first, guessed_hits=hits,
                               guesses_settled=new.guessed_from is None or new.guesses_settled))

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

    # -- journal entries -------------------------------------------------------------------------------
    def _next_seq(self) -> int:
        """The next journal entry's number."""
        self._seq += 1
        return self._seq

    def _roll_entry(self, time: float, colour: Colour, roll: Roll) -> RollEntry:
        """A roll's entry, with the board's throw number so a restart knows the board's repeat."""
        return RollEntry(self._next_seq(), stamp(time), colour, roll, self._last_throw)

    def _turn_entry(self, time: float, record: TurnRecord) -> TurnEntry:
        """A turn's entry; its position is a legal play's end (``Game.record``), possible
        by construction, so it is not checked again."""
        rules = self.settings.rules
        return TurnEntry(
            self._next_seq(), stamp(time), record.colour, record.roll, format_play(record.play, rules),
            record.play, position_to_json(rules, record.after, checked=True),
        )
