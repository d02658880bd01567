"""Hand-checked positions for RULES.md sections 1 and 2: trictrac (Mendelev) and backgammon.

Every expectation below was worked out by hand from RULES.md, not copied from the engine.

Notation of a resulting position (always from the mover's side, own-point numbering):
the mover's checkers on the bar and on the board, e.g. ``"bar 21x2 13"`` is one checker on
the bar, two on the 21-point and one on the 13-point (the rest are borne off); ``"*8"``
marks an opposing checker hit on the mover's 8-point; ``""`` is everything borne off.
Opposing checkers are placed by the mover's own point numbers too (``theirs``), and the
helper converts them to the opponent's numbering (White's p is Black's 25 - p).
"""

from __future__ import annotations

import pytest
import rule_tables
from rule_tables import R, expect, outcomes

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

BOTH = ("trictrac", "backgammon")


# -- helpers -------------------------------------------------------------------------------
def theirs_point(p: int) -> int:
    """The opponent's own number of the physical point that is ``p`` for the mover."""
    return rule_tables.theirs_point(p, True)


def P(mine, theirs=None, *, turn=WHITE, bar=0, opp_bar=0) -> Position:  # type: ignore[no-untyped-def]
    """A position seen from the mover (see ``rule_tables.position``)."""
    return rule_tables.position(mine, theirs, mirrored=True, turn=turn, bar=bar, opp_bar=opp_bar)


def describe(before: Position, after: Position) -> str:
    return rule_tables.describe(before, after, True)


