"""What the controller does after a restart, until the game goes on as usual.

``resume`` rebuilds the match from the journal (``controller.resume.replay``) and picks the
phase: the pending roll's turn, the wait for a roll, the setup, or the game over.  Until the
board is first accepted (the ``Window``), a board the turn does not explain is matched
against every legal continuation (``controller.resume``): the pending play begun or made,
that play and the next roll's turn, a roll thrown and played since, the opening throw and
the first moves.  One is accepted and journalled exactly as normal play would journal it;
while the dice are unknown the board waits without a warning; a board nothing explains is
guided back to the journal's position.  A mixin of ``controller.machine.Controller``: it
uses the controller's state and its turn steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from . import guidance
from . import resume as resuming
from .phase import Phase, Restore
from .resume import Window
from .rules.turn import TurnMap
from .rules.values import Roll
from .tracking import Kind

if TYPE_CHECKING:
    from .journal_entries import Entry, RollEntry
    from .machine import Output, Settings, _Held, _Turn, _Wrong
    from .resume import JournalItem, ResumePoint
    from .rules.game import Game, Match
    from .rules.values import Colour, Play
    from .tracking import BoardReader, BoardReading, Verdict


class ResumeSteps:
    """``resume`` and the controller's steps while the resume window is open."""

    if TYPE_CHECKING:  # the controller's state and steps used here
        settings: Settings
        match: Match
        game: Game
        phase: Phase
        reader: BoardReader
        resume_point: ResumePoint | None
        _window: Window | None
        _restore: Restore | None
        _reading: BoardReading | None
        _verdict: Verdict | None
        _turn: _Turn | None
        _held: _Held | None
        _wrong: _Wrong | None
        _warning: bool
        _seq: int
        _last_throw: int | None

        def _start_turn(self, time: float, roll: Roll, journal_roll: bool = True) -> Output: ...
        def _end_turn(self, time: float, play: Play, next_roll: Roll | None = None) -> Output: ...
        def _on_opening(self, time: float, a: int, b: int) -> Output: ...
        def _guide_restore(self, time: float) -> Output: ...
        def _roll_entry(self, time: float, colour: Colour, roll: Roll) -> RollEntry: ...
        def _combine(self, journal: tuple[Entry, ...], out: Output) -> Output: ...
        def _output(self, **kwargs: Any) -> Output: ...

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
            self.phase = Phase.GAME_OVER
            return
        self._window = Window(point.pending, point.last_dice)
        if game.opening is None and not game.history:
            self.phase = Phase.SETUP
        elif point.pending is None:
            self.phase = Phase.AWAIT_ROLL
        elif TurnMap(self.settings.rules, game.position, point.pending).passes:
            self.phase = Phase.RESTORE  # a pass not journalled yet: journalled once the board stands
            self._restore = Restore(game.position, "move", point.pending)
        else:
            self._start_turn(0.0, point.pending, journal_roll=False)

    def _resume_explain(self, time: float) -> Output | None:
        """The board as a legal continuation of the journal explains it: go on from there."""
        window, reading = self._window, self._reading
        assert window is not None and reading is not None
        rules, position = self.settings.rules, self.game.position
        if window.pending is not None:
            if resuming.explains(resuming.judge_turn(rules, position, window.pending, reading)):
                self._restore = None
                return self._resume_won(time, self._start_turn(time, window.pending, journal_roll=False))
            if window.dice is not None:
                play = resuming.after_play(rules, position, window.pending, window.dice, reading)
                if play is not None:
                    self._restore = None
                    dice = window.dice
                    first = self._start_turn(time, window.pending, journal_roll=False)
                    if self._turn is None:  # the pending roll passes: its turn is journalled already
                        return self._resume_won(time, self._combine(first.entries, self._start_turn(time, dice)))
                    return self._resume_won(time, self._end_turn(time, play, next_roll=dice))
        elif window.dice is not None and resuming.explains(resuming.judge_turn(rules, position, window.dice, reading)):
            self._restore = None
            return self._resume_won(time, self._start_turn(time, window.dice))
        return None

    def _resume_won(self, time: float, out: Output) -> Output:
        """A board accepted after a restart that already shows the winning play ends the game."""
        turn, verdict = self._turn, self._verdict
        if self.phase is not Phase.MOVING or turn is None or verdict is None or verdict.kind is not Kind.COMPLETE:
            return out
        assert verdict.key is not None
        if turn.map.position_of(verdict.key).winner() is None:
            return out
        return self._combine(out.entries, self._end_turn(time, turn.map.play_to(verdict.key)))

    def _resume_opening(self, time: float, a: int, b: int) -> Output | None:
        """After a restart before the opening: the tray's opening throw (one die each, in
        either order) whose first roll explains the board as the first player left it."""
        rules, reading = self.settings.rules, self._reading
        if reading is None:
            return None
        for first, second in ((a, b), (b, a)):
            opening = rules.resolve_opening(first, second)
            if opening is None or opening.roll is None:
                continue
            start = self.game.position.with_turn(opening.first)
            if resuming.explains(resuming.judge_turn(rules, start, opening.roll, reading)):
                self.phase = Phase.OPENING
                return self._on_opening(time, first, second)
        return None

    def _resume_wrong(self, time: float) -> Output | None:
        """A board the turn does not explain, after a restart: a legal continuation, a wait
        for the dice, or guidance back; None to warn as usual (the board was accepted since)."""
        window, reading = self._window, self._reading
        assert window is not None and reading is not None
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
        self.phase = Phase.RESTORE
        self._restore = Restore(self.game.position, "move" if roll is not None else "await", roll)
        self._turn = self._verdict = self._held = self._wrong = None
        self._warning = False
        return self._guide_restore(time)

    def _resume_dice(self, time: float, roll: Roll, numbered: bool = False) -> Output | None:
        """Dice after a restart: the tray still showing the journal's roll, or a roll thrown
        since that may explain the board; None to handle the roll as usual.  ``numbered``: the
        board numbered the throw (protocol v2), and one already taken never reaches here, so
        it is a new throw even with the journal's numbers."""
        window = self._window
        assert window is not None
        stale = window.is_stale(roll, time) and not numbered
        window.dice = roll
        wrong = self._verdict is not None and self._verdict.kind is Kind.WRONG
        wrong = wrong and self.phase in (Phase.MOVING, Phase.AWAIT_ROLL)
        if self._reading is not None and (wrong or self.phase is Phase.RESTORE):
            explained = self._resume_explain(time)
            if explained is not None:
                return explained
        if wrong and window.lenient:  # the tray leaves the board unexplained: guide it back
            if self.phase is Phase.AWAIT_ROLL and not stale:
                entry = self._roll_entry(time, self.game.turn, roll)
                self._window = Window(roll, None, reported=True)  # the roll is in play now, journalled
                return self._combine((entry,), self._resume_restore(time, roll))
            return self._resume_restore(time, window.pending)
        if stale:
            return self._output(log=(f"resumed: the tray still shows {roll}, thrown before the restart",))
        return None
