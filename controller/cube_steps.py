"""The controller's steps with the doubling cube (the ``backgammon`` rule set, RULES.md 2.3).

Before rolling, the player on roll presses **Menu** to double (when ``Game.may_double``:
not in the Crawford game, not with the opponent's cube, only where the rule set has a
cube; otherwise Menu says why).  While the offer stands (``CubeOffered``) the opponent
answers with **Done** (take: the cube doubles and is theirs) or **Takeback** (pass: the
doubler wins the cube's value before the double and the game ends; the match goes on as
after any game).  Dice thrown meanwhile are no turn: the board asks for the answer first.
Each action is journalled (``CubeEntry``) before the board confirms it.

The computer (``Settings.computer``) answers a person's double at once, and considers a
double of its own as soon as its turn to roll begins (``_computer_cube``): after Done or a
pass, or when its dice are thrown over the person's complete play (``_computer_first``:
the play ends the turn, and if the computer doubles the throw is void, thrown again after
the answer).

Lights: while an offer stands the doubler's off tray blinks and the answerer's waiting zone
is lit (their call); between turns the cube owner's off tray is lit steady.  The value and
owner are in the messages and in the web state.  A base of ``controller.machine.Controller``
(declared in ``steps_base``; never imports the machine).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from hal.interfaces import Button, LightFrame, Sound

from . import guidance
from .cube_lights import offer_frame, owner_lights
from .journal_entries import CubeEntry, GameOverEntry, stamp
from .phases import AwaitRoll, CubeOffered, GameOver, Moving
from .opponent import CubeOpponent
from .rules.values import Colour, IllegalPlayError, Play, Roll
from .screens import ANSWER, offer_message, score_message
from .steps_base import ControllerState
from .tracking import Kind
from .transitions import Trigger

if TYPE_CHECKING:
    from .outputs import Output

T = Trigger


class CubeSteps(ControllerState):
    """Offer, take and pass (see the module docstring)."""

    if TYPE_CHECKING:
        _cube_asked: tuple[int, int] | None

        def _next_seq(self) -> int: ...
        def _end_turn(self, time: float, play: Play) -> Output: ...
        def _start_turn(self, time: float, roll: Roll, trigger: Trigger) -> Output: ...

    # -- the person's buttons --------------------------------------------------------------------
    def _why_no_double(self) -> str | None:
        """Why the player on roll may not double now (None: they may)."""
        game, colour = self.game, self.game.turn
        if not self.settings.rules.HAS_CUBE:
            return f"{self.settings.rules.name} has no doubling cube"
        if not game.cube_allowed:
            return "no doubling in the Crawford game"
        if game.cube_owner is not None and game.cube_owner is not colour:
            return f"{game.cube_owner.value} owns the cube"
        if not game.may_double(colour):
            return f"{colour.value} may not double now"
        computer = self.settings.computer.get(colour)
        if computer is not None:
            return f"{colour.value} ({computer.name}) decides its own cube"
        return None

    def _offer(self, time: float) -> Output:
        """Menu before the roll: the player on roll doubles (when allowed)."""
        why = self._why_no_double()
        if why is not None:
            message = f"No double: {why}; {self.game.turn.value} to roll"
            return self._output(message=message)
        return self._double(time, self.game.turn)

    def _double(self, time: float, colour: Colour, by: str = "") -> Output:
        """``colour`` doubles: the offer stands until answered (a computer answers at once)."""
        value = self.game.cube_value * 2
        self.game.cube(colour, "double")
        self._go(T.DOUBLE, CubeOffered(colour, value))
        entry = CubeEntry(self._next_seq(), stamp(time), colour, "double", value)
        who = f"{colour.value.capitalize()}{f' ({by})' if by else ''}"
        message = f"{who} doubles to {value}: {colour.opponent.value}, {ANSWER}"
        out = self._output(journal=(entry,), frame=offer_frame(colour, message), sounds=(Sound.TURN,), log=(message,))
        answer = self._computer_answer(time, colour.opponent)
        return answer.after(out.entries) if answer is not None else out

    def _on_cube_button(self, time: float, state: CubeOffered, button: Button) -> Output:
        """A button while an offer stands: Done takes, Takeback passes, the others remind."""
        if button is Button.DONE:
            return self._answer(time, state, take=True)
        if button is Button.TAKEBACK:
            return self._answer(time, state, take=False)
        return self._output(message=offer_message(state))

    def _roll_during_offer(self, state: CubeOffered) -> Output:
        """Dice thrown while a double stands: no turn (the roll is not journalled)."""
        message = f"Answer the double first ({ANSWER}), then throw again"
        return self._output(message=message, sounds=(Sound.WARNING,), log=(f"dice during the double: {message}",))

    def _answer(self, time: float, state: CubeOffered, take: bool, by: str = "") -> Output:
        """The double taken (the game goes on, the cube the taker's) or passed (the game ends)."""
        answerer = state.by.opponent
        action = "take" if take else "drop"
        self.game.cube(answerer, action)
        entry = CubeEntry(self._next_seq(), stamp(time), answerer, action, state.value)
        who = f"{answerer.value.capitalize()}{f' ({by})' if by else ''}"
        if take:
            self._go(T.TAKE, AwaitRoll())
            message = f"{who} takes: the cube is at {state.value}, {answerer.value}'s; {state.by.value} to roll"
            frame = LightFrame.of({**guidance.turn_lights(state.by), **owner_lights(self.game)}, message)
            return self._output(journal=(entry,), frame=frame, log=(message,))
        result = self.game.result()
        if result is None:  # cannot happen: a drop ends the game
            raise IllegalPlayError("a dropped double left the game open")
        self.match.finish_game()
        self._go(T.DROP, GameOver())
        over = GameOverEntry(self._next_seq(), stamp(time), result.winner, result.points, result.kind)
        message = f"{who} passes. " + score_message(result, self.match)
        return self._output(
            journal=(entry, over), frame=guidance.winner_frame(result.winner, message), sounds=(Sound.GAME_OVER,),
            log=(message,), finished=result,
        )

    # -- the computer --------------------------------------------------------------------------
    def _decider(self, colour: Colour) -> CubeOpponent | None:
        """The computer's engine for ``colour`` when it handles the cube."""
        opponent = self.settings.computer.get(colour)
        return opponent if opponent is not None and hasattr(opponent, "cube_action") else None  # type: ignore[return-value]

    def _computer_answer(self, time: float, answerer: Colour) -> Output | None:
        """The computer answers a double at once; None when a person answers (or the engine failed)."""
        decider, state = self._decider(answerer), self._state
        if decider is None or not isinstance(state, CubeOffered):
            return None
        try:
            action = decider.cube_action(self.game, self.match)
        except Exception:  # an engine that failed: the person answers for it with the buttons
            return None
        return self._answer(time, state, take=action != "drop", by=decider.name)

    def _computer_cube(self, time: float, out: Output) -> Output:
        """After any event: when the computer's turn to roll has begun, it considers a double
        (once a turn); its offer follows ``out``."""
        state, game = self._state, self.game
        asked = (len(self.match.games), len(game.history))
        if not isinstance(state, AwaitRoll) or not game.cube_allowed or self._cube_asked == asked:
            return out
        decider = self._decider(game.turn)
        if decider is None or not game.may_double(game.turn):
            return out
        self._cube_asked = asked
        try:
            action = decider.cube_action(game, self.match)
        except Exception:  # the engine failed: it rolls without doubling
            return out
        if action != "double":
            return out
        return self._double(time, game.turn, by=decider.name).after(out.entries)

    def _computer_first(self, time: float, state: Moving, roll: Roll) -> Output | None:
        """The computer's dice thrown over the person's complete play: the play ends the turn
        and the computer, whose turn to roll begins, may double first; then the throw is void
        (thrown again after the answer).  None when the computer does not double (or this is
        no such throw): the roll is handled as usual."""
        game, verdict = self.game, self._verdict
        if state.held or not game.cube_allowed or self._decider(state.turn.colour.opponent) is None:
            return None
        if verdict is not None and verdict.kind is Kind.COMPLETE and verdict.key is not None:
            key = verdict.key
        elif verdict is None and state.turn.map.is_complete(state.last_legal):
            key = state.last_legal
        else:
            return None
        if state.turn.map.next_moves(key):  # another play passes through this board: the usual wait
            return None
        ended = self._end_turn(time, state.turn.map.play_to(key))
        if not isinstance(self._state, AwaitRoll):  # the play won the game
            return ended
        out = self._computer_cube(time, ended)
        if isinstance(self._state, AwaitRoll):  # no double: the throw is the computer's roll
            return self._start_turn(time, roll, T.ROLL).after(ended.entries)
        return replace(out, log=(*out.log, f"the throw {roll} is void: the computer doubled first"))


__all__ = ["CubeSteps"]
