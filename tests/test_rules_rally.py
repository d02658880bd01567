"""Hand-checked positions for RULES.md section 3: Nardy Rally and its hitting variant.

Every expectation below was worked out by hand from RULES.md, not copied from the engine.

Notation of a resulting position (from the mover's side, own-point numbering): the
mover's checkers in the pool and on the board, e.g. ``"barx4 24x2 18"`` is four checkers
in the pool, two on the 24-point and one on the 18-point (the rest are borne off); ``"*7"``
marks an opposing checker hit on the 7-point (rally-hitting); ``""`` is everything off.
In the rally both players' own point p is the same physical point, so ``theirs`` (the
opponent's checkers) uses the same numbers as ``mine``.  Entering with die d lands on own
point 25 - d.
"""

from __future__ import annotations

import pytest
import rule_tables
from rule_tables import R, canon, expect, outcomes

from controller.rules import (
    BAR,
    BLACK,
    OFF,
    WHITE,
    Move,
    Play,
    Position,
    TurnInProgress,
    get_rule_set,
)

HIGHER = {"bear_off_higher": True}


# -- helpers -------------------------------------------------------------------------------
def theirs_point(p: int) -> int:
    """The opponent's own number of the physical point that is ``p`` for the mover."""
    return rule_tables.theirs_point(p, False)


def P(mine, theirs=None, *, turn=WHITE, bar=0, opp_bar=0) -> Position:  # type: ignore[no-untyped-def]
    """A position seen from the mover (see ``rule_tables.position``)."""
    return rule_tables.position(mine, theirs, mirrored=False, turn=turn, bar=bar, opp_bar=opp_bar)


def describe(before: Position, after: Position) -> str:
    return rule_tables.describe(before, after, False)


def _moves(*triples):
    return Play(tuple(Move(*t) for t in triples))


def rules(name="rally", options=None):
    return get_rule_set(name, options or {})


START = get_rule_set("rally").start_position()

# positions used more than once
BAN_B = {8: 1, 6: 2, 5: 2, 4: 2, 3: 2, 2: 2}
BAN_B_RESULTS = ("6 5x3 4x2 3x2 2x3", "6x2 5 4x3 3x2 2x3", "6x2 5x2 4 3x3 2x3", "6x2 5x2 4x2 3 2x4",
                 "8 5x3 4x2 3x2 2x2", "8 6 5 4x3 3x2 2x2", "8 6 5x2 4 3x3 2x2", "8 6 5x2 4x2 3 2x3")
FIVE_PAIRS = {24: 2, 23: 2, 22: 2, 21: 2, 20: 2}
FORMED_DISSOLVED = ("7 6 5x2 4 3", "8 6 5 4x2 3", "8 7 5 4 3x2", "8 7 6 4 3 2", "8 7 6 5 3 1",
                    "8 7 6 5 4", "14 5 4 3x2 1", "14 6 4 3 2 1", "14 6 5 3 1x2", "14 6 5 4 1",
                    "14 5 4x2 3", "14 7 4 3 2", "14 7 5 3 1", "14 7 5 4")


def _singles_expected():
    # rally-hitting, {8,6,5,4,3,2} singles, 1-1: no position can hold a point with 2+ on six
    # points, so the bans never bite; the plays are every way of making four 1-moves
    # (each checker moves along, 1-point checkers may bear off with an exact 1).
    start = [8, 6, 5, 4, 3, 2]
    results = set()

    def walk(pos, left):
        if left == 0:
            results.add(canon(" ".join(str(p) for p in pos if p)))
            return
        for i, p in enumerate(pos):
            if p == 0:
                continue
            nxt = list(pos)
            nxt[i] = p - 1          # to 0 = off with an exact 1 from the 1-point
            walk(tuple(sorted(nxt, reverse=True)), left - 1)

    walk(tuple(start), 4)
    return results


