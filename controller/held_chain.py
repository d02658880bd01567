"""A long run of held rolls: which legal plays lead from the turn's start to a board seen whole.

With quick hands (eight to twenty times a person's pace) the board seldom stands between
two turns, the next rolls come before the last play was ever seen, and the held search
(``controller.held``), which follows each board from the plays the boards showed, runs out
of its work budget once three or more turns are behind.  This is the way back: for a board
that shows every checker and no hand at work, a beam over the turns' complete results, with
the rolls in the order thrown, looks for a run of legal plays after which the board is a
state of the next turn (its play begun or not), the most turns on first.  The beam ranks
each position by how far its two sides stand from the board: the pips each side still has
to move against the dice it has still to play, and its checkers that stand further on than
the board has them: only hits bring them back, so the fewest hits that do count, each
excusing the pips it sent a checker back (ranked so, a run of three hits is found twice as
often as by the checkers' distance alone).  Pure: no clock, no I/O.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .rules.base import RuleSet
from .rules.turn import turn_map
from .rules.values import BAR, OFF, Colour, Play, Position, Roll

BEAM = 24
"""Positions kept after each turn, the nearest to the board first."""
MAX_EXPANDED = 160
"""Turns whose results are worked out for one board, at most (a few milliseconds each ten)."""
CANDIDATES = 4
"""Runs of as many turns given for one board, at most (a run whose hits no board showed is
left for the next: trictrac 386111583 at 20x, the nearest run of seven turns hit twice
where the boards showed one hit, the next the game's own)."""
HIT = 20
"""The distance a hit between two boards counts (a run with one is less likely than one without)."""
HIT_PIPS = 24
"""The most pips a hit sends a checker back, so the pips short it may excuse."""
_PIP_VECTOR = np.arange(BAR + 1)
"""A checker's pips by its own point (25 on the bar or in the pool, 0 borne off)."""


Board = tuple[tuple[int, ...], tuple[int, ...]]
"""A board's counts: White's and Black's, own numbering, 26 each."""


@dataclass(frozen=True, slots=True)
class Chain:
    """``plays``: the complete plays of the turns before the board's, in order; the board
    is a state of the turn after them (``rolls[len(plays)]``, its play begun or not)."""

    plays: tuple[Play, ...]


@functools.lru_cache(maxsize=8)  # a board a hand leaves standing is posted again, and asked again
def chains_to(rules: RuleSet, start: Position, rolls: tuple[Roll, ...], white: tuple[int, ...],
              black: tuple[int, ...], shown: Play | None = None,
              waypoints: tuple[Board | None, ...] = (), widen: int = 1) -> tuple[Chain, ...]:
    """The runs of legal plays from ``start`` (its mover with ``rolls[0]``, then each next
    turn with the next roll) after which the board of ``white`` and ``black`` counts (own
    numbering, 26 each) is a state of the next turn, at least one turn on: those of the
    most turns on, the nearest the board first (up to ``CANDIDATES``: the caller keeps the
    first the boards seen between allow); none when the beam finds none
    within ``MAX_EXPANDED`` turns (``widen`` times as wide a beam and as many turns: the
    caller's second look when the first found no run the boards allow).
    ``shown``: the first turn's play a board showed complete, kept first in the beam
    whatever the board's distance from it, and a board later turns reach from it and
    otherwise reached by it (trictrac 100003 at 20x: Black's 44 seen complete
    and its blot hit by the next turn ranked 30th of 82, out of the beam, the game lost).
    ``waypoints``: per roll, a board seen whole while that roll's turn was under way (White's
    and Black's counts), or None: the beam after the turn before it keeps the positions
    nearest that board first (a run is then found as often as there are boards to follow)."""
    target = {Colour.WHITE: white, Colour.BLACK: black}
    beam: list[tuple[Position, tuple[Play, ...]]] = [(start, ())]
    expanded = 0
    found: list[tuple[Chain, ...]] = []
    first: Play | None = None  # the shown play, as the first turn's results have it
    for turn in range(len(rolls) - 1):
        results: dict[Position, tuple[Play, ...]] = {}
        for position, plays in beam:
            if expanded >= MAX_EXPANDED * widen:
                break
            expanded += 1
            after = rules.legal_results(position, rolls[turn])
            if not after:  # no legal move: the turn passes
                results.setdefault(position.with_turn(position.turn.opponent), (*plays, Play()))
            for result, play in after.items():
                if rules.result(result) is not None:
                    continue
                known = results.get(result)
                if known is None or first is not None and plays[0] == first and known[0] != first:
                    results[result] = (*plays, play)  # (the same board by the shown play first, kept so)
        if not results:
            break
        ranked = list(results)
        distance, fits = _measure(ranked, target, _dice_left(start.turn, rolls, turn + 1), rolls[turn + 1],
                                  rules.HITTING)
        order = np.argsort(distance, kind="stable")
        here = []
        for index in order[fits[order]]:  # every board this turn may have left, not only the beam's
            if _state_of(rules, ranked[index], rolls[turn + 1], target):
                here.append(Chain(results[ranked[index]]))
                if len(here) == CANDIDATES:
                    break
        if here:
            found.append(tuple(here))
        waypoint = waypoints[turn + 1] if turn + 2 < len(rolls) and turn + 1 < len(waypoints) else None
        if waypoint is not None:  # a board the next turn showed: the positions nearest it first
            seen = {Colour.WHITE: waypoint[0], Colour.BLACK: waypoint[1]}
            near, _ = _measure(ranked, seen, _dice_left(start.turn, rolls[:turn + 2], turn + 1), rolls[turn + 1],
                               rules.HITTING)
            order = np.lexsort((distance, near))
        beam = [(ranked[index], results[ranked[index]]) for index in order[:BEAM * widen]]
        if turn == 0 and shown is not None and shown.moves:
            kept = rules.apply(start, shown)
            if kept in results:  # first: expanded before ``MAX_EXPANDED`` runs out
                beam = [(kept, results[kept]), *(entry for entry in beam if entry[0] != kept)]
                first = results[kept][0]
    return found[-1] if found else ()  # (a run of fewer turns, where more fit, would excuse the board)


def _state_of(rules: RuleSet, position: Position, roll: Roll, target: dict[Colour, tuple[int, ...]]) -> bool:
    """Is the board a state of the turn ``position``'s mover plays with ``roll``?  (Asked
    only of positions whose quick signs ``_measure`` found fitting: the turn's map decides.)"""
    mover = position.turn
    the_map = turn_map(rules, position, roll)
    key = the_map.key_of(target[mover], target[mover.opponent])
    return key == the_map.start if the_map.passes else key in the_map


def _dice_left(first: Colour, rolls: tuple[Roll, ...], turn: int) -> dict[Colour, tuple[int, int]]:
    """Per colour, the pips its turns from ``turn`` on have still to move: at least (the last
    turn's play may be only begun) and at most."""
    left = {Colour.WHITE: [0, 0], Colour.BLACK: [0, 0]}
    colour = first if turn % 2 == 0 else first.opponent
    for index in range(turn, len(rolls)):
        roll = rolls[index]
        pips = (roll.first + roll.second) * (2 if roll.is_double else 1)
        left[colour][1] += pips
        if index + 1 < len(rolls):
            left[colour][0] += pips
        colour = colour.opponent
    return {colour: (low, high) for colour, (low, high) in left.items()}


def _measure(positions: list[Position], target: dict[Colour, tuple[int, ...]], left: dict[Colour, tuple[int, int]],
             roll: Roll, hitting: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """For positions with the same player to move: how far each stands from the board (per
    side, the pips it must still move outside what its dice left allow, and for the checkers
    the board has further back, which only hits bring back, ``HIT`` for each hit that takes
    at the least, each excusing up to ``HIT_PIPS`` pips short (``hitting``; without hits,
    three for each checker and point); then the checkers out of place), and whether the board
    may be a state of its next turn with ``roll`` (the opponent's side as it stands but for
    blots hit, the mover's pips gone within the dice)."""
    distance = np.zeros(len(positions), dtype=np.int64)
    misplaced = np.zeros(len(positions), dtype=np.int64)
    mover = positions[0].turn
    fits = np.ones(len(positions), dtype=bool)
    for colour in (Colour.WHITE, Colour.BLACK):
        sides = np.array([position.side(colour) for position in positions], dtype=np.int64)
        wanted = np.array(target[colour], dtype=np.int64)
        to_go = sides @ _PIP_VECTOR - int(wanted @ _PIP_VECTOR)
        low, high = left[colour]
        # per point, the checkers the board has there or further back beyond the position's
        back = np.maximum(np.cumsum(wanted[::-1]) - np.cumsum(sides[:, ::-1], axis=1), 0)
        if hitting:
            hits = back.max(axis=1)  # at the least, this many of the side's checkers were hit
            distance += np.maximum(low - to_go - HIT_PIPS * hits, 0) + np.maximum(to_go - high, 0) + HIT * hits
        else:
            distance += np.maximum(low - to_go, 0) + np.maximum(to_go - high, 0) + 3 * back.sum(axis=1)
        misplaced += np.abs(sides - wanted).sum(axis=1)
        if colour is mover:
            fits &= (to_go >= 0) & (to_go <= (4 if roll.is_double else 2) * max(roll.first, roll.second))
        else:
            drop = sides[:, 1:BAR] - wanted[1:BAR]
            fits &= ((drop >= 0) & (drop <= 1)).all(axis=1) & (sides[:, OFF] == wanted[OFF])
            fits &= wanted[BAR] - sides[:, BAR] == drop.sum(axis=1)
    return distance * 64 + misplaced, fits
