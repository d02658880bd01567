"""A turn in progress: the moves made so far and the moves that may come next.

The controller drives this from the sensors: after the roll it asks which single moves may
start a legal play, applies each move it sees, takes moves back when a checker returns, and
asks whether the moves so far make a complete legal play.  Legality is judged by position,
so any order of the same moves is accepted.
"""

from __future__ import annotations

from typing import Iterable

from . import state as st
from .base import RuleSet
from .values import IllegalPlayError, Move, Play, Point, Position, Roll

Node = tuple[int, tuple[int, ...]]
"""A packed board and the dice still to play (sorted, high first)."""


class TurnInProgress:
    """One player's turn from its start position and roll, moved one checker at a time."""

    def __init__(self, rules: RuleSet, position: Position, roll: Roll) -> None:
        self.map = TurnMap(rules, position, roll)
        self.rules = rules
        self.start = position
        self.roll = roll
        self.dice_to_use = self.map.dice_to_use
        self._stack: list[tuple[Move, Node]] = []
        self._node: Node = self.map.start_node

    # -- queries ---------------------------------------------------------------------------
    @property
    def legal_plays(self) -> tuple[Play, ...]:
        """Every legal play of this turn, one per resulting position."""
        return self.map.plays()

    @property
    def passes(self) -> bool:
        """No legal play: the turn passes (or, in the rally, is lost)."""
        return self.map.passes

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
        return self.map.position_of(self._node[0])

    @property
    def is_complete(self) -> bool:
        """Do the moves so far make a complete legal play?"""
        return self.map.is_final(self._node)

    def legal_moves(self) -> tuple[Move, ...]:
        """The single moves that may come next: each starts or continues some legal play."""
        if self.is_complete:
            return ()
        return tuple(dict.fromkeys(move for move, _ in self.map.good_children(self._node)))

    def destinations(self, frm: Point) -> tuple[Point, ...]:
        """Where a checker lifted from ``frm`` may end, by one die or by several in a row."""
        if self.is_complete:
            return ()
        return self.map.destinations_from((self._node,), frm)

    def result(self) -> Position:
        """The position after the complete play, the opponent to move."""
        if not self.is_complete:
            raise IllegalPlayError("the play is not complete: more must be played")
        return self.position.with_turn(self.map.mover.opponent)

    # -- changes ----------------------------------------------------------------------------
    def push(self, move: Move) -> Move:
        """Make ``move`` (matched by origin, destination and die); returns the move as made."""
        for made, child in self.map.children(self._node):
            if made.frm == move.frm and made.to == move.to and made.die == move.die:
                if not self.map.is_good(child):
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
        self.start = rules.board_key(position)
        self.dice_to_use, finals = rules.final_plays(self.start, roll)
        self._finals = {state: Play(path) for state, path in finals.items()}
        limit = rules.entry_limit(roll)
        self._min_bar = -1 if limit is None else ((self.start >> st.BAR_SHIFT) & 15) - limit
        all_dice = tuple(sorted(roll.dice, reverse=True))
        self.start_node: Node = (self.start, all_dice)
        edges: dict[Node, list[tuple[Move, Node]]] = {}
        levels: list[list[Node]] = [[self.start_node]]
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
        for level in levels:  # level by level: ``states()`` lists the fewest dice used first
            for node in level:
                if node in good:
                    self._states.setdefault(node[0], []).append(node)

    def _children(self, node: Node) -> list[tuple[Move, Node]]:
        state, dice = node
        out: list[tuple[Move, Node]] = []
        for i, die in enumerate(dice):
            if i and dice[i - 1] == die:
                continue
            rest = dice[:i] + dice[i + 1:]
            for move, child in self.rules.single_moves(state, die, self._min_bar):
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
        return self.rules.position_of(key, self.mover)

    # -- queries --------------------------------------------------------------------------------
    @property
    def passes(self) -> bool:
        """No legal play exists."""
        return not self._finals

    def __contains__(self, key: int) -> bool:
        return key in self._states

    def states(self) -> tuple[int, ...]:
        """Every legal key of the turn (the start, every prefix, every complete play), the
        fewest dice used first."""
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

    def children(self, node: Node) -> list[tuple[Move, Node]]:
        """Every single move from a node of the turn (legal or not), with the node it leads to."""
        kids = self._edges.get(node)
        return kids if kids is not None else self._children(node)

    def is_good(self, node: Node) -> bool:
        """Can a legal play still be reached from this node (or is it one)?"""
        return node in self._good

    def is_final(self, node: Node) -> bool:
        """Does this node complete a legal play (all the dice the turn must use)?"""
        return node in self._good and node[0] in self._finals and node not in self._edges

    def good_children(self, node: Node) -> list[tuple[Move, Node]]:
        """The moves from ``node`` that keep a legal play within reach."""
        return [(move, child) for move, child in self._edges.get(node, ()) if child in self._good]

    def next_moves(self, key: int) -> tuple[Move, ...]:
        """The single moves that may come next from a legal board."""
        seen: dict[Move, None] = {}
        for node in self._states.get(key, ()):
            for move, _ in self.good_children(node):
                seen[move] = None
        return tuple(seen)

    def destinations(self, key: int, frm: Point) -> tuple[Point, ...]:
        """Where a checker lifted from ``frm`` may end: each die and each sum of dice."""
        return self.destinations_from(self._states.get(key, ()), frm)

    def destinations_from(self, nodes: Iterable[Node], frm: Point) -> tuple[Point, ...]:
        """Where a checker lifted from ``frm`` at any of ``nodes`` may end."""
        found: dict[Point, None] = {}
        todo = [(node, frm) for node in nodes]  # a stack, not a closure: no reference cycle
        while todo:
            node, point = todo.pop()
            for move, child in self.good_children(node):
                if move.frm == point:
                    found[move.to] = None
                    if move.to:
                        todo.append((child, move.to))
        return tuple(found)

    def remaining_dice(self, key: int) -> tuple[int, ...]:
        """The dice not yet used on the way to this board (the longest such list)."""
        nodes = self._states.get(key, ())
        return max((node[1] for node in nodes), key=len, default=())

    def next_keys(self, key: int) -> tuple[int, ...]:
        """The legal boards one more move on from legal board ``key``."""
        seen: dict[int, None] = {}
        for node in self._states.get(key, ()):
            for _, child in self.good_children(node):
                seen[child[0]] = None
        return tuple(seen)
