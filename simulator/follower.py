"""A simulated person carrying the computer's play on the board, move by move, from what
the lights show (the engine's colour: the checker's point steady, where it goes blinking),
sometimes wrongly: a checker moved where the lights do not say, kept there until the board
warns, then put back (issue 10: "sometimes wrongly and then warned")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Generator

from controller.opponent import Planned
from controller.rules.base import RuleSet
from controller.rules.turn import TurnInProgress
from controller.rules.values import BAR, Colour, Move, Play, Position, Roll
from controller.tracking import BoardReader
from hal.interfaces import LightColour, LightFrame, LightMode, Sound
from hal.zones import Zone

from .players import Attempt, Hand

LOOK = 0.15
"""Seconds between two looks at the lights while waiting for them to show the next move."""
PATIENCE = 6.0
"""Seconds a person waits for the lights to show a move before the play is taken as done."""


@dataclass
class LightFollower:
    """Reads the lights and moves the computer's checkers with a person's ``hand``."""

    rules: RuleSet
    reader: BoardReader
    hand: Hand
    lights: Callable[[], LightFrame]
    plan: Callable[[], Planned | None]
    """The controller's plan, only to pick a wrong move that is surely off it (a person's
    mistake must be a mistake for the test to mean anything); the moves come from the lights."""

    def carry(self, position: Position, roll: Roll) -> Generator[float, None, Play]:
        """Carry out the lit play from ``position``; the moves made (the play as the board shows it)."""
        colour = position.turn
        turn = TurnInProgress(self.rules, position, roll)
        points = {self.reader.zone_of(colour, p): p for p in range(26)}
        behaviour, rng = self.hand.behaviour, self.hand.rng
        mistake_at = rng.randrange(4 if roll.is_double else 2) if self.hand.chance(behaviour.illegal_rate) else -1
        made = 0
        while not turn.is_complete:
            lit = None
            waited = 0.0
            while waited < PATIENCE:
                yield LOOK
                waited += LOOK
                frame = self.lights()
                lit = lit_move(frame, points)
                if lit is not None and any((m.frm, m.to) == lit for m in turn.legal_moves()) and _to_go(frame) == (
                    turn.map.dice_to_use - len(turn.moves)
                ):
                    break  # else the lights still show the move just made: the board has not caught up
                lit = None
            if lit is None:  # nothing lit: the board shows the play as done (or stands wrong)
                break
            yield self.hand.pause(behaviour.think if made == 0 else behaviour.hesitate)
            if made == mistake_at:
                yield from self._mistake(turn, colour, lit)
            move = turn.move(*lit)
            yield from self.hand.move(colour, move)
            made += 1
        return turn.play

    def _mistake(self, turn: TurnInProgress, colour: Colour, lit: tuple[int, int]) -> Generator[float, None, None]:
        """Move a checker where the lights do not say (a legal move off the computer's play,
        else an illegal one), wait for the warning, put it back."""
        plan = self.plan()
        wrong = [
            m for m in turn.legal_moves()
            if not m.hit and m.frm != BAR and (m.frm, m.to) != lit
            and (plan is None or not plan.allows(_key_after(self.rules, turn, m)))
        ]
        if not wrong:
            return
        move = self.hand.rng.choice(wrong)
        frm, to = self.reader.zone_of(colour, move.frm), self.reader.zone_of(colour, move.to)
        yield from self.hand.carry(frm, to, colour, slide=False)
        attempt = Attempt(colour, self.hand.now())
        self.hand.attempts.append(attempt)
        waited = 0.0
        while waited < self.hand.behaviour.warning_patience:
            yield 0.1
            waited += 0.1
            if any(sound is Sound.WARNING and at >= attempt.start for at, sound in self.hand.sounds()):
                attempt.warned = True
                break
        yield self.hand.pause(self.hand.behaviour.hesitate)
        attempt.end = self.hand.now()
        yield from self.hand.carry(to, frm, colour, slide=False)
        yield LOOK


def lit_move(frame: LightFrame, points: dict[Zone, int]) -> tuple[int, int] | None:
    """The move the lights show in the engine's colour, as own points: (from, to)."""
    frm = [z for z, light in frame.lights if light.colour is LightColour.ENGINE and light.mode is LightMode.STEADY]
    to = [z for z, light in frame.lights if light.colour is LightColour.ENGINE and light.mode is LightMode.BLINK]
    if len(frm) != 1 or len(to) != 1 or frm[0] not in points or to[0] not in points:
        return None
    return points[frm[0]], points[to[0]]


def _to_go(frame: LightFrame) -> int | None:
    """How many moves the message says are left ("(3 to go)", "(the last)")."""
    found = re.search(r"\((\d+) to go\)", frame.message)
    if found:
        return int(found.group(1))
    return 1 if "(the last)" in frame.message else None


def _key_after(rules: RuleSet, turn: TurnInProgress, move: Move) -> int:
    """The turn map's key of the board after ``move`` from where the turn stands."""
    after = rules.apply(turn.position, Play((move,))).with_turn(turn.position.turn)
    return rules.board_key(after)


__all__ = ["LightFollower", "lit_move"]
