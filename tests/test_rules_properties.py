"""Property tests of the rules engine (controller/rules), against RULES.md sections 1-3.

The most valuable tests here compare the engine's legal plays with an independent
brute-force reference (``reference_plays`` below), written from RULES.md alone on a plain
list-of-counts board: every sequence of single moves is enumerated, then the rules'
filters (compulsory entry and blockade bans in the rally, as many dice as possible, the
larger die) pick the legal plays.  It shares no code with the engine's packed-board
generator.

The other properties are invariants any correct engine keeps: checker conservation, no
mixed points, apply/take_back round trips, one play per resulting position, colour
symmetry, the dice-usage rule, the turn in progress in any move order, and whole random
games that end with a valid score, undo and replay exactly.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from controller.rules import (
    BAR,
    BLACK,
    CHECKERS,
    OFF,
    WHITE,
    IllegalPlayError,
    Move,
    Play,
    Position,
    Roll,
    TurnInProgress,
    get_rule_set,
)
from controller.rules.game import Game

try:  # pytest puts tests/ on the path (rootdir without __init__.py) ...
    from strategies import (
        MAX_PLIES,
        RULE_SET_SPECS,
        TRICTRAC_NAMES,
        RALLY_NAMES,
        Case,
        cases,
        is_mirrored,
        is_rally,
        make_rule_set,
        opening_throws,
    )
except ImportError:  # ... or the repository root, when tests/ is a package
    from tests.strategies import (  # type: ignore[no-redef]
        MAX_PLIES,
        RULE_SET_SPECS,
        TRICTRAC_NAMES,
        RALLY_NAMES,
        Case,
        cases,
        is_mirrored,
        is_rally,
        make_rule_set,
        opening_throws,
    )

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# =====================================================================================
# The independent reference: RULES.md 1, 2.2, 3.2-3.4 on plain count lists
# =====================================================================================

Side = tuple[int, ...]
Step = tuple[int, int, int]  # (from, to, die) in the mover's own numbering


def _hits(rules) -> bool:
    """RULES.md 4: every rule set but the plain rally hits a lone opposing checker."""
    return rules.name != "rally"


def _opp_index(rules, point: int) -> int:
    """The opponent's own number for my own point (2.1: 25 - p; 3.1: the same p)."""
    return 25 - point if is_mirrored(rules) else point


def reference_single_moves(rules, mine: Side, theirs: Side, die: int, entries_left: int):
    """Every single move of ``die`` (RULES.md 2.2 / 3.2 / 3.3), as (from, to, hit, mine', theirs')."""
    rally = is_rally(rules)
    if rally:
        # 3.2: checkers on the board move freely while the pool holds checkers;
        # entries are limited to one (two on a double) per turn (3.4.5).
        sources = [p for p in range(1, 25) if mine[p]]
        if mine[BAR] and entries_left > 0:
            sources.append(BAR)
    else:
        # 2.2: with checkers on the bar, only entries
        sources = [BAR] if mine[BAR] else [p for p in range(1, 25) if mine[p]]
    for frm in sources:
        to = frm - die
        if to >= 1:
            where = _opp_index(rules, to)
            there = theirs[where]
            if there == 0:
                hit = False
            elif there == 1 and _hits(rules):
                hit = True
            else:
                continue  # closed
            m = list(mine)
            m[frm] -= 1
            m[to] += 1
            o = list(theirs)
            if hit:
                o[where] -= 1
                o[BAR] += 1  # the bar (trictrac) or the pool (rally-hitting)
            yield frm, to, hit, tuple(m), tuple(o)
        else:
            # bearing off: frm <= die
            if rally:
                # 3.2: exact die from the finishing quarter; option: a higher die from
                # the highest point with nothing behind it, the pool included (3.4.8)
                ok = frm == die or (rules.options.get("bear_off_higher") and not any(mine[frm + 1:26]))
            else:
                # 2.2: all 15 home or off; exact die, or a higher one from the highest point
                ok = not any(mine[7:26]) and (frm == die or not any(mine[frm + 1:7]))
            if ok:
                m = list(mine)
                m[frm] -= 1
                m[OFF] += 1
                yield frm, OFF, False, tuple(m), theirs