# -- section 1 and 2.2: the set of legal plays ----------------------------------------------
PLAY_CASES = [
    # 1. dice usage
    pytest.param(P({14: 1, 12: 1}, {7: 2, 3: 2, 1: 2}), "65", expect("9 6"),
                 id="1-both-dice-must-be-played-not-6-alone"),
    pytest.param(P({14: 1, 12: 1}, {7: 2, 3: 2, 1: 2}, turn=BLACK), "65", expect("9 6"),
                 id="1-both-dice-must-be-played-black-to-move"),
    pytest.param(P({10: 1}, {4: 2}), "63", expect("1"),
                 id="1-combined-move-through-the-open-intermediate-point"),
    pytest.param(P({10: 1, 20: 1}, {4: 2, 7: 2}), "63", expect("11 10"),
                 id="1-combined-move-needs-an-open-intermediate-point"),
    pytest.param(P({10: 1}, {4: 2, 7: 2}), "63", expect(),
                 id="1-combined-move-both-intermediates-closed-pass"),
    pytest.param(P({14: 1}, {3: 2}), "65", expect("8"),
                 id="1-either-die-but-not-both-play-the-larger"),
    pytest.param(P({}, {17: 2}, bar=1), "53", expect("20"),
                 id="1-either-die-but-not-both-play-the-larger-entering"),
    pytest.param(P({10: 1}, {2: 2}), "62", expect("4"),
                 id="1-either-die-but-not-both-play-the-larger-6-2"),
    pytest.param(P({14: 1}, {8: 2, 3: 2}), "65", expect("9"),
                 id="1-only-the-smaller-die-playable-play-it"),
    pytest.param(P({10: 1}, {4: 2, 5: 2}), "65", expect(),
                 id="1-no-die-playable-turn-passes"),
    pytest.param(P({13: 1}), "51", expect("7"),
                 id="1-two-orders-same-position-one-play"),
    # 1. doubles
    pytest.param(P({13: 1, 12: 1}), "33", expect("10 3", "7 6", "9 4", "12 1"),
                 id="1-double-four-moves-any-split"),
    pytest.param(P({10: 1}), "22", expect("2"),
                 id="1-double-four-moves-one-checker"),
    pytest.param(P({10: 1}, {1: 2}), "33", expect("4"),
                 id="1-double-partial-three-moves-blocked"),
    pytest.param(P({10: 1, 20: 1}, {16: 2, 2: 2}), "44", expect("20 6"),
                 id="1-double-partial-only-one-move"),
    # 2.2 hitting and closed points
    pytest.param(P({13: 1}, {8: 1}), "51", expect("7 *8", "7"),
                 id="2.2-blot-on-intermediate-point-hit-or-passed"),
    pytest.param(P({13: 1}, {8: 1}, turn=BLACK), "51", expect("7 *8", "7"),
                 id="2.2-blot-on-intermediate-point-black-to-move"),
    pytest.param(P({13: 1}, {7: 1}), "51", expect("7 *7"),
                 id="2.2-blot-on-landing-point-is-hit"),
    pytest.param(P({13: 1}, {8: 2}), "51", expect("7"),
                 id="2.2-two-opposing-checkers-close-a-point"),
    pytest.param(P({13: 1}, {8: 3, 12: 2}), "51", expect(),
                 id="2.2-closed-points-block-both-dice-pass"),
    # 2.2 the bar
    pytest.param(P({}, bar=1), "53", expect("17"),
                 id="2.2-bar-die-d-enters-on-25-minus-d"),
    pytest.param(P({6: 1}, bar=1), "61", expect("18 6", "19 5"),
                 id="2.2-bar-enter-then-play-the-other-die-freely"),
    pytest.param(P({6: 1}, bar=2), "61", expect("24 19 6"),
                 id="2.2-bar-must-enter-all-before-moving-others"),
    pytest.param(P({6: 1}, {19: 2}, bar=2), "61", expect("bar 24 6"),
                 id="2.2-bar-second-checker-cannot-enter-others-wait"),
    pytest.param(P({6: 1}, {19: 2, 24: 2}, bar=1), "61", expect(),
                 id="2.2-bar-both-entry-points-closed-turn-passes"),
    pytest.param(P({13: 1}, {19: 2}, bar=1), "62", expect("17 13", "23 7"),
                 id="2.2-bar-one-entry-open-enter-and-play-other-die"),
    pytest.param(P({13: 1}, {19: 2}, turn=BLACK, bar=1), "62", expect("17 13", "23 7"),
                 id="2.2-bar-one-entry-open-black-to-move"),
    pytest.param(P({6: 1}, {22: 1}, bar=1), "31", expect("21 6 *22", "22 5 *22", "21 6", "24 3"),
                 id="2.2-bar-entering-checker-hits-a-blot"),
    pytest.param(P({13: 1}, bar=2), "44", expect("21 13x2", "17x2 13", "21 17 9", "21x2 5"),
                 id="2.2-bar-double-enter-both-then-two-free-moves"),
    pytest.param(P({13: 1}, {21: 2}, bar=2), "44", expect(),
                 id="2.2-bar-double-entry-point-closed-pass"),
    # 2.2 bearing off
    pytest.param(P({8: 1, 3: 1}), "31", expect("4 3", "5 2"),
                 id="2.2-bear-off-needs-all-home"),
    pytest.param(P({3: 1}, bar=1), "63", expect("16 3"),
                 id="2.2-bear-off-not-while-a-checker-is-on-the-bar"),
    pytest.param(P({3: 1}, bar=1), "31", expect("21 3", "22 2"),
                 id="2.2-bear-off-hit-checker-must-re-enter-first"),
    pytest.param(P({20: 1, 3: 1}), "63", expect("11 3"),
                 id="2.2-bear-off-hit-checker-must-come-home-first"),
    pytest.param(P({8: 1, 2: 1}), "62", expect("2"),
                 id="2.2-bear-off-starts-once-the-last-checker-is-home"),
    pytest.param(P({6: 1, 1: 1}), "61", expect("", "1"),
                 id="2.2-bear-off-exact-die"),
    pytest.param(P({5: 1, 3: 1}), "53", expect("", "2"),
                 id="2.2-bear-off-exact-die-or-move-then-higher-die"),
    pytest.param(P({3: 1, 2: 1}), "65", expect(""),
                 id="2.2-bear-off-higher-dice-from-highest-point"),
    pytest.param(P({3: 1, 2: 1}), "61", expect("1", "2"),
                 id="2.2-bear-off-higher-die-from-highest-point-only"),
    pytest.param(P({5: 1, 2: 1}), "43", expect("1", "2"),
                 id="2.2-bear-off-die-moves-inside-while-a-higher-checker-stands"),
    pytest.param(P({3: 2, 2: 1}), "54", expect("2"),
                 id="2.2-mendelev-5-4-two-checkers-off-the-3-point"),
    pytest.param(P({3: 2, 2: 1}, turn=BLACK), "54", expect("2"),
                 id="2.2-mendelev-5-4-black-to-move"),
    pytest.param(P({2: 2, 1: 1}), "54", expect("1"),
                 id="2.2-mendelev-5-4-else-from-the-2-point"),
    pytest.param(P({6: 1, 3: 2}), "54", expect("3 1", "3 2"),
                 id="2.2-mendelev-5-4-not-while-a-checker-stands-on-6"),
    pytest.param(P({4: 1, 2: 1}), "21", expect("2 1", "3"),
                 id="2.2-bear-off-may-move-inside-home-instead"),
    pytest.param(P({6: 1, 3: 1}), "62", expect("1", "3"),
                 id="2.2-bear-off-mendelev-6-2-off-and-move-2"),
    pytest.param(P({9: 1}), "33", expect(""),
                 id="2.2-bear-off-last-checker-mid-double-wins"),
]


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("pos,roll,expected", PLAY_CASES)
def test_legal_results(name, pos, roll, expected):
    rs = get_rule_set(name)
    assert outcomes(rs, pos, R(roll)) == expected


