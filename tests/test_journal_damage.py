"""A damaged journal never crashes the start and never loses a line in silence: a bad start
sets the whole journal aside and a new match begins; damage in the middle takes out only
what is bad, keeps every later entry that still replays, and says so in one message."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

from controller.journal import Journal
from controller.journal_check import check_entry, parse_line
from controller.machine import Controller, Phase, Settings
from controller.rules import get_rule_set
from controller.runner import open_controller
from drive import Driver, random_game

TRICTRAC = get_rule_set("trictrac")
RALLY = get_rule_set("rally")


class Played(bytes):
    """A journal's bytes with a short repr (hypothesis prints its arguments)."""

    def __repr__(self) -> str:
        return f"<journal of {len(self)} bytes>"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """One whole journalled trictrac game."""
    path = tmp_path_factory.mktemp("journal") / "game.jsonl"
    driver = Driver.new(TRICTRAC, Journal(path))
    random_game(driver, random.Random(11))
    assert driver.controller.game.is_over
    return Played(path.read_bytes())


def _unfinished(data: bytes) -> list[bytes]:
    """The game's lines without its last turn and game-over: a match to resume."""
    lines = data.splitlines(keepends=True)
    last_turn = max(i for i, line in enumerate(lines) if json.loads(line)["type"] == "turn")
    return lines[:last_turn]


def _open(path: Path, rules=TRICTRAC):  # type: ignore[no-untyped-def]
    messages: list[str] = []
    controller, begin = open_controller(Settings(rules), Journal(path), messages.append, 0.0)
    return controller, begin, messages


def _position_of(lines: list[bytes]):  # type: ignore[no-untyped-def]
    controller = Controller(Settings(TRICTRAC))
    controller.resume([json.loads(line) for line in lines])
    return controller.game.position


def _damaged(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".damaged-*"))


# ----------------------------------------------------------------------------- a bad start

BAD_STARTS = [
    b"garbage\n",
    b'{"seq": 1, "time": 0.0, "type": "roll", "colour": "white", "roll": [3, 1]}\n',
    b"\n",
    b"[" * 5000 + b"\n",
]
START = {"seq": 1, "time": 0.0, "type": "start", "rules": "trictrac", "options": {}, "quarter": None,
         "match_length": 1, "version": 1}
BAD_START_VALUES = [
    {"match_length": -1},
    {"match_length": 10**20},
    {"match_length": True},
    {"match_length": "3"},
    {"quarter": "XIII"},
    {"rules": "rally", "quarter": "XIII"},
    {"quarter": 7},
    {"rules": "chess"},
    {"rules": None},
    {"options": {"mars": "yes"}},
    {"options": ["mars"]},
    {"options": {"castling": True}},
    {"version": 2},
    {"version": "1"},
    {"seq": "x"},
    {"seq": None},
    {"seq": 0},
    {"time": "noon"},
    {"match": "yesterday"},
    {"started": "the day before"},
]


@pytest.mark.parametrize("first", BAD_STARTS + [json.dumps({**START, **bad}).encode() + b"\n" for bad in BAD_START_VALUES])
def test_a_bad_start_sets_the_whole_journal_aside_and_a_new_match_begins(played: bytes, first: bytes, tmp_path: Path) -> None:
    lines = played.splitlines(keepends=True)
    data = first + b"".join(lines[1:40])
    path = tmp_path / "journal.jsonl"
    path.write_bytes(data)
    controller, begin, messages = _open(path, RALLY)
    assert begin is not None and controller.phase is Phase.SETUP
    assert controller.settings.rules == RALLY  # the configuration, for a new match
    (aside,) = _damaged(path)
    assert aside.read_bytes() == data
    assert not path.exists()  # the new match's journal begins when its start is written
    (message,) = messages
    assert "line 1" in message and "set aside" in message and "new match" in message and str(aside) in message


# ----------------------------------------------------------------------------- the middle

