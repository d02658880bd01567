"""A turn in progress: the moves made so far and the moves that may come next.

The controller drives this from the sensors: after the roll it asks which single moves may
start a legal play, applies each move it sees, takes moves back when a checker returns, and
asks whether the moves so far make a complete legal play.  Legality is judged by position,
so any order of the same moves is accepted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import state as st
from .values import IllegalPlayError, Move, Play, Point, Position, Roll

if TYPE_CHECKING:
    from .base import RuleSet

Node = tuple[int, tuple[int, ...]]
"""A packed board and the dice still to play (sorted, high first)."""


class TurnInProgress:
    """One player's turn from its start position and roll, moved one checker at a time."""

    def __init__(self, rules: RuleSet, position: Position, roll: Roll) -> None:
        rules.validate(position)
        self.rules = rules
        self.start = position
        self.roll = roll
        self._mover = position.turn
        start = rules._pack(position)
        self.dice_to_use, finals = rules._final_plays(start, roll)
        self._final_states = frozenset(finals)
        self._plays = tuple(Play(path) for path in finals.values())
        limit = rules._entry_limit(roll)
        self._min_bar = -1 if limit is None else ((start >> st.BAR_SHIFT) & 15) - limit
        self._all_dice = tuple(sorted(roll.dice, reverse=True))
        self._stack: list[tuple[Move, Node]] = []
        self._node: Node = (start, self._all_dice)
        self._good: dict[Node, bool] = {}

    # -- the search ---------------------------------------------------------------------
    def _children(self, node: Node) -> list[tuple[Move, Node]]:
        state, dice = node
        out: list[tuple[Move, Node]] = []
        for i, die in enumerate(dice):
            if i and dice[i - 1] == die:
                continue
            rest = dice[:i] + dice[i + 1:]
            for move, child in self.rules._moves(state, die, self._min_bar):
                out.append((move, (child, rest)))
        return out

    def _is_good(self, node: Node) -> bool:
        """Can the moves so far still grow into a legal play?"""
        known = self._good.get(node)
        if known is not None:
            return known
        used = len(self._all_dice) - len(node[1])
        good = (used == self.dice_to_use and node[0] in self._final_states) or (
            used < self.dice_to_use and any(self._is_good(child) for _, child in self._children(node))
        )
        self._good[node] = good
        return good

    # -- queries ---------------------------------------------------------------------------
    @property
    def legal_plays(self) -> tuple[Play, ...]:
        """Every legal play of this turn, one per resulting position."""
        return self._plays

    @property
    def passes(self) -> bool:
        """No legal play: the turn passes (or, in the rally, is lost)."""
        return not self._plays

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves made so far, in order."""
        return tuple(move for move, _ in self._stack)

    @property
    def play(self) -> Play:
        """The moves so far as a play."""
        return Play(self.moves)

    @property
    def remaining_dice(self) -> tuple[int, ...]:
        """The dice not yet used, high first."""
        return self._node[1]

    @property
    def position(self) -> Position:
        """The board now, with the same player still to move."""
        return self.rules._unpack(self._node[0], self._mover)

    @property
    def is_complete(self) -> bool:
        """Do the moves so far make a complete legal play?"""
        used = len(self._all_dice) - len(self._node[1])
        return used == self.dice_to_use and self._node[0] in self._final_states

    def legal_moves(self) -> tuple[Move, ...]:
        """The single moves that may come next: each starts or continues some legal play."""
        if self.is_complete:
            return ()
        seen: set[Move] = set()
        out: list[Move] = []
        for move, child in self._children(self._node):
            if move not in seen and self._is_good(child):
                seen.add(move)
                out.append(move)
        return tuple(out)

    def destinations(self, frm: Point) -> tuple[Point, ...]:
        """Where a checker lifted from ``frm`` may end, by one die or by several in a row."""
        found: list[Point] = []

        def walk(node: Node, point: Point) -> None:
            for move, child in self._children(node):
                if move.frm == point and self._is_good(child):
                    if move.to not in found:
                        found.append(move.to)
                    if move.to:
                        walk(child, move.to)

        if not self.is_complete:
            walk(self._node, frm)
        return tuple(found)

    def result(self) -> Position:
        """The position after the complete play, the opponent to move."""
        if not self.is_complete:
            raise IllegalPlayError("the play is not complete: more must be played")
        return self.position.with_turn(self._mover.opponent)

    # -- changes ----------------------------------------------------------------------------
    def push(self, move: Move) -> Move:
        """Make ``move`` (matched by origin, destination and die); returns the move as made."""
        for made, child in self._children(self._node):
            if made.frm == move.frm and made.to == move.to and made.die == move.die:
                if not self._is_good(child):
                    raise IllegalPlayError(f"{move} cannot be part of a legal play with {self.roll}")
                self._stack.append((made, self._node))
                self._node = child
                return made
        raise IllegalPlayError(f"{move} is not possible now (dice left: {self._node[1]})")

    def move(self, frm: Point, to: Point) -> Move:
        """Make the move of one checker from ``frm`` to ``to`` by one die, choosing the die."""
        candidates = [m for m in self.legal_moves() if m.frm == frm and m.to == to]
        if not candidates:
            raise IllegalPlayError(f"{Move(frm, to, 0)} is not a legal move now")
        exact = [m for m in candidates if m.frm - m.to == m.die]
        return self.push((exact or sorted(candidates, key=lambda m: m.die))[0])

    def pop(self) -> Move:
        """Take back the last move."""
        if not self._stack:
            raise IllegalPlayError("no move to take back")
        move, node = self._stack.pop()
        self._node = node
        return move

    def reset(self) -> None:
        """Take back every move of the turn."""
        while self._stack:
            self.pop()



class TurnMap:
    """Every board a turn may pass through on the way to a legal play, found by packed key.

    The sensors see whole boards, not gestures: a snapshot is a legal state of the turn
    when its packed key is here, whatever order the checkers were moved in.  Keys are the
    ints of ``controller.rules.state`` (the mover's view); ``key_of`` makes one from the
    counts a board shows, even counts no position allows (checkers in a hand, a hit checker
    still on its point).
    """

    def __init__(self, rules: RuleSet, position: Position, roll: Roll) -> None:
        self.rules = rules
        self.position = rules.validate(position)
        self.roll = roll
        self.mover = position.turn
        self.start = rules._pack(position)
        self.dice_to_use, finals = rules._final_plays(self.start, roll)
        self._finals = {state: Play(path) for state, path in finals.items()}
        limit = rules._entry_limit(roll)
        self._min_bar = -1 if limit is None else ((self.start >> st.BAR_SHIFT) & 15) - limit
        all_dice = tuple(sorted(roll.dice, reverse=True))
        edges: dict[Node, list[tuple[Move, Node]]] = {}
        levels: list[list[Node]] = [[(self.start, all_dice)]]
        for _ in range(self.dice_to_use):
            nxt: dict[Node, None] = {}
            for node in levels[-1]:
                kids = self._children(node)
                edges[node] = kids
                for _, child in kids:
                    nxt[child] = None
            levels.append(list(nxt))
        good = {node for node in levels[-1] if node[0] in self._finals}
        for level in reversed(levels[:-1]):
            for node in level:
                if any(child in good for _, child in edges[node]):
                    good.add(node)
        self._edges = edges
        self._good = good
        self._states: dict[int, list[Node]] = {}
        for node in good:
            self._states.setdefault(node[0], []).append(node)

    def _children(self, node: Node) -> list[tuple[Move, Node]]:
        state, dice = node
        out: list[tuple[Move, Node]] = []
        for i, die in enumerate(dice):
            if i and dice[i - 1] == die:
                continue
            rest = dice[:i] + dice[i + 1:]
            for move, child in self.rules._moves(state, die, self._min_bar):
                out.append((move, (child, rest)))
        return out

    # -- keys --------------------------------------------------------------------------------
    def key_of(self, mover: tuple[int, ...] | list[int], opponent: tuple[int, ...] | list[int]) -> int:
        """The packed key of a board showing these counts (own numbering, 26 each, <= 15)."""
        return st.pack(tuple(mover), tuple(opponent), self.rules.MIRRORED)

    def sides_of(self, key: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The mover's and the opponent's counts of a key, each in own numbering."""
        return st.unpack(key, self.rules.MIRRORED)

    def position_of(self, key: int) -> Position:
        """The position a legal key stands for, the mover still to move."""
        return self.rules._unpack(key, self.mover)

    # -- queries --------------------------------------------------------------------------------
    @property
    def passes(self) -> bool:
        """No legal play exists."""
        return not self._finals

    def __contains__(self, key: int) -> bool:
        return key in self._states

    def states(self) -> tuple[int, ...]:
        """Every legal key of the turn (the start, every prefix, every complete play)."""
        return tuple(self._states)

    def is_complete(self, key: int) -> bool:
        """Does this board show a complete legal play?"""
        return key in self._finals

    def play_to(self, key: int) -> Play:
        """The legal play leading to a complete board."""
        try:
            return self._finals[key]
        except KeyError:
            raise IllegalPlayError("this board does not show a complete legal play") from None

    def plays(self) -> tuple[Play, ...]:
        """Every legal play, one per resulting position."""
        return tuple(self._finals.values())

    def next_moves(self, key: int) -> tuple[Move, ...]:
        """The single moves that may come next from a legal board."""
        seen: dict[Move, None] = {}
        for node in self._states.get(key, ()):
            for move, child in self._edges.get(node, ()):
                if child in self._good:
                    seen[move] = None
        return tuple(seen)

    def destinations(self, key: int, frm: Point) -> tuple[Point, ...]:
        """Where a checker lifted from ``frm`` may end: each die and each sum of dice."""
        found: dict[Point, None] = {}

        def walk(node: Node, point: Point) -> None:
            for move, child in self._edges.get(node, ()):
                if move.frm == point and child in self._good:
                    found[move.to] = None
                    if move.to:
                        walk(child, move.to)

        for node in self._states.get(key, ()):
            walk(node, frm)
        return tuple(found)

    def remaining_dice(self, key: int) -> tuple[int, ...]:
        """The dice not yet used on the way to this board (the longest such list)."""
        nodes = self._states.get(key, ())
        return max((node[1] for node in nodes), key=len, default=())
