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
from .rules.values import Play, Position, Roll
from .tracking import BoardReading, Kind, Tracker

MAX_FINISHED_TRIED = 3
"""Complete plays tried per turn and board (each costs the next player's turn map)."""
MAX_TURNS_AHEAD = 2
"""Turns the board may be ahead of the game in one snapshot (quick hands, a long dropout)."""


@dataclass(frozen=True, slots=True)
class Finished:
    """The mover's turn ended with ``play``; the board is a board of a later turn."""

    play: Play


@dataclass(frozen=True, slots=True)
class Undecided:
    """A finished play explains the board with the next player's hand at work: a transient,
    and a settled board to come decides which play it was."""


def finished_play(
    turn: Tracker, rolls: tuple[Roll, ...], reading: BoardReading, last_legal: int
) -> Finished | Undecided | None:
    """The mover's complete play that, followed by the next turns with the held ``rolls``,
    explains ``reading``; None when none does (or the board cannot be read whole).

    Tried: the last legal board if complete (the play the board last showed), then the
    complete plays whose mover's side the board shows (the next player lifting or moving
    their own checkers, or having hit one of the mover's blots); when the next turn cannot
    explain the board either and another roll is held, the same one turn further on."""
    if reading.unreadable or not rolls:
        return None
    return _finished(turn, rolls, reading, last_legal, MAX_TURNS_AHEAD)


def _finished(
    turn: Tracker, rolls: tuple[Roll, ...], reading: BoardReading, last_legal: int, depth: int
) -> Finished | Undecided | None:
    turn_map = turn.map
    if not isinstance(turn_map, TurnMap):
        return None
    board = turn.key(reading)
    tried = turn.reach.finished_like(board)[:MAX_FINISHED_TRIED]
    if turn_map.is_complete(last_legal):  # the complete board last seen comes first
        tried = [last_legal] + [key for key in tried if key != last_legal]
    after_pass = not tried and len(rolls) > 1
    if after_pass:  # the mover may have moved on after the next player's pass
        tried = _moved_on_from(turn_map, board, rolls[1])[:MAX_FINISHED_TRIED]
    settled: list[int] = []
    in_hand: list[int] = []
    transient: list[int] = []
    deeper: list[tuple[int, Tracker, int, tuple[Roll, ...]]] = []
    for key in tried:
        after = turn_map.position_of(key).with_turn(turn_map.mover.opponent)
        if after.winner() is not None:
            continue  # the winning play ends the game as soon as the board shows it
        follower, rest = _next_turn(turn_map, after, rolls)
        if follower is None or (after_pass and len(rest) != len(rolls) - 2):
            continue  # no turn follows; or a board found behind the mover's own moves whose next roll does not pass
        tracker = Tracker(follower)
        verdict = tracker.judge(reading, follower.start)
        if verdict.is_legal:
            settled.append(key)
        elif verdict.kind is Kind.IN_HAND:
            in_hand.append(key)
        elif verdict.kind is not Kind.WRONG:
            transient.append(key)
        else:
            deeper.append((key, tracker, follower.start, rest))
    # a board the next turn shows settled decides, and so does one play with only the next
    # player's checkers in a hand; a hit under way does not (the next player lifting a blot
    # looks like that blot hit and in the hand, a checker slid over the points crosses boards
    # of other plays): the boards to come tell which
    if settled:
        return Finished(turn_map.play_to(settled[0]))
    if len(in_hand) == 1 and not transient:
        return Finished(turn_map.play_to(in_hand[0]))
    if in_hand or transient:
        return Undecided()
    if depth > 1:
        for key, tracker, start, rest in deeper:
            if rest and isinstance(_finished(tracker, rest, reading, start, depth - 1), Finished):
                return Finished(turn_map.play_to(key))
    return None


def _moved_on_from(turn_map: TurnMap, board: int, roll: Roll) -> list[int]:
    """Complete boards of the mover from which ``board`` is a few of the mover's own moves on
    with ``roll`` (the next player's roll passed: a closed board), the opponent's side the
    same but for blots hit since; the nearest first.  Cheap counts only: the turn that
    follows judges each."""
    mine, theirs = turn_map.sides_of(board)
    moves = 4 if roll.is_double else 2
    found: list[tuple[int, int]] = []
    for key in turn_map.states():
        if not turn_map.is_complete(key):
            continue
        was_mine, was_theirs = turn_map.sides_of(key)
        moved = sum(max(a - b, 0) for a, b in zip(was_mine, mine))
        lost = sum(max(a - b, 0) for a, b in zip(was_theirs, theirs))
        if 0 < moved <= moves and lost <= moved and sum(was_mine) == sum(mine):
            found.append((moved, key))
    return [key for _, key in sorted(found)]


def _next_turn(turn_map: TurnMap, after: Position, rolls: tuple[Roll, ...]) -> tuple[TurnMap | None, tuple[Roll, ...]]:
    """The turn that plays on from ``after`` with the held ``rolls``, and the rolls left: the
    next player's, or, when their roll passes (no legal move), the mover's again with the
    roll after it (a closed board: one player moves twice running)."""
    follower = TurnMap(turn_map.rules, after, rolls[0])
    if not follower.passes:
        return follower, rolls[1:]
    if len(rolls) < 2:
        return None, ()
    again = TurnMap(turn_map.rules, after.with_turn(turn_map.mover), rolls[1])
    return (None, ()) if again.passes else (again, rolls[2:])