# -- single plays: legal or not ---------------------------------------------------------------
def _moves(*triples):
    return Play(tuple(Move(*t) for t in triples))


IS_LEGAL_CASES = [
    pytest.param(P({14: 1, 12: 1}, {7: 2, 3: 2, 1: 2}), "65", [(14, 8, 6)], False,
                 id="1-one-die-play-illegal-when-both-can-be-played"),
    pytest.param(P({14: 1, 12: 1}, {7: 2, 3: 2, 1: 2}), "65", [(14, 9, 5), (12, 6, 6)], True,
                 id="1-both-dice-play-legal"),
    pytest.param(P({14: 1}, {3: 2}), "65", [(14, 9, 5)], False,
                 id="1-smaller-die-alone-illegal-when-larger-playable"),
    pytest.param(P({14: 1}, {3: 2}), "65", [(14, 8, 6)], True,
                 id="1-larger-die-alone-legal-when-not-both"),
    pytest.param(P({13: 1}), "51", [(13, 12, 1), (12, 7, 5)], True,
                 id="1-same-play-in-either-order-1-then-5"),
    pytest.param(P({13: 1}), "51", [(13, 8, 5), (8, 7, 1)], True,
                 id="1-same-play-in-either-order-5-then-1"),
    pytest.param(P({13: 1}), "51", [(13, 7, 6)], False,
                 id="1-one-move-of-the-sum-is-not-a-die"),
    pytest.param(P({13: 1}), "51", [(13, 8, 5)], False,
                 id="1-half-a-play-is-not-a-play"),
    pytest.param(P({10: 1}, {4: 2, 5: 2}), "65", [], True,
                 id="1-pass-legal-when-nothing-plays"),
    pytest.param(P({10: 1}), "65", [], False,
                 id="1-pass-illegal-when-a-play-exists"),
    pytest.param(P({6: 1}, bar=1), "61", [(25, 19, 6), (6, 5, 1)], True,
                 id="2.2-bar-enter-then-move-another-checker"),
    pytest.param(P({6: 1}, bar=1), "61", [(25, 24, 1), (6, 0, 6)], False,
                 id="2.2-bar-no-bear-off-after-entering-outside-home"),
    pytest.param(P({3: 1, 2: 1}), "61", [(3, 2, 1), (2, 0, 6)], True,
                 id="2.2-higher-die-from-highest-point-after-moving-inside"),
    pytest.param(P({6: 1, 3: 2}), "54", [(6, 2, 4), (3, 0, 5)], True,
                 id="2.2-higher-die-once-the-6-point-is-empty"),
    pytest.param(P({8: 1, 3: 1}), "53", [(8, 3, 5), (3, 0, 3)], True,
                 id="2.2-bear-off-after-the-last-checker-is-home"),
]


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("pos,roll,moves,legal", IS_LEGAL_CASES)
def test_is_legal(name, pos, roll, moves, legal):
    rs = get_rule_set(name)
    assert rs.is_legal(pos, R(roll), _moves(*moves)) is legal


