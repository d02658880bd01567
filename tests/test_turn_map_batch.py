"""The turn map's level-at-once helpers (issue #8, speed at the roll) give exactly what
their one-at-a-time originals give: ``successors_of`` the keys of ``successors`` board after
board, ``bear_off_points`` the verdict of ``_may_bear_off`` point by point, and
``allowed_ends`` the boards ``play_allowed`` lets through, in order."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import TurnMap
from controller.rules import state
from controller.rules.base import RuleSet

try:  # pytest puts tests/ on the path (rootdir without __init__.py) ...
    from strategies import cases
except ImportError:  # ... or the repository root, when tests/ is a package
    from tests.strategies import cases  # type: ignore[no-redef]

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def boards_of(case) -> list[int]:
    """The start of a case and every board its turn map holds, each once."""
    turn = TurnMap(case.rules, case.position, case.roll)
    return list(dict.fromkeys([turn.start, *turn.states()]))


@SETTINGS
@given(cases(), st.integers(min_value=-1, max_value=3))
def test_successors_of_is_successors_board_by_board(case, min_bar: int) -> None:
    boards = boards_of(case)
    for die in range(1, 7):
        starts, reached = case.rules.successors_of(boards, die, min_bar)
        assert len(starts) == len(boards) + 1 and starts[-1] == len(reached)
        for i, board in enumerate(boards):
            keys = case.rules.successors(board, die, min_bar)[1]
            assert reached[starts[i]:starts[i + 1]] == list(keys)


def plain_bear_off_points(rules: RuleSet, key: int, die: int, candidates: int) -> int:
    """The base class's answer: ``_may_bear_off`` point by point."""
    return RuleSet.bear_off_points(rules, key, die, candidates)


@SETTINGS
@given(cases())
def test_bear_off_points_agree_with_may_bear_off(case) -> None:
    for board in boards_of(case):
        occupied = state.occupied(board) & state.ONES
        for die in range(1, 7):
            candidates = occupied & state.ONES & state.UP_TO[die] & ~1
            for subset in (candidates, candidates & -candidates, candidates & ~(candidates & -candidates)):
                if subset:
                    assert case.rules.bear_off_points(board, die, subset) == plain_bear_off_points(
                        case.rules, board, die, subset
                    )


def reachable(case) -> list[int]:
    """Every board one to four single moves of the roll's dice lead to (allowed or not)."""
    rules, start = case.rules, case.rules.board_key(case.position)
    found: dict[int, None] = {start: None}
    level = {(start, tuple(case.roll.dice) * (2 if case.roll.is_double else 1))}
    while level:
        following = set()
        for board, dice in level:
            for i, die in enumerate(dice):
                for key in rules.successors(board, die)[1]:
                    found[key] = None
                    following.add((key, dice[:i] + dice[i + 1:]))
        level = following
    return list(found)


@SETTINGS
@given(cases())
def test_allowed_ends_is_play_allowed_in_order(case) -> None:
    rules = case.rules
    start = rules.board_key(case.position)
    boards = reachable(case)
    assert rules.allowed_ends(start, boards) == [end for end in boards if rules.play_allowed(start, end)]
    for end in boards:  # the blocks the ends make, found by runs, as the bans define them
        if hasattr(rules, "forbidden_blocks"):
            made = rules.forbidden_blocks(end)
            occupied = state.occupied(end, rules.BLOCK_NEEDS_TWO)
            expected = 0
            for low in range(1, 20):
                window = state.low_bits(range(low, low + 6))
                if occupied & window == window and (low == 19 or not end & state.OPP_BELOW[low]):
                    expected |= 1 << low
            assert made == expected


@SETTINGS
@given(cases(), st.integers(min_value=-1, max_value=3), st.integers(min_value=1, max_value=15))
def test_successors_of_enter_only_keeps_the_entries(case, min_bar: int, pool: int) -> None:
    """A board whose bar or pool holds ``enter_only`` checkers keeps only its entries; the
    others keep every move."""
    boards = boards_of(case)
    for die in range(1, 7):
        starts, reached = case.rules.successors_of(boards, die, min_bar, enter_only=pool)
        for i, board in enumerate(boards):
            moves, keys = case.rules.successors(board, die, min_bar)
            if (board >> state.BAR_SHIFT) & 15 == pool:
                keys = [key for move, key in zip(moves, keys) if move.frm == 25]
            assert reached[starts[i]:starts[i + 1]] == list(keys)