def reference_forbidden_blocks(rules, mine: Side, theirs: Side) -> frozenset[int]:
    """RULES.md 3.2 / 3.3 / 3.4.4: lowest points of the mover's forbidden six-blocks."""
    if not is_rally(rules):
        return frozenset()
    need = 2 if rules.name == "rally-hitting" else 1
    found = set()
    for low in range(1, 20):
        if all(mine[p] >= need for p in range(low, low + 6)):
            start_quarter = low == 19  # ban (a): track 1-6 = own points 19-24
            nobody_ahead = not any(theirs[q] for q in range(1, low))  # ban (b)
            if start_quarter or nobody_ahead:
                found.add(low)
    return frozenset(found)


def _position(mover, mine: Side, theirs: Side, turn) -> Position:
    white, black = (mine, theirs) if mover is WHITE else (theirs, mine)
    return Position(white, black, turn)


def reference_plays(rules, position: Position, roll: Roll):
    """The legal plays by brute force, independent of the engine.

    Returns ``(results, used, nodes)``: ``results`` maps each position after a legal play
    (opponent to move) to one sequence of steps reaching it; ``used`` is the number of dice
    the legal plays use (0: the turn passes); ``nodes`` lists every reachable
    ``(position after, dice used, steps)``, legal or not.
    """
    mover = position.turn
    mine0, theirs0 = position.side(mover), position.side(mover.opponent)
    rally = is_rally(rules)
    limit = (2 if roll.is_double else 1) if rally else 99
    all_dice = tuple(sorted(roll.dice))
    seen: dict[tuple[Side, Side, tuple[int, ...]], tuple[Step, ...]] = {}
    stack: list[tuple[Side, Side, tuple[int, ...], tuple[Step, ...]]] = [(mine0, theirs0, all_dice, ())]
    while stack:
        mine, theirs, left, steps = stack.pop()
        key = (mine, theirs, left)
        if key in seen:
            continue
        seen[key] = steps
        entries_left = limit - (mine0[BAR] - mine[BAR])
        for die in set(left):
            rest = list(left)
            rest.remove(die)
            for frm, to, _hit, m, o in reference_single_moves(rules, mine, theirs, die, entries_left):
                stack.append((m, o, tuple(rest), steps + ((frm, to, die),)))

    banned0 = reference_forbidden_blocks(rules, mine0, theirs0)

    def allowed(mine: Side, theirs: Side) -> bool:
        if rally:
            if mine0[BAR] and mine[BAR] == mine0[BAR]:
                return False  # 3.2: entering is compulsory
            if reference_forbidden_blocks(rules, mine, theirs) - banned0:
                return False  # 3.4.2: a play may not make a forbidden block
        return True

    nodes = []
    candidates = []
    for (mine, theirs, left), steps in seen.items():
        used = len(all_dice) - len(left)
        after = _position(mover, mine, theirs, mover.opponent)
        nodes.append((after, used, steps))
        if allowed(mine, theirs):
            candidates.append((after, used, left, steps))
    most = max((c[1] for c in candidates), default=0)
    if most == 0:
        return {}, 0, nodes  # the turn passes (or, in the rally, is lost)
    best = [c for c in candidates if c[1] == most]
    if most == 1 and not roll.is_double:
        # 1: if either die but not both can be played, the larger must be played
        with_high = [c for c in best if c[2] == (roll.low,)]
        if with_high:
            best = with_high
    results: dict[Position, tuple[Step, ...]] = {}
    for after, _used, _left, steps in best:
        results.setdefault(after, steps)
    return results, most, nodes


def as_play(steps: tuple[Step, ...]) -> Play:
    return Play(tuple(Move(frm, to, die) for frm, to, die in steps))


def describe(case: Case) -> str:
    rules, position, roll = case
    return (f"{rules!r} roll {roll.first}-{roll.second} {position.turn.value} to move\n"
            f"  white {position.points(WHITE)} bar {position.bar(WHITE)} off {position.off(WHITE)}\n"
            f"  black {position.points(BLACK)} bar {position.bar(BLACK)} off {position.off(BLACK)}")


HIGH_DIE_TRICTRAC = Case(get_rule_set("trictrac"), Position.from_counts({13: 1}, {23: 2, 24: 13}, white_off=14), Roll(5, 6))
"""13/7 or 13/8, but not both dice: 2 is closed.  The 6 must be played."""
HIGH_DIE_RALLY = Case(get_rule_set("rally"), Position.from_counts({13: 1}, {2: 1}, white_off=14, black_off=14), Roll(5, 6))


# =====================================================================================
# Sanity of the reference itself on the worked examples of RULES.md
# =====================================================================================


