"""The controller's steps for rolls thrown before the mover's play was seen complete: the
roll held with the turn it came in, the turn ended as soon as the board shows the play (or
a later turn after it), a hit undone just before the roll was read, and the waits that end
a turn as the board stands.  A base of ``controller.machine.Controller`` beside
``turn_steps`` (it uses the controller's state and output, declared below)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from .held import Finished, SinceRoll, Undecided, finished_play, hit_undone, hits_shown, opponent_bar, run_settles
from .next_roll_steps import ROLL_READ
from .phases import HeldRoll, Moving
from .recovery import finished_by_side
from .rules.reach import MOVER
from .rules.turn import TurnMap
from .rules.values import BAR, CHECKERS
from .steps_base import ControllerState
from .tracking import Kind
from .transitions import UndeclaredTransition

if TYPE_CHECKING:
    from .outputs import Output
    from .phases import State
    from .rules.values import Play, Roll
    from .tracking import BoardReading, Tracker, Verdict


class HeldSteps(ControllerState):
    """The held roll's steps (see the module docstring)."""

    if TYPE_CHECKING:  # the controller's steps used here, beyond ControllerState's
        def _stay(self, state: State) -> None: ...
        def _end_turn(self, time: float, play: Play, next_roll: Roll | None = None,
                      later: tuple[HeldRoll, ...] = (), rolled_at: float | None = None,
                      searched: Tracker | None = None, rolled_exact: bool = False) -> Output: ...
        def _keeps_to_plan(self, state: Moving, end: int | None) -> bool: ...
        def _guesses_shown(self, state: Moving, verdict: Verdict | None) -> bool: ...
        def _on_snapshot(self, time: float, reading: BoardReading) -> Output: ...
        def _on_tick(self, time: float, fresh: bool = False) -> Output: ...
        def _next_roll_evidence(self, state: Moving, time: float) -> tuple[int | None, tuple[int, ...], tuple[int, ...]]: ...
        def _shown_after_next_roll(self, state: Moving, found: Finished, reading: BoardReading) -> Finished | None: ...

    def _next_roll_while_moving(self, time: float, state: Moving, roll: Roll, late: float | None = None) -> Output:
        """The next player's roll during a turn: it ends a complete play, else it is held
        until the play is complete (``_play_held_roll``).  ``late``: how long after the dice
        landed it was read, when the board says (``DiceEvent.late``)."""
        turn, verdict = state.turn, self._verdict
        thrown, exact = (time, False) if late is None else (time - late, True)
        held = (*state.held, HeldRoll(roll, time, thrown=thrown, exact=exact))
        if not state.held and exact:
            self._judge_after_roll(state, thrown, time)
        if not state.held:  # with rolls held already, this one follows theirs
            undone = self._hit_just_undone(time, state)
            if undone is not None:
                # the board left a hit for the same play unhit just before the roll was read:
                # the next player entering on the hit point, or the mover taking the hit back
                caught = self._catch_up_from(time, replace(state, held=held), undone)
                if caught is not None:
                    return caught
            if verdict is not None and verdict.kind is Kind.COMPLETE and verdict.key is not None:
                if turn.map.next_moves(verdict.key) or turn.tracker.reach.may_still_hit(verdict.key):
                    # another play passes through this board, or hits a blot this one went past
                    held = (HeldRoll(roll, time, over=verdict.key, thrown=thrown, exact=exact),)
                    self._stay(replace(state, held=held, settle=time))
                    return self._output(message=f"Roll {roll} held until {turn.colour.value} has finished")
                return self._end_turn(time, turn.map.play_to(verdict.key), next_roll=roll)
            if verdict is None and turn.map.is_complete(state.last_legal):
                return self._end_turn(time, turn.map.play_to(state.last_legal), next_roll=roll)
        else:
            over = state.held[0].over
            if over is not None and over != state.last_legal and (verdict is None or verdict.key != over):
                # a second roll while the board stands short of the complete board the first
                # came over: that was the mover's play, and the next player's undid its change
                # (a hit back on the point just hit from: bar/23/19* then bar/24/19*)
                caught = self._catch_up_from(time, replace(state, held=held), over)
                if caught is not None:
                    return caught
        self._stay(replace(state, held=held))
        if verdict is not None and verdict.kind is Kind.WRONG and self._reading is not None:
            caught = self._catch_up(time, self._reading)  # the next player began before the board showed the play
            if caught is not None and not isinstance(caught, Undecided):
                return caught
        if (state.held and verdict is not None and verdict.kind is Kind.HIT_PENDING and not verdict.lifted
                and self._reading is not None):
            # the mover has rolled again over a hit whose hitter is still to come, nothing in a
            # hand: judged again as such (trictrac 1070332109, serial: four seconds unwarned)
            again = self._on_snapshot(time, self._reading)
            if again.entries or again.finished is not None:
                return again
        return self._output(message=f"Roll {roll} held until {turn.colour.value} has finished")

    def _judge_after_roll(self, state: Moving, thrown: float, time: float) -> None:
        """The roll landed at ``thrown`` and was read at ``time``, after boards read since
        (a serial link's delay): what they showed is forgotten as boards before the roll and
        judged again as boards after it (trictrac 1700351009 at a person's pace over serial:
        Black lifted its blot on 5 just after its 6-3 landed, read first as White's
        bar/20*/17 seen with the blot on its way to the bar, and Black's illegal 5 to 16
        taken for bar/16, the game lost)."""
        tracker = state.turn.tracker
        if tracker.rewind(thrown):
            for _, reading in reversed(list(self._seen.whole_between(thrown, time))):  # oldest first
                tracker.judge(reading, state.last_legal, opponent_rolled=True)

    def _since_roll(self, state: Moving) -> SinceRoll | None:
        """What the boards since the mover's roll (read up to ``ROLL_READ`` late) showed of
        the opponent's checkers; None when the roll's time is not known."""
        turn = state.turn
        if turn.rolled_at == -math.inf:
            return None
        since, opponent = turn.rolled_at - ROLL_READ, turn.colour.opponent
        first = state.held[0] if state.held else None
        read = math.inf if first is None else first.thrown - (0.0 if first.exact else ROLL_READ)
        # (a blot left only after its owner's roll was read is its owner's to move: no unseen
        # visit to the bar or pool excuses a hit of it, rally-hitting 1350540515 at 8x: White's
        # 14/10/8 carried past Black's blot, lifted by Black after its 1-1, read as 14/12*/8)
        points, unseen = self._seen.standing(opponent, since), self._seen.left_unseen(opponent, since, read)
        nothing = (0,) * len(points)
        # hits the bar showed once the next player had rolled (the hitter's hand no longer
        # taking one back) and before the mover's next roll
        until = state.held[1].thrown if len(state.held) > 1 else math.inf
        # (boards that read the bar or pool: one hidden while a blot is in its owner's hand is
        # no hit shown, backgammon 1940358209 with blots handed over: White's 9/6/2 shown
        # complete, read as 9/5*/2 when Black lifted its blot for its 20/16, the game lost)
        hits = self._seen.bar_between(opponent, state.held[0].thrown, until, read=True) if state.held else 0
        early = CHECKERS if first is None else self._seen.off_between(opponent, turn.rolled_at, read)
        return SinceRoll(turn.map.key_of(nothing, points), self._seen.bar_shown(opponent, since), hits,
                         early, turn.map.key_of(nothing, unseen),
                         turn.map.key_of(nothing, self._seen.never_emptied(opponent, since)))

    def _hit_just_undone(self, time: float, state: Moving) -> int | None:
        """The complete board with a hit that the board left for the same play unhit less
        than ``ROLL_READ`` ago, if it did."""
        verdict, left = self._verdict, state.left
        if (left is None or verdict is None or verdict.kind is not Kind.COMPLETE or verdict.key != state.last_legal
                or time - left[1] > ROLL_READ or not hit_undone(left[0], state.last_legal)):
            return None
        return left[0]

    def _catch_up_from(self, time: float, state: Moving, seen: int) -> Output | None:
        """With rolls held: end the turn with complete board ``seen`` (a hit the board showed,
        then undone) when the held rolls explain the board from it, the next player entering
        on the hit point; else None, the state as it was."""
        if self._reading is None:
            return None
        self._stay(replace(state, last_legal=seen))
        caught = self._catch_up(time, self._reading)
        if caught is not None and not isinstance(caught, Undecided):
            return caught
        self._stay(state)
        return None

    def _play_held_roll(self, time: float, play: Play, searched: Tracker | None = None) -> Output:
        """The mover's play is complete: it ends the turn and the first held roll starts the
        next (the later ones stay held in it; ``searched``: that turn as the search followed it)."""
        state = self._state
        if not isinstance(state, Moving) or not state.held:
            raise UndeclaredTransition("no held roll to play")
        later = tuple(replace(h, since=max(h.since, time)) for h in state.held[1:])
        return self._end_turn(time, play, next_roll=state.held[0].roll, later=later, rolled_at=state.held[0].thrown,
                              rolled_exact=state.held[0].exact,
                              searched=searched)

    def _settle_due(self, time: float) -> Output | None:
        """A roll came over a complete board another play passes through, a grace time ago:
        a board still showing that play ends the turn with it (the hand did not carry on)."""
        state = self._state
        if not isinstance(state, Moving) or state.settle is None or time < state.settle + self.settings.grace:
            return None
        self._stay(replace(state, settle=None))
        return self._end_as_it_stands(time, state)

    def _end_as_it_stands(self, time: float, state: Moving) -> Output | None:
        """A wait ended: a board still showing a complete play ends the turn with it (a held
        roll starts the next); None while a hand is at work (the boards to come decide).  A
        board with a zone unreadable just then shows it still if every zone read fits it and
        none unread holds a blot (backgammon 1850255506, careless throws: the tray flickered
        unreadable at the very tick, the wait began again, and the next player lifting the
        blot the play had passed for its own move was read as the hit, the game lost)."""
        verdict = self._verdict
        hidden = (verdict is not None and verdict.kind is Kind.HIDDEN and self._reading is not None
                  and _shows_where_read(state, self._reading, state.last_legal))
        if not hidden and (verdict is None or verdict.kind is not Kind.COMPLETE or verdict.key != state.last_legal):
            return None  # (a complete board other than the one kept is undecided: see _on_legal)
        if state.held and self._reading is not None and self._shown_more_hit(state):
            if hidden:
                return None  # the runs below judge only a board read whole
            # the bar or pool showed more hit before the next roll than this play hits: the
            # next player may have entered the blot on the very point it was hit from, and the
            # runs of turns from the plays hitting it tell (rally-hitting 1071532145: White's
            # bar/20*/17, Black's bar/24/20 before any board showed the hitter down, read as
            # bar/22/17, the game lost); none explaining the board, the hit was taken back
            caught = self._catch_up(time, self._reading)
            if isinstance(caught, Undecided):
                return None
            if caught is not None:
                return caught
        play = state.turn.map.play_to(state.last_legal)
        return self._play_held_roll(time, play) if state.held else self._end_turn(time, play)

    def _shown_more_hit(self, state: Moving) -> bool:
        """With a roll held: did the boards show more of the opponent's checkers hit than the
        play the board shows complete makes?  On the bar or pool before the next roll, or off
        their points before it (a blot handed over to its owner and entered from the hand on
        the point it was hit from: rally-hitting 1851655549, Black's pool/22*/20* read as
        pool/23/20*, White's blot back on 22 with its 3-3, the game lost)."""
        hits = opponent_bar(state.last_legal)
        if state.turn.tracker.shown.hit_bar > hits:
            return True
        since = self._since_roll(state)
        # (15 off their points is a count like any other once the boards kept reach back: a
        # rally pool holding all but the blot in the hand, rally-hitting 1881856454)
        return since is not None and hits < since.off_early and (
            since.off_early < CHECKERS or self._seen.reaches_back(state.turn.rolled_at))

    def _catch_up(self, time: float, reading: BoardReading, cascade: bool = False) -> Output | Undecided | None:
        """A board the turn cannot explain, with rolls held: if it shows the mover's play
        finished and the next player at work (``held.finished_play``), end this turn, start
        the next with the first held roll and judge the board again there (it may be further
        on); ``Undecided`` (no grace time runs) when the boards to come must tell which play
        it was; None when no finished play explains it.  ``cascade``: this turn began on this
        very board, a run of turns already found settled on it."""
        state = self._state
        if not isinstance(state, Moving) or not state.held:
            return None
        rolled_at = state.turn.rolled_at
        seen_hits = None if rolled_at == -math.inf else self._seen.hits_shown(rolled_at)
        gone, standing, gones = self._next_roll_evidence(state, time)
        finished = finished_play(
            state.turn.tracker, tuple(h.roll for h in state.held), reading, state.last_legal, observed=not cascade,
            since=self._since_roll(state), played_on=not self._alarm.warning, seen_hits=seen_hits,
            gone=gone, standing=standing, gones=gones)
        if isinstance(finished, Undecided):
            self._alarm.wrong = None
            return finished
        end = None if finished is None else state.turn.map.end_of(finished.play)
        if finished is None or not self._keeps_to_plan(state, end):
            return None
        finished = self._shown_after_next_roll(state, finished, reading)
        if finished is None or not self._keeps_to_plan(state, state.turn.map.end_of(finished.play)):
            return None
        return self._finish_held(time, state, finished, reading)

    def _run_from_shown(self, time: float, state: Moving, key: int, shown: int | None) -> Output | None:
        """The board shows complete board ``key`` with the mover's next roll held too, after it
        showed another complete board (the one the next roll came over, else ``shown``, the
        last seen): the run of turns from that one explaining the board settled ends the turn
        with its play (the next player's hits took the board back to the turn's start, and
        the mover's hand at its next roll made a board of its turn before: rally-hitting
        1030230907, 19/15* pool/19 shown, White's 21/15* pool/21, then Black's 6-4 again read
        as 4/off pool/19)."""
        if len(state.held) < 2 or self._reading is None:
            return None
        rolls = tuple(h.roll for h in state.held)
        for earlier in dict.fromkeys((state.held[0].over, shown)):
            if earlier is None or earlier == key or not state.turn.map.is_complete(earlier):
                continue
            finished = run_settles(state.turn.tracker, earlier, rolls, self._reading)
            if finished is not None and self._keeps_to_plan(state, earlier):
                return self._finish_held(time, state, finished, self._reading, shown=True)
        return None

    def _recover_finished(self, time: float) -> Output | None:
        """A wrong board has stood its grace time with the next roll held: when its mover's
        side shows a complete play (``recovery.finished_by_side``), the mover had finished and
        the wrong part is the next player's, so end the turn with that play and begin the next
        with the held roll, which judges the board anew (and warns its player, not the mover);
        None otherwise (trictrac 510000148 at 20x: Black's 13/8 24/23 made after its warned
        move was put right, White's 6-1 thrown meanwhile and its wrong 8/2* 13/5 made at once:
        Black warned, its roll never played, the game lost)."""
        state = self._state
        if not isinstance(state, Moving) or len(state.held) != 1 or self._reading is None:
            return None  # (with more rolls held the held search reads runs of turns: its answer stands)
        if not isinstance(state.turn.map, TurnMap):
            return None
        end = finished_by_side(state.turn.tracker, self._reading)
        if end is None or not self._keeps_to_plan(state, end):
            return None
        since = self._alarm.wrong.since if self._alarm.wrong is not None else time
        out = self._play_held_roll(time, state.turn.map.play_to(end))
        wrong = self._alarm.wrong
        if wrong is None or wrong.since <= since:
            return out
        # the board has stood wrong its grace time already: the next player is warned now
        self._alarm.wrong = replace(wrong, since=since)
        warned = self._on_tick(time, fresh=True)
        return replace(warned, entries=out.entries + warned.entries, log=out.log + warned.log,
                       turn=warned.turn or out.turn)

    def _finish_held(self, time: float, state: Moving, finished: Finished, reading: BoardReading,
                     shown: bool = False) -> Output:
        """End the turn with the play a held roll's search found (``shown``: the board showed
        it complete), begin the next with the first held roll and judge the board there (it
        may be further on)."""
        end = state.turn.map.end_of(finished.play)
        tracker = state.turn.tracker
        # the play shown: complete on a board, or its side whole with the next player's hand
        # already at work (``Tracker.side_seen``)
        seen = shown or end is not None and (
            end in (tracker.complete_seen, state.last_legal) or end & MOVER == tracker.side_seen)
        guessed_from, hits_before = state.guesses_go_on(len(self.game.history))
        guessed_hits = (*hits_before, hits_shown(tracker))
        out = self._play_held_roll(time, finished.play, finished.follower)
        new = self._state
        if not seen and isinstance(new, Moving):  # the board never showed that play: a guess
            guessed = replace(new, guessed_from=guessed_from, guessed_hits=guessed_hits, guesses_settled=False)
            if not self._guesses_shown(guessed, self._verdict):  # (unless this very board shows it)
                self._stay(guessed)
        if self._verdict is not None and self._verdict.kind is Kind.WRONG:
            further = self._catch_up(time, reading, cascade=True)
            if further is not None and not isinstance(further, Undecided):
                return further.after(out.entries)
        return out


def _shows_where_read(state: Moving, reading: BoardReading, key: int) -> bool:
    """Every zone ``reading`` could read holds what board ``key`` has there, and no zone it
    could not read holds a blot of either side (a hand over a blot may be taking it)."""
    if reading.mixed or reading.overfull or reading.foreign:
        return False
    mover = state.turn.tracker.mover
    for colour, side in zip((mover, mover.opponent), state.turn.map.sides_of(key)):
        read, hidden = reading.side(colour), set(reading.hidden(colour))
        if any(side[point] == 1 for point in hidden if 0 < point < BAR):
            return False
        if any(read[point] != side[point] for point in range(len(side)) if point not in hidden):
            return False
    return True
