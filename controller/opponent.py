"""The computer on the board: what the controller asks of an engine, and the play it chose
laid out over the turn's legal boards (so the board accepts exactly that play, in any order
of its moves, and the lights show it one move at a time).

An ``Opponent`` is anything that chooses and ranks plays: the built-in engine
(``controller.engine.Engine``) or GNU Backgammon's adapter (``engines.gnubg``), handed to
the controller by the composition root in ``Settings.computer`` and ``Settings.hints``.
The controller calls it when a computer's roll arrives (or Menu asks for a hint); the
built-in engine is pure, so a controller with it stays free of I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Sequence

from .rules.game import Game, Match
from .rules.turn import Node, TurnMap
from .rules.values import Move, Play, Position, Roll


class Opponent(Protocol):
    """An engine that plays for one side (or gives hints)."""

    name: str

    def choose(self, position: Position, roll: Roll, plays: Sequence[Play] | None = None, rng=None) -> Play:
        """Its play for ``roll`` in ``position`` (the empty play when the turn passes)."""
        ...

    def rank(self, position: Position, roll: Roll) -> list[tuple[Play, float]]:
        """The legal plays with their equity for the mover, best first."""
        ...


class CubeOpponent(Opponent, Protocol):
    """An opponent that handles the doubling cube too (backgammon; the built-in engine does,
    by ``controller.engine.cube``).  An opponent without ``cube_action`` leaves its cube to
    the person at the board (``controller.cube_steps``)."""

    def cube_action(self, game: Game, match: Match) -> str:
        """``double`` or ``no double`` for the side to roll when no double stands; ``take``
        or ``drop`` for the side answering one."""
        ...


@dataclass(frozen=True)
class Planned:
    """One complete play laid over a turn's map: the boards on its way, and the next move
    from each (the play's own order first, any other order of the same moves accepted)."""

    play: Play
    end: int
    """The turn map's key of the board the play leaves."""
    ways: dict[int, tuple[tuple[Move, int], ...]] = field(repr=False)
    """For each board on the way, the moves that keep to the play, with the board each leaves."""
    by: str = ""
    """The engine that chose it (for the messages)."""
    text: str = ""
    """The play in standard notation."""

    def allows(self, key: int) -> bool:
        """Is this legal board on the way to the play (or the play itself)?"""
        return key == self.end or key in self.ways

    def next_move(self, key: int) -> Move | None:
        """The next move to make from board ``key``; None at the end or off the way."""
        ways = self.ways.get(key)
        if not ways:
            return None
        for wanted in self.play:  # the play's own order, when that move is still to make
            for move, _ in ways:
                if (move.frm, move.to, move.die) == (wanted.frm, wanted.to, wanted.die):
                    return move
        return ways[0][0]

    def moves_from(self, key: int) -> tuple[Move, ...]:
        """The moves still to make from board ``key`` along the play (empty at its end)."""
        moves: list[Move] = []
        while (move := self.next_move(key)) is not None:
            moves.append(move)
            key = next(child for made, child in self.ways[key] if made == move)
        return tuple(moves)


def plan(turn_map: TurnMap, play: Play) -> Planned | None:
    """``play`` laid over ``turn_map``; None when it is not one of the turn's legal plays."""
    end = turn_map.end_of(play)
    if end is None or turn_map.passes:
        return None
    ways: dict[int, dict[tuple[Move, int], None]] = {}
    reaches: dict[Node, bool] = {}
    ahead = _Ahead(turn_map, end)
    stack: list[tuple[Node, bool]] = [(turn_map.start_node, False)]
    while stack:  # depth first, children before parents: no recursion on long doubles
        node, expanded = stack.pop()
        if node in reaches:
            continue
        if turn_map.is_final(node) or not ahead.may_lead(node[0]):
            reaches[node] = node[0] == end and turn_map.is_final(node)
            continue
        kids = turn_map.good_children(node)
        if not expanded:
            stack.append((node, True))
            stack.extend((child, False) for _, child in kids if child not in reaches)
            continue
        good = [(move, child[0]) for move, child in kids if reaches.get(child)]
        reaches[node] = bool(good)
        if good:
            ways.setdefault(node[0], {}).update(dict.fromkeys(good))
    return Planned(play, end, {key: tuple(found) for key, found in ways.items()})


class _Ahead:
    """Which boards may still lead to ``end``: the mover's checkers only move down (towards
    off), and the opponent's only leave points (hit), so a board whose counts are already
    past the end's cannot lead there.  Prunes the search to the boards between start and end."""

    def __init__(self, turn_map: TurnMap, end: int) -> None:
        mover, opponent = turn_map.sides_of(end)
        self.sides_of = turn_map.sides_of
        self.mover = _from_top(mover)
        self.opponent = opponent[1:25]
        self.seen: dict[int, bool] = {}

    def may_lead(self, key: int) -> bool:
        found = self.seen.get(key)
        if found is None:
            mover, opponent = self.sides_of(key)
            found = self.seen[key] = all(a >= b for a, b in zip(_from_top(mover), self.mover)) and all(
                a >= b for a, b in zip(opponent[1:25], self.opponent)
            )
        return found


def _from_top(counts: Sequence[int]) -> list[int]:
    """Checkers on each point or above (bar first), the mover's way down."""
    total, out = 0, []
    for count in reversed(counts):
        total += count
        out.append(total)
    return out


__all__ = ["CubeOpponent", "Opponent", "Planned", "plan"]