@SETTINGS
@given(
    st.lists(st.integers(min_value=0, max_value=15), min_size=26, max_size=26),
    st.lists(st.integers(min_value=-2, max_value=40), min_size=26, max_size=26),
    st.booleans(),
)
def test_pack_reads_the_counts_as_hex_digits(mover: list[int], opponent: list[int], mirrored: bool) -> None:
    """The packed key of any counts, a sensor fault's too, is the field-by-field one."""
    assert state.pack(mover, opponent, mirrored) == state._pack_fields(mover, opponent, mirrored)
    assert state.pack(tuple(mover), tuple(opponent), mirrored) == state._pack_fields(mover, opponent, mirrored)
    clipped = [min(count, 15) for count in opponent if count >= 0] + [0] * sum(count < 0 for count in opponent)
    assert state.pack(mover, clipped, mirrored) == state._pack_fields(mover, clipped, mirrored)


@SETTINGS
@given(st.integers(min_value=1, max_value=6), st.integers(min_value=0, max_value=2), st.data())
def test_a_pattern_met_first_is_put_together_from_threes(die: int, chunk: int, data) -> None:
    """A nine-field pattern's moves from its three-field parts are the moves field by field."""
    from controller.rules import movegen

    fields = range(9) if chunk < 2 else range(8)  # the last chunk ends at the bar
    marks = data.draw(st.lists(st.sampled_from((0, 1, 3)), min_size=len(fields), max_size=len(fields)))
    bits = sum(mark << (4 * field) for field, mark in zip(fields, marks))
    moves, deltas = [], []
    for field in reversed(fields):
        if marks[field]:
            move, delta = (state.STEP_HIT if marks[field] == 3 else state.STEP_PLAIN)[die][9 * chunk + field]
            moves.append(move)
            deltas.append(delta)
    assert movegen._chunk_moves(die, chunk, bits) == (tuple(moves), tuple(deltas))


def test_a_key_change_names_one_move() -> None:
    """Every single move of a die changes a key in its own way, so the turn map names a
    move between two keys it generated by their difference."""
    for die in range(1, 7):
        steps = [*state.STEP_PLAIN[die][1:], *state.STEP_HIT[die][die + 1:]]
        assert len(state.MOVE_OF[die]) == len(steps)
        assert all(state.MOVE_OF[die][delta] is move for move, delta in steps)


@SETTINGS
@given(cases(names=("rally", "rally-hitting")), st.integers(min_value=0, max_value=(1 << 20) - 1))
def test_a_row_short_of_more_than_four_checkers_makes_no_block(case, before: int) -> None:
    """The rally's quick test of whether a turn could hold a new six-block, row by row."""
    rules = case.rules
    before &= ~1  # a bit per lowest point, 1 to 19
    for board in reachable(case)[:40]:
        held, two = state.occupied(board), state.occupied(board, at_least_two=True)
        expected = False
        for low in range(1, 20):
            if before >> low & 1:
                continue
            points = range(low, low + 6)
            empty = sum(1 for p in points if not held >> (4 * p) & 1)
            single = sum(1 for p in points if held >> (4 * p) & 1 and not two >> (4 * p) & 1)
            if (2 * empty + single if rules.BLOCK_NEEDS_TWO else empty) <= 4:
                expected = True
        assert rules._may_make_block(board, before) is expected


def test_turn_map_keeps_the_last_maps_and_builds_each_once() -> None:
    """``rules.turn.turn_map``: the same turn gives the same map (built once), another roll
    or position another; only the last ``RECENT_MAPS`` are kept (36 rolls later, built anew)."""
    from controller.rules import Roll, get_rule_set
    from controller.rules.turn import TurnMap, turn_map

    rules = get_rule_set("backgammon")
    start = rules.start_position()
    first = turn_map(rules, start, Roll(3, 1))
    assert isinstance(first, TurnMap) and turn_map(rules, start, Roll(3, 1)) is first
    assert turn_map(rules, start, Roll(1, 3)) is not first  # the dice in another order: another roll
    assert turn_map(rules, start, Roll(6, 6)).states() != first.states()
    for a in range(1, 7):
        for b in range(1, 7):
            turn_map(rules, start, Roll(a, b))
    again = turn_map(rules, start, Roll(3, 1))
    assert again is not first and again.states() == first.states()


@SETTINGS
@given(cases())
def test_opponent_field_holds_the_count_unpack_gives_for_that_point(case) -> None:
    """``state.opponent_field``: reading one field of a packed board gives the opponent's
    own point as ``state.unpack`` does, mirrored or not."""
    mirrored = case.rules.MIRRORED
    for board in boards_of(case):
        theirs = state.unpack(board, mirrored)[1]
        assert [state.count(board, state.opponent_field(point, mirrored)) for point in range(1, 25)] == list(theirs[1:25])