# (rule set, options, position, roll, expected results)
PLAY_CASES = [
    # 3.1 start: everything in the pool
    pytest.param("rally", None, START, "61", expect("barx14 18"),
                 id="3.1-first-turn-one-entry-and-a-free-move"),
    pytest.param("rally", None, START, "33", expect("barx14 13", "barx13 22 16", "barx13 19x2"),
                 id="3.1-first-turn-double-one-or-two-entries"),
    # section 1 in the rally
    pytest.param("rally", None, P({14: 1}, {3: 1}), "65", expect("8"),
                 id="1-rally-either-die-but-not-both-play-the-larger"),
    pytest.param("rally", None, P({10: 1}, {4: 1}), "33", expect("7"),
                 id="1-rally-double-partial-when-blocked"),
    # 3.2 no hitting: one opposing checker closes a point
    pytest.param("rally", None, P({10: 1}, {7: 1}), "31", expect("6"),
                 id="3.2-one-opposing-checker-closes-a-point"),
    pytest.param("rally", None, P({10: 1}, {7: 1}), "33", expect(),
                 id="3.2-one-opposing-checker-closes-double-passes"),
    pytest.param("rally", None, P({10: 1}, {6: 1}), "31", expect("7"),
                 id="3.2-one-opposing-checker-on-the-landing-point-no-hit"),
    pytest.param("rally", None, P({10: 1, 20: 1}, {8: 1, 6: 1}), "42", expect("14 10"),
                 id="3.2-with-2-4-and-2nd-and-4th-closed-no-move-of-6"),
    pytest.param("rally", None, P({10: 1}, {8: 1, 6: 1}), "42", expect(),
                 id="3.2-with-2-4-and-2nd-and-4th-closed-pass"),
    pytest.param("rally", None, P({}, {22: 1}, bar=1), "31", expect("21"),
                 id="3.2-no-entry-onto-a-single-opposing-checker"),
    # 3.2 compulsory entry
    pytest.param("rally", None, P({}, bar=2), "61", expect("bar 18"),
                 id="3.2-exactly-one-entry-on-a-non-double"),
    pytest.param("rally", None, P({10: 1}, bar=2), "61", expect("bar 18 10", "bar 19 9", "bar 24 4"),
                 id="3.2-one-entry-and-the-other-die-free"),
    pytest.param("rally", None, P({}, {18: 1, 23: 1}, bar=2), "61", expect("bar 19"),
                 id="3.4.5-no-second-entry-on-a-non-double-even-for-more-dice"),
    pytest.param("rally", None, P({10: 1}, bar=1), "22", expect("23 4", "21 6", "19 8", "17 10"),
                 id="3.2-double-one-entry-three-free-moves"),
    pytest.param("rally", None, P({}, bar=3), "33", expect("barx2 13", "bar 22 16", "bar 19x2"),
                 id="3.4.5-double-at-most-two-entries"),
    pytest.param("rally", None, P({}, {19: 1}, bar=2), "33", expect("22x2"),
                 id="3.4.5-second-entry-forced-when-only-it-plays-more-dice"),
    pytest.param("rally", None, P({10: 1}, {19: 1, 24: 1}, bar=1), "61", expect(),
                 id="3.2-both-entry-points-closed-whole-turn-lost"),
    pytest.param("rally", None, P({10: 1}, {22: 1}, bar=1), "33", expect(),
                 id="3.2-double-entry-point-closed-whole-turn-lost"),
    pytest.param("rally", None, P({10: 1}, {19: 1}, bar=1), "61", expect("18 10", "24 4"),
                 id="3.2-one-entry-point-open-enter-there-and-play-other-die"),
    pytest.param("rally", None, P({11: 1}, {20: 1, 14: 1, 6: 1}, bar=1), "65", expect("19 11"),
                 id="3.4.1-entry-compulsory-even-if-fewer-dice-are-played"),
    pytest.param("rally", None, P({7: 1}, {19: 1, 18: 1, 1: 1}, bar=1), "61", expect("24 7"),
                 id="3.4.1-entry-compulsory-forces-the-smaller-die"),
    # 3.2 bearing off
    pytest.param("rally", None, P({3: 1}, bar=1), "31", expect("24", "21 3", "22 2"),
                 id="3.2-exact-bear-off-while-still-entering"),
    pytest.param("rally", None, P({3: 1, 2: 1}), "65", expect(),
                 id="3.2-no-bear-off-with-a-higher-die-by-default"),
    pytest.param("rally", None, P({3: 1, 2: 1}), "61", expect("2x2", "3 1"),
                 id="3.2-bear-off-exact-only-by-default"),
    pytest.param("rally", None, P({10: 1, 3: 1}), "65", expect("4 3"),
                 id="3.2-bear-off-exact-only-checker-behind-default"),
    pytest.param("rally", HIGHER, P({3: 1, 2: 1}), "65", expect(""),
                 id="3.2-bear_off_higher-higher-dice-from-highest-point"),
    pytest.param("rally", HIGHER, P({3: 1, 2: 1}), "61", expect("1", "2"),
                 id="3.2-bear_off_higher-only-from-the-highest-point"),
    pytest.param("rally", HIGHER, P({10: 1, 3: 1}), "65", expect("3"),
                 id="3.2-bear_off_higher-not-while-a-checker-stands-behind"),
    pytest.param("rally", HIGHER, P({3: 1}, bar=1), "64", expect("15 3"),
                 id="3.4.8-bear_off_higher-the-pool-counts-as-behind"),
    pytest.param("rally-hitting", HIGHER, P({3: 1}, bar=1), "64", expect("15 3"),
                 id="3.4.8-bear_off_higher-the-pool-counts-as-behind-hitting"),
    pytest.param("rally", HIGHER, P({3: 1}, bar=1), "31", expect("24", "21 3", "22 2"),
                 id="3.4.8-bear_off_higher-exact-die-still-works-with-a-pool"),
    pytest.param("rally", HIGHER, P({2: 1}, bar=1), "55", expect("5 2"),
                 id="3.4.8-bear_off_higher-pool-behind-on-a-double"),
    pytest.param("rally", HIGHER, P({3: 1, 2: 1}, {20: 1, 10: 1}), "65", expect(""),
                 id="3.4.8-bear_off_higher-opponent-checkers-behind-do-not-count"),
    # 3.4.7 a combined move ending in a bear-off
    pytest.param("rally", None, P({8: 1}, {6: 1}), "62", expect(""),
                 id="3.4.7-combined-move-8-2-off"),
    pytest.param("rally", None, P({8: 1, 20: 1}, {6: 1}), "62", expect("20", "18 2", "12 8"),
                 id="3.4.7-combined-move-8-2-off-among-other-plays"),
    pytest.param("rally-hitting", None, P({8: 1}, {6: 2}), "62", expect(""),
                 id="3.4.7-combined-move-8-2-off-hitting-variant"),
    pytest.param("rally", None, P({7: 1}, {4: 1}), "43", expect(""),
                 id="3.4.7-combined-move-7-3-off"),
    pytest.param("rally", None, P({9: 1}, {6: 1, 5: 1}), "43", expect(),
                 id="3.4.7-combined-bear-off-needs-an-open-intermediate"),
    # 3.2 ban (a): all six start-quarter points
    pytest.param("rally", None, P(FIVE_PAIRS, {5: 1}, bar=5, opp_bar=14), "61",
                 expect("barx4 24x2 23x2 22x2 21x2 20x2 18", "barx4 24x3 23 22x2 21x2 20x2 17",
                        "barx4 24x3 23x2 22 21x2 20x2 16", "barx4 24x3 23x2 22x2 21 20x2 15",
                        "barx4 24x3 23x2 22x2 21x2 20 14"),
                 id="3.2-ban-a-all-six-start-points-even-with-opponent-ahead"),
    pytest.param("rally", None, P(FIVE_PAIRS, bar=5, opp_bar=15), "61",
                 expect("barx4 24x2 23x2 22x2 21x2 20x2 18", "barx4 24x3 23 22x2 21x2 20x2 17",
                        "barx4 24x3 23x2 22 21x2 20x2 16", "barx4 24x3 23x2 22x2 21 20x2 15",
                        "barx4 24x3 23x2 22x2 21x2 20 14"),
                 id="3.2-ban-a-all-six-start-points-opponent-in-pool"),
    pytest.param("rally", None, P({24: 2, 23: 1, 22: 1, 21: 1}, {19: 1}, bar=4, opp_bar=14), "51",
                 expect("barx3 24 23x2 22 21 20", "barx3 24x2 22x2 21 20", "barx3 24x2 23 21x2 20",
                        "barx3 24x2 23 22 20x2", "barx3 24x3 22 21 18", "barx3 24x3 23 21 17",
                        "barx3 24x3 23 22 16"),
                 id="3.4.3-ban-a-counts-the-movers-checkers-only"),
    pytest.param("rally", None, P(FIVE_PAIRS, {18: 1, 17: 1, 16: 1, 15: 1, 14: 1}, bar=1, opp_bar=10),
                 "65", expect("24x2 23x2 22x2 21x2 20x3"),
                 id="3.4.1-ban-forces-a-one-die-entry-with-the-smaller-die"),
    pytest.param("rally", None, P({24: 3, 23: 2, 22: 2, 21: 2, 20: 2}, {18: 1, 17: 1, 16: 1, 15: 1, 14: 1},
                                  opp_bar=10),
                 "54", expect("24x2 23x2 22x2 21x2 20x3"),
                 id="3.4.1-ban-forces-a-one-die-play-with-the-smaller-die"),
    pytest.param("rally", None, P({24: 4, 23: 2, 22: 2, 21: 2}, {18: 1, 17: 1, 16: 1, 15: 1, 14: 1},
                                  bar=2, opp_bar=10),
                 "55", expect("24x4 23x2 22x2 21x2 20x2"),
                 id="3.4.1-ban-cuts-a-double-to-two-moves"),
    pytest.param("rally", None, P(FIVE_PAIRS, {18: 2, 17: 2, 16: 2, 15: 2, 14: 2}, bar=1),
                 "65", expect("24x2 23x2 22x2 21x2 20x3"),
                 id="3.2-ban-a-single-checker-counts-in-the-rally"),
    pytest.param("rally", None, P(FIVE_PAIRS, {18: 1, 17: 1, 16: 1, 15: 1, 14: 1, 13: 1}, bar=1, opp_bar=9),
                 "66", expect(),
                 id="3.4.5-only-entry-would-break-a-ban-turn-passes"),
    # 3.2 ban (b): six in a row with no opposing checker ahead
    pytest.param("rally", None, P(BAN_B, {20: 1}), "61", expect(*BAN_B_RESULTS),
                 id="3.2-ban-b-opponent-only-behind-the-block"),
    pytest.param("rally", None, P(BAN_B, {}, opp_bar=15), "61", expect(*BAN_B_RESULTS),
                 id="3.4.4-ban-b-opponent-pool-does-not-count"),
    pytest.param("rally", None, P(BAN_B, {}, opp_bar=1), "61", expect(*BAN_B_RESULTS),
                 id="3.4.4-ban-b-opponent-tray-does-not-count"),
    pytest.param("rally", None, P(BAN_B, {1: 1}), "61",
                 expect(*BAN_B_RESULTS, "7 6 5x2 4x2 3x2 2x2"),
                 id="3.4.4-ban-b-opponent-checker-ahead-allows-the-block"),
    pytest.param("rally", None, P({6: 2, 5: 1, 4: 2, 3: 1, 2: 1}, {7: 1}, opp_bar=14), "63",
                 expect("5 4x2 3x2 2", "6 4x2 3 2x2", "6 5 4x2 2"),
                 id="3.4.4-block-including-own-point-1-always-forbidden"),
    pytest.param("rally", None, P({14: 1, 7: 1, 6: 1, 5: 1, 4: 1, 3: 1}, {11: 1}, opp_bar=14), "63",
                 expect(*FORMED_DISSOLVED),
                 id="3.4.2-block-formed-and-dissolved-within-a-play-is-legal"),
    pytest.param("rally", None, P({20: 1, 3: 1}, {12: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1}), "31",
                 expect("19", "16 3", "17 2"),
                 id="3.4.3-opponents-block-not-judged-on-the-movers-turn"),
    pytest.param("rally", None, P({10: 1}, {24: 1, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1}), "21", expect("7"),
                 id="3.4.3-opponents-start-quarter-block-not-judged"),
    pytest.param("rally-hitting", None,
                 P({22: 1, 3: 1}, {20: 2, 19: 2, 18: 2, 17: 2, 16: 2, 15: 2}), "31", expect("21"),
                 id="3.4.3-opponents-block-of-pairs-not-judged-hitting"),
    # 3.3 rally-hitting
    pytest.param("rally-hitting", None, P({10: 1}, {7: 1}), "31", expect("6 *7", "6"),
                 id="3.4.6-hit-on-the-intermediate-point"),
    pytest.param("rally-hitting", None, P({10: 1}, {7: 1, 6: 1}), "31", expect("6 *7 *6", "6 *6"),
                 id="3.4.6-hit-on-the-intermediate-and-the-landing-point"),
    pytest.param("rally-hitting", None, P({10: 1}, {8: 1}), "22", expect("2 *8"),
                 id="3.4.6-hit-on-an-intermediate-point-of-a-double"),
    pytest.param("rally-hitting", None, P({}, {22: 1}, bar=1), "33", expect("13 *22"),
                 id="3.4.6-entering-checker-hits-on-a-double"),
    pytest.param("rally-hitting", None, P({10: 1}, {6: 1}), "31", expect("6 *6"),
                 id="3.3-hit-on-the-landing-point"),
    pytest.param("rally-hitting", None, P({10: 1}, {7: 2}), "31", expect("6"),
                 id="3.3-two-checkers-close-a-point"),
    pytest.param("rally-hitting", None, P({10: 1}, {7: 2, 9: 2}), "31", expect(),
                 id="3.3-two-checkers-close-both-routes-pass"),
    pytest.param("rally-hitting", None, P({}, {22: 1}, bar=1), "31", expect("21 *22", "21"),
                 id="3.4.6-entering-checker-hits"),
    pytest.param("rally-hitting", None, P({}, {22: 2}, bar=1), "31", expect("21"),
                 id="3.3-entry-point-closed-by-two"),
    pytest.param("rally-hitting", None, P({10: 1}, {3: 1}, turn=BLACK, bar=1), "21",
                 expect("22 10", "23 9", "24 8"),
                 id="3.3-hit-checker-re-enters-compulsorily-black-to-move"),
    pytest.param("rally-hitting", None, P(FIVE_PAIRS, {18: 2, 17: 2, 16: 2, 15: 2, 14: 2}, bar=1),
                 "65", expect("24 23x2 22x2 21x2 20x2 19x2"),
                 id="3.3-ban-a-needs-two-checkers-on-each-point"),
    pytest.param("rally-hitting", None, P({8: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1}, {20: 1}), "11",
                 _singles_expected(), id="3.3-singles-never-make-a-block"),
]




