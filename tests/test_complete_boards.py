"""The complete boards of a turn (``controller.rules.complete_boards``) against plain oracles.

Each query is spelt out on count tuples, one complete board at a time, and the packed,
indexed answers must agree on every turn hypothesis draws: for the turn's own boards, and
for boards with checkers lifted or moved by a stray hand.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from controller.rules import Position, Roll
from controller.rules.base import RuleSet
from controller.rules.reach import Reach
from controller.rules.turn import TurnMap
from strategies import turns


def _slides_on(turn: TurnMap, key: int) -> bool:
    """Another complete board with one of ``key``'s mover checkers on a lower field, all else the same."""
    mine, theirs = turn.sides_of(key)
    for other in turn.complete_keys():
        there, their = turn.sides_of(other)
        if other == key or their != theirs:
            continue
        diff = [i for i in range(26) if there[i] != mine[i]]
        if len(diff) == 2 and there[diff[0]] == mine[diff[0]] + 1 and there[diff[1]] == mine[diff[1]] - 1:
            return True
    return False


def _reachable(turn: TurnMap, key: int) -> frozenset[int]:
    ends, todo, seen = set(), [key], {key}
    while todo:
        at = todo.pop()
        if turn.is_complete(at):
            ends.add(at)
        for child in turn.next_keys(at):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return frozenset(ends)


@st.composite
def boards(draw: st.DrawFn, turn: TurnMap) -> int:
    """A legal state of the turn, some mover checkers lifted or carried one field on or back."""
    key = draw(st.sampled_from(sorted(turn.states())))
    for _ in range(draw(st.integers(0, 3))):
        mover = turn.sides_of(key)[0]
        i = draw(st.sampled_from([i for i in range(26) if mover[i]]))
        key -= 1 << (4 * i)
        step = draw(st.sampled_from((0, -1, 1)))
        if step and 0 <= i + step <= 25 and mover[i + step] < 15:
            key += 1 << (4 * (i + step))
    return key


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(turns(), st.data())
def test_complete_board_queries_agree_with_the_oracles(case: tuple[RuleSet, Position, Roll, TurnMap],
                                                       data: st.DataObject) -> None:
    _, _, _, turn = case
    assume(turn.states())
    complete = Reach(turn).complete
    finals = [turn.sides_of(k)[0] for k in turn.complete_keys()]
    for _ in range(6):
        key = data.draw(st.sampled_from(sorted(turn.states())))
        assert complete.slides_on(key) == _slides_on(turn, key)
        assert complete.reachable_from(key) == _reachable(turn, key)
        board = key if data.draw(st.booleans()) else data.draw(boards(turn))
        mine = turn.sides_of(board)[0]
        assert complete.completes_side(board) == (mine in finals)
        assert complete.done_but_for_hand(board) == any(
            all(m <= f for m, f in zip(mine, final)) for final in finals)
        hidden = data.draw(st.sets(st.integers(0, 25), max_size=3))
        mask = sum(15 << (4 * i) for i in hidden)
        fitting = {turn.sides_of(side)[0] for side in complete.sides_fitting(board, mask)}
        expected = {final for final in finals
                    if all(final[i] == mine[i] for i in range(26) if i not in hidden)}
        assert fitting == expected
