"""The explanation of boards a hand makes (``controller.rules.reach``) against a plain oracle.

The oracle spells out the definition on count tuples, one legal state at a time: a board is
explained by a legal state ``S`` of the turn when the mover shows at most what ``S`` has on
every point, the opponent shows the start except for blots gone from their points (to the
bar or pool, or into a hand), and every blot gone that ``S`` has not hit is hit on some way
on from ``S``.  ``Reach`` must agree on every board hypothesis draws: boards a hand makes
on the way to a legal play, and the same boards disturbed by one stray change.
"""

from __future__ import annotations

from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules import BAR, CHECKERS, Position, Roll
from controller.rules.base import RuleSet
from controller.rules.reach import Reach
from controller.rules.turn import TurnMap
from strategies import turns


def _hits(start_opp: tuple[int, ...], opp: tuple[int, ...]) -> frozenset[int]:
    return frozenset(p for p in range(1, 25) if start_opp[p] == 1 and opp[p] == 0)


class Oracle:
    """Every legal state of a turn, with the blot sets hit on each way on from it."""

    def __init__(self, turn: TurnMap) -> None:
        self.turn = turn
        self.start_mover, self.start_opp = turn.sides_of(turn.start)
        self.sides = {key: turn.sides_of(key) for key in turn.states()}

    @lru_cache(maxsize=None)  # noqa: B019 - one oracle per example
    def later_hits(self, key: int) -> frozenset[frozenset[int]]:
        """The blot sets hit by the end of each way on from ``key`` (itself included)."""
        out = {_hits(self.start_opp, self.sides[key][1])}
        for child in self.turn.next_keys(key):
            out |= self.later_hits(child)
        return frozenset(out)

    def explains(self, key: int, mover: tuple[int, ...], opp: tuple[int, ...]) -> bool:
        """Does legal state ``key`` explain the board ``(mover, opp)``?"""
        s_mover, s_opp = self.sides[key]
        if any(m > s for m, s in zip(mover, s_mover)):
            return False
        gone = set()
        for p in range(1, 25):
            if opp[p] != self.start_opp[p]:
                if self.start_opp[p] == 1 and opp[p] == 0:
                    gone.add(p)
                else:
                    return False
        if opp[0] != self.start_opp[0]:
            return False
        arrived = opp[BAR] - self.start_opp[BAR]
        if arrived < 0 or arrived > len(gone):
            return False
        early = gone - _hits(self.start_opp, s_opp)
        return not early or any(early <= later for later in self.later_hits(key))

    def any_explains(self, mover: tuple[int, ...], opp: tuple[int, ...]) -> bool:
        return any(self.explains(key, mover, opp) for key in self.sides)


def _gone(oracle: Oracle, opp: list[int]) -> frozenset[int]:
    """The start's blots the board no longer shows on their points."""
    return _hits(oracle.start_opp, tuple(opp))


def _waiting(oracle: Oracle, key: int, opp: list[int]) -> frozenset[int]:
    """The blots legal state ``key`` has hit that the board still shows on their points."""
    return frozenset(p for p in _hits(oracle.start_opp, oracle.sides[key][1]) if opp[p] == 1)


@st.composite
def hand_boards(draw: st.DrawFn, turn: TurnMap, oracle: Oracle) -> tuple[list[int], list[int]]:
    """A board a hand makes: a legal state, mover checkers lifted, blots of a later way on
    taken off early (to the bar or into a hand), and sometimes one stray change."""
    keys = sorted(oracle.sides)
    key = draw(st.sampled_from(keys))
    mover, opp = (list(side) for side in oracle.sides[key])
    for p in sorted(_hits(oracle.start_opp, opp)):  # hit: on the bar, still on its point, in a hand
        where = draw(st.sampled_from(("bar", "point", "hand")))
        if where != "bar":
            opp[BAR] -= 1
            opp[p] += where == "point"
    later = sorted(oracle.later_hits(key), key=sorted)
    for p in sorted(draw(st.sampled_from(later))):
        if opp[p] == 1 and oracle.start_opp[p] == 1 and draw(st.booleans()):  # off before its hitter
            opp[p] = 0
            opp[BAR] += draw(st.integers(0, 1))
    for _ in range(draw(st.integers(0, 4))):
        held = [i for i in range(26) if mover[i]]
        mover[draw(st.sampled_from(held))] -= 1
    blots = [p for p in range(1, 25) if opp[p] == 1]
    if blots and draw(st.booleans()):  # a blot off, maybe one no way on hits
        p = draw(st.sampled_from(blots))
        opp[p] = 0
        opp[BAR] += draw(st.integers(0, 1))
    elif draw(st.booleans()):
        side = draw(st.sampled_from((mover, opp)))
        i = draw(st.integers(0, 25))
        j = draw(st.integers(0, 25))
        if side[i] and i != j and side[j] < 15:
            side[i] -= 1
            side[j] += 1
    return mover, opp


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(turns(), st.data())
def test_reach_agrees_with_the_oracle(case: tuple[RuleSet, Position, Roll, TurnMap], data: st.DataObject) -> None:
    """Explained exactly when the oracle explains it; the explanation is consistent."""
    _, _, _, turn = case
    if turn.passes:
        return
    oracle = Oracle(turn)
    reach = Reach(turn)
    for _ in range(5):
        mover, opp = data.draw(hand_boards(turn, oracle))
        board = turn.key_of(mover, opp)
        found = reach.explain(board)
        expected = oracle.any_explains(tuple(mover), tuple(opp))
        assert (found is not None) == expected, (mover, opp)
        if found is None:
            continue
        assert oracle.explains(found.key, tuple(mover), tuple(opp))
        s_mover, _ = oracle.sides[found.key]
        lifted = [i for i in range(26) for _ in range(s_mover[i] - mover[i])]
        assert sorted(found.lifted) == lifted
        assert sum(mover) + len(found.lifted) == CHECKERS
        if not found.early:  # no state of the same mover's side explains it with fewer blots hit but standing
            fewest = min(len(_waiting(oracle, key, opp)) for key, (side, _) in oracle.sides.items()
                         if side == s_mover and oracle.explains(key, tuple(mover), tuple(opp))
                         and not _gone(oracle, opp) - _hits(oracle.start_opp, oracle.sides[key][1]))
            assert len(found.waiting) == fewest, (found, mover, opp)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns(), st.data())