@pytest.mark.parametrize("name,options,pos,roll,expected", PLAY_CASES)
def test_legal_results(name, options, pos, roll, expected):
    rs = rules(name, options)
    assert outcomes(rs, pos, R(roll)) == expected


# -- single plays: legal or not ---------------------------------------------------------------
# Black's block 7-12 with no White checker ahead (White bore its last one off): it may stay.
BLACK_OLD_BLOCK = P({12: 1, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 20: 2}, {22: 1}, turn=BLACK)
OLD_PAIRS_BLOCK = P({12: 2, 11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 20: 2}, {22: 2})
HIT_AHEAD = P({15: 1, 12: 2, 11: 2, 10: 2, 9: 2, 8: 2, 7: 2}, {4: 1})
TWO_NEEDED = P({19: 1, 13: 1, 12: 2, 11: 2, 10: 2, 9: 2, 8: 2, 7: 1}, {22: 2})
CONTRAST = P({20: 1, 14: 1, 12: 2, 11: 2, 10: 2, 9: 2, 8: 2}, {22: 2})

IS_LEGAL_CASES = [
    pytest.param("rally", None, P(FIVE_PAIRS, {5: 1}, bar=5, opp_bar=14), "61", [(25, 19, 6), (24, 23, 1)], False,
                 id="3.2-ban-a-entry-completing-the-start-quarter-illegal"),
    pytest.param("rally", None, P(FIVE_PAIRS, {5: 1}, bar=5, opp_bar=14), "61", [(25, 19, 6), (19, 18, 1)], True,
                 id="3.4.2-ban-a-formed-and-dissolved-legal"),
    pytest.param("rally", None, P(FIVE_PAIRS, {5: 1}, bar=5, opp_bar=14), "61", [(24, 18, 6), (23, 22, 1)], False,
                 id="3.2-no-play-without-entry-while-the-pool-holds-checkers"),
    pytest.param("rally", None, P({24: 2, 23: 1, 22: 1, 21: 1}, {19: 1}, bar=4, opp_bar=14), "51",
                 [(25, 20, 5), (24, 23, 1)], True,
                 id="3.4.3-start-quarter-full-with-an-opposing-checker-legal"),
    pytest.param("rally", None, P({6: 2, 5: 1, 4: 2, 3: 1, 2: 1}, {7: 1}, opp_bar=14), "63",
                 [(6, 0, 6), (4, 1, 3)], False,
                 id="3.4.4-making-1-to-6-illegal"),
    pytest.param("rally", None, P({14: 1, 7: 1, 6: 1, 5: 1, 4: 1, 3: 1}, {11: 1}, opp_bar=14), "63",
                 [(14, 8, 6), (8, 5, 3)], True,
                 id="3.4.2-block-3-8-formed-then-dissolved"),
    pytest.param("rally", None, P(BAN_B, {20: 1}), "61", [(8, 7, 1), (6, 0, 6)], False,
                 id="3.2-ban-b-making-2-to-7-illegal"),
    pytest.param("rally", None, P(BAN_B, {1: 1}), "61", [(8, 7, 1), (6, 0, 6)], True,
                 id="3.4.4-ban-b-2-to-7-legal-with-a-checker-on-1"),
    pytest.param("rally", None, BLACK_OLD_BLOCK, "61", [(20, 14, 6), (20, 19, 1)], True,
                 id="3.4.2-existing-forbidden-block-may-stay"),
    pytest.param("rally", None, BLACK_OLD_BLOCK, "21", [(20, 18, 2), (20, 19, 1)], True,
                 id="3.4.2-existing-forbidden-block-may-stay-2-1"),
    pytest.param("rally-hitting", None, OLD_PAIRS_BLOCK, "61", [(20, 14, 6), (20, 19, 1)], True,
                 id="3.4.2-existing-forbidden-block-of-pairs-may-stay"),
    pytest.param("rally-hitting", None, OLD_PAIRS_BLOCK, "61", [(20, 14, 6), (14, 13, 1)], True,
                 id="3.4.2-single-on-13-makes-no-new-block-of-pairs"),
    pytest.param("rally-hitting", None, OLD_PAIRS_BLOCK, "61", [(12, 6, 6), (20, 19, 1)], True,
                 id="3.4.2-old-pairs-block-broken-by-moving-one-of-a-pair"),
    pytest.param("rally", None, BLACK_OLD_BLOCK, "61", [(7, 6, 1), (20, 14, 6)], True,
                 id="3.4.2-existing-forbidden-block-may-be-dissolved"),
    pytest.param("rally", None, BLACK_OLD_BLOCK, "61", [(7, 1, 6), (8, 7, 1)], True,
                 id="3.4.2-existing-forbidden-block-broken-in-the-middle"),
    pytest.param("rally", None, BLACK_OLD_BLOCK, "61", [(12, 6, 6), (20, 19, 1)], False,
                 id="3.4.2-shifting-the-old-block-makes-a-new-one-6-to-11"),
    pytest.param("rally", None, BLACK_OLD_BLOCK, "61", [(20, 14, 6), (14, 13, 1)], False,
                 id="3.4.2-lengthening-the-old-block-makes-a-new-one-8-to-13"),
    pytest.param("rally", None, CONTRAST, "61", [(14, 13, 1), (20, 14, 6)], False,
                 id="3.2-rally-single-checker-completes-a-block"),
    pytest.param("rally-hitting", None, CONTRAST, "61", [(14, 13, 1), (20, 14, 6)], True,
                 id="3.3-rally-hitting-single-checker-does-not-complete-a-block"),
    pytest.param("rally-hitting", None, TWO_NEEDED, "61", [(13, 7, 6), (19, 18, 1)], False,
                 id="3.3-block-7-12-of-pairs-illegal"),
    pytest.param("rally-hitting", None, TWO_NEEDED, "61", [(13, 7, 6), (7, 6, 1)], True,
                 id="3.3-block-7-12-left-with-a-single-on-7-legal"),
    pytest.param("rally-hitting", None, TWO_NEEDED, "61", [(19, 13, 6), (7, 6, 1)], False,
                 id="3.3-block-8-13-of-pairs-illegal"),
    pytest.param("rally-hitting", None, TWO_NEEDED, "61", [(19, 13, 6), (8, 7, 1)], True,
                 id="3.3-block-broken-by-a-single-on-8-legal"),
    pytest.param("rally-hitting", None, HIT_AHEAD, "65", [(15, 10, 5), (10, 4, 6)], False,
                 id="3.4.2-hitting-the-only-checker-ahead-of-a-block-illegal"),
    pytest.param("rally-hitting", None, HIT_AHEAD, "65", [(15, 9, 6), (9, 4, 5)], False,
                 id="3.4.2-hitting-the-only-checker-ahead-other-route-illegal"),
    pytest.param("rally-hitting", None, HIT_AHEAD, "65", [(9, 4, 5), (12, 6, 6)], True,
                 id="3.4.2-hitting-while-breaking-the-block-legal"),
    pytest.param("rally-hitting", None, HIT_AHEAD, "65", [(15, 10, 5), (12, 6, 6)], True,
                 id="3.4.2-block-with-a-checker-ahead-may-stay"),
    pytest.param("rally", None, P({}, {18: 1, 23: 1}, bar=2), "61", [(25, 19, 6), (25, 24, 1)], False,
                 id="3.4.5-two-entries-on-a-non-double-illegal"),
    pytest.param("rally", None, P({}, {18: 1, 23: 1}, bar=2), "61", [(25, 19, 6)], True,
                 id="3.4.5-one-entry-with-the-larger-die-legal"),
    pytest.param("rally", None, P({}, {18: 1, 23: 1}, bar=2), "61", [(25, 24, 1)], False,
                 id="3.4.5-one-entry-with-the-smaller-die-illegal"),
    pytest.param("rally", None, P({8: 1}, {6: 1}), "62", [(8, 2, 6), (2, 0, 2)], True,
                 id="3.4.7-8-2-off-as-a-play"),
    pytest.param("rally", None, P({10: 1}, {7: 1}), "31", [(10, 7, 3), (7, 6, 1)], False,
                 id="3.2-no-stop-on-a-single-opposing-checker"),
    pytest.param("rally-hitting", None, P({10: 1}, {7: 1}), "31", [(10, 7, 3), (7, 6, 1)], True,
                 id="3.4.6-stop-and-hit-on-the-intermediate-point"),
]


