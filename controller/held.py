"""A roll thrown before the mover's play was seen complete: which play it follows.

The next player may throw while the mover still holds a checker, while a hand hides a
zone or the sensors drop out, and may start moving before the board has ever shown the
finished play.  The roll is held with the turn it came in (``phases.HeldRoll``); a board
the mover's turn explains is judged as usual (a complete play resolves the roll at once),
and a board it cannot explain is tried against each play the mover may have finished
followed by the next player's turn with the held roll.  Pure: no clock, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules.turn import TurnMap
from .rules.values import Play, Roll
from .tracking import BoardReading, Kind, Tracker

MAX_FINISHED_TRIED = 3
"""Complete plays tried per board (each costs the next player's turn map)."""


@dataclass(frozen=True, slots=True)
class Finished:
    """The mover's turn ended with ``play``; the board is a board of the next turn."""

    play: Play


def finished_play(turn: Tracker, roll: Roll, reading: BoardReading, last_legal: int) -> Finished | None:
    """The mover's complete play that, followed by the next turn with ``roll``, explains
    ``reading``; None when none does (or the board cannot be read whole).

    Tried: the complete plays whose mover's side the board shows (the next player lifting
    or moving their own checkers), then the last legal board if complete (the next player
    has also hit one of the mover's blots)."""
    if reading.unreadable:
        return None
    turn_map = turn.map
    if not isinstance(turn_map, TurnMap):
        return None
    tried = turn.reach.finished_like(turn.key(reading))[:MAX_FINISHED_TRIED]
    if turn_map.is_complete(last_legal) and last_legal not in tried:
        tried.append(last_legal)
    for key in tried:
        after = turn_map.position_of(key).with_turn(turn_map.mover.opponent)
        if after.winner() is not None:
            continue  # the winning play ends the game as soon as the board shows it
        follower = TurnMap(turn_map.rules, after, roll)
        if follower.passes:
            continue
        if Tracker(follower).judge(reading, follower.start).kind is not Kind.WRONG:
            return Finished(turn_map.play_to(key))
    return None
