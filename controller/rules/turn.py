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
from .turn_graph import DICE_LEFT, Node, generate
from .turn_plays import PlayPaths
from .values import IllegalPlayError, Move, Play, Point, Position, Roll


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
        start = self.start = rules.board_key(position)
        self.position = rules.validate_key(position, start)
        self.roll = roll
        self.mover = position.turn
        limit = rules.entry_limit(roll)
        self._min_bar = -1 if limit is None else ((start >> st.BAR_SHIFT) & 15) - limit
        self.start_node: Node = (start, DICE_LEFT[tuple(sorted(roll.dice, reverse=True))])
        graph = generate(rules, start, roll, self._min_bar)  # (``controller.rules.turn_graph``)
        self.dice_to_use = graph.dice_to_use
        self._final_keys, self._raw, self._good = graph.finals, graph.raw, graph.good
        self._where, self._more = graph.where, graph.more
        """Every legal board with the dice left the first time it is met, and the rare boards
        met again with other dice left (bearing off by a higher die)."""
        self._paths: PlayPaths | None = None
        """The legal play to each complete board, found when first asked for."""
        self._short: frozenset[int] | None = None
        self._edges: dict[Node, list[tuple[Move, Node]]] = {}
        """``children`` of the nodes asked about so far."""
        self._good_edges: dict[Node, list[tuple[Move, Node]]] = {}

    def for_roll(self, roll: Roll) -> TurnMap:
        """This map for the same dice thrown in another order: the boards, moves and
        finals are the same; only the play found to each board (first die tried first) is
        the roll's own, so a copy starts without the plays found."""
        if roll == self.roll:
            return self
        if sorted(roll.dice) != sorted(self.roll.dice):
            raise ValueError(f"{roll} is not {self.roll} in another order")
        other = object.__new__(TurnMap)
        other.__dict__.update(self.__dict__, roll=roll, _paths=None)
        return other

    def _children(self, node: Node) -> list[tuple[Move, Node]]:
        """Every move from ``node`` with the node it leaves, generated afresh."""
        state, dice = node
        successors, min_bar = self.rules.successors, self._min_bar
        out: list[tuple[Move, Node]] = []
        for i, die in enumerate(dice):
            if i and dice[i - 1] == die:
                continue
            rest = dice[:i] + dice[i + 1:]
            moves, keys = successors(state, die, min_bar)
            out += [(move, (key, rest)) for move, key in zip(moves, keys)]
        return out

    def _nodes(self, key: int) -> tuple[Node, ...] | list[Node]:
        """The nodes of a legal board, the fewest dice used first; () for any other board."""
        rest = self._where.get(key)
        if rest is None:
            return ()
        if self._more and key in self._more:
            return [(key, rest), *self._more[key]]
        return ((key, rest),)

    # -- keys --------------------------------------------------------------------------------
    def key_of(self, mover: tuple[int, ...] | list[int], opponent: tuple[int, ...] | list[int]) -> int:
        """The packed key of a board showing these counts (own numbering, 26 each, <= 15)."""
        return self.rules.key_of(mover, opponent)

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
        return not self._final_keys

    def __contains__(self, key: int) -> bool:
        return key in self._where

    def states(self) -> tuple[int, ...]:
        """Every legal key of the turn (the start, every prefix, every complete play), the
        fewest dice used first."""
        return tuple(self._where)

    def complete_keys(self) -> Iterable[int]:
        """Every board showing a complete legal play (the turn's end boards)."""
        return self._final_keys.keys()

    def is_complete(self, key: int) -> bool:
        """Does this board show a complete legal play?"""
        return key in self._final_keys

    def short_sides(self) -> frozenset[int]:
        """The mover's sides (the mover's fields of their keys) of the boards part way through the turn,
        its start included, that no complete play leaves (worked out when first asked for)."""
        if self._short is None:
            complete = {key & st.MOVER for key in self._final_keys}
            self._short = frozenset(key & st.MOVER for key in self._where if key not in self._final_keys) - complete
        return self._short

    def play_to(self, key: int) -> Play:
        """The legal play leading to a complete board."""
        if key not in self._final_keys:
            raise IllegalPlayError("this board does not show a complete legal play")
        return self._play_paths().play_to(key)

    def _play_paths(self) -> PlayPaths:
        if self._paths is None:
            self._paths = PlayPaths(
                self.rules, self.roll, self.start, self._min_bar, self.dice_to_use, self._final_keys, self._raw,
            )
        return self._paths

    def end_of(self, play: Play) -> int | None:
        """The complete board ``play`` leaves if it is a legal play of this turn (its moves in
        any order, each matched by origin, destination and die), else None; the start for
        the empty play of a turn that passes."""
        known = None if self._paths is None else self._paths.end_given(play)
        if known is not None:  # a play this map gave: its board is known
            return known
        node = self.start_node
        for move in play.moves:  # every board on the way to a legal play leads to one
            for made, child in self.good_children(node):
                if made.frm == move.frm and made.to == move.to and made.die == move.die:
                    node = child
                    break
            else:
                return None
        if not play.moves:
            return self.start if self.passes else None
        return node[0] if self.is_final(node) else None

    def plays(self) -> tuple[Play, ...]:
        """Every legal play, one per resulting position."""
        return tuple(self._play_paths().all().values())

    def children(self, node: Node) -> list[tuple[Move, Node]]:
        """Every single move from a node of the turn (legal or not), with the node it leads to."""
        kids = self._edges.get(node)
        if kids is None:
            kids = self._edges[node] = self._children(node)
        return kids

    def is_good(self, node: Node) -> bool:
        """Can a legal play still be reached from this node (or is it one)?"""
        return node[0] in self._good.get(node[1], ())

    def is_final(self, node: Node) -> bool:
        """Does this node complete a legal play (all the dice the turn must use)?"""
        return (
            node[0] in self._final_keys
            and len(node[1]) == len(self.start_node[1]) - self.dice_to_use
            and self.is_good(node)
        )

    def good_children(self, node: Node) -> list[tuple[Move, Node]]:
        """The moves from ``node`` that keep a legal play within reach."""
        kids = self._good_edges.get(node)
        if kids is None:
            board, groups = node[0], self._raw.get(node[1])
            if groups is None or board not in groups[0]:
                return []  # the last level, or no node of the turn
            kids = self._good_edges[node] = []
            for group in groups:  # each die in turn, its moves as generated: named by the change they make
                kept, after, move_of = self._good.get(group.after, ()), group.after, st.MOVE_OF[group.die]
                kids += [(move_of[key - board], (key, after)) for key in group.leaves(board) if key in kept]
        return kids

    def next_moves(self, key: int) -> tuple[Move, ...]:
        """The single moves that may come next from a legal board."""
        nodes = self._nodes(key)
        if len(nodes) == 1:  # one node's moves differ by origin or die: no two alike
            return tuple([move for move, _ in self.good_children(nodes[0])])
        return tuple(dict.fromkeys(move for node in nodes for move, _ in self.good_children(node)))

    def destinations(self, key: int, frm: Point) -> tuple[Point, ...]:
        """Where a checker lifted from ``frm`` may end: each die and each sum of dice."""
        return self.destinations_from(self._nodes(key), frm)

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
        nodes = self._nodes(key)
        return max((node[1] for node in nodes), key=len, default=())

    def next_keys(self, key: int) -> tuple[int, ...]:
        """The legal boards one more move on from legal board ``key``."""
        seen: dict[int, None] = {}
        for node in self._nodes(key):
            for _, child in self.good_children(node):
                seen[child[0]] = None
        return tuple(seen)