# -- the single moves that may start the turn (turn in progress) ------------------------------------
FIRST_MOVE_CASES = [
    pytest.param(P({14: 1, 12: 1}, {7: 2, 3: 2, 1: 2}), "65", {(14, 9, 5), (12, 6, 6)},
                 id="1-a-first-move-that-strands-the-other-die-is-not-offered"),
    pytest.param(P({14: 1}, {3: 2}), "65", {(14, 8, 6)},
                 id="1-either-but-not-both-only-the-larger-is-offered"),
    pytest.param(P({13: 1}, {8: 2}), "51", {(13, 12, 1)},
                 id="1-combined-move-only-through-the-open-intermediate"),
    pytest.param(P({6: 1}, bar=1), "61", {(25, 19, 6), (25, 24, 1)},
                 id="2.2-bar-only-entries-before-anything-else"),
    pytest.param(P({13: 1}, {19: 2}, bar=1), "62", {(25, 23, 2)},
                 id="2.2-bar-only-the-open-entry-point"),
    pytest.param(P({3: 1, 2: 1}), "61", {(3, 0, 6), (3, 2, 1), (2, 1, 1)},
                 id="2.2-higher-die-not-from-a-lower-point-while-3-occupied"),
    pytest.param(P({6: 1, 3: 2}), "54", {(6, 1, 5), (6, 2, 4)},
                 id="2.2-higher-die-not-while-a-checker-stands-on-6"),
    pytest.param(P({8: 1, 3: 1}), "53", {(8, 3, 5), (8, 5, 3)},
                 id="2.2-no-bear-off-before-the-last-checker-is-home"),
]


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("pos,roll,moves", FIRST_MOVE_CASES)
def test_first_moves(name, pos, roll, moves):
    turn = TurnInProgress(get_rule_set(name), pos, R(roll))
    assert {(m.frm, m.to, m.die) for m in turn.legal_moves()} == moves


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("theirs,dests", [
    pytest.param({}, {12, 8, 7}, id="1-destinations-both-intermediates-open"),
    pytest.param({8: 2}, {12, 7}, id="1-destinations-closed-intermediate"),
    pytest.param({8: 1}, {12, 8, 7}, id="2.2-destinations-blot-on-intermediate"),
])
def test_destinations(name, theirs, dests):
    turn = TurnInProgress(get_rule_set(name), P({13: 1}, theirs), R("51"))
    assert set(turn.destinations(13)) == dests


# -- a hit puts the checker on the bar -----------------------------------------------------------
@pytest.mark.parametrize("name", BOTH)
def test_2_2_hit_checker_goes_to_the_bar(name):
    rs = get_rule_set(name)
    pos = P({13: 1}, {8: 1, 1: 2})          # Black blot on White's 8 = Black's 17
    after = rs.apply(pos, _moves((13, 8, 5), (8, 7, 1)))
    assert after.black[17] == 0 and after.black[BAR] == 1 and after.black[24] == 2
    assert after.white[7] == 1 and after.white[OFF] == 14
    assert after.turn is BLACK


