"""Position formats: the interchange JSON, XGID and gnubg's Position ID.

Round trips are hypothesis properties over random possible positions; published IDs are
decoded and compared with positions written out by hand from their published diagrams;
bad input is checked for its error type and for a message that names the place.
"""

from __future__ import annotations

import base64
import json
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from controller.notation.gnubg_id import (
    PositionIdError,
    position_id_decode,
    position_id_encode,
    position_key,
)
from controller.notation.position_json import (
    PositionJsonError,
    dumps,
    loads,
    position_from_json,
    position_to_json,
)
from controller.notation.xgid import CubeAction, XgidError, XgidRecord, xgid_decode, xgid_encode
from controller.rules import (
    BAR,
    BLACK,
    CHECKERS,
    OFF,
    WHITE,
    Position,
    PositionError,
    Roll,
    RuleSet,
    UnknownRuleSetError,
    get_rule_set,
)

ALL_RULES = ("trictrac", "backgammon", "rally", "rally-hitting")
MIRRORED_RULES = ("trictrac", "backgammon")
FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
START_ID = "4HPwATDgc/ABMA"


# -- strategies ---------------------------------------------------------------------------


def _counts(locations: list[int]) -> tuple[int, ...]:
    side = [0] * 26
    for location in locations:
        side[location] += 1
    return tuple(side)


def _locations(draw: st.DrawFn, allowed: list[int]) -> list[int]:
    """15 checker locations among ``allowed``: spread thin, or stacked on a few points."""
    spots = draw(st.one_of(st.just(allowed), st.lists(st.sampled_from(allowed), min_size=1, max_size=5)))
    return draw(st.lists(st.sampled_from(spots), min_size=CHECKERS, max_size=CHECKERS))


@st.composite
def rule_sets(draw: st.DrawFn, names: tuple[str, ...] = ALL_RULES) -> RuleSet:
    """A rule set, with random option values."""
    cls = type(get_rule_set(draw(st.sampled_from(names))))
    options = {name: draw(st.booleans()) for name in cls.OPTIONS}
    return cls(**options)


@st.composite
def positions(draw: st.DrawFn, names: tuple[str, ...] = ALL_RULES) -> tuple[RuleSet, Position]:
    """A rule set and a position possible under it: 15 checkers a side, no mixed point.

    Black may use a location only where White has no checker on the same physical point
    (``opponent_point``: 25 - p in trictrac, p in the rally).
    """
    rule_set = draw(rule_sets(names))
    white = _counts(_locations(draw, list(range(26))))
    allowed = [p for p in range(26) if p in (OFF, BAR) or not white[rule_set.opponent_point(p)]]
    black = _counts(_locations(draw, allowed))
    assume(not (white[OFF] == CHECKERS and black[OFF] == CHECKERS))
    position = Position(white, black, draw(st.sampled_from([WHITE, BLACK])))
    return rule_set, rule_set.validate(position)


@st.composite
def xgid_records(draw: st.DrawFn) -> XgidRecord:
    """Any record an XGID can hold, over trictrac-geometry positions."""
    _, position = draw(positions(MIRRORED_RULES))
    match_length = draw(st.sampled_from([0, 0, 1, 5, 7, 25]))
    pending = draw(st.sampled_from([None, None, *CubeAction]))
    dice = None if pending else draw(st.none() | st.builds(Roll, st.integers(1, 6), st.integers(1, 6)))
    money = match_length == 0
    return XgidRecord(
        position=position,
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([None, WHITE, BLACK])),
        dice=dice,
        cube_action=pending,
        score=(draw(st.integers(0, 30)), draw(st.integers(0, 30))),
        match_length=match_length,
        crawford=not money and draw(st.booleans()),
        jacoby=money and draw(st.booleans()),
        beaver=money and draw(st.booleans()),
        max_cube=1 << draw(st.integers(0, 15)),
    )


def side(points: dict[int, int], *, bar: int = 0) -> tuple[int, ...]:
    """A side written out by hand: own points, bar, and the rest borne off."""
    counts = [0] * 26
    for point, count in points.items():
        counts[point] = count
    counts[BAR] = bar
    counts[OFF] = CHECKERS - sum(counts)
    return tuple(counts)


