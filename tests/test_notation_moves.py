"""Move notation: hand-checked readings, round trips over every legal play, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as hs

from controller.notation.moves import NotationError, format_play, format_play_lines, parse_legs, parse_play
from controller.rules import BAR, BLACK, OFF, WHITE, Move, Play, Position, Roll, get_rule_set
from controller.rules.game import Game

TRICTRAC = get_rule_set("trictrac")
RALLY = get_rule_set("rally")
START = TRICTRAC.start_position()


@pytest.mark.parametrize(
    ("text", "legs"),
    [
        ("13/8 24/23", [(13, 8, False), (24, 23, False)]),
        ("bar/22", [(BAR, 22, False)]),
        ("pool/22", [(BAR, 22, False)]),
        ("8/2*", [(8, 2, True)]),
        ("6/off", [(6, OFF, False)]),
        ("13/9(2)", [(13, 9, False), (13, 9, False)]),
        ("13/9/6", [(13, 9, False), (9, 6, False)]),
        ("13/9*/5", [(13, 9, True), (9, 5, False)]),
        ("BAR/20 6/OFF", [(BAR, 20, False), (6, OFF, False)]),
    ],
)
def test_legs_are_read(text: str, legs: list[tuple[int, int, bool]]) -> None:
    assert parse_legs(text) == legs


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("13-8", "'13-8' is not a move"),
        ("13/x", "'x' is not a point"),
        ("30/24", "point 30 is not on the board"),
        ("8/13", "cannot move from 8 to 13"),
        ("off/3", "cannot move from off"),
        ("13*/8", "hit mark belongs after"),
        ("13/8(7)", "repeated 1 to 4 times"),
    ],
)
def test_malformed_notation_is_named(text: str, names: str) -> None:
    with pytest.raises(NotationError, match=names.replace("(", r"\(").replace("*", r"\*")):
        parse_legs(text)


@pytest.mark.parametrize(
    ("roll", "text", "moves"),
    [
        (Roll(5, 1), "13/8 24/23", {Move(13, 8, 5), Move(24, 23, 1)}),
        (Roll(6, 1), "13/7 8/7", {Move(13, 7, 6), Move(8, 7, 1)}),
        (Roll(4, 2), "13/7", None),  # either 13/9/7 or 13/11/7: one resulting position
        (Roll(4, 4), "13/9(2) 8/4(2)", {Move(13, 9, 4), Move(8, 4, 4)}),
        (Roll(4, 3), "13/9/6", {Move(13, 9, 4), Move(9, 6, 3)}),
        (Roll(4, 3), "13/6", {Move(13, 9, 4), Move(9, 6, 3)}),
    ],
)
def test_plays_are_read_from_the_start(roll: Roll, text: str, moves: set[Move] | None) -> None:
    play = parse_play(text, TRICTRAC, START, roll)
    assert TRICTRAC.is_legal(START, roll, play)
    if moves is not None:
        assert set(play.moves) <= moves | {Move(m.frm, m.to, m.die) for m in moves}


def test_illegal_and_impossible_plays_are_refused() -> None:
    with pytest.raises(NotationError, match="not a legal play"):
        parse_play("13/8 13/12", TRICTRAC, START, Roll(5, 1))  # 12 is Black's 13-point
    with pytest.raises(NotationError, match="no checker left"):
        parse_play("20/15 20/19", TRICTRAC, START, Roll(5, 1))
    with pytest.raises(NotationError, match="can be played"):
        parse_play("", TRICTRAC, START, Roll(5, 1))


def test_pass_reads_only_when_nothing_can_be_played() -> None:
    closed = Position.from_counts(
        {6: 5, 8: 5, 13: 3}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, white_bar=2
    )
    TRICTRAC.validate(closed)
    assert parse_play("", TRICTRAC, closed, Roll(6, 6)) == Play()
    assert parse_play("pass", TRICTRAC, closed, Roll(3, 1)) == Play()


def test_hit_marks_choose_between_plays() -> None:
    # White blot-hitting choice with 4-2 from 13: Black blots on White's 9 and nothing on 11
    position = Position.from_counts({13: 2, 6: 13}, {16: 1, 1: 14})  # Black's 16 = White's 9
    TRICTRAC.validate(position)
    hitting = parse_play("13/9*/7", TRICTRAC, position, Roll(4, 2))
    quiet = parse_play("13/11/7", TRICTRAC, position, Roll(4, 2))
    assert hitting.hits == 1 and quiet.hits == 0
    # as gnubg writes it: no hit mark means the quiet way round
    assert parse_play("13/7", TRICTRAC, position, Roll(4, 2)) == quiet
    with pytest.raises(NotationError, match="hits written do not match"):
        parse_play("13/7*", TRICTRAC, position, Roll(4, 2))


def test_sample_turns_format_as_written() -> None:
    game = Game(TRICTRAC)
    for roll, text in [("51", "13/8 24/23"), ("43", "13/9/6"), ("44", "13/9(2) 8/4(2)")]:
        play = parse_play(text, TRICTRAC, game.position, Roll.parse(roll))
        assert format_play(play, TRICTRAC) == text
        game.play(Roll.parse(roll), play)


def test_rally_entry_is_written_from_the_pool() -> None:
    position = RALLY.start_position()
    play = parse_play("pool/20/19", RALLY, position, Roll(5, 1))
    assert format_play(play, RALLY) in ("pool/20/19", "pool/24/19")
    assert parse_play("bar/19", RALLY, position, Roll(5, 1)) == play


def test_line_names_follow_mendelev() -> None:
    play = parse_play("13/8 24/23", TRICTRAC, START, Roll(5, 1))
    assert format_play_lines(play, TRICTRAC, TRICTRAC.geometry(), WHITE) == "XII/8 I/II"
    black_start = START.with_turn(BLACK)
    play = parse_play("13/9/6", TRICTRAC, black_start, Roll(4, 3))
    assert format_play_lines(play, TRICTRAC, TRICTRAC.geometry(), BLACK) == "12/IX/VI"


@settings(max_examples=60, deadline=None)
@given(seed=hs.integers(0, 10**6), name=hs.sampled_from(["trictrac", "backgammon", "rally", "rally-hitting"]))
def test_every_legal_play_round_trips_through_notation(seed: int, name: str) -> None:
    """format then parse gives back a play leaving the same position, along a random game."""
    import random

    rng = random.Random(seed)
    rules = get_rule_set(name)
    game = Game(rules)
    for _ in range(30):
        if game.is_over:
            break
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        results = rules.legal_results(game.position, roll)
        for after, play in results.items():
            again = parse_play(format_play(play, rules), rules, game.position, roll)
            assert rules.apply(game.position, again) == after
        plays = list(results.values())
        game.play(roll, rng.choice(plays) if plays else Play())