@pytest.mark.parametrize("name,options,pos,roll,moves,legal", IS_LEGAL_CASES)
def test_is_legal(name, options, pos, roll, moves, legal):
    rs = rules(name, options)
    rs.validate(pos)
    assert rs.is_legal(pos, R(roll), _moves(*moves)) is legal


# -- the single moves that may start the turn (turn in progress) ------------------------------------
FIRST_MOVE_CASES = [
    pytest.param("rally", P({7: 1}, {19: 1, 18: 1, 1: 1}, bar=1), "61", {(25, 24, 1)},
                 id="3.4.1-only-the-compulsory-entry-is-offered"),
    pytest.param("rally", P({11: 1}, {20: 1, 14: 1, 6: 1}, bar=1), "65", {(25, 19, 6)},
                 id="3.4.1-only-the-entry-is-offered-though-fewer-dice"),
    pytest.param("rally", P({10: 1}, {19: 1, 24: 1}, bar=1), "61", set(),
                 id="3.2-lost-turn-nothing-offered"),
    pytest.param("rally", P({24: 3, 23: 2, 22: 2, 21: 2, 20: 2}, {18: 1, 17: 1, 16: 1, 15: 1, 14: 1}, opp_bar=10),
                 "54", {(24, 20, 4)},
                 id="3.4.1-ban-only-the-smaller-die-is-offered"),
]