# -- the interchange JSON ------------------------------------------------------------------


def test_json_start_position_is_the_contract() -> None:
    rules = get_rule_set("trictrac")
    assert position_to_json(rules, rules.start_position()) == {
        "rules": "trictrac",
        "turn": "white",
        "white": {"points": {"24": 2, "13": 5, "8": 3, "6": 5}, "bar": 0, "off": 0},
        "black": {"points": {"24": 2, "13": 5, "8": 3, "6": 5}, "bar": 0, "off": 0},
    }


def test_json_writes_changed_options_only() -> None:
    rally = get_rule_set("rally", {"bear_off_higher": True})
    document = position_to_json(rally, rally.start_position())
    assert document["options"] == {"bear_off_higher": True}
    assert document["white"] == {"points": {}, "bar": 15, "off": 0}
    assert "options" not in position_to_json(get_rule_set("rally"), rally.start_position())
    assert loads(dumps(rally, rally.start_position()))[0] == rally


def test_json_reads_zero_counts_and_any_point_order() -> None:
    document = position_to_json(get_rule_set("trictrac"), get_rule_set("trictrac").start_position())
    document["white"]["points"] = {"6": 5, "8": 3, "13": 5, "24": 2, "1": 0}
    rules, position = position_from_json(document)
    assert position == rules.start_position()


@FAST
@given(positions())
def test_json_round_trip(case: tuple[RuleSet, Position]) -> None:
    rule_set, position = case
    document = position_to_json(rule_set, position)
    assert position_from_json(document) == (rule_set, position)
    assert loads(dumps(rule_set, position)) == (rule_set, position)
    assert json.loads(dumps(rule_set, position)) == document
    for colour in (WHITE, BLACK):
        points = document[colour.value]["points"]
        assert all(count > 0 for count in points.values()), "zero counts are left out"
        assert list(points) == sorted(points, key=int, reverse=True)