HOSTILE = [
    b'{"seq": "x", "time": 1.0, "type": "roll", "colour": "white", "roll": [3, 1]}',
    b'{"seq": null, "time": 1.0, "type": "roll", "colour": "white", "roll": [3, 1]}',
    b'{"seq": ' + b"9" * 5000 + b', "time": 1.0, "type": "roll", "colour": "white", "roll": [3, 1]}',
    b'{"seq": 1e400, "time": 1.0, "type": "roll", "colour": "white", "roll": [3, 1]}',
    b'{"seq": 3.0, "time": 1.0, "type": "roll", "colour": "white", "roll": [3, 1]}',
    b'{"seq": 99999999999999999999999, "time": 1.0, "type": "roll", "colour": "white", "roll": [3, 1]}',
    b'{"seq": 500, "time": NaN, "type": "roll", "colour": "white", "roll": [3, 1]}',
    b'{"seq": 500, "time": Infinity, "type": "roll", "colour": "white", "roll": [3, 1]}',
    b"[" * 1500 + b"]" * 1500,
    b'{"a":' * 1200 + b"1" + b"}" * 1200,
    b'{"seq": 500, "time": 1.0, "type": "opening", "dice": "ab"}',
    b'{"seq": 500, "time": 1.0, "type": "opening", "dice": [true, 2]}',
    b'{"seq": 500, "time": 1.0, "type": "opening", "dice": [3, 2, 1]}',
    b'{"seq": 500, "time": 1.0, "type": "opening", "dice": [7, 2]}',
    b'{"seq": 500, "time": 1.0, "type": "roll", "colour": "green", "roll": [3, 1]}',
    b'{"seq": 500, "time": 1.0, "type": "roll", "colour": "white", "roll": [100000000000000000000, 1]}',
    b'{"seq": 500, "time": 1.0, "type": "turn", "colour": "white", "roll": [3, 1], "play": "", "moves": [[1, 2, 3]], "after": {}}',
    b'{"seq": 500, "time": 1.0, "type": "turn", "colour": "white", "roll": [3, 1], "play": "", "moves": "13/10", "after": {}}',
    b'{"seq": 500, "time": 1.0, "type": "turn", "colour": "white", "roll": [3, 1], "play": "", "moves": [[13, 10, 3, 1]], "after": {}}',
    b'{"seq": 500, "time": 1.0, "type": "turn", "colour": "white", "roll": [3, 1], "play": 5, "moves": [], "after": {}}',
    b'{"seq": 500, "time": 1.0, "type": "turn", "colour": "white", "roll": [3, 1], "play": "", "moves": [], "after": []}',
    b'{"seq": 500, "time": 1.0, "type": "turn", "colour": "white", "roll": [3, 1], "play": "", "moves": [], "after": {}}',
    b'{"seq": 500, "time": 1.0, "type": "takeback", "colour": "white", "roll": [3, 1]}',
    b'{"seq": 500, "time": 1.0, "type": "game-over", "winner": "white", "points": -4, "kind": "single"}',
    b'{"seq": 500, "time": 1.0, "type": "game-over", "winner": "white", "points": 1, "kind": "single"}',
    b'{"seq": 500, "time": 1.0, "type": "game", "number": false}',
    b'{"seq": 500, "time": 1.0, "type": "game"}',
    b'{"seq": 500, "time": 1.0, "type": "teleport"}',
    b'{"seq": 500, "time": 1.0}',
    b'{"seq": 500, "time": 1.0, "type": ["turn"]}',
    json.dumps({**START, "seq": 500}).encode(),
    b'{"seq": 2, "time": 1.0, "type": "roll", "colour": "white", "roll": [3, 1]}',
    b'"just a string"',
    b"\xff\xfe\x00garbage",
    b"",
]


@pytest.mark.parametrize("hostile", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_line_in_the_middle_is_set_aside_and_every_other_line_kept(
    played: bytes, hostile: bytes, tmp_path: Path
) -> None:
    lines = _unfinished(played)
    damaged = lines[:12] + [hostile + b"\n"] + lines[12:]
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"".join(damaged))
    controller, begin, messages = _open(path)
    assert begin is None
    assert path.read_bytes() == b"".join(lines)
    (aside,) = _damaged(path)
    assert aside.read_bytes() == hostile + b"\n"
    assert len(messages) == 2 and "line 13" in messages[0] and str(aside) in messages[0]
    assert controller.game.position == _position_of(lines)