@pytest.mark.parametrize("name,pos,roll,moves", FIRST_MOVE_CASES)
def test_first_moves(name, pos, roll, moves):
    turn = TurnInProgress(rules(name), pos, R(roll))
    assert {(m.frm, m.to, m.die) for m in turn.legal_moves()} == moves
    assert turn.passes is (not moves)


# -- a hit checker goes back to the pool (3.3) -----------------------------------------------------
def test_3_3_hit_checker_goes_back_to_the_pool():
    rs = rules("rally-hitting")
    pos = P({10: 1}, {7: 1, 20: 2}, opp_bar=3)
    after = rs.apply(pos, _moves((10, 7, 3), (7, 6, 1)))
    assert after.black[7] == 0 and after.black[BAR] == 4 and after.black[20] == 2
    assert after.white[6] == 1 and after.white[OFF] == 14


# -- geometry and validity (3.1) -----------------------------------------------------------------
@pytest.mark.parametrize("name", ["rally", "rally-hitting"])
@pytest.mark.parametrize("white,black,ok", [
    pytest.param({10: 1}, {10: 1}, False, id="3.1-both-own-10-points-are-one-point"),
    pytest.param({10: 1}, {15: 1}, True, id="3.1-white-10-and-black-15-are-different-points"),
    pytest.param({24: 2}, {24: 1}, False, id="3.1-both-start-at-the-same-edge-point"),
])
def test_3_1_validate(name, white, black, ok):
    rule_tables.check_validate(rules(name), white, black, ok)


