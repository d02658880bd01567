"""Which blot a play hit, told by when the boards saw it go (``controller.late_hits``)."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies

from controller.late_hits import containing, hit_left_late, hits_standing
from controller.rules.game import Game
from controller.rules.registry import get_rule_set, rule_set_names
from controller.rules.turn import TurnMap
from controller.rules.values import Colour, Move, Play, Position, Roll

RULES = get_rule_set("rally-hitting")
# rally-hitting 1940658219, blots handed over: Black to enter from its pool with 3-2, White's
# blots on 20, 22 and 23 (the rally's points are both sides' own)
BEFORE = Position(
    white=(3, 4, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0),
    black=(7, 0, 3, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1),
    turn=Colour.BLACK,
)
MAP = TurnMap(RULES, BEFORE, Roll(3, 2))
VIA_22 = MAP.end_of(Play((Move(25, 22, 3, True), Move(22, 20, 2, True))))  # pool/22*/20*
VIA_23 = MAP.end_of(Play((Move(25, 23, 2, True), Move(23, 20, 3, True))))  # pool/23*/20*


def bits(*points: int) -> int:
    return sum(1 << point for point in points)


def test_the_plays_compared_are_complete_and_leave_black_the_same() -> None:
    assert VIA_22 is not None and VIA_23 is not None and VIA_22 != VIA_23
    assert MAP.is_complete(VIA_22) and MAP.is_complete(VIA_23)
    assert MAP.sides_of(VIA_22)[0] == MAP.sides_of(VIA_23)[0]


def test_a_play_hitting_a_blot_seen_going_only_after_the_next_roll_is_read_as_the_other() -> None:
    assert VIA_22 is not None and VIA_23 is not None
    # the blots on 22 and 20 read gone before White's roll, the one on 23 not: White's own
    # 23 to 22 after its roll made pool/23*/20*'s board
    assert hit_left_late(MAP, VIA_23, bits(22, 20))
    assert not hit_left_late(MAP, VIA_22, bits(22, 20))
    # and the other way round
    assert hit_left_late(MAP, VIA_22, bits(23, 20))
    assert not hit_left_late(MAP, VIA_23, bits(23, 20))


def test_nothing_is_doubted_when_the_boards_cannot_tell() -> None:
    assert VIA_22 is not None and VIA_23 is not None
    for gone in (0, bits(20), bits(20, 22, 23), bits(22, 23)):
        # neither play's hits all seen (or both's): the board's own play stands
        assert not hit_left_late(MAP, VIA_22, gone)
        assert not hit_left_late(MAP, VIA_23, gone)
    unhit = MAP.end_of(Play((Move(25, 22, 3, True), Move(6, 4, 2, False))))
    assert unhit is not None and not hit_left_late(MAP, unhit, 0)  # another side, another play


def test_the_complete_plays_holding_a_side_are_those_with_the_movers_checkers_there() -> None:
    # White (rally-hitting 1861255837) to play 3-2 from 3, 6, 13, 17 and 19 with 1 and off
    before = Position(
        white=(7, 3, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0),
        black=(1, 0, 1, 0, 0, 0, 0, 1, 1, 3, 0, 0, 0, 0, 0, 1, 4, 0, 0, 0, 3, 0, 0, 0, 0, 0),
        turn=Colour.WHITE,
    )
    turn_map = TurnMap(RULES, before, Roll(3, 2))
    six_four = turn_map.end_of(Play((Move(3, 0, 3, False), Move(6, 4, 2, False))))
    thirteen_eleven = turn_map.end_of(Play((Move(3, 0, 3, False), Move(13, 11, 2, False))))
    assert six_four is not None and thirteen_eleven is not None
    after = turn_map.sides_of(six_four)[0]
    assert containing(turn_map, after) == (six_four,)
    # the checkers on 13 and 17 hit (in a hand, or on the pool): still only 3/off 6/4 holds it
    hit = list(after)
    hit[13] = hit[17] = 0
    assert containing(turn_map, tuple(hit)) == (six_four,)
    # a side no complete play holds (a checker where none goes, or one more off)
    stray = list(after)
    stray[5] = 1
    assert containing(turn_map, tuple(stray)) == ()
    more_off = list(after)
    more_off[0] += 1
    assert containing(turn_map, tuple(more_off)) == ()
    # a side with fewer checkers on the points is held by every play keeping them: the
    # fewest spare checkers first
    bare = tuple(after[0:1]) + (0,) * 25
    held = containing(turn_map, bare)
    assert six_four in held and thirteen_eleven in held
    spare = [sum(turn_map.sides_of(key)[0][1:25]) for key in held]
    assert spare == sorted(spare)


def test_the_sides_read_from_the_keys_at_once_are_those_the_map_unpacks() -> None:
    from controller.late_hits import _complete_sides

    backgammon = get_rule_set("backgammon")
    singles = Position.from_counts({point: 1 for point in range(7, 22)}, {1: 10, 2: 1, 3: 1, 22: 1, 23: 1, 24: 1})
    for turn_map in (MAP, TurnMap(backgammon, singles, Roll(2, 2)), TurnMap(backgammon, singles, Roll(6, 5))):
        sides, keys = _complete_sides(turn_map)
        assert sum(len(group) for group in keys) == len(list(turn_map.complete_keys()))
        for row, group in zip(sides, keys):
            for key in group:
                assert tuple(int(count) for count in row) == turn_map.sides_of(key)[0]


def test_a_play_leaving_standing_a_blot_taken_before_its_owners_roll_is_doubted() -> None:
    from controller.late_hits import passes_gone

    start = MAP.sides_of(MAP.start)[1]
    assert start[22] == 1
    keeps = [key for key in MAP.complete_keys() if MAP.sides_of(key)[1][22] == 1]
    hits = [key for key in MAP.complete_keys() if MAP.sides_of(key)[1][22] == 0]
    assert keeps and hits
    for key in keeps:
        assert passes_gone(MAP, key, bits(22))  # White's blot on 22 gone before White's roll: hit
        assert not passes_gone(MAP, key, 0)
        assert not passes_gone(MAP, key, bits(5))  # a point White never held
    for key in hits:
        assert not passes_gone(MAP, key, bits(22))


def test_a_play_hitting_a_blot_its_owner_was_seen_holding_as_it_rolled_is_told_apart() -> None:
    """``hits_standing``: rally-hitting 1942658278, blots handed over: Black's 1-2 after
    White's pool/24* 16/13; 23/22* pool/23 and pool/24*/22* leave Black's side the same.
    White's blot on 24 was read there as White threw 1-1: pool/24*/22* hit a blot standing."""
    before = Position(
        white=(0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 0, 2, 0, 3, 1, 0, 1, 3),
        black=(0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 3, 0, 0, 0, 0, 1, 0, 0, 3, 0, 5),
        turn=Colour.BLACK,
    )
    turn_map = TurnMap(RULES, before, Roll(1, 2))
    made = turn_map.end_of(Play((Move(23, 22, 1, True), Move(25, 23, 2, False))))
    guessed = turn_map.end_of(Play((Move(25, 24, 1, True), Move(24, 22, 2, True))))
    assert made is not None and guessed is not None and made != guessed
    assert turn_map.sides_of(made)[0] == turn_map.sides_of(guessed)[0]
    white_holding = bits(*(point for point in range(1, 25) if before.white[point] and point != 22))
    assert hits_standing(turn_map, guessed, white_holding)
    assert not hits_standing(turn_map, made, white_holding)
    assert not hits_standing(turn_map, guessed, 0)  # nothing read: nothing told
    unhit = turn_map.end_of(Play((Move(8, 7, 1, False), Move(25, 23, 2, False))))
    assert unhit is not None and not hits_standing(turn_map, unhit, white_holding)