RECENT_MAPS = 16
"""Turn maps kept by ``turn_map`` (a held roll's turn is built by the search, then again
when the turn starts; a double's map takes a millisecond or two)."""
_recent: dict[tuple[Position, Roll], TurnMap] = {}
"""The kept maps by position and roll; each map's own rules are checked (the same object as
a rule: a rule set's hash sorts its options, and a dict hashes its key at every use)."""
ROLLS_AHEAD: tuple[Roll, ...] = (
    *(Roll(die, die) for die in range(6, 0, -1)), *(Roll(a, b) for a in range(6, 0, -1) for b in range(a - 1, 0, -1))
)
"""Every roll, the doubles (the costly maps) first, each high die first."""
AHEAD_POSITIONS = 2
"""Positions whose maps ``build_ahead`` keeps (the board may show one play, then another)."""
_ahead: dict[Position, tuple[RuleSet, dict[tuple[int, int], TurnMap]]] = {}
"""Maps built ahead of their roll, by position, then by the roll's dice high first."""


def turn_map(rules: RuleSet, position: Position, roll: Roll) -> TurnMap:
    """``TurnMap(rules, position, roll)``, the last ``RECENT_MAPS`` kept: a map is a pure
    function of its position and roll, so the same one serves every tracker of that turn;
    a map ``build_ahead`` made while the board was idle is taken, not built again."""
    key = (position, roll)
    found = _recent.get(key)
    if found is None or (found.rules is not rules and found.rules != rules):
        found = _built_ahead(rules, position, roll) or TurnMap(rules, position, roll)
        _recent.pop(key, None)  # another rule set's map of this turn: replaced, as the newest
        _recent[key] = found
        if len(_recent) > RECENT_MAPS:
            del _recent[next(iter(_recent))]
    return found


def _built_ahead(rules: RuleSet, position: Position, roll: Roll) -> TurnMap | None:
    """The map of this turn ``build_ahead`` made, as for ``roll`` (its dice in the order
    thrown).  The position's other maps stay until ``build_ahead`` lets them go, while
    idle: freeing twenty maps of thousands of boards would take the roll a millisecond."""
    kept = _ahead.get(position)
    if kept is None or (kept[0] is not rules and kept[0] != rules):
        return None
    found = kept[1].get((roll.high, roll.low))
    return None if found is None else found.for_roll(roll)


def find_play_ahead(rules: RuleSet, position: Position, roll: Roll, key: int) -> None:
    """Find now, while idle, the play to complete board ``key`` in the kept map of this turn
    (if it is kept): the roll that ends the turn asks for it (``play_to``, which keeps it),
    and a double's took up to a few tenths of a millisecond."""
    found = _recent.get((position, roll))
    if found is not None and (found.rules is rules or found.rules == rules) and found.is_complete(key):
        found.play_to(key)


def build_ahead(rules: RuleSet, position: Position) -> bool:
    """Build one more map of the turn from ``position`` before its roll is thrown (doubles
    first), for ``turn_map`` to take at the roll; False when every roll's map is built.
    Called while no event waits, one map a call, so an event never waits for more than one;
    the maps of the last ``AHEAD_POSITIONS`` positions are kept."""
    kept = _ahead.get(position)
    if kept is None or (kept[0] is not rules and kept[0] != rules):
        kept = (rules, {})
        _ahead.pop(position, None)
        _ahead[position] = kept
        if len(_ahead) > AHEAD_POSITIONS:
            del _ahead[next(iter(_ahead))]
    maps = kept[1]
    if len(maps) == len(ROLLS_AHEAD):
        return False
    roll = ROLLS_AHEAD[len(maps)]
    found = _recent.get((position, roll))
    if found is None or (found.rules is not rules and found.rules != rules):
        found = TurnMap(rules, position, roll)
        found.next_moves(found.start)  # the roll's first lights: kept, for either order of the dice
    maps[roll.first, roll.second] = found
    return True