@pytest.mark.parametrize("quarter,die,line", [
    pytest.param("I-VI", 1, "I", id="3.1-I-VI-die-1-enters-at-the-edge"),
    pytest.param("I-VI", 6, "VI", id="3.1-I-VI-die-6-enters-by-the-bar"),
    pytest.param("1-6", 1, "1", id="3.1-1-6-die-1-enters-at-the-edge"),
    pytest.param("1-6", 6, "6", id="3.1-1-6-die-6-enters-by-the-bar"),
    pytest.param("7-12", 1, "12", id="3.1-7-12-die-1-enters-at-the-edge"),
    pytest.param("7-12", 6, "7", id="3.1-7-12-die-6-enters-by-the-bar"),
])
def test_3_1_entry_lines(quarter, die, line):
    geo = rules().geometry(quarter)
    assert geo.line(WHITE, 25 - die) == line
    assert geo.line(BLACK, 25 - die) == line


@pytest.mark.parametrize("quarter,point,line", [
    pytest.param("I-VI", 18, "VII", id="3.1-I-VI-track-7-next-quarter-same-side"),
    pytest.param("I-VI", 13, "XII", id="3.1-I-VI-track-12"),
    pytest.param("I-VI", 12, "12", id="3.1-I-VI-track-13-back-along-the-other-side"),
    pytest.param("I-VI", 1, "1", id="3.1-I-VI-finish-at-the-edge-across-from-start"),
    pytest.param("I-VI", 6, "6", id="3.1-I-VI-finish-quarter-point-6-by-the-bar"),
    pytest.param("1-6", 1, "I", id="3.1-1-6-finish-at-I"),
])
def test_3_1_track(quarter, point, line):
    assert rules().geometry(quarter).line(WHITE, point) == line


