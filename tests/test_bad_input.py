"""Every input a user can give: bad ones are one line on standard error and exit status 2.

A table of bad inputs across every subcommand (files that are not UTF-8, JSON nested a
thousand deep or holding a 5000-digit number, broken configurations, paths that cannot be
written, numbers out of range on the command line), run through ``controller.cli.main`` on
real files; a few through a real process; and hypothesis feeding arbitrary bytes as a
position file, a JSON-lines stream and a configuration file.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller import cli_args
from controller.cli import main
from controller.config import ConfigError, load_config
from controller.notation.bounded_json import JsonInputError, load_json
from controller.notation.position_json import position_to_json
from controller.rules import get_rule_set

ROOT = Path(__file__).resolve().parent.parent
TRICTRAC = get_rule_set("trictrac")
START = position_to_json(TRICTRAC, TRICTRAC.start_position())
START_JSON = json.dumps(START)
EXAMPLE_TOML = (ROOT / "board.example.toml").read_bytes()
SAMPLE_MAT = (ROOT / "controller" / "data" / "mendelev.mat").read_bytes()


def _with(path: str, value: Any) -> str:
    """START_JSON with one field (``white.bar``...) replaced by ``value`` (raw JSON text)."""
    document = json.loads(START_JSON)
    target = document
    *parents, last = path.split(".")
    for key in parents:
        target = target[key]
    target[last] = "@@"
    return json.dumps(document).replace('"@@"', value)


def _line(position: str, dice: str = "[5, 1]") -> str:
    return '{"position": ' + position + ', "dice": ' + dice + "}"


def _toml(game: str = "", **sections: str) -> bytes:
    text = "[game]\n" + game + "\n" + "".join(f"[{name}]\n{body}\n" for name, body in sections.items())
    return text.encode()


# the files the cases name as {name}; written once into a temporary folder
FILES: dict[str, bytes] = {
    # positions
    "nonutf8.json": b"\xff\xfe{}",
    "nonutf8_middle.json": START_JSON.encode().replace(b'"turn"', b'"t\xc3\x28rn"'),
    "latin1.json": _with("rules", '"trictr\xe4c"').encode("latin-1"),
    "deep_array.json": b"[" * 1000 + b"]" * 1000,
    "deep_object.json": b'{"a": ' * 1000 + b"1" + b"}" * 1000,
    "deep_in_points.json": _with("white.points", '{"6": ' * 40 + "1" + "}" * 40).encode(),
    "deep_100k.json": b"[" * 100_000,
    "bigint_bar.json": _with("white.bar", "9" * 5000).encode(),
    "bigint_alone.json": b"9" * 5000,
    "bigint_point.json": _with("white.points", '{"6": ' + "1" + "0" * 40 + "}").encode(),
    "float_bar.json": _with("white.bar", "0.0").encode(),
    "bool_bar.json": _with("white.bar", "false").encode(),
    "nan_bar.json": _with("white.bar", "NaN").encode(),
    "inf_bar.json": _with("white.bar", "1e999").encode(),
    "infinity_bar.json": _with("white.bar", "-Infinity").encode(),
    "negative_bar.json": _with("white.bar", "-1").encode(),
    "string_bar.json": _with("white.bar", '"0"').encode(),
    "null_bar.json": _with("white.bar", "null").encode(),
    "duplicate_key.json": START_JSON.replace('"turn": "white"', '"turn": "white", "turn": "black"').encode(),
    "empty.json": b"",
    "blank.json": b"  \n\n",
    "array.json": b"[]",
    "string.json": b'"trictrac"',
    "null.json": b"null",
    "number.json": b"42",
    "truncated.json": START_JSON[:-10].encode(),
    "trailing.json": (START_JSON + " {}").encode(),
    "nul_byte.json": START_JSON.encode().replace(b" ", b"\x00", 1),
    "lone_surrogate.json": _with("rules", '"\\ud800"').encode(),
    "control_rules.json": _with("rules", '"chess\\n\\u001b[31mred"').encode(),
    "unknown_rules.json": _with("rules", '"chess"').encode(),
    "rules_number.json": _with("rules", "7").encode(),
    "bad_turn.json": _with("turn", '"green"').encode(),
    "extra_key.json": _with("extra", "1").encode(),
    "point_27.json": START_JSON.replace('"6": 5', '"27": 5', 1).encode(),
    "point_0.json": START_JSON.replace('"6": 5', '"0": 5', 1).encode(),
    "point_06.json": START_JSON.replace('"6": 5', '"06": 5', 1).encode(),
    "sixteen.json": START_JSON.replace('"6": 5', '"6": 6', 1).encode(),
    "options_list.json": _with("options", "[1]").encode(),
    "options_unknown.json": _with("options", '{"fly": true}').encode(),
    "huge.json": b" " * (16 * 1024 * 1024 + 10),
    "long_string.json": _with("rules", '"' + "x" * (5 * 1024 * 1024) + '"').encode(),
    # JSON-lines streams
    "mixed.jsonl": "\n".join([
        _line(START_JSON), "\xff", _line(START_JSON, "[7, 1]"), _line(START_JSON, "[true, 1]"),
        _line(START_JSON, "[5.0, 1]"), _line(START_JSON, "[5]"), _line(START_JSON, '"51"'),
        "[" * 1000 + "]" * 1000, _line(START_JSON, "[" + "9" * 5000 + ", 1]"), '{"position": 1}',
        _line(START_JSON, "[6, 6]"), "NaN", "",
    ]).encode("utf-8", "surrogateescape").replace(b"\xc3\xbf", b"\xff"),
    "one_bad.jsonl": (_line(START_JSON) + "\n" + "[" * 5000 + "\n" + _line(START_JSON, "[6, 6]") + "\n").encode(),
    "nonutf8.jsonl": b"\xff\xfe\n" + _line(START_JSON).encode() + b"\n",
    "longline.jsonl": b"[" + b" " * (2 * 1024 * 1024) + b"]\n" + _line(START_JSON).encode() + b"\n",
    "no_newline.jsonl": _line(START_JSON, "[0, 1]").encode(),
    # records
    "nonutf8.mat": SAMPLE_MAT.replace(b"Game 1", b"Game \xff"),
    "latin1.mat": SAMPLE_MAT + "; Spieler: M\xfcller\n".encode("latin-1"),
    "empty.mat": b"",
    "garbage.mat": b"\x00\x01\x02 not a match \x7f",
    "illegal.mat": SAMPLE_MAT.replace(b"32: 13/8", b"32: 13/7"),
    "huge.mat": b"\n" * (16 * 1024 * 1024 + 10),
    # configurations
    "nonutf8.toml": EXAMPLE_TOML.replace(b"rally", b"r\xe4lly", 1),
    "utf16.toml": EXAMPLE_TOML.decode().encode("utf-16"),
    "bad_syntax.toml": b"[game\n",
    "deep.toml": b"a = " + b"[" * 2000 + b"]" * 2000 + b"\n",
    "deep_inline.toml": b"a = " + b"{b = " * 500 + b"1" + b"}" * 500 + b"\n",
    "bigint.toml": _toml("match_length = " + "9" * 5000),
    "huge.toml": b"#" * (300 * 1024),
    "rules_number.toml": _toml("rules = 5"),
    "rules_unknown.toml": _toml("rules = 'chess'"),
    "options_string.toml": _toml("options = 'mars'"),
    "options_value.toml": _toml("rules = 'rally'\noptions = { mars = 1 }"),
    "options_unknown.toml": _toml("rules = 'rally'\noptions = { fly = true }"),
    "quarter_list.toml": _toml("rules = 'rally'\nquarter = []"),
    "quarter_table.toml": _toml("rules = 'rally'\nquarter = {}"),
    "quarter_xiii.toml": _toml("rules = 'rally'\nquarter = 'XIII'"),
    "quarter_trictrac.toml": _toml("quarter = 'I-VI'"),
    "match_negative.toml": _toml("match_length = -1"),
    "match_huge.toml": _toml("match_length = 100000000000000000000"),
    "match_float.toml": _toml("match_length = 1.5"),
    "match_bool.toml": _toml("match_length = true"),
    "match_string.toml": _toml("match_length = '3'"),
    "grace_negative.toml": _toml("grace = -1"),
    "grace_nan.toml": _toml("grace = nan"),
    "grace_inf.toml": _toml("grace = inf"),
    "grace_bool.toml": _toml("grace = true"),
    "grace_string.toml": _toml("grace = '1'"),
    "grace_date.toml": _toml("grace = 1979-05-27"),
    "dice_mode.toml": _toml("", dice="mode = 'magic'"),
    "dice_mode_list.toml": _toml("", dice="mode = ['tray']"),
    "journal_empty.toml": _toml("", journal="path = ''"),
    "journal_number.toml": _toml("", journal="path = 5"),
    "journal_nul.toml": _toml("", journal='path = "a\\u0000b"'),
    "records_blank.toml": _toml("", journal="records = '  '"),
    "port_empty.toml": _toml("", board="port = ''"),
    "port_number.toml": _toml("", board="port = 0"),
    "port_newline.toml": _toml("", board='port = "/dev/tty\\nACM0"'),
    "unknown_section.toml": b"[lights]\n",
    "unknown_key.toml": _toml("speed = 2"),
    "game_not_table.toml": b"game = 5\n",
    "gpio_pin.toml": _toml("", gpio="buzzer = 40"),
    "gpio_bool.toml": _toml("", gpio="buzzer = true"),
    "gpio_unknown.toml": _toml("", gpio="lasers = 3"),
    "gpio_bigint.toml": _toml("", gpio="buzzer = 100000000000000000000000"),
    # plain files that are in the way
    "a_file": b"not a folder\n",
}

CASES: list[tuple[str, list[str], int, str]] = [
    # -- legal: position files
    *[(f"legal-{name}", ["legal", "{" + name + "}", "--dice", "5", "1"], 2, fragment) for name, fragment in [
        ("nonutf8.json", "not UTF-8 text (byte 0xff at offset 0)"),
        ("nonutf8_middle.json", "not UTF-8 text (byte 0xc3 at offset"),
        ("latin1.json", "not UTF-8 text (byte 0xe4"),
        ("deep_array.json", "nested 1000 deep"),
        ("deep_object.json", "nested 1000 deep"),
        ("deep_in_points.json", "nested 42 deep"),
        ("deep_100k.json", "nested 100000 deep"),
        ("bigint_bar.json", "5000 digits"),
        ("bigint_alone.json", "5000 digits"),
        ("bigint_point.json", "41 digits"),
        ("float_bar.json", "white.bar: a count is a whole number"),
        ("bool_bar.json", "white.bar: a count is a whole number"),
        ("nan_bar.json", "NaN is not a JSON number"),
        ("inf_bar.json", "1e999 is out of range"),
        ("infinity_bar.json", "-Infinity is not a JSON number"),
        ("negative_bar.json", "white.bar: a count is a whole number >= 0"),
        ("string_bar.json", "white.bar: a count is a whole number"),
        ("null_bar.json", "white.bar: a count is a whole number"),
        ("duplicate_key.json", 'key "turn" appears twice'),
        ("empty.json", "not valid JSON"),
        ("blank.json", "not valid JSON"),
        ("array.json", "position: expected an object"),
        ("string.json", "position: expected an object"),
        ("null.json", "position: expected an object"),
        ("number.json", "position: expected an object"),
        ("truncated.json", "not valid JSON"),
        ("trailing.json", "not valid JSON"),
        ("nul_byte.json", "not valid JSON"),
        ("lone_surrogate.json", "unknown rule set"),
        ("control_rules.json", "unknown rule set"),
        ("unknown_rules.json", "unknown rule set 'chess'"),
        ("rules_number.json", "rules: expected a rule-set name"),
        ("bad_turn.json", "turn: expected"),
        ("extra_key.json", "unknown key 'extra'"),
        ("point_27.json", "point 27 is not on the board"),
        ("point_0.json", "point 0 is not on the board"),
        ("point_06.json", "a point is written as a number"),
        ("sixteen.json", "16 checkers"),
        ("options_list.json", "options: expected an object"),
        ("options_unknown.json", "no option 'fly'"),
        ("huge.json", "larger than 16 MB"),
        ("long_string.json", "characters of JSON, more than"),
        ("missing.json", "cannot read"),
        ("folder", "cannot read"),
    ]],
    ("legal-dev-zero", ["legal", "/dev/zero", "--dice", "5", "1"], 2, "larger than 16 MB"),
    ("legal-no-dice", ["legal", "{array.json}"], 2, "give the roll with --dice"),
    ("legal-die-0", ["legal", "-", "--dice", "0", "1"], 2, "a die shows 1 to 6, not '0'"),
    ("legal-die-7", ["legal", "-", "--dice", "1", "7"], 2, "a die shows 1 to 6, not '7'"),
    ("legal-die-negative", ["legal", "-", "--dice", "-1", "1"], 2, "a die shows 1 to 6"),
    ("legal-die-float", ["legal", "-", "--dice", "1.5", "1"], 2, "a die shows 1 to 6"),
    ("legal-die-word", ["legal", "-", "--dice", "six", "1"], 2, "a die shows 1 to 6"),
    ("legal-die-empty", ["legal", "-", "--dice", "", "1"], 2, "a die shows 1 to 6"),
    ("legal-one-die", ["legal", "-", "--dice", "5"], 2, "expected 2 arguments"),
    ("legal-three-dice", ["legal", "-", "--dice", "5", "1", "2"], 2, "unrecognized arguments"),
    ("legal-empty-name", ["legal", "", "--dice", "5", "1"], 2, "not an empty string"),
    ("legal-newline-name", ["legal", "a\nb", "--dice", "5", "1"], 2, "control character"),
    ("legal-nul-name", ["legal", "a\0b", "--dice", "5", "1"], 2, "control character"),
    ("legal-jsonl-with-dice", ["legal", "{mixed.jsonl}", "--jsonl", "--dice", "5", "1"], 2, "not with --dice"),
    ("legal-jsonl-missing", ["legal", "{missing.jsonl}", "--jsonl"], 2, "cannot read"),
    ("legal-jsonl-folder", ["legal", "{folder}", "--jsonl"], 2, "cannot read"),
    # -- show
    *[(f"show-{name}", ["show", "{" + name + "}"], 2, fragment) for name, fragment in [
        ("nonutf8.json", "not UTF-8 text"),
        ("deep_array.json", "nested 1000 deep"),
        ("bigint_bar.json", "5000 digits"),
        ("nan_bar.json", "NaN"),
        ("empty.json", "not valid JSON"),
        ("missing.json", "cannot read"),
        ("huge.json", "larger than"),
        ("sixteen.json", "16 checkers"),
    ]],
    ("show-start-and-file", ["show", "{array.json}", "--start", "rally"], 2, "not both"),
    ("show-start-unknown", ["show", "--start", "chess"], 2, "invalid choice"),
    ("show-quarter-xiii", ["show", "--start", "rally", "--quarter", "XIII"], 2, "expected one of 1-6"),
    ("show-quarter-trictrac", ["show", "--start", "trictrac", "--quarter", "I-VI"], 2, "quarter"),
    ("show-quarter-empty", ["show", "--start", "rally", "--quarter", ""], 2, "expected one of"),
    # -- replay
    *[(f"replay-{name}", ["replay", "{" + name + "}"], 2, fragment) for name, fragment in [
        ("nonutf8.mat", "not UTF-8 text (byte 0xff"),
        ("latin1.mat", "not UTF-8 text (byte 0xfc"),
        ("empty.mat", ""),
        ("garbage.mat", ""),
        ("illegal.mat", "game 1, turn 4"),
        ("huge.mat", "larger than 16 MB"),
        ("missing.mat", "cannot read"),
        ("folder", "cannot read"),
    ]],
    ("replay-empty-name", ["replay", ""], 2, "not an empty string"),
    ("replay-no-file", ["replay"], 2, "the following arguments are required: record"),
    # -- run: configuration files
    *[(f"run-config-{name}", ["run", "--config", "{" + name + "}"], 2, fragment) for name, fragment in [
        ("nonutf8.toml", "not UTF-8 text (byte 0xe4"),
        ("utf16.toml", "not UTF-8 text (byte 0xff at offset 0)"),
        ("bad_syntax.toml", "not valid TOML"),
        ("deep.toml", "nested deeper than"),
        ("deep_inline.toml", "nested deeper than"),
        ("bigint.toml", "not valid TOML"),
        ("huge.toml", "not a configuration file"),
        ("rules_number.toml", "game.rules: expected a rule-set name"),
        ("rules_unknown.toml", "game.rules: unknown rule set 'chess'"),
        ("options_string.toml", "game.options: expected a table"),
        ("options_value.toml", "game.options"),
        ("options_unknown.toml", "game.options"),
        ("quarter_list.toml", "game.quarter: expected one of"),
        ("quarter_table.toml", "game.quarter: expected one of"),
        ("quarter_xiii.toml", "game.quarter: expected one of"),
        ("quarter_trictrac.toml", "game.quarter: trictrac has no start quarter"),
        ("match_negative.toml", "game.match_length"),
        ("match_huge.toml", "game.match_length"),
        ("match_float.toml", "game.match_length"),
        ("match_bool.toml", "game.match_length"),
        ("match_string.toml", "game.match_length"),
        ("grace_negative.toml", "game.grace"),
        ("grace_nan.toml", "game.grace"),
        ("grace_inf.toml", "game.grace"),
        ("grace_bool.toml", "game.grace"),
        ("grace_string.toml", "game.grace"),
        ("grace_date.toml", "game.grace"),
        ("dice_mode.toml", "dice.mode: expected one of"),
        ("dice_mode_list.toml", "dice.mode: expected one of"),
        ("journal_empty.toml", "journal.path: expected a file path"),
        ("journal_number.toml", "journal.path: expected a file path"),
        ("journal_nul.toml", "journal.path: expected a file path"),
        ("records_blank.toml", "journal.records: expected a file path"),
        ("port_empty.toml", "board.port: expected a device path"),
        ("port_number.toml", "board.port: expected a device path"),
        ("port_newline.toml", "board.port: expected a device path"),
        ("unknown_section.toml", "lights: unknown section"),
        ("unknown_key.toml", "game.speed: unknown key"),
        ("game_not_table.toml", "game: expected a table"),
        ("gpio_pin.toml", "gpio.buzzer"),
        ("gpio_bool.toml", "gpio.buzzer"),
        ("gpio_unknown.toml", "gpio"),
        ("gpio_bigint.toml", "gpio.buzzer"),
        ("missing.toml", "cannot read"),
        ("folder", "cannot read"),
        ("a_file/board.toml", "cannot read"),
    ]],
    ("run-config-empty-name", ["run", "--config", ""], 2, "not an empty string"),
    # -- run: where the board writes
    ("run-journal-under-a-file", ["run", "--journal", "{a_file}/journal.jsonl"], 2, "exists and is not a folder"),
    ("run-journal-deep-under-a-file", ["run", "--journal", "{a_file}/x/y/journal.jsonl"], 2, "cannot write in the folder"),
    ("run-journal-is-a-folder", ["run", "--journal", "{folder}"], 2, "not a regular file"),
    ("run-journal-in-proc", ["run", "--journal", "/proc/trictrac-journal.jsonl"], 2, "cannot write in the folder /proc"),
    ("run-journal-dev-null", ["run", "--journal", "/dev/null"], 2, "not a regular file"),
    ("run-journal-empty", ["run", "--journal", ""], 2, "not an empty string"),
    ("run-journal-newline", ["run", "--journal", "a\nb"], 2, "control character"),
    ("run-records-is-a-file", ["run", "--records", "{a_file}"], 2, "exists and is not a folder"),
    ("run-records-under-a-file", ["run", "--records", "{a_file}/records"], 2, "cannot write in the folder"),
    ("run-records-in-proc", ["run", "--records", "/proc/trictrac-records"], 2, "cannot write in the folder"),
    ("run-records-empty", ["run", "--records", ""], 2, "not an empty string"),
    # -- run: numbers and names
    *[(f"run-speed-{text}", ["run", f"--speed={text}"], 2, "argument --speed: expected a number from 0")
      for text in ["-1", "-0.001", "nan", "inf", "-inf", "1e400", "fast", "", "1_0", "2e6"]],
    *[(f"run-seed-{text}", ["run", "--seed", text], 2, "argument --seed: expected a whole number")
      for text in ["x", "1.5", "1e3", "", "9" * 30, "0x10", "1_000", "9223372036854775808"]],
    *[(f"run-seconds-{text}", ["run", "--seconds", text], 2, "argument --seconds: expected a number")
      for text in ["-1", "nan", "inf", "1e10", "soon"]],
    ("run-port-empty", ["run", "--port", ""], 2, "argument --port: expected a serial device"),
    ("run-port-blank", ["run", "--port", "   "], 2, "argument --port: expected a serial device"),
    ("run-port-newline", ["run", "--port", "/dev/tty\nACM0"], 2, "control character"),
    ("run-port-missing", ["run", "--port", "/nonexistent/ttyACM9"], 2, "cannot open /nonexistent/ttyACM9"),
    ("run-port-a-file", ["run", "--port", "{a_file}"], 2, ""),
    ("run-rules-unknown", ["run", "--rules", "chess"], 2, "invalid choice"),
    ("run-quarter-xiii", ["run", "--quarter", "XIII"], 2, "argument --quarter: expected one of"),
    ("run-quarter-trictrac", ["run", "--rules", "trictrac", "--quarter", "I-VI"], 2, "quarter"),
    ("run-players-unknown", ["run", "--players", "perfect"], 2, "argument --players: expected one of random, greedy, web"),
    ("run-unknown-option", ["run", "--fast"], 2, "unrecognized arguments: --fast"),
    # -- simulate
    *[(f"simulate-games-{text}", ["simulate", "--games", text], 2, "argument --games: expected a whole number")
      for text in ["0", "-1", "1.5", "x", "", "10000000", "9" * 30]],
    *[(f"simulate-noise-{text}", ["simulate", "--noise", text], 2, "argument --noise: expected a number from 0 to 10")
      for text in ["-1", "11", "nan", "inf", "x"]],
    *[(f"simulate-illegal-rate-{text}", ["simulate", "--illegal-rate", text], 2,
       "argument --illegal-rate: expected a number from 0 to 1") for text in ["-0.1", "1.5", "nan", "x"]],
    ("simulate-seed-float", ["simulate", "--seed", "1e3"], 2, "argument --seed"),
    ("simulate-records-is-a-file", ["simulate", "--games", "1", "--records", "{a_file}"], 2, "exists and is not a folder"),
    ("simulate-config-nonutf8", ["simulate", "--config", "{nonutf8.toml}"], 2, "not UTF-8 text"),
    ("simulate-link-unknown", ["simulate", "--link", "wifi"], 2, "invalid choice"),
    # -- virtual-board
    *[(f"virtual-board-speed-{text}", ["virtual-board", "--speed", text], 2, "argument --speed: expected a number")
      for text in ["0", "-1", "nan", "inf", "1e9", "x"]],
    *[(f"virtual-board-games-{text}", ["virtual-board", "--games", text], 2, "argument --games")
      for text in ["0", "-1", "x"]],
    ("virtual-board-illegal-rate", ["virtual-board", "--illegal-rate", "2"], 2, "argument --illegal-rate"),
    ("virtual-board-seed", ["virtual-board", "--seed", "one"], 2, "argument --seed"),
    ("virtual-board-seconds", ["virtual-board", "--seconds", "-5"], 2, "argument --seconds"),
    ("virtual-board-quarter-xiii", ["virtual-board", "--rules", "rally", "--quarter", "XIII"], 2, "--quarter"),
    ("virtual-board-quarter-trictrac", ["virtual-board", "--quarter", "I-VI"], 2, "quarter"),
    ("virtual-board-rules", ["virtual-board", "--rules", "go"], 2, "invalid choice"),
    # -- doctor and calibrate
    ("doctor-port-empty", ["doctor", "--port", ""], 2, "argument --port"),
    ("doctor-port-missing", ["doctor", "--port", "/nonexistent/ttyACM9", "--no-live"], 2, "cannot open"),
    ("doctor-seconds-negative", ["doctor", "--seconds", "-1"], 2, "argument --seconds"),
    ("doctor-seconds-nan", ["doctor", "--seconds", "nan"], 2, "argument --seconds"),
    ("doctor-config-nonutf8", ["doctor", "--config", "{nonutf8.toml}"], 2, "not UTF-8 text"),
    ("doctor-config-port-empty", ["doctor", "--config", "{port_empty.toml}"], 2, "board.port"),
    ("doctor-config-missing", ["doctor", "--config", "{missing.toml}"], 2, "cannot read"),
    ("calibrate-port-empty", ["calibrate", "--port", ""], 2, "argument --port"),
    ("calibrate-port-missing", ["calibrate", "--port", "/nonexistent/ttyACM9"], 2, "cannot open"),
    ("calibrate-config-deep", ["calibrate", "--config", "{deep.toml}"], 2, "nested deeper"),
    # -- the command itself
    ("no-command", [], 2, "the following arguments are required: command"),
    ("unknown-command", ["play"], 2, "invalid choice: 'play'"),
    ("unknown-top-option", ["--verbose", "run"], 2, "unrecognized arguments"),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files the cases name, written once."""
    root = tmp_path_factory.mktemp("inputs")
    for name, data in FILES.items():
        (root / name).write_bytes(data)
    (root / "folder").mkdir()
    return root


