"""The turn map's one generation (issue #8): the same plays, states, nodes and moves as
the rules engine's own ``final_plays`` and a plain reference map built the old way (every
node's moves, then ``final_plays`` for the complete boards, then which nodes lead to one);
and ``Game.record``, which ends a turn from its map without generating the plays again."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import IllegalPlayError, Move, Play, Position, Roll, TurnMap, get_rule_set
from controller.rules import state
from controller.rules.base import RuleSet
from controller.rules.game import Game

try:  # pytest puts tests/ on the path (rootdir without __init__.py) ...
    from strategies import cases, doubles
except ImportError:  # ... or the repository root, when tests/ is a package
    from tests.strategies import cases, doubles  # type: ignore[no-redef]

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Node = tuple[int, tuple[int, ...]]


class ReferenceMap:
    """The turn map as it was built before one generation did everything: ``final_plays``
    for the complete boards, then every node's moves level by level, then back up."""

    def __init__(self, rules: RuleSet, position: Position, roll: Roll) -> None:
        self.rules = rules
        self.start = rules.board_key(position)
        self.dice_to_use, finals = rules.final_plays(self.start, roll)
        self.finals = {state: Play(path) for state, path in finals.items()}
        limit = rules.entry_limit(roll)
        self.min_bar = -1 if limit is None else ((self.start >> state.BAR_SHIFT) & 15) - limit
        levels: list[list[Node]] = [[(self.start, tuple(sorted(roll.dice, reverse=True)))]]
        self.edges: dict[Node, list[tuple[Move, Node]]] = {}
        for _ in range(self.dice_to_use):
            nxt: dict[Node, None] = {}
            for node in levels[-1]:
                kids = self.children(node)
                self.edges[node] = kids
                nxt.update(dict.fromkeys(child for _, child in kids))
            levels.append(list(nxt))
        self.good = {node for node in levels[-1] if node[0] in self.finals}
        for level in reversed(levels[:-1]):
            for node in level:
                if any(child in self.good for _, child in self.edges[node]):
                    self.good.add(node)
        self.states: dict[int, list[Node]] = {}
        for level in levels:
            for node in level:
                if node in self.good:
                    self.states.setdefault(node[0], []).append(node)

    def children(self, node: Node) -> list[tuple[Move, Node]]:
        state, dice = node
        out = []
        for i, die in enumerate(dice):
            if i and dice[i - 1] == die:
                continue
            rest = dice[:i] + dice[i + 1:]
            out += [(move, (child, rest)) for move, child in self.rules.single_moves(state, die, self.min_bar)]
        return out


def check_against_reference(rules: RuleSet, position: Position, roll: Roll) -> TurnMap:
    turn = TurnMap(rules, position, roll)
    ref = ReferenceMap(rules, position, roll)
    assert turn.dice_to_use == ref.dice_to_use
    assert turn.passes is (not ref.finals)
    assert turn.states() == tuple(ref.states)  # the same boards in the same order
    for key, nodes in ref.states.items():
        assert turn.is_complete(key) is (key in ref.finals)
        for node in nodes:
            assert turn.is_good(node)
            assert turn.is_final(node) is (node in ref.good and node[0] in ref.finals and node not in ref.edges)
            assert turn.children(node) == (ref.edges[node] if node in ref.edges else ref.children(node))
            assert turn.good_children(node) == [(m, c) for m, c in ref.edges.get(node, ()) if c in ref.good]
            for _, child in ref.edges.get(node, ()):
                assert turn.is_good(child) is (child in ref.good)
    # one play a complete board, alone or all together, exactly as the rules engine gives them
    for key, play in ref.finals.items():
        assert turn.play_to(key) == play
    assert turn.plays() == tuple(ref.finals.values()) == rules.legal_plays(position, roll)
    return turn


@SETTINGS
@given(cases())
def test_turn_map_matches_the_reference_and_legal_plays(case) -> None:
    rules, position, roll = case
    check_against_reference(rules, position, roll)


@SETTINGS
@given(cases(), doubles())
def test_turn_map_matches_on_doubles(case, roll) -> None:
    rules, position, _ = case
    check_against_reference(rules, position, roll)


