"""What the board shows in each phase: the lights and the message for the phase and the last
verdict, the red warning frame, and the texts the controller shows."""

from __future__ import annotations

from dataclasses import dataclass

from hal.interfaces import LightFrame

from . import guidance
from .cube_lights import cube_note, offer_frame, owner_lights
from .phases import AwaitRoll, CubeOffered, Moving, Opening, State
from .rules.base import GameResult, RuleSet
from .rules.game import Game, Match
from .opponent import Planned
from .rules.values import BAR, OFF, Colour
from .tracking import BoardReader, BoardReading, Kind, Verdict

ANSWER = "Done takes, Takeback passes"
"""How the opponent answers a double (the buttons are fixed: Done and Takeback)."""
OPENING_MESSAGE = "Each player throws one die (first die: the player on White's side)"


@dataclass(frozen=True)
class Screens:
    """The frames of one board (its reader), rules and start quarter."""

    reader: BoardReader
    rules: RuleSet
    quarter: str
    """The rally's start quarter in play (lit during setup and the opening)."""
    computer: tuple[tuple[Colour, str], ...] = ()
    """The sides the computer plays, with its name (its dice are thrown for it)."""

    def guidance(self, state: State, verdict: Verdict | None, game: Game) -> LightFrame:
        """The lights for the phase and the last verdict."""
        if isinstance(state, Opening):
            return LightFrame.of(guidance.start_quarter_lights(self.quarter), OPENING_MESSAGE)
        if isinstance(state, CubeOffered):
            return offer_frame(state.by, offer_message(state))
        if not isinstance(state, Moving):
            message = await_message(game)
            name = dict(self.computer).get(game.turn)
            if name is not None and isinstance(state, AwaitRoll):
                message = f"{game.turn.value.capitalize()} ({name}) to roll: throw its dice{cube_note(game)}"
            return LightFrame.of({**guidance.turn_lights(game.turn), **owner_lights(game)}, message)
        return self._moving(state, verdict)

    def _moving(self, state: Moving, verdict: Verdict | None) -> LightFrame:
        turn = state.turn
        colour = turn.colour
        key = verdict.key if verdict is not None and verdict.key is not None else state.last_legal
        if turn.plan is not None:
            return self._computer(state, verdict, turn.plan)
        if turn.hint is not None and (verdict is None or verdict.is_legal) and not turn.map.is_complete(key):
            move = turn.hint.next_move(key)
            if move is not None:
                message = f"Hint ({turn.hint.by}): {turn.hint.text}"
                return guidance.engine_frame(self.reader, colour, move, message)
        if verdict is not None and verdict.ahead is not None:
            move = verdict.ahead
            if verdict.lifted:
                targets = turn.map.destinations(key, move.frm)
                return guidance.target_frame(self.reader, colour, move.frm, targets, "Now put your checker on the lit point")
            return guidance.target_frame(self.reader, colour, move.frm, (move.to,), "Now move your checker onto the lit point")
        if verdict is not None and verdict.kind is Kind.HIT_PENDING:
            waiting = "bar" if self.rules.MIRRORED else "pool"
            message = f"Hit! Put the {colour.opponent.value} checker on its {waiting}"
            return guidance.hit_frame(self.reader, colour, verdict.hits, message)
        if verdict is not None and verdict.kind is Kind.IN_HAND and len(verdict.lifted) == 1:
            frm = verdict.lifted[0]
            targets = turn.map.destinations(key, frm)
            message = f"{colour.value.capitalize()} {turn.roll}: put it on a lit point"
            return guidance.target_frame(self.reader, colour, frm, targets, message)
        if turn.map.is_complete(key):
            message = f"{colour.value.capitalize()} has played: next roll or Done"
            return LightFrame.of(guidance.turn_lights(colour.opponent), message)
        moves = turn.map.next_moves(key)
        dice = "-".join(str(d) for d in turn.map.remaining_dice(key))
        message = f"{colour.value.capitalize()} to play {dice}"
        if any(move.to == 0 for move in moves):
            message += " (bearing off)"
        return guidance.source_frame(self.reader, colour, moves, message)

    def _computer(self, state: Moving, verdict: Verdict | None, plan: Planned) -> LightFrame:
        """The computer's turn: its next move lit (from steady, to blinking, in the engine's
        colour) for the person carrying its checkers; a hit lights the way to the bar or pool."""
        colour = state.turn.colour
        key = verdict.key if verdict is not None and verdict.key is not None else state.last_legal
        if not plan.allows(key):
            key = state.last_legal
        who = f"{colour.value.capitalize()} ({plan.by}) plays {plan.text}"
        if verdict is not None and verdict.kind is Kind.HIT_PENDING:
            waiting = "bar" if self.rules.MIRRORED else "pool"
            return guidance.hit_frame(self.reader, colour, verdict.hits, f"{who}: hit! Put the checker on its {waiting}")
        moves = plan.moves_from(key)  # counted: the same move twice (13/9(2)) lights the same points twice
        if not moves:  # the play's end
            return LightFrame.of(guidance.turn_lights(colour.opponent), f"{who}: done, next roll or Done")
        move = moves[0]
        left = f"({len(moves)} to go)" if len(moves) > 1 else "(the last)"
        step = f"move {_point(move.frm)} to {_point(move.to)} {left}"
        return guidance.engine_frame(self.reader, colour, move, f"{who}: {step}")

    def warning(self, state: State, verdict: Verdict | None, game: Game, reading: BoardReading | None) -> LightFrame:
        """Red on every zone that differs from the last legal board, with what is wrong."""
        legal = self._legal_reading(state, game)
        return guidance.warning_frame(self.reader, reading or legal, legal, _wrong_message(state, verdict, game))

    def _legal_reading(self, state: State, game: Game) -> BoardReading:
        """The last legal board, as counts."""
        if isinstance(state, Moving):
            mover, opponent = state.turn.map.sides_of(state.last_legal)
            white, black = (mover, opponent) if state.turn.colour is Colour.WHITE else (opponent, mover)
            return BoardReading(white, black)
        return self.reader.position_reading(game.position)


def _wrong_message(state: State, verdict: Verdict | None, game: Game) -> str:
    if verdict is not None and verdict.fault is not None:
        return f"Check the board: {verdict.fault.value}"
    if isinstance(state, Moving) and state.turn.plan is not None:
        return f"Not {state.turn.plan.by}'s play ({state.turn.plan.text}): put the checker back"
    if isinstance(state, Moving):
        return "Illegal move: put the checker back"
    return f"Nothing may move now: {game.turn.value.capitalize()} rolls first"


def _point(point: int) -> str:
    """A point as the play's notation names it."""
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def await_message(game: Game) -> str:
    """Who rolls next (and the cube, once turned)."""
    return f"{game.turn.value.capitalize()} to roll{cube_note(game)}"


def offer_message(state: CubeOffered) -> str:
    """A double standing, and how it is answered."""
    return f"{state.by.value.capitalize()} doubles to {state.value}: {state.by.opponent.value}, {ANSWER}"


def score_message(result: GameResult, match: Match) -> str:
    """A game's result and the match score."""
    score = match.score
    return (
        f"{result.winner.value.capitalize()} wins {result.points} ({result.kind}); "
        f"score White {score[Colour.WHITE]}, Black {score[Colour.BLACK]}"
    )