def test_a_lost_roll_line_loses_nothing_else(played: bytes, tmp_path: Path) -> None:
    lines = _unfinished(played)
    index = next(i for i, line in enumerate(lines) if i > 20 and json.loads(line)["type"] == "roll")
    damaged = list(lines)
    damaged[index] = b"\x00\x00\x00 power cut \x00\n"
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"".join(damaged))
    controller, begin, messages = _open(path)
    assert begin is None
    assert path.read_bytes() == b"".join(lines[:index] + lines[index + 1 :])
    assert _damaged(path)[0].read_bytes() == damaged[index]
    assert f"line {index + 1}" in messages[0] and "1 good" not in messages[0]
    assert controller.game.position == _position_of(lines)


def test_a_cut_line_followed_by_good_lines(played: bytes, tmp_path: Path) -> None:
    """A power cut in the middle of a write, then the board went on writing lines after it."""
    lines = _unfinished(played)
    cut = lines[30][: len(lines[30]) // 2] + b"\n"
    extra = json.loads(lines[-1])
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"".join(lines[:30] + [cut] + lines[31:]))
    controller, begin, messages = _open(path)
    assert begin is None
    kept = path.read_bytes().splitlines(keepends=True)
    assert kept[:30] == lines[:30] and set(kept[30:]) <= set(lines[31:])
    assert json.loads(kept[-1])["seq"] == extra["seq"] or len(kept) < len(lines) - 1
    aside = _damaged(path)[0].read_bytes().splitlines(keepends=True)
    assert aside[0] == cut and sorted(kept + aside) == sorted(lines[:30] + [cut] + lines[31:])
    assert len(messages) == 2 and "line 31" in messages[0]


def test_an_entry_that_does_not_replay_takes_only_what_depends_on_it(played: bytes, tmp_path: Path) -> None:
    """A turn whose moves do not replay: it goes, with the entries that cannot follow
    without it; an extra line inserted later is set aside on its own; one message."""
    lines = _unfinished(played)
    index = next(i for i, line in enumerate(lines) if i > 6 and json.loads(line)["type"] == "turn")
    entry = json.loads(lines[index])
    entry["moves"] = [[13, 1, 6, False]]
    damaged = lines[:index] + [(json.dumps(entry) + "\n").encode()] + lines[index + 1 :]
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"".join(damaged))
    controller, begin, messages = _open(path)
    assert begin is None
    kept = path.read_bytes().splitlines(keepends=True)
    aside = _damaged(path)[0].read_bytes().splitlines(keepends=True)
    assert kept == damaged[:index]  # nothing after the bad turn can follow without it
    assert aside == damaged[index:]
    assert f"line {index + 1}: the entry does not replay" in messages[0]
    assert f"and {len(aside) - 3} more" in messages[0]
    assert controller.game.position == _position_of(lines[:index])


def test_an_undamaged_journal_is_left_as_it_is(played: bytes, tmp_path: Path) -> None:
    lines = _unfinished(played)
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"".join(lines))
    controller, begin, messages = _open(path)
    assert begin is None and path.read_bytes() == b"".join(lines) and not _damaged(path)
    assert [m for m in messages if "Resuming" not in m] == []


# ----------------------------------------------------------------------------- properties

