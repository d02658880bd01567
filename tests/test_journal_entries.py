"""Journal entries are typed values: ``decode`` then ``encode`` gives back every line a
played journal holds, key for key and in order; a bad field is named."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from controller.journal import Journal
from controller.journal_entries import (
    EntryError, RollEntry, StartEntry, TurnEntry, UnknownEntryType, decode, encode,
)
from controller.rules import get_rule_set
from controller.rules.values import Colour, Roll
from drive import Driver, random_game


@pytest.mark.parametrize("rules", ["trictrac", "rally"])
def test_every_entry_of_a_played_journal_decodes_and_encodes_to_the_same_json(tmp_path: Path, rules: str) -> None:
    path = tmp_path / "game.jsonl"
    driver = Driver.new(get_rule_set(rules), Journal(path))
    random_game(driver, random.Random(5))
    lines = path.read_bytes().splitlines()
    kinds = set()
    for line in lines:
        data = json.loads(line)
        entry = decode(data)
        kinds.add(type(entry).__name__)
        assert encode(entry) == data
        assert json.dumps(encode(entry), separators=(",", ":"), sort_keys=True).encode() == line
    assert {"StartEntry", "OpeningEntry", "TurnEntry"} <= kinds


def test_encode_writes_the_keys_in_the_journals_order() -> None:
    start = StartEntry(1, 0.0, "trictrac", {}, None, 1, 1, "2026-11-30-001", "2026-11-30T10:00:00+00:00")
    assert list(encode(start)) == [
        "seq", "time", "type", "rules", "options", "quarter", "match_length", "version", "match", "started",
    ]
    roll = RollEntry(2, 1.5, Colour.WHITE, Roll(3, 1), throw=7)
    assert encode(roll) == {"seq": 2, "time": 1.5, "type": "roll", "colour": "white", "roll": [3, 1], "throw": 7}
    assert "throw" not in encode(RollEntry(2, 1.5, Colour.WHITE, Roll(3, 1)))


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"seq": 1, "time": 0.0, "type": "roll", "colour": "green", "roll": [3, 1]}, "'colour'"),
        ({"seq": 1, "time": 0.0, "type": "roll", "colour": "white", "roll": [7, 1]}, "'roll'"),
        ({"seq": 0, "time": 0.0, "type": "roll", "colour": "white", "roll": [3, 1]}, "'seq'"),
        ({"seq": 1, "time": "x", "type": "game", "number": 2}, "'time'"),
        ({"seq": 1, "time": 0.0, "type": "game-over", "winner": "white", "points": 0, "kind": "single"}, "'points'"),
        ({"seq": 1, "time": 0.0, "type": "turn", "colour": "white", "roll": [3, 1], "play": "", "moves": [],
          "after": []}, "'after'"),
    ],
)
def test_decode_names_the_bad_field(data: dict, named: str) -> None:
    with pytest.raises(EntryError, match=named) as error:
        decode(data)
    assert str(error.value).startswith(f"{data['type']} entry: ")


def test_an_unknown_type_is_its_own_error() -> None:
    with pytest.raises(UnknownEntryType, match="unknown entry type 'resign'"):
        decode({"seq": 1, "time": 0.0, "type": "resign"})


def test_a_turn_decodes_to_its_play() -> None:
    data = {"seq": 3, "time": 2.0, "type": "turn", "colour": "black", "roll": [6, 5], "play": "24/13",
            "moves": [[24, 18, 6, False], [18, 13, 5, False]], "after": {"rules": "x"}}
    entry = decode(data)
    assert isinstance(entry, TurnEntry) and entry.colour is Colour.BLACK and entry.roll == Roll(6, 5)
    assert [(m.frm, m.to) for m in entry.play] == [(24, 18), (18, 13)]