def _argv(argv: list[str], folder: Path) -> list[str]:
    return [arg.replace("{", str(folder) + "/").replace("}", "") if arg.startswith("{") else arg for arg in argv]


def _run(argv: list[str], stdin: bytes = b"") -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, out=out, stdin=io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    return code, out.getvalue()


def _one_line(err: str) -> str:
    assert "Traceback" not in err, err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err


def test_the_table_covers_well_over_a_hundred_inputs_on_every_subcommand() -> None:
    assert len(CASES) >= 200
    assert {argv[0] for _, argv, _, _ in CASES if argv} >= {
        "legal", "replay", "show", "run", "simulate", "doctor", "calibrate", "virtual-board"}
    assert len({name for name, *_ in CASES}) == len(CASES)


@pytest.mark.parametrize(("argv", "code", "fragment"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], code: int, fragment: str, folder: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    got, out = _run(_argv(argv, folder), START_JSON.encode())
    err = _one_line(capsys.readouterr().err)
    assert got == code, err
    assert fragment in err
    assert err.startswith("trictrac")
    if argv and argv[0] in ("run", "simulate"):
        assert "wins" not in out  # nothing was played


# -- standard input -----------------------------------------------------------------------


@pytest.mark.parametrize(("stdin", "fragment"), [
    (b"\xff", "standard input: not UTF-8 text (byte 0xff at offset 0)"),
    (START_JSON.encode()[:50] + b"\xc0\xaf", "standard input: not UTF-8 text (byte 0xc0 at offset 50)"),
    (b"[" * 1000, "standard input: JSON nested 1000 deep"),
    (_with("black.off", "1" + "0" * 4999).encode(), "5000 digits"),
    (b"", "standard input: not valid JSON"),
])
def test_bad_standard_input(stdin: bytes, fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["legal", "-", "--dice", "2", "1"], ["show"], ["show", "-"]):
        assert _run(argv, stdin)[0] == 2
        assert fragment in _one_line(capsys.readouterr().err)
    assert _run(["replay", "-"], stdin)[0] == 2
    _one_line(capsys.readouterr().err)


def test_a_byte_order_mark_is_read_past(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["show"], b"\xef\xbb\xbf" + START_JSON.encode())[0] == 0


# -- legal --jsonl: a bad line is answered on its line, the stream goes on ---------------


def test_jsonl_answers_every_line_and_exits_2(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(["legal", str(folder / "mixed.jsonl"), "--jsonl"])
    err = _one_line(capsys.readouterr().err)
    assert code == 2 and "10 of 12 lines were bad input" in err
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 12
    good = [i for i, answer in enumerate(answers) if "plays" in answer]
    assert good == [0, 10]
    errors = [answer["error"] for answer in answers if "error" in answer]
    assert "line 2: not UTF-8 text (byte 0xff at offset 0)" in errors[0]
    assert "a die shows 1 to 6, not 7" in errors[1]
    assert "a die shows 1 to 6, not True" in errors[2]
    assert "a die shows 1 to 6, not 5.0" in errors[3]
    assert "dice is a list of two numbers" in errors[4] and "dice is a list" in errors[5]
    assert "nested 1000 deep" in errors[6]
    assert "5000 digits" in errors[7]
    assert '"dice": [A, B]' in errors[8]
    assert "NaN" in errors[9]


@pytest.mark.parametrize(("name", "bad", "total"), [
    ("one_bad.jsonl", 1, 3), ("nonutf8.jsonl", 1, 2), ("longline.jsonl", 1, 2), ("no_newline.jsonl", 1, 1),
])
def test_jsonl_keeps_the_stream_going(name: str, bad: int, total: int, folder: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(["legal", str(folder / name), "--jsonl"])
    assert code == 2 and f"{bad} of {total} lines" in _one_line(capsys.readouterr().err)
    assert len(out.splitlines()) == total


def test_jsonl_from_standard_input_with_a_bad_line(capsys: pytest.CaptureFixture[str]) -> None:
    stdin = (_line(START_JSON) + "\n").encode() + b"\xff\xff\n" + ("[" * 2000 + "\n").encode() + (_line(START_JSON) + "\n").encode()
    code, out = _run(["legal", "--jsonl"], stdin)
    assert code == 2 and "2 of 4 lines" in _one_line(capsys.readouterr().err)
    answers = [json.loads(line) for line in out.splitlines()]
    assert ["plays" in a for a in answers] == [True, False, False, True]
    assert answers[1]["error"].startswith("standard input line 2: not UTF-8")


def test_jsonl_all_good_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(["legal", "--jsonl"], (_line(START_JSON) + "\n\n" + _line(START_JSON, "[3, 3]")).encode())
    assert code == 0 and capsys.readouterr().err == "" and len(out.splitlines()) == 2


# -- what stays as it was ----------------------------------------------------------------


def test_the_start_position_is_still_good(folder: Path) -> None:
    (folder / "start.json").write_text(START_JSON)
    assert _run(["legal", str(folder / "start.json"), "--dice", "5", "1"])[0] == 0
    assert _run(["show", str(folder / "start.json")])[0] == 0


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "trictrac" in capsys.readouterr().out


def test_a_message_with_control_characters_stays_one_line(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (folder / "escape.json").write_text(_with("rules", '"x\\n\\r\\u001b[2Jy\\u2028z"'))
    assert _run(["legal", str(folder / "escape.json"), "--dice", "5", "1"])[0] == 2
    err = _one_line(capsys.readouterr().err)
    assert "\x1b" not in err and "\r" not in err


def test_ctrl_c_is_exit_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import controller.cli as cli

    def interrupted(*args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_show", interrupted)
    parser = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda: _patched(parser(), interrupted))
    assert main(["show", "--start", "rally"]) == 130
    assert _one_line(capsys.readouterr().err) == "trictrac show: interrupted\n"


def _patched(parser: Any, func: Any) -> Any:
    for action in parser._subparsers._group_actions:
        action.choices["show"].set_defaults(func=func)
    return parser


def test_an_os_error_during_the_run_is_one_line_and_exit_1(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import controller.cli as cli

    def disk_full(*args: object) -> int:
        raise OSError(28, "No space left on device", "/var/lib/trictrac/journal.jsonl")

    parser = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda: _patched(parser(), disk_full))
    assert main(["show"]) == 1
    assert "journal.jsonl: No space left on device" in _one_line(capsys.readouterr().err)


# -- through a real process ------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "stdin", "fragment"), [
    (["legal", "--dice", "5", "1"], b"\xff\xfe", "standard input: not UTF-8 text (byte 0xff at offset 0)"),
    (["legal", "--dice", "5", "1"], b"[" * 5000, "nested 5000 deep"),
    (["show"], _with("white.bar", "9" * 5000).encode(), "5000 digits"),
    (["run", "--port", ""], b"", "argument --port"),
    (["virtual-board", "--speed", "0"], b"", "argument --speed"),
    (["simulate", "--games", "-1"], b"", "argument --games"),
    (["replay", "-"], b"\xff", "not UTF-8"),
])
def test_in_a_real_process(argv: list[str], stdin: bytes, fragment: str) -> None:
    done = subprocess.run([sys.executable, "-m", "controller.cli", *argv], input=stdin, capture_output=True,
                          timeout=120, check=False, cwd=ROOT)
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert fragment in _one_line(err)


def test_the_installed_entry_point(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "trictrac"
    if not script.exists():
        pytest.skip("no trictrac entry point next to this interpreter")
    (tmp_path / "pos.json").write_bytes(b"\xff")
    done = subprocess.run([str(script), "legal", str(tmp_path / "pos.json"), "--dice", "5", "1"],
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 2
    assert "not UTF-8 text" in _one_line(done.stderr.decode())
    done = subprocess.run([str(script), "legal", "--jsonl"], input=b"[[[\n" + _line(START_JSON).encode() + b"\n",
                          capture_output=True, timeout=120, check=False)
    assert done.returncode == 2 and len(done.stdout.splitlines()) == 2
    _one_line(done.stderr.decode())


# -- hypothesis: arbitrary bytes ------------------------------------------------------------


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # capsys is read after every run


def _mutated(base: bytes) -> st.SearchStrategy[bytes]:
    """``base`` with a few bytes replaced, inserted or cut: close enough to get far in."""

    @st.composite
    def mutate(draw: st.DrawFn) -> bytes:
        data = bytearray(base)
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(data)))
            kind = draw(st.sampled_from(["replace", "insert", "cut"]))
            chunk = draw(st.binary(min_size=1, max_size=6) | st.sampled_from(
                [b"[", b"{", b"9" * 50, b"NaN", b"1e999", b"\xff", b"-", b'"', b"\\", b"\n", b"true", b"null", b"0.5"]))
            if kind == "replace":
                data[at:at + len(chunk)] = chunk
            elif kind == "insert":
                data[at:at] = chunk
            else:
                del data[at:at + len(chunk)]
        return bytes(data)

    return mutate()


def _blank(line: bytes) -> bool:
    try:
        return not line.decode("utf-8-sig").strip()
    except UnicodeDecodeError:
        return False


def _check_exit(code: int, err: str) -> None:
    assert code in (0, 2), err
    assert "Traceback" not in err
    assert err.count("\n") == (1 if code == 2 else 0), err


@FUZZ
@given(data=st.binary(max_size=300) | _mutated(START_JSON.encode()))
def test_any_bytes_as_a_position_file(data: bytes, tmp_path_factory: pytest.TempPathFactory,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "position.json"
    path.write_bytes(data)
    for argv in (["legal", str(path), "--dice", "6", "5"], ["legal", str(path), "--dice", "3", "3", "--json"],
                 ["show", str(path)]):
        code, _ = _run(argv)
        _check_exit(code, capsys.readouterr().err)


@FUZZ
@given(lines=st.lists(st.binary(max_size=120) | _mutated(_line(START_JSON).encode()), min_size=1, max_size=4))
def test_any_bytes_as_jsonl_lines(lines: list[bytes], tmp_path_factory: pytest.TempPathFactory,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "batch.jsonl"
    data = b"\n".join(lines)
    path.write_bytes(data)
    code, out = _run(["legal", str(path), "--jsonl"])
    _check_exit(code, capsys.readouterr().err)
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == sum(1 for line in data.split(b"\n") if not _blank(line))
    assert (code == 2) == any("error" in answer for answer in answers)


@FUZZ
@given(data=st.binary(max_size=300) | _mutated(EXAMPLE_TOML))
def test_any_bytes_as_a_configuration(data: bytes, tmp_path_factory: pytest.TempPathFactory,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path_factory.mktemp("fuzz")
    path = root / "board.toml"
    path.write_bytes(data)
    (root / "in_the_way").write_text("a file")
    try:
        load_config(path)
    except ConfigError:
        pass
    # a configuration that loads then stops at the journal that cannot be written: never plays
    code, out = _run(["run", "--config", str(path), "--journal", str(root / "in_the_way" / "j.jsonl")])
    assert code == 2 and "wins" not in out
    _check_exit(code, capsys.readouterr().err)


ARGUMENT_TYPES = {
    "seed": (cli_args.seed, lambda v: isinstance(v, int) and -(2**63) <= v < 2**63),
    "games": (cli_args.games, lambda v: isinstance(v, int) and 1 <= v <= 1_000_000),
    "noise": (cli_args.noise, lambda v: 0 <= v <= 10),
    "rate": (cli_args.rate, lambda v: 0 <= v <= 1),
    "seconds": (cli_args.seconds, lambda v: 0 <= v <= cli_args.MAX_SECONDS),
    "virtual speed": (cli_args.number(0.0, 1000.0, low_open=True), lambda v: 0 < v <= 1000),
    "die": (cli_args.die, lambda v: v in range(1, 7)),
    "port": (cli_args.port, lambda v: isinstance(v, str) and v.strip() != ""),
    "path": (cli_args.file_path, lambda v: isinstance(v, Path)),
    "quarter": (cli_args.quarter, lambda v: v in ("1-6", "7-12", "I-VI", "VII-XII")),
}


@FUZZ
@given(kind=st.sampled_from(sorted(ARGUMENT_TYPES)),
       text=st.text(max_size=30) | st.from_regex(r"[-+]?[0-9_.eEinfa ]{0,12}", fullmatch=True))
def test_argument_types_give_a_value_in_range_or_one_line(kind: str, text: str) -> None:
    parse, in_range = ARGUMENT_TYPES[kind]
    try:
        value = parse(text)
    except argparse.ArgumentTypeError as error:
        assert str(error) and "\n" not in str(error)
        return
    assert in_range(value), (text, value)
    if isinstance(value, float):
        assert math.isfinite(value)


def test_a_huge_argument_makes_a_short_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["run", "--rules", "x" * 100_000])[0] == 2
    assert len(_one_line(capsys.readouterr().err)) < 2100


@FUZZ
@given(text=st.text(max_size=200) | st.text(alphabet="[]{}\"\\,:0123456789.eE-+ ntrufalsNI", max_size=200))
def test_bounded_json_raises_only_its_own_error(text: str) -> None:
    try:
        load_json(text, max_depth=8)
    except JsonInputError:
        pass


def test_a_journal_or_records_folder_without_write_permission(capsys: pytest.CaptureFixture[str]) -> None:
    """As the service user would meet it: a folder it may not write (as nobody when run as root)."""
    import contextlib
    import os
    import shutil
    import tempfile

    import encodings.cp437  # noqa: F401  (the engine's weights are read through these: Python
    import importlib.readers  # noqa: F401  itself may live where nobody may read, /root/.pyenv)
    import importlib
    import pkgutil

    import controller
    import simulator

    # every module of ours imported before giving up root: a checkout in a private folder
    # (a fresh clone under mktemp -d) is one nobody may read
    for package in (controller, simulator):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)

    base = Path(tempfile.mkdtemp(prefix="trictrac-locked-"))
    base.chmod(0o755)
    locked = base / "locked"
    locked.mkdir()
    locked.chmod(0o555)

    @contextlib.contextmanager
    def unprivileged():  # type: ignore[no-untyped-def]
        if os.geteuid() != 0:
            yield
            return
        os.setegid(65534)
        os.seteuid(65534)
        try:
            yield
        finally:
            os.seteuid(0)
            os.setegid(0)

    try:
        for argv in (["run", "--journal", str(locked / "journal.jsonl")],
                     ["run", "--journal", str(locked / "new" / "journal.jsonl")],
                     ["run", "--records", str(locked / "records")],
                     ["simulate", "--games", "1", "--records", str(locked)]):
            with unprivileged():
                code, out = _run(argv)
            err = _one_line(capsys.readouterr().err)
            assert code == 2 and "cannot write in the folder" in err and "Permission denied" in err, err
            assert "wins" not in out
    finally:
        shutil.rmtree(base)


@FUZZ
@given(brackets=st.text(alphabet="[]{}", max_size=60))
def test_bracket_depth_is_the_floored_walk(brackets: str) -> None:
    from controller.notation.bounded_json import bracket_depth

    depth = deepest = 0
    for bracket in brackets:
        depth = max(depth + (1 if bracket in "[{" else -1), 0)
        deepest = max(deepest, depth)
    assert bracket_depth(brackets) == deepest


def test_strings_and_comments_hold_no_nesting() -> None:
    from controller.config import toml_depth
    from controller.notation.bounded_json import nesting_depth

    assert nesting_depth('{"a": "[[[[", "b": "\\\\"[[", "c": [[1]]}') == 3
    assert nesting_depth('"' + "[" * 100) == 0  # an unterminated string is not JSON anyway
    assert toml_depth('a = "[[[["\nb = \'[[[[\'\nc = """\n[[[[\n"""\n# [[[[\nd = [[1]]\n[t]\n[[u]]\n') == 2