CORRUPTIONS = hs.sampled_from(["flip", "delete", "insert", "truncate", "newline"])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=hs.floats(0.0, 1.0, exclude_max=True), how=CORRUPTIONS, byte=hs.integers(0, 255))
def test_a_journal_damaged_at_any_byte_opens_and_keeps_what_replays(
    played: bytes, where: float, how: str, byte: int, tmp_path: Path
) -> None:
    data = b"".join(_unfinished(played))
    at = int(len(data) * where)
    if how == "flip":
        bad = data[:at] + bytes([data[at] ^ (byte or 1)]) + data[at + 1 :]
    elif how == "delete":
        bad = data[:at] + data[at + 1 :]
    elif how == "insert":
        bad = data[:at] + bytes([byte]) + data[at:]
    elif how == "newline":
        bad = data[:at] + b"\n" + data[at:]
    else:
        bad = data[:at]
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "journal.jsonl"
    path.write_bytes(bad)
    controller, begin, messages = _open(path)  # never raises
    original = data.splitlines(keepends=True)
    lines = bad.splitlines(keepends=True)
    first_changed = next((i for i, (a, b) in enumerate(zip(original, lines)) if a != b), min(len(original), len(lines)))
    asides = _damaged(path)
    if begin is not None:  # a new match: the start line itself was hit, or nothing was left
        assert first_changed == 0
        if bad:
            assert asides[0].read_bytes() == bad
        return
    kept = path.read_bytes().splitlines(keepends=True)
    aside = asides[0].read_bytes().splitlines(keepends=True) if asides else []
    assert sorted(kept + aside) == sorted(lines)  # nothing lost
    assert kept[:first_changed] == original[:first_changed]  # every line before the damage stays
    expected = Controller(Settings(TRICTRAC))
    expected.resume([json.loads(line) for line in kept])  # what is kept replays
    assert controller.game.position == expected.game.position
    assert len([m for m in messages if "Resuming" not in m]) <= 1


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=hs.lists(hs.tuples(hs.sampled_from(["duplicate", "delete", "swap", "move"]), hs.floats(0, 1, exclude_max=True),
                                hs.floats(0, 1, exclude_max=True)), min_size=1, max_size=4))
def test_lines_lost_doubled_or_out_of_order_never_stop_the_start(
    played: bytes, edits: list[tuple[str, float, float]], tmp_path: Path
) -> None:
    """Whole lines lost, written twice or out of order (a bad disk, a hand edit): the
    journal opens, keeps a sub-sequence of its lines that replays, and loses none."""
    lines = _unfinished(played)
    for how, a, b in edits:
        i, j = 1 + int(a * (len(lines) - 1)), 1 + int(b * (len(lines) - 1))  # the start stays first
        if how == "duplicate":
            lines.insert(j, lines[i])
        elif how == "delete" and len(lines) > 2:
            del lines[i]
        elif how == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "move":
            lines.insert(j, lines.pop(i))
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "journal.jsonl"
    path.write_bytes(b"".join(lines))
    controller, begin, messages = _open(path)
    kept = path.read_bytes().splitlines(keepends=True) if path.exists() else []
    asides = _damaged(path)
    aside = asides[0].read_bytes().splitlines(keepends=True) if asides else []
    assert sorted(kept + aside) == sorted(lines)
    it = iter(lines)
    assert all(line in it for line in kept)  # kept in their order
    expected = Controller(Settings(TRICTRAC))
    expected.resume([json.loads(line) for line in kept])
    assert controller.game.position == expected.game.position
    assert begin is None  # the start line is never touched: the match resumes


@settings(max_examples=200, deadline=None)
@given(hs.recursive(
    hs.none() | hs.booleans() | hs.integers() | hs.floats() | hs.text(max_size=5),
    lambda inner: hs.lists(inner, max_size=4) | hs.dictionaries(hs.text(max_size=6), inner, max_size=4),
    max_leaves=12,
), hs.sampled_from(["start", "opening", "roll", "turn", "takeback", "game-over", "game", "other"]),
   hs.sampled_from(["seq", "time", "type", "dice", "roll", "colour", "moves", "after", "play", "winner", "points",
                    "kind", "number", "rules", "options", "quarter", "match_length", "version"]))
def test_any_value_in_any_field_is_checked_without_raising(value: object, kind: str, key: str) -> None:
    entry = {"seq": 5, "time": 1.0, "type": kind, key: value}
    problem = check_entry(entry)
    assert problem is None or isinstance(problem, str)
    raw = json.dumps(entry, allow_nan=True).encode() + b"\n"
    parsed, why = parse_line(raw)
    assert (parsed is None) != (why is None)
    if parsed is not None and kind in ("opening", "roll", "turn", "takeback", "game-over", "game"):
        controller = Controller(Settings(TRICTRAC))
        try:
            controller.resume([parsed])
        except ValueError:
            pass  # ResumeError: a clear refusal, never another exception
