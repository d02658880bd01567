"""The turn in progress (what the sensors drive) and the board geometry, hand-checked."""

from __future__ import annotations

import pytest

from controller.rules import BLACK, OFF, WHITE, IllegalPlayError, Move, Position, Roll, TurnInProgress, get_rule_set
from controller.rules.geometry import LINES, QUARTERS, rally_geometry, trictrac_geometry

TRICTRAC = get_rule_set("trictrac")
RALLY = get_rule_set("rally")
START = TRICTRAC.start_position()


def test_first_moves_and_destinations_at_the_start() -> None:
    turn = TurnInProgress(TRICTRAC, START, Roll(5, 1))
    # 5s: 13/8 and 8/3 (6/1 is closed by Black's 24-point); 1s: 24/23, 8/7, 6/5 (13/12 closed)
    assert set(turn.legal_moves()) == {
        Move(13, 8, 5), Move(8, 3, 5), Move(24, 23, 1), Move(8, 7, 1), Move(6, 5, 1)
    }
    assert set(turn.destinations(13)) == {8, 7}
    assert set(turn.destinations(24)) == {23, 18}
    assert turn.destinations(6) == (5,)  # 6/1 is closed, and 6/5/0 is no bear-off
    assert turn.remaining_dice == (5, 1)


def test_moves_in_any_order_complete_the_same_play() -> None:
    one = TurnInProgress(TRICTRAC, START, Roll(5, 1))
    one.move(13, 8)
    one.move(24, 23)
    two = TurnInProgress(TRICTRAC, START, Roll(5, 1))
    two.move(24, 23)
    two.move(13, 8)
    assert one.is_complete and two.is_complete
    assert one.result() == two.result()
    assert one.result().turn is BLACK


def test_pop_takes_back_and_push_refuses_dead_ends() -> None:
    turn = TurnInProgress(TRICTRAC, START, Roll(6, 6))
    before = turn.position
    turn.move(24, 18)
    assert turn.remaining_dice == (6, 6, 6)
    assert turn.pop() == Move(24, 18, 6)
    assert turn.position == before
    with pytest.raises(IllegalPlayError):
        turn.pop()
    with pytest.raises(IllegalPlayError):
        turn.move(6, 0)  # no bear-off from outside home


def test_a_move_that_leaves_only_shorter_plays_is_refused() -> None:
    # White 6-1: bar checker must enter; 24/18 (die 6) enters... only the 1 can enter here,
    # then the 6 must be played; entering then 6 from the entered checker is possible.
    position = Position.from_counts(
        {8: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 1, 13: 4}, white_bar=1
    )  # White enters on 24-d: Black's own 1-6 are White's 24-19; 19 (Black 6) is a blot
    TRICTRAC.validate(position)
    turn = TurnInProgress(TRICTRAC, position, Roll(6, 1))
    assert set(turn.legal_moves()) == {Move(25, 19, 6, True)}  # die 1 -> 24 is closed
    turn.push(Move(25, 19, 6, True))
    assert set(turn.legal_moves()) == {Move(19, 18, 1), Move(8, 7, 1)}


def test_complete_turn_and_incomplete_result() -> None:
    turn = TurnInProgress(TRICTRAC, START, Roll(3, 1))
    turn.move(8, 5)
    with pytest.raises(IllegalPlayError, match="more must be played"):
        turn.result()
    turn.move(6, 5)
    assert turn.is_complete
    assert turn.legal_moves() == ()


def test_bear_off_destination_is_off() -> None:
    position = Position.from_counts({3: 2}, {24: 15}, white_off=13)
    turn = TurnInProgress(TRICTRAC, position, Roll(5, 4))
    assert turn.destinations(3) == (OFF,)
    turn.move(3, OFF)
    turn.move(3, OFF)
    assert turn.is_complete and turn.result().winner() is WHITE


def test_rally_turn_must_enter() -> None:
    turn = TurnInProgress(RALLY, RALLY.start_position(), Roll(6, 5))
    # the only checkers are in the pool: the first move is an entry
    assert {m.frm for m in turn.legal_moves()} == {25}


# -- geometry -------------------------------------------------------------------------


def test_trictrac_geometry_matches_rules_2_1() -> None:
    g = trictrac_geometry()
    # White's own p is Arabic p for p <= 12, Roman 25 - p above; Black the reverse
    assert [g.line(WHITE, p) for p in (1, 6, 12, 13, 24)] == ["1", "6", "12", "XII", "I"]
    assert [g.line(BLACK, p) for p in (1, 6, 12, 13, 24)] == ["I", "VI", "XII", "12", "1"]
    for p in range(1, 25):
        assert g.same_point(WHITE, p) == 25 - p
    # the start: White 2 on I, 3 on 8, 5 on XII, 5 on 6; Black 2 on 1, 3 on VIII, 5 on 12, 5 on VI
    assert {g.line(WHITE, p) for p in (24, 8, 13, 6)} == {"I", "8", "XII", "6"}
    assert {g.line(BLACK, p) for p in (24, 8, 13, 6)} == {"1", "VIII", "12", "VI"}


@pytest.mark.parametrize(
    ("quarter", "track_1", "track_6", "track_7", "track_13", "track_24"),
    [
        ("1-6", "1", "6", "7", "XII", "I"),
        ("7-12", "12", "7", "6", "I", "XII"),
        ("I-VI", "I", "VI", "VII", "12", "1"),
        ("VII-XII", "XII", "VII", "VI", "1", "12"),
    ],
)
def test_rally_track_for_each_start_quarter(
    quarter: str, track_1: str, track_6: str, track_7: str, track_13: str, track_24: str
) -> None:
    g = rally_geometry(quarter)
    line = {t: g.line(WHITE, 25 - t) for t in range(1, 25)}  # own point = 25 - track
    assert (line[1], line[6], line[7], line[13], line[24]) == (track_1, track_6, track_7, track_13, track_24)
    assert sorted(line.values()) == sorted(LINES)
    assert [g.line(BLACK, p) for p in range(1, 25)] == [g.line(WHITE, p) for p in range(1, 25)]
    # the start quarter's lines are track 1-6
    assert set(QUARTERS[quarter]) == {line[t] for t in range(1, 7)}


def test_geometry_errors_name_the_problem() -> None:
    with pytest.raises(Exception, match="start quarter"):
        RALLY.geometry("XIII-XX")
    with pytest.raises(Exception, match="no start quarter"):
        TRICTRAC.geometry("I-VI")
    with pytest.raises(Exception, match="no line called"):
        trictrac_geometry().own_point(WHITE, "XIV")