def _random_turn(name: str, rng: random.Random) -> TurnMap | None:
    """A turn of a game of ``name`` played at random for up to 40 turns (None: it ended)."""
    rules = get_rule_set(name)
    game = Game(rules)
    for _ in range(rng.randrange(1, 40)):
        turn_map = TurnMap(rules, game.position, Roll(rng.randint(1, 6), rng.randint(1, 6)))
        keys = list(turn_map.complete_keys())
        game.record(turn_map, turn_map.play_to(rng.choice(keys)) if keys else Play(()))
        if game.result() is not None:
            return None
    return TurnMap(rules, game.position, Roll(rng.randint(1, 6), rng.randint(1, 6)))


@settings(max_examples=80, deadline=None)
@given(name=strategies.sampled_from(rule_set_names()), seed=strategies.integers(0, 10**9))
def test_hits_standing_is_a_hit_of_a_blot_on_a_point_standing_in_every_rule_set(name: str, seed: int) -> None:
    """``hits_standing`` reads the packed fields; it must agree with the sides the turn map
    unpacks (each side in its own numbering: trictrac and backgammon mirror the opponent's
    points, the rally does not), whatever the position, play and points standing."""
    rng = random.Random(seed)
    turn_map = _random_turn(name, rng)
    if turn_map is None:
        return
    start = turn_map.sides_of(turn_map.start)[1]
    for key in list(turn_map.complete_keys())[:40]:
        after = turn_map.sides_of(key)[1]
        standing = rng.getrandbits(25) & ~1
        hit_standing = any(start[point] == 1 and after[point] == 0 and standing >> point & 1 for point in range(1, 25))
        assert hits_standing(turn_map, key, standing) is hit_standing


@settings(max_examples=60, deadline=None)
@given(name=strategies.sampled_from(rule_set_names()), seed=strategies.integers(0, 10**9))
def test_passes_gone_leaves_a_blot_gone_standing_that_another_play_hits_in_every_rule_set(name: str, seed: int) -> None:
    """``passes_gone`` against its definition on the sides the turn map unpacks: a play
    leaves standing a blot of the opponent's on a point ``gone`` that another complete play
    of the turn hits, whatever the position and the points gone."""
    from controller.late_hits import passes_gone

    rng = random.Random(seed)
    turn_map = _random_turn(name, rng)
    if turn_map is None:
        return
    start = turn_map.sides_of(turn_map.start)[1]
    keys = list(turn_map.complete_keys())
    hit = {key: {p for p in range(1, 25) if turn_map.sides_of(key)[1][p] < start[p]} for key in keys}
    for key in keys[:40]:
        gone = rng.getrandbits(25) & ~1
        standing = {p for p in range(1, 25) if gone >> p & 1 and start[p] == 1 and p not in hit[key]}
        expected = any(standing & points for points in hit.values())
        assert passes_gone(turn_map, key, gone) is expected
