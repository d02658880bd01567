"""The controller's steps for what the board shows: each settled snapshot judged against
the turn (legal, complete, a transient, wrong), the grace times and warnings that follow
from it, and the ticks that end them.  A base of ``controller.machine.Controller`` beside
``turn_steps`` and ``held_steps`` (it uses the controller's state and output, declared
below; this module never imports the machine)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from hal.interfaces import BoardSnapshot, LightFrame, SnapshotEvent, Sound

from .held import Undecided, bar_showed, explained_from_seen, hit_undone
from .chain_steps import whole
from .revise_steps import waiting_side_moved
from .phases import AwaitRoll, GameOver, HeldRoll, Moving, Restore, Setup
from .rules.turn import TurnMap
from .steps_base import ControllerState
from .tracking import BoardReading, Kind, StillMap, Tracker, Verdict

if TYPE_CHECKING:
    from .outputs import Output
    from .phases import State
    from .rules.values import Play, Roll
    from .screens import Screens


class BoardSteps(ControllerState):
    """The board's steps (see the module docstring)."""

    if TYPE_CHECKING:  # the controller's state and steps used here, beyond ControllerState's
        _screens: Screens

        def _stay(self, state: State) -> None: ...
        def _held(self) -> HeldRoll | None: ...
        def _guidance(self) -> LightFrame: ...
        def _guide_restore(self, time: float) -> Output: ...
        def _setup_dice_due(self, time: float) -> Output | None: ...
        def _resume_wrong(self, time: float) -> Output | None: ...
        def _revise(self, time: float) -> Output | None: ...
        def _recover_finished(self, time: float) -> Output | None: ...
        def _hit_unseen(self, time: float, state: Moving, reading: BoardReading) -> Output | None: ...
        def _guesses_shown(self, state: Moving, verdict: Verdict) -> bool: ...
        def _off_plan(self, state: State, verdict: Verdict) -> Verdict: ...
        def _catch_up(self, time: float, reading: BoardReading, cascade: bool = False) -> Output | Undecided | None: ...
        def _chain_up(self, time: float, reading: BoardReading) -> Output | None: ...
        def _end_turn(self, time: float, play: Play, next_roll: Roll | None = None,
                      later: tuple[HeldRoll, ...] = ()) -> Output: ...
        def _wait_for_blot(self, time: float) -> Output: ...
        def _play_held_roll(self, time: float, play: Play) -> Output: ...
        def _catch_up_from(self, time: float, state: Moving, seen: int) -> Output | None: ...
        def _run_from_shown(self, time: float, state: Moving, key: int, shown: int | None) -> Output | None: ...
        def _done_due(self, time: float) -> Output | None: ...
        def _blot_wait_due(self, time: float) -> Output | None: ...
        def _settle_due(self, time: float) -> Output | None: ...
        def _read_by_next_roll(self, state: Moving, verdict: Verdict, reading: BoardReading) -> tuple[bool, bool]: ...

    def _on_snapshot_event(self, event: SnapshotEvent) -> Output:
        previous = self._seen.snapshot
        reading = self.reader.read(event.snapshot)
        self._seen.note(event.snapshot, reading, event.time)
        self._alarm.asked = None
        if previous is not None and _same_where_readable(previous, event.snapshot) and self._alarm.wrong is not None:
            # zones hidden for a moment over a board still wrong: its grace time runs on
            self._reading = reading
            return self._on_tick(event.time, fresh=True)
        return self._on_snapshot(event.time, reading)

    def _on_snapshot(self, time: float, reading: BoardReading) -> Output:
        self._reading = reading
        state = self._state
        if isinstance(state, (Setup, Restore, GameOver)):
            return self._guide_restore(time)
        if isinstance(state, Moving):
            tracker, last = state.turn.tracker, state.last_legal
        else:
            tracker, last = Tracker(StillMap(self.settings.rules, self.game.position)), None
        held = len(state.held) if isinstance(state, Moving) else 0
        if isinstance(state, Moving) and not held:
            tracker.remember(time)  # (a roll read late may turn out to have landed before this board)
        shown_before = tracker.complete_seen
        verdict = self._off_plan(state, tracker.judge(reading, last, opponent_rolled=held > 0, mover_rolled=held > 1))
        late = taken = False
        if isinstance(state, Moving) and state.held:
            late, taken = self._read_by_next_roll(state, verdict, reading)
        if late or taken:
            # another play's board (a checker moved by its owner after its roll), or a blot
            # seen taken back on its point (the next turn's board)
            verdict = Verdict(Kind.WRONG)
        before, self._verdict = self._verdict, verdict
        if isinstance(state, Moving) and state.held and verdict.kind is Kind.LEGAL and (
            before is None or before.kind is not Kind.LEGAL
        ):  # "more must be played" counts from when the unfinished play stands, not from the roll
            first = replace(state.held[0], since=max(state.held[0].since, time))
            state = replace(state, held=(first, *state.held[1:]))
            self._stay(state)
        if verdict.kind is Kind.WRONG and self._window is not None and isinstance(state, (Moving, AwaitRoll)):
            resumed = self._resume_wrong(time)
            if resumed is not None:
                return resumed
        if verdict.is_legal:
            put_down = before is not None and before.kind is Kind.IN_HAND and bool(before.lifted)
            return self._on_legal(time, verdict, shown_before, put_down)
        moved = (verdict.kind is Kind.WRONG and isinstance(state, Moving) and not verdict.fault
                 and state.guesses_settled and whole(reading) and waiting_side_moved(state, reading))
        if moved and isinstance(state, Moving) and not state.held:
            # the side not on roll moved, its roll not yet thrown: the turns guessed before this
            # one played otherwise?  (With a roll held, once the catch-up has looked.)
            revised = self._revise(time)
            if revised is not None:
                return revised
        if verdict.kind is Kind.WRONG and isinstance(state, Moving) and state.held and not late:
            caught = self._catch_up(time, reading)  # the mover had finished; the next player is under way?
            if isinstance(caught, Undecided):  # a hand at work after one of several plays
                return self._output() if self._alarm.warning else self._output(frame=self._guidance())
            if caught is not None:
                return caught
            if not verdict.fault:
                chained = self._chain_up(time, reading)  # quick hands: the held search lost the way
                if chained is not None:
                    return chained
                if state.guessed_from is None or state.guesses_settled and not moved:
                    unseen = self._hit_unseen(time, state, reading)  # the last turn hit a blot it seemed to pass?
                    if unseen is not None:
                        return unseen
                elif moved:
                    revised = self._revise(time)
                    if revised is not None:
                        return revised
        alarm = self._alarm
        if verdict.kind is Kind.WRONG:
            alarm.note_wrong((tracker.key(reading), verdict.fault), time, self._seen.snapshot)
            if alarm.warning and not alarm.wrong_due(time):  # the warning stands: the red lights follow the board
                # (unless the board moved on to one the guessed turns explain, played otherwise;
                # a board due for its own warning is looked at by _on_tick)
                revised = None if verdict.fault else self._revise(time)
                return revised if revised is not None else self._output(frame=self._warning_frame())
            return self._on_tick(time, fresh=True)
        wrong, now = alarm.wrong, self._seen.snapshot
        if (verdict.kind is Kind.HIDDEN and wrong is not None and wrong.snapshot is not None and now is not None
                and _same_where_readable(wrong.snapshot, now)):
            # zones hidden over the wrong board, the same wherever they read (dropouts one
            # after another, each hiding a zone the one before read): it still stands, its
            # grace time runs on
            if before is not None and before.kind is Kind.WRONG:
                self._verdict = before
            return self._on_tick(time, fresh=True)
        # a transient: checkers in hand, a hit on its way, a hand over the board
        alarm.wrong = None
        if alarm.warning:
            if verdict.kind in (Kind.IN_HAND, Kind.HIDDEN) and self._put_lifted(reading):
                # a checker the illegal move put lifted again (being put back?): the lights
                # stay red, but the same wrong board made again beeps again after its grace time
                alarm.warned = None
            return self._output()
        return self._confirmed(time, self._output(frame=self._guidance()))

    def _on_legal(self, time: float, verdict: Verdict, shown_before: int | None = None,
                  put_down: bool = False) -> Output:
        """A legal board: no warning; a complete play that wins, or has a roll held, ends the turn.
        ``shown_before``: the complete board the tracker had last judged (a hit under way);
        ``put_down``: the board before had a checker of the mover's in a hand."""
        if self._window is not None:
            self._window.lenient = False
        self._alarm.clear()
        state = self._state
        if isinstance(state, Moving) and verdict.key is not None:
            seen = state.last_legal
            moved_on = verdict.kind is Kind.COMPLETE and seen != verdict.key and state.turn.map.is_complete(seen)
            left = (seen, time) if moved_on else state.left
            if self._guesses_shown(state, verdict):
                state = replace(state, guessed_from=None, guessed_hits=(), guesses_settled=False)
            state = replace(state, last_legal=verdict.key, left=left)
            self._stay(state)
            if verdict.kind is Kind.COMPLETE:
                play = state.turn.map.play_to(verdict.key)
                if state.turn.map.position_of(verdict.key).winner() is not None:
                    if state.turn.tracker.reach.may_still_hit(verdict.key):
                        return self._wait_for_blot(time)
                    return self._end_turn(time, play)
                if state.held:
                    tracker = state.turn.tracker
                    undone = seen if moved_on else shown_before
                    if (undone is not None and undone != verdict.key and state.turn.map.is_complete(undone)
                            and hit_undone(undone, verdict.key) and (moved_on or bar_showed(tracker, undone))):
                        # the hit seen (on the board, or its blot on the bar with the hitter
                        # not yet down: a blot only lifted may be the next player's own
                        # move), then its checker back on the point it was hit from while
                        # the next roll waits: the next player entering there?
                        caught = self._catch_up_from(time, state, undone)
                        if caught is not None:
                            return caught
                    if tracker.reach.may_still_hit(verdict.key):  # the blot passed may still go
                        if state.settle is None:
                            self._stay(replace(state, settle=time))
                        return self._confirmed(time, self._output(frame=self._guidance()))
                    rolls = tuple(h.roll for h in state.held)
                    if self._reading is not None and explained_from_seen(
                        tracker, rolls, self._reading, seen, verdict.key
                    ):  # the blot the play seen passed, hit by a later turn? the boards to come tell
                        self._stay(replace(state, last_legal=seen))
                        return self._confirmed(time, self._output(frame=self._guidance()))
                    earlier = self._run_from_shown(time, state, verdict.key, shown_before)
                    if earlier is not None:  # the play shown before, the board a later turn's
                        return earlier
                    if (put_down and shown_before != verdict.key and state.settle is None
                            and isinstance(state.turn.map, TurnMap)
                            and tracker.reach.complete.slides_on(verdict.key)):
                        # the last checker just down, never shown there before, and a checker
                        # carried further on makes another complete play: a hand sliding it
                        # on crosses points, and may stop on one a moment (backgammon 42700778
                        # at a person's pace: White's 6/off 5/3, the checker from 5 slid over
                        # 4 as Black's roll came, read as 6/4 5/off, and the game lost): the
                        # board stands a grace time, or the next player's hand or another
                        # board ends the turn first
                        self._stay(replace(state, settle=time))
                        return self._confirmed(time, self._output(frame=self._guidance()))
                    return self._play_held_roll(time, play)
                if state.done is not None:  # Done came before the board had settled
                    return self._end_turn(time, play)
        return self._confirmed(time, self._output(frame=self._guidance()))

    def _confirmed(self, time: float, out: Output) -> Output:
        """With ``Settings.confirm``, a held roll's warning waits for a fresh snapshot: this one."""
        if self.settings.confirm and self._alarm.held_due(self._held(), time):
            return self._on_tick(time, fresh=True)
        return out

    def _on_tick(self, time: float, fresh: bool = False) -> Output:
        """A grace time may have run out; ``fresh``: the board was just read (a snapshot)."""
        setup = self._setup_dice_due(time)
        if setup is not None:
            return setup
        alarm, state = self._alarm, self._state
        due = alarm.wrong_due(time)
        if (due or alarm.held_due(self._held(), time)) and alarm.confirm and not fresh:
            # the last snapshot may be stale behind a quiet link: warn only on a fresh one
            return self._output(request_snapshot=True) if alarm.ask_again(time) else self._output()
        if due:
            if self._verdict is not None and not self._verdict.fault:
                revised = self._revise(time)  # turns recorded from boards never seen, played otherwise?
                if revised is not None:
                    return revised
                recovered = self._recover_finished(time)  # the mover done, the next player wrong?
                if recovered is not None:
                    return recovered
            alarm.warn()
            frame = self._warning_frame()
            alarm.put = self._extra_points(self._reading)
            reason = "fault" if self._verdict is not None and self._verdict.fault else "illegal"
            return self._output(frame=frame, sounds=(Sound.WARNING,), log=(frame.message,), warning=reason)
        done = self._done_due(time)
        if done is not None:
            return done
        blot = self._blot_wait_due(time)
        if blot is not None:
            return blot
        settled = self._settle_due(time)
        if settled is not None:
            return settled
        held = self._held()
        if isinstance(state, Moving) and held is not None and alarm.held_due(held, time):
            self._stay(replace(state, held=(replace(held, warned=True), *state.held[1:])))
            message = f"More must be played: {state.turn.colour.value} has not finished ({held.roll} held)"
            return self._output(message=message, sounds=(Sound.WARNING,), log=(message,), warning="more to play")
        return self._output()

    def _put_lifted(self, reading: BoardReading) -> bool:
        """Does ``reading`` show a point the warned illegal move put checkers on holding no
        more than on the last legal board?  Zones hidden say nothing (they read empty):
        rally-hitting 350310509 (5x, every turn an illegal move tried), White's 3 to 10 warned,
        taken back and 3/2 played on a board hiding another zone, then 2 to 10 tried: the same
        wrong board again, a new move to warn about."""
        state = self._state
        hidden = frozenset(reading.hidden(state.turn.colour)) if isinstance(state, Moving) else frozenset()
        return bool(self._alarm.put - self._extra_points(reading) - hidden)

    def _extra_points(self, reading: BoardReading | None) -> frozenset[int]:
        """The mover's points where ``reading`` holds more of its checkers than the last legal
        board (where an illegal move put them)."""
        state = self._state
        if not isinstance(state, Moving) or reading is None:
            return frozenset()
        legal = state.turn.map.sides_of(state.last_legal)[0]
        now = reading.side(state.turn.colour)
        return frozenset(point for point in range(1, len(legal) - 1) if now[point] > legal[point])

    def _warning_frame(self) -> LightFrame:
        return self._screens.warning(self._state, self._verdict, self.game, self._reading)


def _same_where_readable(before: BoardSnapshot, now: BoardSnapshot) -> bool:
    """``now`` hides some zones and agrees with ``before`` on every zone it can read."""
    hidden = False
    for old, new in zip(before.readings, now.readings):
        if new is None:
            hidden = True
        elif old is not new and old != new:
            return False
    return hidden