# -- geometry and validity (2.1) ----------------------------------------------------------------
@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("colour,point,line", [
    pytest.param(WHITE, 24, "I", id="2.1-white-24-is-I"),
    pytest.param(WHITE, 13, "XII", id="2.1-white-13-is-XII"),
    pytest.param(WHITE, 8, "8", id="2.1-white-8-is-8"),
    pytest.param(WHITE, 6, "6", id="2.1-white-6-is-6"),
    pytest.param(BLACK, 24, "1", id="2.1-black-24-is-1"),
    pytest.param(BLACK, 13, "12", id="2.1-black-13-is-12"),
    pytest.param(BLACK, 8, "VIII", id="2.1-black-8-is-VIII"),
    pytest.param(BLACK, 6, "VI", id="2.1-black-6-is-VI"),
    pytest.param(WHITE, 22, "III", id="2.2-white-enters-3-on-line-III-of-black-home"),
    pytest.param(BLACK, 20, "5", id="2.2-black-enters-5-on-line-5-of-white-home"),
])
def test_2_1_lines(name, colour, point, line):
    assert get_rule_set(name).geometry().line(colour, point) == line


@pytest.mark.parametrize("name", BOTH)
def test_2_1_start_position(name):
    start = get_rule_set(name).start_position()
    expected = {24: 2, 13: 5, 8: 3, 6: 5}
    assert start.points(WHITE) == expected and start.points(BLACK) == expected
    assert start.turn is WHITE


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("white,black,ok", [
    pytest.param({10: 1}, {15: 1}, False, id="2.1-white-p-and-black-25-minus-p-are-one-point"),
    pytest.param({10: 1}, {10: 1}, True, id="2.1-white-10-and-black-10-are-different-points"),
    pytest.param({24: 2}, {1: 1}, False, id="2.1-white-I-black-I-clash"),
])
def test_2_1_validate(name, white, black, ok):
    rule_tables.check_validate(get_rule_set(name), white, black, ok)


# -- opening roll --------------------------------------------------------------------------------
@pytest.mark.parametrize("name,d0,d1,winner,first,dice", [
    pytest.param("trictrac", 5, 1, 0, WHITE, (5, 1), id="2.1-trictrac-higher-throw-plays-white-player-0"),
    pytest.param("trictrac", 2, 6, 1, WHITE, (6, 2), id="2.1-trictrac-higher-throw-plays-white-player-1"),
    pytest.param("trictrac", 4, 4, None, None, None, id="2.1-trictrac-equal-throws-again"),
    pytest.param("backgammon", 5, 1, 0, WHITE, (5, 1), id="2.3-backgammon-winner-moves-first-with-own-colour-0"),
    pytest.param("backgammon", 2, 6, 1, BLACK, (6, 2), id="2.3-backgammon-winner-moves-first-with-own-colour-1"),
    pytest.param("backgammon", 3, 3, None, None, None, id="2.3-backgammon-equal-throws-again"),
])
def test_opening(name, d0, d1, winner, first, dice):
    opening = get_rule_set(name).resolve_opening(d0, d1)
    if winner is None:
        assert opening is None
        return
    assert opening.winner == winner and opening.first is first
    assert opening.roll is not None
    assert sorted((opening.roll.first, opening.roll.second), reverse=True) == list(dice)


# -- scores --------------------------------------------------------------------------------------
def finished(loser: dict, *, loser_bar=0, winner=WHITE) -> Position:
    off = 15 - sum(loser.values()) - loser_bar
    if winner is WHITE:
        return Position.from_counts({}, loser, white_off=15, black_bar=loser_bar, black_off=off, turn=BLACK)
    return Position.from_counts(loser, {}, black_off=15, white_bar=loser_bar, white_off=off, turn=WHITE)