def test_reference_on_rules_examples():
    """The reference reproduces the worked examples of RULES.md (so it reads the rules right)."""
    tt = get_rule_set("trictrac")
    # 2.2 Mendelev: with 5-4, points 5 and 4 empty and nothing on 6, two checkers come off the 3-point
    pos = Position.from_counts({3: 3, 2: 2, 1: 1}, {24: 15}, white_off=9)
    results, used, _ = reference_plays(tt, pos, Roll(5, 4))
    assert used == 2
    assert Position.from_counts({3: 1, 2: 2, 1: 1}, {24: 15}, turn=BLACK, white_off=11) in results
    # ... but with a checker on 6, the 5 and the 4 can only move inside the home
    pos = Position.from_counts({6: 1, 3: 2, 2: 2, 1: 1}, {24: 15}, white_off=9)
    results, used, _ = reference_plays(tt, pos, Roll(5, 4))
    assert all(after.off(WHITE) <= 10 for after in results)
    # 2.4: the opening 5-1 allows 13/8 24/23
    start = tt.start_position()
    results, used, _ = reference_plays(tt, start, Roll(5, 1))
    assert Position.from_counts({24: 1, 23: 1, 13: 4, 8: 4, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, turn=BLACK) in results

    rally = get_rule_set("rally")
    # 3.2: with 2-4 and the 2nd and 4th points ahead closed, a checker cannot move 6
    pos = Position.from_counts({14: 1}, {12: 1, 10: 1}, white_off=14, black_off=13)
    results, used, _ = reference_plays(rally, pos, Roll(2, 4))
    assert used == 0 and not results
    # 3.4.7: with 6-2 a checker on own point 8 may play 8/2/off
    pos = Position.from_counts({8: 1}, {20: 1}, white_off=14, black_off=14)
    results, used, _ = reference_plays(rally, pos, Roll(6, 2))
    assert used == 2 and Position.from_counts({}, {20: 1}, turn=BLACK, white_off=15, black_off=14) in results
    # 3.2: the rally start: one checker enters, the other die moves freely
    results, used, _ = reference_plays(rally, rally.start_position(), Roll(3, 5))
    # (enter 22 then 22/17, or enter 20 then 20/17: a second entry is not allowed on a non-double)
    assert used == 2 and {tuple(a.points(WHITE).items()) for a in results} == {((17, 1),)}
    # 1: either die but not both: the larger
    for case in (HIGH_DIE_TRICTRAC, HIGH_DIE_RALLY):
        results, used, _ = reference_plays(*case)
        assert used == 1 and {tuple(a.points(WHITE).items()) for a in results} == {((7, 1),)}


# =====================================================================================
# The engine against the reference: the most valuable property
# =====================================================================================


def _check_against_reference(case: Case) -> None:
    rules, position, roll = case
    expected, used, _ = reference_plays(rules, position, roll)
    got = rules.legal_results(position, roll)
    missing = set(expected) - set(got)
    extra = set(got) - set(expected)
    assert not missing and not extra, (
        f"{describe(case)}\n  engine lacks {[' '.join(map(str, as_play(expected[p]).moves)) for p in missing]}"
        f"\n  engine adds {[' '.join(map(str, got[p].moves)) for p in extra]}"
    )
    for play in got.values():
        assert len(play.moves) == used


@MANY
@given(cases(TRICTRAC_NAMES))
@example(Case(get_rule_set("trictrac"), Position.from_counts({3: 3, 2: 2, 1: 1}, {24: 15}, white_off=9), Roll(5, 4)))
@example(Case(get_rule_set("trictrac"), Position.from_counts({6: 1, 3: 2, 2: 2, 1: 1}, {24: 15}, white_off=9), Roll(5, 4)))
@example(Case(get_rule_set("backgammon"), get_rule_set("backgammon").start_position(), Roll(6, 6)))
def test_trictrac_legal_plays_match_reference(case):
    """Trictrac/backgammon: the engine's legal results equal the brute-force reference's,
    on positions from random games and constructed ones (bar, bear-off, crowded)."""
    _check_against_reference(case)


@FAST
@given(st.one_of(cases(TRICTRAC_NAMES, kind="bar"), cases(TRICTRAC_NAMES, kind="bearoff"),
                 cases(TRICTRAC_NAMES, kind="blocked")))
@example(HIGH_DIE_TRICTRAC)
def test_trictrac_edge_positions_match_reference(case):
    """Trictrac/backgammon on edge-heavy positions only: checkers on the bar against a
    closed-up board, bear-offs (higher dice, a stray checker outside, a hit checker), and
    one to three checkers against stacks (passes, one-die plays, the larger-die rule)."""
    _check_against_reference(case)


@MANY
@given(cases(RALLY_NAMES))
@example(Case(get_rule_set("rally"), Position.from_counts({14: 1}, {12: 1, 10: 1}, white_off=14, black_off=13), Roll(2, 4)))
@example(Case(get_rule_set("rally"), Position.from_counts({8: 1}, {20: 1}, white_off=14, black_off=14), Roll(6, 2)))
def test_rally_legal_plays_match_reference(case):
    """Rally/rally-hitting (with options): the engine's legal results equal the reference's:
    compulsory entry, one entry (two on a double), no hitting or hitting a blot to the pool,
    blockade bans judged on the position a play leaves, then the dice-usage rule."""
    _check_against_reference(case)


@FAST
@given(st.one_of(cases(RALLY_NAMES, kind="crowded"), cases(RALLY_NAMES, kind="bar"), cases(RALLY_NAMES, kind="bearoff"),
                 cases(RALLY_NAMES, kind="blocked")))
@example(HIGH_DIE_RALLY)
def test_rally_edge_positions_match_reference(case):
    """Rally on edge-heavy positions: runs of 4-7 points one move away from a six-block,
    full pools against stacked entry points, bear-offs, a few checkers facing the
    opponent's (passes, one-die plays, the larger-die rule)."""
    _check_against_reference(case)


@FAST
@given(cases(), st.randoms(use_true_random=False))
def test_is_legal_agrees_with_reference_on_any_move_sequence(case, rnd):
    """For move sequences the reference can make (legal or not), ``is_legal`` says yes exactly
    when the sequence uses the required number of dice and leaves a legal result."""
    rules, position, roll = case
    expected, used, nodes = reference_plays(rules, position, roll)
    sample = nodes if len(nodes) <= 25 else rnd.sample(nodes, 25)
    for after, n, steps in sample:
        should = n == used and (after in expected or (used == 0 and not steps))
        assert rules.is_legal(position, roll, as_play(steps)) is should, (
            f"{describe(case)}\n  play {' '.join(map(str, as_play(steps).moves)) or 'pass'}: expected {should}")
    assert rules.is_legal(position, roll, Play()) is (used == 0)


# =====================================================================================
# Invariants of every legal play
# =====================================================================================


@FAST
@given(cases())
def test_conservation_and_no_mixed_points(case):
    """After every legal play: 15 checkers per side (board, bar/pool and off counted), no
    negative counts, never two colours on one physical point, the mover's checkers moved by
    exactly the play's moves, and the opponent's changed only by the play's hits."""
    rules, position, roll = case
    mover = position.turn
    opp = mover.opponent
    for after, play in rules.legal_results(position, roll).items():
        assert after.turn is opp
        for colour in (WHITE, BLACK):
            assert sum(after.side(colour)) == CHECKERS
            assert min(after.side(colour)) >= 0
        for p in range(1, 25):
            assert not (after.white[p] and after.black[_opp_index(rules, p)]), f"mixed point {p}\n{describe(case)}"
        # the mover: net effect of the moves
        mine = list(position.side(mover))
        pips = 0
        for move in play.moves:
            assert move.die in roll.dice
            mine[move.frm] -= 1
            mine[move.to] += 1
            travelled = move.frm - move.to
            assert travelled == move.die or (move.to == OFF and travelled < move.die)
            pips += travelled
        assert tuple(mine) == after.side(mover)
        assert position.pip_count(mover) - after.pip_count(mover) == pips
        # the opponent: only hit checkers move, each from the point of a hitting move to the bar
        theirs = list(position.side(opp))
        for move in play.moves:
            if move.hit:
                theirs[_opp_index(rules, move.to)] -= 1
                theirs[BAR] += 1
        assert tuple(theirs) == after.side(opp)
        if not _hits(rules):
            assert play.hits == 0


@FAST
@given(cases())
def test_apply_and_take_back_round_trip(case):
    """Every legal play applies to its listed result, is legal, and ``take_back`` restores
    exactly the start position; results are distinct and equal the applied positions."""
    rules, position, roll = case
    results = rules.legal_results(position, roll)
    plays = rules.legal_plays(position, roll)
    assert len(plays) == len(results)
    applied = [rules.apply(position, play) for play in plays]
    assert len(set(applied)) == len(applied), "two legal plays leave the same position"
    assert set(applied) == set(results)
    for after, play in results.items():
        assert rules.apply(position, play) == after
        assert rules.is_legal(position, roll, play)
        assert rules.take_back(after, play) == position
        canonical = rules.legal_play_for(position, roll, play)
        assert canonical is not None and rules.apply(position, canonical) == after
    assert rules.is_legal(position, roll, Play()) is (not plays)


@FAST
@given(cases())
def test_colour_symmetry(case):
    """With colours swapped (same roll) the results are the swapped results, by the same
    moves in own-point numbering."""
    rules, position, roll = case
    results = rules.legal_results(position, roll)
    mirrored = rules.legal_results(position.swapped(), roll)
    assert {after.swapped(): play for after, play in results.items()} == mirrored


def _mechanical_singles(rules, position: Position, die: int) -> list[Position]:
    """Positions after one checker moves ``die`` (any single move the board allows)."""
    out = []
    for frm in range(1, 26):
        try:
            out.append(rules.apply(position, Play((Move(frm, max(frm - die, 0), die),))))
        except IllegalPlayError:
            pass
    return out


@FAST
@given(cases())
def test_dice_usage_rule(case):
    """All legal plays use the same number of dice, drawn from the roll; in trictrac no legal
    play could go on with a spare die, and when one die of a non-double is used and the
    larger die can be played, every play uses the larger (checked with single-move applies)."""
    rules, position, roll = case
    plays = rules.legal_plays(position, roll)
    if not plays:
        return
    used = {len(play.moves) for play in plays}
    assert len(used) == 1, f"plays use {used} dice\n{describe(case)}"
    n = used.pop()
    for play in plays:
        spare = list(roll.dice)
        for die in play.dice_used:
            spare.remove(die)
        if not is_rally(rules):  # in the rally a ban may stop a play early (3.4.1)
            after = rules.apply(position, play).with_turn(position.turn)
            if after.winner() is None:
                for die in set(spare):
                    assert not _mechanical_singles(rules, after, die), (
                        f"{' '.join(map(str, play.moves))} leaves die {die} playable\n{describe(case)}")
    if n == 1 and not roll.is_double and not is_rally(rules):
        if _mechanical_singles(rules, position, roll.high):
            assert all(play.dice_used == (roll.high,) for play in plays), describe(case)


# =====================================================================================
# The turn in progress
# =====================================================================================


def _key(move: Move) -> tuple[int, int, int]:
    return (move.frm, move.to, move.die)


@FAST
@given(cases(), st.randoms(use_true_random=False))
def test_turn_in_progress_any_order(case, rnd):
    """Pushing the moves of a legal play in any mechanically possible order reaches
    ``is_complete`` with the play's result; each prefix's ``legal_moves`` offers the next
    move; ``pop`` restores each earlier position and finally the start."""
    rules, position, roll = case
    results = rules.legal_results(position, roll)
    mover = position.turn
    all_dice = tuple(sorted(roll.dice, reverse=True))
    items = list(results.items())
    if len(items) > 6:
        items = rnd.sample(items, 6)
    for after, play in items:
        orders = sorted(set(itertools.permutations(play.moves, len(play.moves))))
        for order in orders:
            try:
                applied = rules.apply(position, Play(order))
            except IllegalPlayError:
                assert order != tuple(play.moves), "the legal play itself does not apply"
                continue
            assert applied == after, f"order {order} leaves another position"
            assert rules.is_legal(position, roll, Play(order))
            turn = TurnInProgress(rules, position, roll)
            trail = [turn.position]
            for move in order:
                assert not turn.is_complete
                assert _key(move) in {_key(m) for m in turn.legal_moves()}, (
                    f"{move} not offered after {turn.moves}\n{describe(case)}")
                made = turn.push(move)
                assert _key(made) == _key(move)
                trail.append(turn.position)
            assert turn.is_complete
            assert turn.legal_moves() == ()
            assert turn.result() == after
            assert turn.position == after.with_turn(mover)
            assert len(turn.remaining_dice) == len(all_dice) - len(order)
            for expected in reversed(trail[:-1]):
                turn.pop()
                assert turn.position == expected
            assert turn.position == position
            assert turn.remaining_dice == all_dice
            assert turn.moves == ()
            with pytest.raises(IllegalPlayError):
                turn.pop()


@FAST
@given(cases(), st.randoms(use_true_random=False))
def test_turn_in_progress_random_walk(case, rnd):
    """Choosing any offered move, again and again, always ends in a complete legal play;
    ``destinations(point)`` equals the ends of the single-checker chains the offered moves
    allow; a turn with no legal play offers nothing."""
    rules, position, roll = case
    results = rules.legal_results(position, roll)
    turn = TurnInProgress(rules, position, roll)
    assert turn.passes is (not results)
    assert set(turn.legal_plays) == set(results.values())
    if not results:
        assert turn.legal_moves() == ()
        return

    def chains(frm):
        ends = set()
        for move in turn.legal_moves():
            if move.frm == frm:
                ends.add(move.to)
                if move.to != OFF:
                    turn.push(move)
                    ends |= chains(move.to)
                    turn.pop()
        return ends

    for _ in range(5):
        offered = turn.legal_moves()
        if not offered:
            break
        origins = sorted({m.frm for m in offered})
        frm = rnd.choice(origins)
        assert set(turn.destinations(frm)) == chains(frm)
        turn.push(rnd.choice(offered))
    assert turn.is_complete, f"stuck after {turn.moves}\n{describe(case)}"
    assert turn.result() in results


# =====================================================================================
# Whole games
# =====================================================================================


def expected_score(rules, final: Position) -> int:
    """RULES.md 2.3 (trictrac 1/2/4/8, backgammon 1/2/3) and 3.2 (rally 1, mars 2)."""
    winner = final.winner()
    loser = final.side(winner.opponent)
    if rules.name == "trictrac":
        if loser[OFF]:
            return 1
        if not any(loser[7:26]):
            return 2
        return 8 if loser[BAR] else 4
    if rules.name == "backgammon":
        if loser[OFF]:
            return 1
        return 3 if loser[BAR] or any(loser[19:25]) else 2
    return 2 if rules.options.get("mars") and not loser[OFF] else 1


SCORES = {"trictrac": {1, 2, 4, 8}, "backgammon": {1, 2, 3}, "rally": {1, 2}, "rally-hitting": {1, 2}}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULE_SET_SPECS), opening_throws(), st.integers(0, 2**32 - 1))
def test_random_game_ends_scores_undoes_and_replays(spec, throws, seed):
    """A game of random rolls and random legal plays (passes when none) ends within
    MAX_PLIES turns with a valid score (trictrac 1/2/4/8, backgammon 1/2/3, rally 1, or 2 with
    mars); replaying its record (roll, play) in a fresh Game reproduces every position and
    the result; ``undo`` then takes every turn back to the start."""
    rules = make_rule_set(*spec)
    rng = random.Random(seed)
    game = Game(rules)
    opening = game.throw_opening(*throws)
    assert opening is not None
    if rules.name == "trictrac":
        assert opening.first is WHITE and opening.roll is not None
    if is_rally(rules):
        assert opening.roll is None and game.pending_roll is None
    record = []
    while not game.is_over:
        assert len(record) < MAX_PLIES, "the game does not end"
        roll = game.pending_roll or Roll(rng.randint(1, 6), rng.randint(1, 6))
        plays = game.legal_plays(roll)
        play = rng.choice(plays) if plays else Play()
        before = game.position
        entry = game.play(roll, play)
        assert entry.before == before and entry.after == game.position
        assert game.position == rules.apply(before, play)
        assert game.position.turn is before.turn.opponent
        record.append(entry)
    result = game.result()
    final = game.position
    assert result.winner is final.winner()
    assert final.off(result.winner) == CHECKERS and final.off(result.winner.opponent) < CHECKERS
    assert result.points in SCORES[rules.name]
    if rules.name.startswith("rally") and not rules.options.get("mars"):
        assert result.points == 1
    assert result.points == expected_score(rules, final)
    with pytest.raises(IllegalPlayError):
        game.play(Roll(1, 2), Play())

    replay = Game(rules)
    assert replay.throw_opening(*throws) == opening
    for entry in record:
        again = replay.play(entry.roll, entry.play)
        assert again.before == entry.before and again.after == entry.after
    assert replay.result() == result

    for entry in reversed(record):
        assert game.undo() == entry
        assert game.position == entry.before
        assert not game.is_over
    assert game.position == record[0].before
    with pytest.raises(IllegalPlayError):
        game.undo()
