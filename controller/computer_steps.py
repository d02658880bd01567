"""The controller's steps for the computer on the board: the computer's play chosen when
its roll arrives and held to (any order of its moves; another play is wrong unless
``Settings.substitute``), a hint on Menu during a person's turn, and a takeback that undoes
the person's last turn together with the computer's reply.  A base of
``controller.machine.Controller`` (declared in ``steps_base``; never imports the machine).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .notation.moves import format_play
from .opponent import Planned, plan
from .phases import Moving
from .rules.game import TurnRecord
from .rules.turn import TurnMap
from .rules.values import Colour, Roll
from .steps_base import ControllerState
from .tracking import Kind, Verdict

if TYPE_CHECKING:
    from hal.interfaces import LightFrame

    from .outputs import Output
    from .phases import State

HINT_LINES = 5
"""How many ranked plays a hint lists (terminal and web page)."""

OFF_PLAN = Verdict(Kind.WRONG)
"""A legal board that is not on the computer's play: wrong, warned after the grace time."""


class ComputerSteps(ControllerState):
    """The computer's plays and the hints (see the module docstring)."""

    if TYPE_CHECKING:

        def _stay(self, state: State) -> None: ...
        def _guidance(self) -> LightFrame: ...

    def _plan_turn(self, colour: Colour, roll: Roll, turn_map: TurnMap) -> tuple[Planned | None, tuple[str, ...]]:
        """The computer's play for this turn when the computer plays ``colour``, and the log
        line naming it.  An engine that fails leaves the turn to be played by hand (any legal
        play), said in the log: the board must never stop the game for its opponent."""
        opponent = self.settings.computer.get(colour)
        if opponent is None or turn_map.passes:
            return None, ()
        rules = self.settings.rules
        try:
            play = opponent.choose(self.game.position, roll)
        except Exception as error:  # an external engine (gnubg) that died: the person plays on
            return None, (f"{opponent.name} could not choose a play ({error}); any legal play is taken",)
        planned = plan(turn_map, play)
        if planned is None:
            return None, (f"{opponent.name} chose {format_play(play, rules)}, not a legal play; any legal play is taken",)
        planned = replace(planned, by=opponent.name, text=format_play(play, rules))
        return planned, (f"{colour.value} ({opponent.name}) {roll}: {planned.text}",)

    def _off_plan(self, state: State, verdict: Verdict) -> Verdict:
        """A legal board off the computer's play is wrong (unless substitutes are allowed)."""
        if (
            isinstance(state, Moving) and state.turn.plan is not None and verdict.is_legal and verdict.key is not None
            and not self.settings.substitute and not state.turn.plan.allows(verdict.key)
        ):
            return OFF_PLAN
        return verdict

    def _keeps_to_plan(self, state: Moving, end: int | None) -> bool:
        """May the turn end on this board (the computer's play, or any with substitutes)?"""
        turn_plan = state.turn.plan
        return turn_plan is None or self.settings.substitute or end == turn_plan.end

    # -- hints ---------------------------------------------------------------------------------
    def _hint(self, state: Moving) -> Output:
        """Menu during a person's turn: the engine's best play lit from where the board
        stands (when it is on the way), the best few with their equities in the log."""
        engine, turn = self.settings.hints, state.turn
        if engine is None or turn.plan is not None:
            return self._output(message="No hint: " + ("the computer is playing" if turn.plan else "no engine"))
        rules = self.settings.rules
        try:
            ranked = engine.rank(self.game.position, turn.roll)
        except Exception as error:
            return self._output(message=f"No hint: {engine.name} failed ({error})")
        if not ranked:
            return self._output(message="No hint: no legal play")
        hints = tuple((format_play(play, rules), round(equity, 3)) for play, equity in ranked[:HINT_LINES])
        best = plan(turn.map, ranked[0][0])
        if best is not None:
            best = replace(best, by=engine.name, text=hints[0][0])
        self._stay(replace(state, turn=replace(turn, hint=best, hints=hints)))
        lines = tuple(f"hint {i + 1}: {text} ({equity:+.3f})" for i, (text, equity) in enumerate(hints))
        frame = self._guidance()
        if best is not None and not best.allows(state.last_legal):
            frame = replace(frame, message=f"Hint ({engine.name}): {best.text}; take back your moves to play it")
        return self._output(frame=frame, log=lines)

    # -- takeback --------------------------------------------------------------------------------
    def _turns_to_take_back(self) -> int:
        """1, or 2 when the last turn was the computer's reply to a person's turn (both go:
        the person plays again, the computer answers anew); 0 when there is nothing to take back."""
        history = self.game.history
        last = history[-1] if history else None
        if not isinstance(last, TurnRecord):
            return 0
        if last.colour not in self.settings.computer or last.colour.opponent in self.settings.computer:
            return 1
        before = history[-2] if len(history) > 1 else None
        return 2 if isinstance(before, TurnRecord) else 0