WORST = [
    # 1-1 with 15 single checkers (1,653 plays); trictrac 2-2 against eight blots
    ("trictrac", {p: 1 for p in range(4, 19)}, {1: 5, 2: 5, 3: 5}, 0, Roll(1, 1)),
    ("backgammon", {24: 2, 22: 1, 20: 1, 19: 1, 17: 1, 15: 1, 13: 2, 11: 1, 9: 1, 8: 2, 6: 2},
     {7: 1, 9: 1, 11: 1, 13: 1, 15: 1, 18: 1, 21: 1, 22: 1, 24: 4, 23: 3}, 0, Roll(2, 2)),
    ("trictrac", {8: 5, 6: 5, 13: 2}, {24: 2, 13: 5, 6: 5, 8: 3}, 3, Roll(6, 6)),
    ("rally-hitting", {p: 1 for p in (24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2)},
     {p: 1 for p in (23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1)}, 3, Roll(3, 3)),
    ("rally", {p: 1 for p in range(5, 19)}, {p: 3 for p in range(1, 5)}, 1, Roll(6, 5)),
]


@pytest.mark.parametrize("name, white, black, bar, roll", WORST)
def test_turn_map_matches_on_worst_cases(name, white, black, bar, roll) -> None:
    rules = get_rule_set(name)
    extra = {"black_bar": 3} if rules.name.startswith("rally") and bar == 3 else {}
    if rules.name == "rally" and bar == 1:
        extra = {"black_off": 3}
    position = rules.validate(Position.from_counts(white, black, white_bar=bar, **extra))
    check_against_reference(rules, position, roll)


# -- Game.record: the end of a turn from its map ------------------------------------------------


@SETTINGS
@given(cases(), st.randoms(use_true_random=False))
def test_record_is_play_without_generating_again(case, rnd: random.Random) -> None:
    rules, position, roll = case
    turn = TurnMap(rules, position, roll)
    by_play, by_record, by_key = Game(rules, position), Game(rules, position), Game(rules, position)
    if turn.passes:
        want = by_play.play(roll, Play())
        assert by_record.record(turn, Play()) == want
        return
    key = rnd.choice([k for k in turn.states() if turn.is_complete(k)])
    play = turn.play_to(key)
    want = by_play.play(roll, play)
    assert by_record.record(turn, play) == want
    assert by_key.record(turn, key) == want
    assert by_record.position == by_key.position == by_play.position
    # the same moves in another order are the same legal play
    shuffled = Play(tuple(rnd.sample(play.moves, len(play.moves))))
    if turn.end_of(shuffled) is not None:
        assert Game(rules, position).record(turn, shuffled).after == want.after
    with pytest.raises(IllegalPlayError):
        Game(rules, position).record(turn, Play())  # no pass while a play exists
    if len(play.moves) > 1:
        with pytest.raises(IllegalPlayError):
            Game(rules, position).record(turn, Play(play.moves[:-1]))  # too few dice
    if not turn.is_complete(turn.start):
        with pytest.raises(IllegalPlayError):
            Game(rules, position).record(turn, turn.start)


def test_record_refuses_a_map_of_another_position() -> None:
    rules = get_rule_set("trictrac")
    game = Game(rules)
    turn = TurnMap(rules, game.position, Roll(3, 1))
    game.play(Roll(6, 5), game.legal_plays(Roll(6, 5))[0])
    with pytest.raises(IllegalPlayError):
        game.record(turn, turn.plays()[0])


@SETTINGS
@given(cases(), st.randoms(use_true_random=False))
def test_validate_key_agrees_with_validate(case, rnd: random.Random) -> None:
    """The turn map checks its position on the packed board: the same verdict as ``validate``,
    on the position and on it with one checker moved anywhere (often onto an opposing point)."""
    from controller.rules import PositionError

    rules, position, _ = case
    white = list(position.white)
    source = rnd.choice([i for i in range(26) if white[i]])
    white[source] -= 1
    white[rnd.randrange(26)] += 1
    for board in (position, Position(tuple(white), position.black, position.turn)):
        try:
            rules.validate(board)
            want = True
        except PositionError:
            want = False
        try:
            assert rules.validate_key(board, rules.board_key(board)) is board
            got = True
        except PositionError:
            got = False
        assert got is want