def _valid_document() -> dict[str, Any]:
    rules = get_rule_set("trictrac")
    return position_to_json(rules, rules.start_position())


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """A mutation of the valid document: set ``a.b.c`` to ``value`` (``...`` deletes)."""

    def mutate(document: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target = document
        for key in parents:
            target = target[key]
        if value is ...:
            del target[last]
        else:
            target[last] = value

    return mutate


def _move(colour: str, frm: str, to: str, count: int = 1) -> Callable[[dict[str, Any]], None]:
    def mutate(document: dict[str, Any]) -> None:
        points = document[colour]["points"]
        points[frm] -= count
        points[to] = points.get(to, 0) + count

    return mutate


BAD_JSON: list[tuple[str, Callable[[dict[str, Any]], None], type[Exception], str]] = [
    ("point off the board", _move("black", "6", "27"), PositionError, 'black.points["27"]: point 27 is not on the board (1-24)'),
    ("point zero", _move("white", "6", "0"), PositionError, 'white.points["0"]: point 0 is not on the board (1-24)'),
    ("leading zero", _move("white", "6", "06"), PositionError, 'white.points["06"]'),
    ("not a number", _move("white", "6", "six"), PositionError, 'white.points["six"]'),
    ("sixteen checkers", _set("white.points.6", 6), PositionError, "white: 16 checkers, expected 15"),
    ("fourteen checkers", _set("black.points.8", 2), PositionError, "black: 14 checkers, expected 15"),
    ("count as string", _set("white.points.6", "5"), PositionError, 'white.points["6"]: a count is a whole number'),
    ("count as bool", _set("white.points.24", True), PositionError, 'white.points["24"]'),
    ("count as float", _set("white.points.6", 5.0), PositionError, 'white.points["6"]'),
    ("negative count", _set("black.points.6", -1), PositionError, 'black.points["6"]: a count is a whole number >= 0, got -1'),
    ("bar as null", _set("white.bar", None), PositionError, "white.bar"),
    ("off as string", _set("black.off", "0"), PositionError, "black.off"),
    ("missing turn", _set("turn", ...), PositionError, "position: missing key 'turn'"),
    ("missing rules", _set("rules", ...), PositionError, "position: missing key 'rules'"),
    ("missing off", _set("white.off", ...), PositionError, "white: missing key 'off'"),
    ("missing points", _set("black.points", ...), PositionError, "black: missing key 'points'"),
    ("unknown top-level key", _set("comment", "hi"), PositionError, "position: unknown key 'comment'"),
    ("unknown side key", _set("white.home", 0), PositionError, "white: unknown key 'home'"),
    ("turn not a colour", _set("turn", "red"), PositionError, 'turn: expected "white" or "black"'),
    ("turn capitalised", _set("turn", "White"), PositionError, "turn:"),
    ("turn as number", _set("turn", 1), PositionError, "turn:"),
    ("rules as number", _set("rules", 5), PositionError, "rules: expected a rule-set name"),
    ("unknown rule set", _set("rules", "chess"), UnknownRuleSetError, "rules: unknown rule set 'chess'"),
    ("unknown option", _set("options", {"mars": True}), UnknownRuleSetError, "options: rule set 'trictrac' has no option 'mars'"),
    ("options not an object", _set("options", []), PositionError, "options: expected an object"),
    ("side not an object", _set("white", []), PositionError, "white: expected an object"),
    ("points not an object", _set("black.points", [2, 5]), PositionError, "black.points: expected an object"),
    ("integer point key", _set("white.points", {24: 2, 13: 5, 8: 3, 6: 5}), PositionError, "white.points[24]"),
    ("mixed point", _move("white", "6", "19"), PositionError, "White's point 19 and Black's point 6 are one point"),
]


@pytest.mark.parametrize(("mutate", "error", "message"), [case[1:] for case in BAD_JSON], ids=[c[0] for c in BAD_JSON])
def test_json_bad_input(mutate: Callable[[dict[str, Any]], None], error: type[Exception], message: str) -> None:
    document = _valid_document()
    mutate(document)
    with pytest.raises(error) as caught:
        position_from_json(document)
    assert message in str(caught.value)
    if error is PositionError:
        assert isinstance(caught.value, PositionJsonError)


def test_json_bad_option_value_names_options() -> None:
    document = _valid_document() | {"rules": "rally", "options": {"mars": 1}}
    document["white"] = document["black"] = {"points": {}, "bar": 15, "off": 0}
    with pytest.raises(UnknownRuleSetError, match="options: option 'mars' of 'rally' is true or false"):
        position_from_json(document)


def test_json_rally_mixed_point_and_both_borne_off() -> None:
    document = {"rules": "rally", "turn": "black",
                "white": {"points": {"6": 15}, "bar": 0, "off": 0},
                "black": {"points": {"6": 15}, "bar": 0, "off": 0}}
    with pytest.raises(PositionError, match="White's point 6 and Black's point 6 are one point"):
        position_from_json(document)
    document["white"] = document["black"] = {"points": {}, "bar": 0, "off": 15}
    with pytest.raises(PositionError, match="both players"):
        position_from_json(document)


@pytest.mark.parametrize(("text", "message"), [
    ("{", "not valid JSON"),
    ("[1, 2]", "position: expected an object, got an array"),
    ('"trictrac"', "position: expected an object"),
    ('{"rules": "trictrac", "rules": "rally"}', 'key "rules" appears twice'),
    (b"\xff\xfe\x00", "position JSON"),
])
def test_json_loads_bad_text(text: str | bytes, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        loads(text)


def test_json_loads_refuses_non_text() -> None:
    with pytest.raises(PositionError, match="expected text"):
        loads(42)  # type: ignore[arg-type]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=False) | st.text(max_size=4)
    | st.sampled_from(["white", "black", "trictrac", "rally", "6", "24", "points", "bar", "off"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["rules", "turn", "white", "black", "options", "points", "bar", "off",
                                       "6", "13", "mars", "x"]), inner, max_size=5),
    max_leaves=20,
)


@FAST
@given(JSON_VALUES)
def test_json_garbage_raises_only_position_errors(data: object) -> None:
    try:
        position_from_json(data)
    except (PositionError, UnknownRuleSetError):
        pass


@FAST
@given(st.sampled_from(["rules", "turn", "white", "black"]), JSON_VALUES)
def test_json_garbage_in_one_field_raises_only_position_errors(key: str, value: object) -> None:
    document = _valid_document()
    document[key] = value
    try:
        position_from_json(document)
    except (PositionError, UnknownRuleSetError):
        pass


# -- XGID ----------------------------------------------------------------------------------


def test_xgid_start_position() -> None:
    """The standard opening, as written in XG and quoted in gnubg's XGID import tests."""
    record = xgid_decode(START_XGID)
    assert record.position == get_rule_set("backgammon").start_position()
    assert record == XgidRecord(get_rule_set("trictrac").start_position())
    assert xgid_encode(get_rule_set("trictrac").start_position()) == START_XGID


def test_xgid_published_match_position() -> None:
    """XG 2.10 text export (kevung/xgparser, xgparser/xgtext_test.go).

    Diagram: X (bottom, on roll) 2 on 1, 3 on 3, 2 each on 4-6, 1 on 14, 1 on 18, 2 on 19;
    O 4 on its 1, 2 each on its 2-4, 3 on its 5, 1 on its 15, one borne off.
    "Score is X:3 O:6 7 pt.(s) match", "Cube: 2, O own cube", "X to play 21",
    "Pip count X: 111 O: 52".
    """
    record = xgid_decode("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10")
    white = side({1: 2, 3: 3, 4: 2, 5: 2, 6: 2, 14: 1, 18: 1, 19: 2})
    black = side({1: 4, 2: 2, 3: 2, 4: 2, 5: 3, 15: 1})
    assert record.position == Position(white, black, WHITE)
    assert (record.position.pip_count(WHITE), record.position.pip_count(BLACK)) == (111, 52)
    assert record.position.off(BLACK) == 1
    assert (record.cube_value, record.cube_owner) == (2, BLACK)
    assert record.dice == Roll(2, 1)
    assert (record.score, record.match_length, record.crawford) == ((3, 6), 7, False)
    assert record.max_cube == 1024


def test_xgid_published_issue_position() -> None:
    """XG export quoted in https://github.com/Deinonychus999/AnkiGammon/issues/1.

    "Score is X:1 O:0 11 pt.(s) match", "X to play 41", "Pip count X: 154 O: 158".
    """
    record = xgid_decode("XGID=----abF-B--BbB-Bacbd----A-:0:0:1:41:1:0:0:11:10")
    white = side({6: 6, 8: 2, 11: 2, 13: 2, 15: 2, 24: 1})
    black = side({6: 4, 7: 2, 8: 3, 9: 1, 13: 2, 20: 2, 21: 1})
    assert record.position == Position(white, black, WHITE)
    assert (record.position.pip_count(WHITE), record.position.pip_count(BLACK)) == (154, 158)
    assert record.dice == Roll(4, 1) and record.score == (1, 0) and record.match_length == 11
    assert (record.cube_value, record.cube_owner) == (1, None)


def test_xgid_published_money_position_with_beaver() -> None:
    """XG 2.10 export in xg2anki's input-dialog test: "Unlimited Game, Beaver",
    "Cube: 2, X own cube", "X to play 65", "Pip count X: 108 O: 90"."""
    record = xgid_decode("XGID=--BBBBB-AB----a--cbdbBb-a-:1:1:1:65:0:0:2:0:10")
    white = side({2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 1, 9: 2, 21: 2})
    black = side({1: 1, 3: 2, 5: 2, 6: 4, 7: 2, 8: 3, 11: 1})
    assert record.position == Position(white, black, WHITE)
    assert (record.position.pip_count(WHITE), record.position.pip_count(BLACK)) == (108, 90)
    assert (record.cube_value, record.cube_owner) == (2, WHITE)
    assert (record.match_length, record.jacoby, record.beaver) == (0, False, True)


def test_xgid_bars_and_top_player_on_roll() -> None:
    """Index 0 is the top player's (Black's) bar, index 25 the bottom player's (White's)."""
    record = xgid_decode("b-----B------------c-----C:0:0:-1:D:0:0:3:0:8")
    assert record.position == Position(side({6: 2}, bar=3), side({6: 3}, bar=2), BLACK)
    assert record.turn is BLACK and record.cube_action is CubeAction.DOUBLED and record.dice is None
    assert (record.jacoby, record.beaver, record.max_cube) == (True, True, 256)
    assert xgid_encode(record) == "XGID=b-----B------------c-----C:0:0:-1:D:0:0:3:0:8"


def test_xgid_crawford_game() -> None:
    record = xgid_decode(START_XGID.replace(":0:0:0:0:10", ":4:2:1:5:10"))
    assert (record.score, record.crawford, record.match_length) == ((4, 2), True, 5)


@FAST
@given(xgid_records())
def test_xgid_round_trip(record: XgidRecord) -> None:
    text = xgid_encode(record)
    assert xgid_decode(text) == record
    assert xgid_decode(text.removeprefix("XGID=")) == record
    assert xgid_encode(xgid_decode(text)) == text


@FAST
@given(positions(MIRRORED_RULES))
def test_xgid_bare_position_round_trip(case: tuple[RuleSet, Position]) -> None:
    rule_set, position = case
    assert xgid_decode(xgid_encode(position, rule_set), rule_set).position == position


BAD_XGID = [
    ("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", "10 fields"),
    ("-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "field 1 (position): expected 26 characters"),
    ("-b----E-C---eE---c-e----B-x:0:0:1:00:0:0:0:0:10", "expected 26 characters"),
    ("-b----E-C---eE---c-e----B*:0:0:1:00:0:0:0:0:10", "character 25 (White's bar) is '*'"),
    ("Bb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "character 0 (Black's bar) is 'B'"),
    ("-b----E-C---eE---c-e----Bb:0:0:1:00:0:0:0:0:10", "character 25 (White's bar) is 'b'"),
    ("-b----P-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "character 6 (White's point 6 / Black's point 19) is 'P'"),
    ("-b----E-C---eE---c-e--A-B-:0:0:1:00:0:0:0:0:10", "white has 16 checkers on the board and bar, at most 15"),
    ("-b----E-C---eE---c-e----B-:16:0:1:00:0:0:0:0:10", "field 2 (cube value): 16 is out of range 0..15"),
    ("-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "field 2 (cube value): expected a whole number, got 'x'"),
    ("-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "field 3 (cube owner): 2 is out of range -1..1"),
    ("-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "field 4 (turn): expected 1 (bottom player, White) or -1"),
    ("-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10", "field 4 (turn): 2 is out of range"),
    ("-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10", "field 5 (dice): expected '00', two dice 1-6"),
    ("-b----E-C---eE---c-e----B-:0:0:1:6:0:0:0:0:10", "field 5 (dice)"),
    ("-b----E-C---eE---c-e----B-:0:0:1:X:0:0:0:0:10", "field 5 (dice)"),
    ("-b----E-C---eE---c-e----B-:0:0:1:00:-1:0:0:7:10", "field 6 (bottom player's score): -1 is out of range"),
    ("-b----E-C---eE---c-e----B-:0:0:1:00:0:+1:0:7:10", "field 7 (top player's score): expected a whole number"),
    ("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:7:10", "field 8 (Crawford/Jacoby): in a match this field is 0 or 1"),
    ("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10", "field 8 (Crawford/Jacoby): 4 is out of range 0..3"),
    ("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0::10", "field 9 (match length): expected a whole number, got ''"),
    ("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:99", "field 10 (max cube): 99 is out of range 0..15"),
]


@pytest.mark.parametrize(("text", "message"), BAD_XGID)
def test_xgid_bad_input(text: str, message: str) -> None:
    with pytest.raises(XgidError) as caught:
        xgid_decode(text)
    assert isinstance(caught.value, PositionError)
    assert message in str(caught.value)


def test_xgid_refuses_non_text_and_rally_geometry() -> None:
    with pytest.raises(PositionError, match="an XGID is text"):
        xgid_decode(None)  # type: ignore[arg-type]
    rally = get_rule_set("rally")
    with pytest.raises(XgidError, match="'rally' is not one"):
        xgid_encode(rally.start_position(), rally)
    with pytest.raises(XgidError, match="'rally-hitting' is not one"):
        xgid_decode(START_XGID, get_rule_set("rally-hitting"))
    mixed = Position(side({6: 15}), side({19: 15}), WHITE)  # possible in the rally, not here
    with pytest.raises(XgidError, match="White's point 6 and Black's point 19 are one point"):
        xgid_encode(mixed)
    with pytest.raises(XgidError, match="expected an XgidRecord or a Position"):
        xgid_encode("-b----E-C---")  # type: ignore[arg-type]


@pytest.mark.parametrize(("fields", "message"), [
    ({"cube_value": 3}, "cube_value: a cube value is a power of two"),
    ({"cube_value": 1 << 16}, "cube_value: 65536 is above the largest cube"),
    ({"max_cube": 0}, "max_cube: a cube value is a power of two"),
    ({"dice": Roll(3, 1), "cube_action": CubeAction.DOUBLED}, "a cube offer pending leaves no dice"),
    ({"crawford": True}, "crawford: the Crawford rule applies to matches only"),
    ({"jacoby": True, "match_length": 7}, "jacoby/beaver: these rules apply to money games only"),
    ({"score": (1, -1)}, "score (black): expected a whole number >= 0, got -1"),
    ({"score": (1,)}, "score: expected (white, black)"),
    ({"cube_owner": "white"}, "cube_owner: expected WHITE, BLACK or None"),
    ({"dice": "31"}, "dice: expected a Roll or None"),
    ({"crawford": 1, "match_length": 7}, "crawford: expected True or False"),
    ({"match_length": -1}, "match_length: expected a whole number >= 0"),
])
def test_xgid_record_checks_its_fields(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(XgidError) as caught:
        XgidRecord(get_rule_set("trictrac").start_position(), **fields)
    assert message in str(caught.value)


# -- GNU Backgammon Position ID ------------------------------------------------------------


def test_gnubg_start_position_and_manual_key() -> None:
    """The gnubg manual's worked example (A technical description of the Position ID):
    the key bytes 11100000 01110011 11110000 00000001 00110000 twice, ID 4HPwATDgc/ABMA."""
    start = get_rule_set("backgammon").start_position()
    assert position_key(start) == bytes([0xE0, 0x73, 0xF0, 0x01, 0x30] * 2)
    assert position_id_encode(start) == START_ID
    assert position_id_decode(START_ID) == start
    assert position_id_decode(START_ID, BLACK) == start.with_turn(BLACK)


def test_gnubg_published_games_backgammon_example() -> None:
    """Games::Backgammon 0.04 (CPAN, Janek Schleicher): a gnubg board with ID
    sOfgEwDg8+AIBg, "X: janek" at roll, defined there as black at roll with
    whitepoints {5: 2, 6: 4, 8: 3, 13: 5, 15: 1}, blackpoints {6: 5, 8: 4, 13: 3, 16: 1, 21: 2}."""
    white = side({5: 2, 6: 4, 8: 3, 13: 5, 15: 1})
    black = side({6: 5, 8: 4, 13: 3, 16: 1, 21: 2})
    expected = Position(white, black, BLACK)
    assert position_id_decode("sOfgEwDg8+AIBg", BLACK) == expected
    assert position_id_encode(expected) == "sOfgEwDg8+AIBg"
    assert (expected.pip_count(WHITE), expected.pip_count(BLACK)) == (138, 159)  # "Pip counts: O 138, X 159"


def test_gnubg_published_evals_example() -> None:
    """openai/evals pull request 573: "position id is yOeDATDsnIMBMA ... backgammonGPT has 2
    checkers on the 24 point, 2 on the 13, 3 on the 8, 3 on the 6, 3 on the 4, 2 on the 3.
    The opponent has 1 on the 21 point, 5 on the 19, 5 on the 17, 2 on the 12, 2 on the 1"
    (the opponent's checkers in backgammonGPT's numbering), backgammonGPT to play."""
    mover = side({24: 2, 13: 2, 8: 3, 6: 3, 4: 3, 3: 2})
    opponent = side({25 - 21: 1, 25 - 19: 5, 25 - 17: 5, 25 - 12: 2, 25 - 1: 2})
    assert position_id_decode("yOeDATDsnIMBMA", WHITE) == Position(mover, opponent, WHITE)
    assert position_id_encode(Position(opponent, mover, BLACK)) == "yOeDATDsnIMBMA"


@pytest.mark.parametrize(("xgid", "position_id"), [
    ("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10", "b9sBCIC5bYDQAA"),
    ("XGID=-a-B--E-B-a-dDB--b-bcb----:1:1:-1:63:0:0:0:3:8", "jM/gDQDYzeAJIA"),
    ("XGID=-b--B-C-CA-AdC-a-c-e-A--A-:3:-1:1:62:0:0:3:0:10", "4HPiATCYc8kBIg"),
    ("XGID=-CCCBBB------------cccbbb-:0:0:1:63:0:0:0:0:8", "2+4OAAB3tw0AAA"),
    ("XGID=-CCCBBB------------cccbbb-:0:0:-1:63:0:0:0:0:8", "d7cNAADb7g4AAA"),
    ("XGID=b-----B------------c-----C:0:0:1:00:0:0:0:0:8", "4AAAGBgAAAcAAA"),
])
def test_gnubg_and_xgid_agree(xgid: str, position_id: str) -> None:
    """Pairs from gnubg itself (``set xgid`` then the Position ID it shows, gnubg 1.1.0a16):
    the two formats, their colour mappings and who is on roll agree."""
    position = xgid_decode(xgid).position
    assert position_id_encode(position) == position_id
    assert position_id_decode(position_id, position.turn) == position


@FAST
@given(positions())
def test_gnubg_round_trip(case: tuple[RuleSet, Position]) -> None:
    rule_set, position = case
    text = position_id_encode(position)
    assert len(text) == 14
    assert position_id_decode(text, position.turn, rule_set) == position
    assert position_id_decode(text, position.turn.opponent, rule_set) == position.swapped()


def _id_of_bits(bits: str) -> str:
    """A Position ID written from a key given as a bit string (first bit first)."""
    value = int(bits[::-1], 2) if bits else 0
    return base64.b64encode(value.to_bytes(10, "little")).decode().rstrip("=")


BAD_IDS = [
    ("4HPwATDgc/ABM", "has 14 characters, got 13"),
    ("4HPwATDgc/ABMAA", "has 14 characters, got 15"),
    ("4HPwATDgc/AB=A", "character 13 ('=') is not base64"),
    ("4HPwATDgc!ABMA", "character 10 ('!') is not base64"),
    ("4HPwATDgc/ABMB", "its low 4 bits must be 0"),
    ("/////////////w", "the key ends inside the first player's checkers"),
    (_id_of_bits("1" * 16 + "0" * 24 + "0" * 25), "the first player has 16 checkers, at most 15"),
    (_id_of_bits("0" * 25 + "1" * 16 + "0" * 24), "the second player has 16 checkers, at most 15"),
    (_id_of_bits("0" * 50 + "1"), "bits set after both players' checkers"),
]


@pytest.mark.parametrize(("text", "message"), BAD_IDS)
def test_gnubg_bad_input(text: str, message: str) -> None:
    with pytest.raises(PositionIdError) as caught:
        position_id_decode(text)
    assert isinstance(caught.value, PositionError)
    assert message in str(caught.value)


def test_gnubg_geometry_and_argument_checks() -> None:
    rally = get_rule_set("rally")
    rally_position = rally.validate(Position(side({6: 15}), side({19: 15}), WHITE))
    text = position_id_encode(rally_position)
    with pytest.raises(PositionIdError, match="White's point 6 and Black's point 19 are one point"):
        position_id_decode(text)
    assert position_id_decode(text, WHITE, rally) == rally_position
    with pytest.raises(PositionIdError, match="turn: expected WHITE or BLACK"):
        position_id_decode(START_ID, "white")  # type: ignore[arg-type]
    with pytest.raises(PositionIdError, match="a Position ID is text"):
        position_id_decode(b"4HPwATDgc/ABMA")  # type: ignore[arg-type]
    with pytest.raises(PositionIdError, match="expected a Position"):
        position_id_encode(START_ID)  # type: ignore[arg-type]


def test_package_exports() -> None:
    import controller.notation as notation

    for name in ("dumps", "loads", "position_from_json", "position_to_json", "xgid_decode", "xgid_encode",
                 "XgidRecord", "position_id_decode", "position_id_encode"):
        assert hasattr(notation, name)
