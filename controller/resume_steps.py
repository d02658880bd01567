"""What the controller does after a restart, until the game goes on as usual.

``resume`` rebuilds the match from the journal (``controller.resume.replay``) and picks the
phase: the pending roll's turn, the wait for a roll, the setup, or the game over.  Until the
board is first accepted (the ``Window``), a board the turn does not explain is matched
against every legal continuation (``controller.resume``): the pending play begun or made,
that play and the next roll's turn, a roll thrown and played since, the opening throw and
the first moves.  One is accepted and journalled exactly as normal play would journal it;
while the dice are unknown the board waits without a warning; a board nothing explains is
guided back to the journal's position.  A base of ``controller.machine.Controller``: it
uses the controller's state and its turn steps (declared below; this module imports only
what the machine imports too, never the machine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from . import guidance
from . import resume as resuming
from .phases import AwaitRoll, CubeOffered, GameOver, Moving, Opening, Restore, Setup
from .resume import Window
from .rules.turn import TurnMap
from .rules.values import Roll
from .tracking import Kind
from .steps_base import ControllerState
from .transitions import Trigger

if TYPE_CHECKING:
    from .journal_entries import RollEntry
    from .outputs import Output
    from .resume import JournalItem, ResumePoint
    from .rules.values import Colour, Play

T = Trigger


class ResumeSteps(ControllerState):
    """``resume`` and the controller's steps while the resume window is open."""

    if TYPE_CHECKING:  # the controller's state and steps used here, beyond ControllerState's
        resume_point: ResumePoint | None

        def _start_turn(self, time: float, roll: Roll, trigger: Trigger, journal_roll: bool = True) -> Output: ...
        def _end_turn(self, time: float, play: Play, next_roll: Roll | None = None) -> Output: ...
        def _on_opening(self, time: float, a: int, b: int) -> Output: ...
        def _guide_restore(self, time: float) -> Output: ...
        def _roll_entry(self, time: float, colour: Colour, roll: Roll) -> RollEntry: ...

    def resume(self, entries: Sequence[JournalItem]) -> None:
        """Rebuild the match from journal entries (raises ResumeError naming the first bad
        one) and take the board as it comes: see ``controller.resume``."""
        decoded = resuming.decode_all(entries)
        point = resuming.replay(self.match, decoded)
        self._last_throw = resuming.last_throw(decoded)
        self.game = self.match.games[-1]
        self._seq = max(self._seq, point.seq)
        self.resume_point = point
        game = self.game
        if game.is_over:
            self._go(T.RESUME, GameOver())
            return
        self._window = Window(point.pending, point.last_dice)
        if game.opening is None and not game.history:
            return  # the setup, as a new controller begins
        if game.offered_by is not None:  # a double stood: it waits for its answer again
            self._go(T.RESUME, CubeOffered(game.offered_by, game.cube_value * 2))
        elif point.pending is None:
            self._go(T.RESUME, AwaitRoll())
        elif TurnMap(self.settings.rules, game.position, point.pending).passes:
            # a pass not journalled yet: journalled once the board stands
            self._go(T.RESUME, Restore(game.position, point.pending))
        else:
            self._start_turn(0.0, point.pending, T.RESUME, journal_roll=False)

    def _resume_explain(self, time: float) -> Output | None:
        """The board as a legal continuation of the journal explains it: go on from there."""
        window, reading = self._window, self._reading
        if window is None or reading is None:
            return None
        rules, position = self.settings.rules, self.game.position
        if window.pending is not None:
            if resuming.explains(resuming.judge_turn(rules, position, window.pending, reading)):
                return self._resume_won(time, self._start_turn(time, window.pending, T.RESUME_EXPLAINED, journal_roll=False))
            if window.dice is not None:
                play = resuming.after_play(rules, position, window.pending, window.dice, reading)
                if play is not None:
                    dice = window.dice
                    first = self._start_turn(time, window.pending, T.RESUME_EXPLAINED, journal_roll=False)
                    if not isinstance(self._state, Moving):  # the pending roll passes: its turn is journalled already
                        return self._resume_won(time, self._start_turn(time, dice, T.RESUME_EXPLAINED).after(first.entries))
                    return self._resume_won(time, self._end_turn(time, play, next_roll=dice))
        elif window.dice is not None and resuming.explains(resuming.judge_turn(rules, position, window.dice, reading)):
            return self._resume_won(time, self._start_turn(time, window.dice, T.RESUME_EXPLAINED))
        return None

    def _resume_won(self, time: float, out: Output) -> Output:
        """A board accepted after a restart that already shows the winning play ends the game."""
        state, verdict = self._state, self._verdict
        if not isinstance(state, Moving) or verdict is None or verdict.kind is not Kind.COMPLETE or verdict.key is None:
            return out
        if state.turn.map.position_of(verdict.key).winner() is None:
            return out
        return self._end_turn(time, state.turn.map.play_to(verdict.key)).after(out.entries)

    def _resume_opening(self, time: float, a: int, b: int) -> Output | None:
        """After a restart before the opening: the tray's opening throw (one die each, in
        either order) whose first roll explains the board as the first player left it."""
        rules, reading = self.settings.rules, self._reading
        if reading is None or not isinstance(self._state, Setup):
            return None
        for first, second in ((a, b), (b, a)):
            opening = rules.resolve_opening(first, second)
            if opening is None or opening.roll is None:
                continue
            start = self.game.position.with_turn(opening.first)
            if resuming.explains(resuming.judge_turn(rules, start, opening.roll, reading)):
                self._go(T.RESUME_EXPLAINED, Opening())
                return self._on_opening(time, first, second)
        return None

    def _resume_wrong(self, time: float) -> Output | None:
        """A board the turn does not explain, after a restart: a legal continuation, a wait
        for the dice, or guidance back; None to warn as usual (the board was accepted since)."""
        window, reading = self._window, self._reading
        if window is None or reading is None:
            return None
        explained = self._resume_explain(time)
        if explained is not None or not window.lenient:
            return explained
        if window.dice is None and (
            window.pending is not None or resuming.some_roll_explains(self.settings.rules, self.game.position, reading)
        ):
            wanted = self.reader.position_reading(self.game.position)
            message = f"Resumed: {self.game.turn.value}'s roll? Show the dice, or put the checkers back as lit"
            return self._output(frame=guidance.restore_frame(self.reader, reading, wanted, message))
        return self._resume_restore(time, window.pending)

    def _resume_restore(self, time: float, roll: Roll | None) -> Output:
        """Guide the board back to the journal's position, then play ``roll`` (or await one)."""
        self._go(T.RESUME_GUIDE_BACK, Restore(self.game.position, roll))
        self._verdict = None
        self._alarm.clear()
        return self._guide_restore(time)

    def _resume_dice(self, time: float, roll: Roll, numbered: bool = False) -> Output | None:
        """Dice after a restart: the tray still showing the journal's roll, or a roll thrown
        since that may explain the board; None to handle the roll as usual.  ``numbered``: the
        board numbered the throw (protocol v2), and one already taken never reaches here, so
        it is a new throw even with the journal's numbers."""
        window = self._window
        if window is None:
            return None
        stale = window.is_stale(roll, time) and not numbered
        window.dice = roll
        wrong = self._verdict is not None and self._verdict.kind is Kind.WRONG
        wrong = wrong and isinstance(self._state, (Moving, AwaitRoll))
        if self._reading is not None and (wrong or isinstance(self._state, Restore)):
            explained = self._resume_explain(time)
            if explained is not None:
                return explained
        if wrong and window.lenient:  # the tray leaves the board unexplained: guide it back
            if isinstance(self._state, AwaitRoll) and not stale:
                entry = self._roll_entry(time, self.game.turn, roll)
                self._window = Window(roll, None, reported=True)  # the roll is in play now, journalled
                return self._resume_restore(time, roll).after((entry,))
            return self._resume_restore(time, window.pending)
        if stale:
            return self._output(log=(f"resumed: the tray still shows {roll}, thrown before the restart",))
        return None