def test_3_1_start_position():
    start = rules().start_position()
    assert start.bar(WHITE) == 15 and start.bar(BLACK) == 15
    assert start.points(WHITE) == {} and start.points(BLACK) == {}


# -- opening (3.1) ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["rally", "rally-hitting"])
@pytest.mark.parametrize("d0,d1,winner,first", [
    pytest.param(5, 2, 0, WHITE, id="3.1-higher-throw-moves-first-player-0"),
    pytest.param(1, 6, 1, BLACK, id="3.1-higher-throw-moves-first-player-1"),
    pytest.param(3, 3, None, None, id="3.1-equal-throws-again"),
])
def test_3_1_opening(name, d0, d1, winner, first):
    opening = rules(name).resolve_opening(d0, d1)
    if winner is None:
        assert opening is None
        return
    assert opening.winner == winner and opening.first is first
    assert opening.roll is None          # a fresh roll of both dice


# -- score (3.2) ------------------------------------------------------------------------------
def finished(loser: dict, *, loser_bar=0, winner=WHITE) -> Position:
    off = 15 - sum(loser.values()) - loser_bar
    if winner is WHITE:
        return Position.from_counts({}, loser, white_off=15, black_bar=loser_bar, black_off=off, turn=BLACK)
    return Position.from_counts(loser, {}, black_off=15, white_bar=loser_bar, white_off=off, turn=WHITE)