SCORE_CASES = [
    # (loser's own points, loser's bar, winner, trictrac points, backgammon points)
    pytest.param({6: 14}, 0, WHITE, 1, 1, id="loser-bore-off-one"),
    pytest.param({13: 10}, 2, WHITE, 1, 1, id="loser-bore-off-some-with-bar-and-outside"),
    pytest.param({6: 10, 1: 5}, 0, WHITE, 2, 2, id="loser-none-off-all-home"),
    pytest.param({7: 1, 6: 14}, 0, WHITE, 4, 2, id="loser-none-off-one-on-7-point"),
    pytest.param({18: 1, 6: 14}, 0, WHITE, 4, 2, id="loser-none-off-one-on-18-point"),
    pytest.param({19: 1, 6: 14}, 0, WHITE, 4, 3, id="loser-none-off-one-in-winners-home-19"),
    pytest.param({24: 2, 6: 13}, 0, WHITE, 4, 3, id="loser-none-off-in-winners-home-24"),
    pytest.param({6: 14}, 1, WHITE, 8, 3, id="loser-none-off-on-the-bar-rest-home"),
    pytest.param({13: 5, 6: 9}, 1, WHITE, 8, 3, id="loser-none-off-bar-and-outside"),
    pytest.param({6: 10, 1: 5}, 0, BLACK, 2, 2, id="black-wins-loser-all-home"),
    pytest.param({12: 1, 6: 13}, 1, BLACK, 8, 3, id="black-wins-loser-on-the-bar"),
]


@pytest.mark.parametrize("loser,loser_bar,winner,tt,bg", SCORE_CASES)
def test_2_3_trictrac_score(loser, loser_bar, winner, tt, bg):
    result = get_rule_set("trictrac").result(finished(loser, loser_bar=loser_bar, winner=winner))
    assert (result.winner, result.points) == (winner, tt)


@pytest.mark.parametrize("loser,loser_bar,winner,tt,bg", SCORE_CASES)
def test_2_3_backgammon_score(loser, loser_bar, winner, tt, bg):
    result = get_rule_set("backgammon").result(finished(loser, loser_bar=loser_bar, winner=winner))
    assert (result.winner, result.points) == (winner, bg)


@pytest.mark.parametrize("name", BOTH)
def test_2_3_no_result_before_all_fifteen_are_off(name):
    rs = get_rule_set(name)
    assert rs.result(P({1: 1}, {24: 2})) is None
    assert rs.result(rs.start_position()) is None


# -- 2.4 Mendelev's sample game -------------------------------------------------------------------
SAMPLE = [
    (WHITE, "51", [(13, 8, 5), (24, 23, 1)]),
    (BLACK, "43", [(13, 9, 4), (9, 6, 3)]),
    (WHITE, "44", [(13, 9, 4), (13, 9, 4), (8, 4, 4), (8, 4, 4)]),
    (BLACK, "32", [(13, 10, 3), (10, 8, 2)]),
    (WHITE, "61", [(13, 7, 6), (8, 7, 1)]),
    (BLACK, "64", [(8, 2, 6), (6, 2, 4)]),
]


@pytest.mark.parametrize("name", BOTH)
def test_2_4_sample_game(name):
    rs = get_rule_set(name)
    opening = rs.resolve_opening(5, 1)      # White threw 5, Black 1
    assert opening.first is WHITE
    pos = rs.start_position()
    for colour, roll, moves in SAMPLE:
        assert pos.turn is colour
        play = _moves(*moves)
        assert rs.is_legal(pos, R(roll), play), (colour, roll, moves)
        pos = rs.apply(pos, play)
    # hand-computed: White's blot on II (White 23) was hit by 8/2*
    assert pos.points(WHITE) == {24: 1, 13: 1, 9: 2, 8: 1, 7: 2, 6: 5, 4: 2}
    assert pos.bar(WHITE) == 1
    assert pos.points(BLACK) == {24: 2, 13: 3, 8: 3, 6: 5, 2: 2}
    assert pos.turn is WHITE
    assert rs.validate(pos) == pos
