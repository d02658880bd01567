"""Choosing the computer on the command line and in the configuration: ``--white``/``--black``
and ``[players]``; bad names are one clear line; a whole simulated game against the computer
runs through ``trictrac run`` and ``trictrac simulate`` (issue 10, part 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from cli_kit import config, run
from controller.config import ConfigError, load_config
from controller.player_names import PlayerName, parse_player


@pytest.mark.parametrize("text,name", [
    ("human", PlayerName("human")), ("builtin", PlayerName("builtin", "best")),
    ("Builtin:Beginner", PlayerName("builtin", "beginner")), ("gnubg", PlayerName("gnubg", "0")),
    ("gnubg:2ply", PlayerName("gnubg", "2")), ("greedy", PlayerName("greedy")),
])
def test_player_names(text: str, name: PlayerName) -> None:
    assert parse_player(text) == name


@given(st.text(max_size=30))
def test_any_text_is_a_player_or_one_clear_error(text: str) -> None:
    try:
        name = parse_player(text)
    except ValueError as error:
        assert "\n" not in str(error) and str(error)
    else:
        assert parse_player(str(name)) == name


@pytest.mark.parametrize("argv,words", [
    (("run", "--white", "chess"), "argument --white"),
    (("run", "--black", "builtin:grandmaster"), "builtin levels"),
    (("simulate", "--white", "gnubg:7"), "gnubg levels"),
    (("simulate", "--white", "random:1"), "has no level"),
    (("simulate", "--white", "gnubg", "--rules", "rally"), "trictrac and backgammon only"),
])
def test_bad_players_are_one_line_and_status_2(argv: tuple[str, ...], words: str) -> None:
    code, _, err = run(*argv)
    assert code == 2, err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_players_section_is_read(tmp_path: Path) -> None:
    loaded = load_config(config(tmp_path, '[players]\nblack = "builtin:intermediate"\nsubstitute = true\nhints = "none"\n'))
    players = loaded.players
    assert players.white == PlayerName("human") and players.black == PlayerName("builtin", "intermediate")
    assert players.substitute and players.hints is None
    assert load_config(config(tmp_path, "[game]\n")).players.hints == PlayerName("builtin", "best")


@pytest.mark.parametrize("text,key", [
    ('[players]\nwhite = "chess"\n', "players.white"),
    ("[players]\nblack = 3\n", "players.black"),
    ('[players]\nsubstitute = "yes"\n', "players.substitute"),
    ('[players]\nhints = "greedy"\n', "players.hints"),
    ('[players]\nwho = "me"\n', "players.who"),
])
def test_bad_players_sections_name_the_file_and_key(tmp_path: Path, text: str, key: str) -> None:
    path = config(tmp_path, text)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert str(error.value).startswith(f"{path}: {key}:")


def test_run_against_the_computer_on_the_simulated_board(tmp_path: Path) -> None:
    """Black is the built-in engine: a whole game on the simulated board, the engine's plays
    carried out from the lights; the record holds every turn."""
    path = config(tmp_path, '[players]\nblack = "builtin:intermediate"\n')
    code, out, err = run("run", "--config", str(path), "--players", "greedy", "--records", str(tmp_path / "records"),
                         "--exit-after-match")
    assert code == 0, err + out[-2000:]
    assert "The computer plays black (builtin:intermediate)" in out
    assert "wins" in out and len(list((tmp_path / "records").glob("*.mat"))) == 1


def test_simulate_computer_against_greedy_reports_the_winners() -> None:
    code, out, err = run("simulate", "--white", "builtin:intermediate", "--black", "greedy", "--games", "2",
                         "--illegal-rate", "0.5", "--json", "--rules", "rally")
    assert code == 0, err
    report = json.loads(out)
    assert report["players"] == {"white": "builtin:intermediate", "black": "greedy"}
    assert sum(report["wins"].values()) == 2 and report["false_warnings"] == 0
    assert report["illegal_attempts"] == report["warnings_for_attempts"] > 0