def test_the_last_legal_board_is_preferred(case: tuple[RuleSet, Position, Roll, TurnMap], data: st.DataObject) -> None:
    """A board the last legal one explains is explained by it (the guidance names the
    checker the player really holds)."""
    _, _, _, turn = case
    if turn.passes:
        return
    oracle = Oracle(turn)
    mover, opp = data.draw(hand_boards(turn, oracle))
    prefer = data.draw(st.sampled_from(sorted(oracle.sides)))
    found = Reach(turn).explain(turn.key_of(mover, opp), prefer)
    if oracle.explains(prefer, tuple(mover), tuple(opp)):
        assert found is not None and found.key == prefer


def test_the_reach_of_turn_maps_long_gone_is_let_go() -> None:
    """Trackers of one turn map share its Reach, kept for the last few maps only: a Reach
    refers to its map, so a weak mapping kept every map and index ever built (a 256-table
    soak ran out of memory)."""
    import gc
    import weakref

    from controller import tracking
    from controller.rules import get_rule_set

    first = TurnMap(get_rule_set("backgammon"), get_rule_set("backgammon").start_position(), Roll(1, 2))
    assert tracking.Tracker(first).reach is tracking.Tracker(first).reach
    gone = weakref.ref(first)
    del first
    for name in ("trictrac", "backgammon"):
        rules = get_rule_set(name)
        for a in range(1, 7):
            for b in range(a, 7):
                assert tracking.Tracker(TurnMap(rules, rules.start_position(), Roll(a, b))).reach is not None
    gc.collect()
    assert gone() is None
    assert len(tracking._REACHES) <= tracking.RECENT_REACHES


def test_a_blot_still_standing_was_passed_when_a_way_there_passed_it() -> None:
    """Rally-hitting 750622518 (careless throws, noise 7.5) lost the game: White's 9/8/2*
    with the blot on 2 lifted away was read as 9/3*/2*, the blot on 3 standing as if hit
    and not yet carried away.  Of the ways to one mover's side, the one that hit fewest
    of the blots the board still shows is the explanation."""
    from controller.rules import get_rule_set

    rules = get_rule_set("backgammon")
    start = Position.from_counts({24: 2, 13: 5, 9: 1, 8: 2, 6: 5}, {23: 1, 22: 1, 13: 5, 8: 3, 6: 5},
                                 white_off=0, black_off=0)
    turn = TurnMap(rules, start, Roll(6, 1))
    mover, opp = (list(side) for side in turn.sides_of(turn.start))
    mover[9] -= 1
    mover[2] += 1
    opp[23] = 0  # (own numbering) the blot on White's 2 in the hand, the one on White's 3 where it was
    found = Reach(turn).explain(turn.key_of(mover, opp))
    assert found is not None and found.waiting == () and found.blots_in_hand == 1
    assert str(turn.play_to(found.key)) == str(turn.play_to(turn.key_of(mover, [*opp[:25], opp[25] + 1])))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(turns(), st.data())
def test_the_hits_a_board_shows_agree_with_the_counts(case: tuple[RuleSet, Position, Roll, TurnMap],
                                                     data: st.DataObject) -> None:
    """``standing_hits``, ``hits_moved`` and ``hits_back`` say of the blots a legal state has
    hit what the counts say: how many a board shows on their points; whether one is neither
    on its point on the board nor on another board (where it may have come back unseen)
    nor under the mover's checkers in the state and on the board (its owner may have moved
    it); and whether every one a board shows on its point was off it on an earlier board."""
    rules, _, _, turn = case
    if turn.passes:
        return
    oracle = Oracle(turn)
    reach = Reach(turn)
    key = data.draw(st.sampled_from(sorted(oracle.sides)))
    s_mover, s_opp = oracle.sides[key]
    hit = _hits(oracle.start_opp, s_opp)
    mover, opp = data.draw(hand_boards(turn, oracle))
    before_mover, before_opp = data.draw(hand_boards(turn, oracle))
    board, before = turn.key_of(mover, opp), turn.key_of(before_mover, before_opp)
    standing = {p for p in hit if opp[p]}
    assert reach.standing_hits(key, board) == len(standing)
    mine = {p: 25 - p if rules.MIRRORED else p for p in hit}  # the opponent's point in the mover's numbering
    assert reach.hits_moved(key, board, before) == any(
        not opp[p] and not before_opp[p] and not (s_mover[mine[p]] and mover[mine[p]]) for p in hit)
    assert reach.hits_back(key, board, before) == (bool(standing) and not any(before_opp[p] for p in standing))