@pytest.mark.parametrize("name", ["rally", "rally-hitting"])
@pytest.mark.parametrize("mars,loser,loser_bar,winner,points", [
    pytest.param(False, {}, 15, WHITE, 1, id="3.2-single-point-loser-all-in-pool"),
    pytest.param(False, {3: 5}, 0, WHITE, 1, id="3.2-single-point-loser-bore-off-some"),
    pytest.param(False, {20: 5, 3: 5}, 5, BLACK, 1, id="3.2-single-point-black-wins"),
    pytest.param(True, {}, 15, WHITE, 2, id="3.2-mars-loser-all-in-pool"),
    pytest.param(True, {5: 10, 2: 5}, 0, WHITE, 2, id="3.2-mars-loser-none-off-all-in-finish"),
    pytest.param(True, {20: 5, 3: 5}, 5, BLACK, 2, id="3.2-mars-black-wins"),
    pytest.param(True, {3: 14}, 0, WHITE, 1, id="3.2-mars-loser-bore-off-one"),
    pytest.param(True, {20: 5}, 9, WHITE, 1, id="3.2-mars-loser-bore-off-one-rest-pool"),
])
def test_3_2_score(name, mars, loser, loser_bar, winner, points):
    rs = rules(name, {"mars": True} if mars else None)
    result = rs.result(finished(loser, loser_bar=loser_bar, winner=winner))
    assert (result.winner, result.points) == (winner, points)


@pytest.mark.parametrize("name", ["rally", "rally-hitting"])
def test_3_2_no_result_before_all_fifteen_are_off(name):
    rs = rules(name, {"mars": True})
    assert rs.result(P({1: 1}, {}, opp_bar=15)) is None
    assert rs.result(rs.start_position()) is None
