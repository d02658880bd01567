"""The ``trictrac`` command line: legal, replay, show and run, with good and bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.notation.position_json import position_to_json
from controller.rules import Position, get_rule_set

SAMPLE = Path(__file__).resolve().parent.parent / "controller" / "data" / "mendelev.mat"
TRICTRAC = get_rule_set("trictrac")
START_JSON = json.dumps(position_to_json(TRICTRAC, TRICTRAC.start_position()))


def run(argv: list[str], stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, out=out, stdin=io.StringIO(stdin))
    return code, out.getvalue()


def test_legal_json_lists_one_entry_per_resulting_position() -> None:
    code, text = run(["legal", "-", "--dice", "5", "1", "--json"], START_JSON)
    assert code == 0
    plays = json.loads(text)["plays"]
    assert len(plays) == 8  # hand-counted: 13/8 with 24/23, 8/7, 6/5; 8/3 with the same; 24/18; 8/2
    assert "13/8 24/23" in {p["play"] for p in plays}
    assert len({json.dumps(p["position"], sort_keys=True) for p in plays}) == 8
    assert all(p["position"]["turn"] == "black" for p in plays)


def test_legal_json_is_empty_when_the_turn_passes() -> None:
    closed = Position.from_counts({8: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, white_bar=2)
    code, text = run(["legal", "-", "--dice", "6", "6", "--json"], json.dumps(position_to_json(TRICTRAC, closed)))
    assert code == 0 and json.loads(text) == {"plays": []}
    code, text = run(["legal", "-", "--dice", "6", "6"], json.dumps(position_to_json(TRICTRAC, closed)))
    assert "passes" in text


def test_legal_jsonl_answers_line_by_line(tmp_path: Path) -> None:
    start = json.loads(START_JSON)
    lines = [
        json.dumps({"position": start, "dice": [5, 1]}),
        "not json",
        json.dumps({"position": start, "dice": [7, 1]}),
        json.dumps({"position": dict(start, rules="chess"), "dice": [1, 2]}),
        json.dumps({"position": start, "dice": [6, 6]}),
    ]
    source = tmp_path / "batch.jsonl"
    source.write_text("\n".join(lines) + "\n")
    code, text = run(["legal", str(source), "--jsonl"])
    answers = [json.loads(line) for line in text.splitlines()]
    assert code == 2  # some lines were bad input (README: exit 2)
    assert len(answers) == 5
    assert len(answers[0]["plays"]) == 8
    assert "line 2" in answers[1]["error"] and "not valid JSON" in answers[1]["error"]
    assert "line 3" in answers[2]["error"] and "1 to 6" in answers[2]["error"]
    assert "unknown rule set 'chess'" in answers[3]["error"]
    assert answers[4]["plays"]


def test_replay_sample_game_reaches_the_published_position() -> None:
    code, text = run(["replay", str(SAMPLE), "--json"])
    assert code == 0
    data = json.loads(text)
    assert [t["play"] for t in data["turns"]] == [
        "13/8 24/23", "13/9/6", "13/9(2) 8/4(2)", "13/10/8", "13/7 8/7", "8/2* 6/2"
    ]
    final = data["result"]["position"]
    assert final["white"] == {"points": {"24": 1, "13": 1, "9": 2, "8": 1, "7": 2, "6": 5, "4": 2}, "bar": 1, "off": 0}
    assert final["black"] == {"points": {"24": 2, "13": 3, "8": 3, "6": 5, "2": 2}, "bar": 0, "off": 0}
    assert data["result"]["winner"] is None
    for turn in data["turns"]:
        assert set(turn) >= {"colour", "roll", "play", "before", "after"}


def test_replay_names_the_first_illegal_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = SAMPLE.read_text().replace("32: 13/8", "32: 13/7")
    path = tmp_path / "bad.mat"
    path.write_text(bad)
    code, _ = run(["replay", str(path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "game 1, turn 4 (black)" in err and "13/7" in err


def test_replay_reports_a_malformed_record_by_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "garbled.mat"
    path.write_text(SAMPLE.read_text().replace("44: 13/9(2)", "4x: 13/9(2)"))
    code, _ = run(["replay", str(path)])
    assert code == 2
    assert "line" in capsys.readouterr().err


def test_show_draws_lines_by_mendelev() -> None:
    code, text = run(["show", "-"], START_JSON)
    assert code == 0
    assert "XII" in text and "VIII" in text and "5O" in text and "White to move" in text
    code, text = run(["show", "--start", "rally", "--quarter", "VII-XII"])
    assert code == 0 and "pool: White 15, Black 15" in text


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("{", "not valid JSON"),
        (START_JSON.replace("trictrac", "chess"), "unknown rule set"),
        (START_JSON.replace('"6": 5', '"6": 6', 1), "16"),
        (START_JSON.replace('"6": 5', '"27": 5', 1), "27"),
    ],
)
def test_bad_positions_are_one_line_errors(stdin: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["legal", "-", "--dice", "3", "1"], stdin)
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_missing_file_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["replay", "/nonexistent/game.mat"])[0] == 2
    assert "cannot read /nonexistent/game.mat" in capsys.readouterr().err


def test_replay_shows_the_sample_game_board_by_board() -> None:
    code, text = run(["replay", str(SAMPLE), "--show"])
    assert code == 0
    assert "black 64: 8/2* 6/2" in text and "bar: White 1, Black 0" in text


def test_console_module_runs_in_a_fresh_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "legal", "--dice", "2", "1", "--json"],
        input=START_JSON, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["plays"]


def test_run_plays_a_simulated_game() -> None:
    code, text = run(["run", "--players", "random", "--seed", "3"])
    assert code == 0
    assert "No board configured: a simulated trictrac board" in text
    assert "wins" in text and "score White" in text


def test_typed_player_reads_rolls_and_plays() -> None:
    """A person at the terminal: Enter for random dice; a wrong play is explained, then asked again."""
    import random

    from controller.notation.moves import format_play
    from controller.rules import Roll
    from simulator.players import TypedPlayer

    said: list[str] = []
    replies = iter(["", "13/1", "13/8 24/23"])
    player = TypedPlayer(lambda prompt: next(replies), said.append)
    assert isinstance(player.roll(random.Random(1)), Roll)
    start = TRICTRAC.start_position()
    plays = TRICTRAC.legal_plays(start, Roll(5, 1))
    chosen = player.choose(TRICTRAC, start, Roll(5, 1), plays, random.Random(1))
    assert format_play(chosen, TRICTRAC) == "13/8 24/23"
    assert any("not a legal play" in line for line in said)


def test_run_journal_resumes(tmp_path: Path) -> None:
    journal = tmp_path / "board.jsonl"
    code, text = run(["run", "--players", "random", "--journal", str(journal), "--records", str(tmp_path)])
    assert code == 0 and journal.exists()
    assert list(tmp_path.glob("*.mat"))
    # the match is over: the next run starts a fresh match and keeps the old journal
    code, text = run(["run", "--players", "random", "--journal", str(journal), "--seed", "2"])
    assert code == 0 and "journal was kept as" in text
    assert (tmp_path / "board.jsonl.done-1").exists()


def test_simulate_reports_the_soak_figures() -> None:
    code, text = run(["simulate", "--rules", "rally-hitting", "--games", "2", "--noise", "0.5",
                      "--illegal-rate", "0.3", "--json"])
    assert code == 0
    data = json.loads(text)
    assert data["games"] == 2 and data["plays_made"] == data["plays_recorded_identically"]
    assert data["illegal_attempts"] == data["warnings_for_attempts"] and data["false_warnings"] == 0
    assert data["cpu_per_snapshot"]["p99_ms"] > 0


def test_simulate_with_real_hands_at_speed_keeps_every_play() -> None:
    """Issue 8: the hand habits (blots off first, carried past hits, early rolls) at 3x a person."""
    code, text = run(["simulate", "--rules", "backgammon", "--games", "1", "--seed", "5", "--hands", "real",
                      "--speed", "3", "--illegal-rate", "0.5", "--json"])
    figures = json.loads(text)
    assert code == 0, text
    assert figures["plays_made"] == figures["plays_recorded_identically"] > 0
    assert figures["illegal_attempts"] == figures["warnings_for_attempts"] > 0


def test_simulate_writes_records_that_replay(tmp_path: Path) -> None:
    code, _ = run(["simulate", "--rules", "backgammon", "--games", "2", "--records", str(tmp_path)])
    assert code == 0
    for path in tmp_path.glob("*.mat"):
        assert run(["replay", str(path)])[0] == 0


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[game]\nrules = 'chess'\n", "game.rules: unknown rule set 'chess'"),
        ("[game]\ngrace = -1\n", "game.grace: expected seconds"),
        ("[game]\nrules = 'trictrac'\nquarter = 'I-VI'\n", "game.quarter: trictrac has no start quarter"),
        ("[dice]\nmode = 'magic'\n", "dice.mode: expected one of tray, electronic, typed"),
        ("[gpio]\nbuzzer = 40\n", "gpio.buzzer"),
        ("[lights]\n", "lights: unknown section"),
        ("[game\n", "not valid TOML"),
    ],
)
def test_bad_configuration_is_named(tmp_path: Path, toml: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "board.toml"
    path.write_text(toml)
    assert run(["run", "--config", str(path)])[0] == 2
    err = capsys.readouterr().err
    assert message in err and str(path) in err and "Traceback" not in err


def test_example_configuration_loads() -> None:
    from controller.config import load_config

    config = load_config(Path(__file__).resolve().parent.parent / "board.example.toml")
    assert config.rules.name == "rally" and config.rules.options["mars"] is True
    assert config.quarter == "I-VI" and config.match_length == 3 and config.grace == 1.0
    assert config.gpio is not None and config.gpio["buzzer"] == 18
