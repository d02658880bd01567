"""The journal on real files: every turn made durable, resume after a cut at any point,
damage reported and kept aside, never dropped in silence."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

from controller.journal import Journal
from controller.machine import Controller, Phase, Settings
from controller.rules import get_rule_set
from controller.rules.game import Game
from controller.runner import open_controller
from drive import Driver, random_game

TRICTRAC = get_rule_set("trictrac")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list]:
    """One whole journalled trictrac game and the plays the driver made."""
    path = tmp_path_factory.mktemp("journal") / "game.jsonl"
    driver = Driver.new(TRICTRAC, Journal(path))
    made = random_game(driver, random.Random(7))
    assert driver.controller.game.is_over
    return path.read_bytes(), made


def test_every_turn_is_journalled_as_played(played: tuple[bytes, list]) -> None:
    data, made = played
    entries = [json.loads(line) for line in data.splitlines()]
    assert entries[0]["type"] == "start" and entries[-1]["type"] == "game-over"
    turns = [e for e in entries if e["type"] == "turn"]
    assert len(turns) == len(made)
    game = Game(TRICTRAC)
    for entry, (roll, play) in zip(turns, made):
        assert entry["roll"] == [roll.first, roll.second]
        expected = TRICTRAC.apply(game.position, play)
        game.play(roll, play)
        assert game.position == expected
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))


def _replayed_position(lines: list[bytes]):  # type: ignore[no-untyped-def]
    controller = Controller(Settings(TRICTRAC))
    controller.resume([json.loads(line) for line in lines])
    return controller.game.position, controller


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=hs.floats(0.0, 1.0))
def test_resume_after_a_cut_anywhere(played: tuple[bytes, list], cut: float, tmp_path: Path) -> None:
    """Power fails mid-write: the whole lines before the cut resume; the cut line is kept aside."""
    data, _ = played
    at = int(len(data) * cut)
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "journal.jsonl"
    path.write_bytes(data[:at])
    messages: list[str] = []
    controller, begin = open_controller(Settings(TRICTRAC), Journal(path), messages.append, 0.0)
    whole = data[:at].splitlines(keepends=True)
    complete = [line for line in whole if line.endswith(b"\n")]
    kept = path.read_bytes() if path.exists() else b""
    aside = folder / "journal.jsonl.damaged-1"
    if len(complete) < len(whole):  # a cut line
        assert aside.read_bytes() == whole[-1]
        assert any("cut off" in m and str(aside) in m for m in messages)
    else:
        assert not aside.exists()
    if not complete:
        assert begin is not None and controller.phase is Phase.SETUP
        return
    expected, replayed = _replayed_position(complete)
    if replayed.match.winner() is not None:  # the game-over entry, or the winning turn with its game-over line cut
        assert begin is not None  # a finished match starts afresh, its journal kept as .done-1
        assert (folder / "journal.jsonl.done-1").read_bytes() == b"".join(complete)
        return
    assert kept == b"".join(complete)
    assert controller.game.position == expected
    assert begin is None


def test_garbage_in_the_middle_is_kept_aside(played: tuple[bytes, list], tmp_path: Path) -> None:
    """One garbage line: only it goes aside; every line after it stays."""
    data, _ = played
    lines = data.splitlines(keepends=True)
    lines[5] = b'{"type": "turn", "colour": "wh\x00ite"\n'
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"".join(lines))
    loaded = Journal(path).load()
    assert len(loaded.entries) == len(lines) - 1
    assert loaded.damage is not None and "line 6" in loaded.damage and "not JSON" in loaded.damage
    assert loaded.kept_aside is not None and loaded.kept_aside.read_bytes() == lines[5]
    assert path.read_bytes() == b"".join(lines[:5] + lines[6:])


def test_an_entry_that_does_not_replay_is_cut(played: tuple[bytes, list], tmp_path: Path) -> None:
    data, _ = played
    lines = data.splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "turn" and i > 6)
    entry = json.loads(lines[index])
    entry["moves"] = [[13, 1, 6, False]]  # not a legal play
    lines[index] = (json.dumps(entry) + "\n").encode()
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"".join(lines))
    messages: list[str] = []
    controller, begin = open_controller(Settings(TRICTRAC), Journal(path), messages.append, 0.0)
    assert begin is None
    assert any(f"line {index + 1}: the entry does not replay" in m for m in messages)
    assert path.read_bytes() == b"".join(lines[:index])
    assert (tmp_path / "journal.jsonl.damaged-1").read_bytes() == b"".join(lines[index:])
    expected, _ = _replayed_position(lines[:index])
    assert controller.game.position == expected


def test_resumed_game_guides_the_board_back_and_goes_on(played: tuple[bytes, list], tmp_path: Path) -> None:
    data, made = played
    lines = data.splitlines(keepends=True)
    turn_lines = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "turn"]
    stop = turn_lines[9] + 1  # ten turns in
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"".join(lines[:stop]))
    controller, begin = open_controller(Settings(TRICTRAC), Journal(path), lambda m: None, 0.0)
    assert begin is None and controller.phase is Phase.AWAIT_ROLL
    driver = Driver(controller, Journal(path), time=100.0)
    # the board still shows the start, which no roll explains: the lights ask for the checkers to be put back
    out = driver.show(TRICTRAC.start_position())
    assert out.frame.lit() and controller.phase is Phase.RESTORE
    position = controller.game.position
    driver.show(position)
    assert controller.phase in (Phase.AWAIT_ROLL, Phase.MOVING)
    # play the remaining recorded plays and the game ends as it did
    for _ in range(len(made) * 2):
        done = len(controller.game.turns())
        if controller.game.is_over or done >= len(made):
            break
        roll, play = made[done]
        progress = controller.turn_in_progress
        if progress is None:
            driver.roll(roll.first, roll.second)
            continue
        assert progress[1] == roll
        driver.play_moves(controller.game.position, play)
        if not controller.game.is_over and done + 1 < len(made):
            following = made[done + 1][0]
            driver.roll(following.first, following.second)
    assert controller.game.is_over
    entries = Journal(path).load().entries
    replay = Controller(Settings(TRICTRAC))
    replay.resume(entries)
    assert replay.game.position == controller.game.position
    assert len([e for e in entries if e["type"] == "turn"]) == len(made)
