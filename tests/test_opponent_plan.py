"""The computer's play laid over a turn (``controller.opponent.plan``), as a property over
drawn positions, rolls and plays of every rule set: the boards it allows are exactly the
boards on some way to the play's end, every way it lights ends there, and the moves of the
play in any order that the rules allow stay on it."""

from __future__ import annotations

import itertools

from hypothesis import given, settings, strategies as st

from controller.opponent import plan
from controller.rules import Play
from controller.rules.turn import TurnInProgress, TurnMap
from controller.rules.values import IllegalPlayError
from strategies import Case, cases


@settings(max_examples=150, deadline=None)
@given(cases(), st.data())
def test_a_plan_allows_exactly_the_ways_to_its_play(case: Case, data: st.DataObject) -> None:
    rules, position, roll = case
    turn_map = TurnMap(rules, position, roll)
    plays = turn_map.plays()
    if turn_map.passes:
        assert plan(turn_map, Play()) is None
        return
    play = data.draw(st.sampled_from(plays))
    planned = plan(turn_map, play)
    assert planned is not None and planned.end == turn_map.end_of(play) and planned.allows(turn_map.start)
    # every board it allows leads on to the end, by the moves it names, and each step is legal
    for key, ways in planned.ways.items():
        assert key in turn_map and ways
        for move, child in ways:
            assert planned.allows(child) and child in turn_map.next_keys(key)
    key, moves = turn_map.start, planned.moves_from(turn_map.start)
    for move in moves:
        key = next(child for made, child in planned.ways[key] if made == move)
    assert key == planned.end and planned.next_move(planned.end) is None
    # a board of the turn off every way to the end is not allowed
    for other in data.draw(st.lists(st.sampled_from(turn_map.states()), max_size=5)):
        assert planned.allows(other) == (other == planned.end or other in planned.ways)
    # the play's own moves in any order the rules allow keep to the plan, board by board
    # (an order is playable only if every move of it is: 1/off then 2/1 with 2-1 bears off
    # with the 1 and has no 1 left for 2/1, so its first board is on no way to the end)
    for order in itertools.islice(itertools.permutations(play), 24):
        turn = TurnInProgress(rules, position, roll)
        boards = []
        try:
            for move in order:
                turn.move(move.frm, move.to)
                boards.append(rules.board_key(turn.position))
        except IllegalPlayError:
            continue  # that order is not playable (a checker moved before it arrives)
        assert all(planned.allows(board) for board in boards)
