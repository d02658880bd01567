"""Records are never lost: one file per match, named from the journal (date and sequence),
written atomically after every finished game, rebuilt from the journals at start."""

from __future__ import annotations

import io
import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

import controller.runner as runner_module
from controller.cli import main
from controller.files import write_atomic
from controller.journal import Journal
from controller.journal_entries import StartEntry, decode, encode
from controller.machine import Settings
from controller.records.matfile import read_mat
from controller.records.replay import replay
from controller.records.store import next_match_id, record_name
from controller.rules import get_rule_set
from controller.runner import open_controller, records_of_journals
from simulator.table import Table

BACKGAMMON = get_rule_set("backgammon")


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, out=out, stdin=io.StringIO(""))
    return code, out.getvalue()


def today() -> str:
    return datetime.now().astimezone().strftime("%Y-%m-%d")


def _replays(path: Path):  # type: ignore[no-untyped-def]
    return replay(read_mat(path.read_text(encoding="utf-8"), source=str(path)))


# ----------------------------------------------------------------------------- names


def test_each_match_has_its_own_record_named_by_date_and_sequence(tmp_path: Path) -> None:
    journal, records = tmp_path / "board.jsonl", tmp_path / "records"
    for seed in ("1", "2", "3"):
        code, text = run(["run", "--players", "random", "--seed", seed, "--journal", str(journal),
                          "--records", str(records)])
        assert code == 0, text
    names = sorted(path.name for path in records.iterdir())
    assert names == [f"{today()}-00{n}-trictrac.mat" for n in (1, 2, 3)]
    for path in records.iterdir():
        assert _replays(path).games[0].result is not None
    start = json.loads(journal.read_text().splitlines()[0])
    assert start["match"] == f"{today()}-003" and datetime.fromisoformat(start["started"]).tzinfo is not None
    assert f'; [EventDate "{today().replace("-", ".")}"]' in (records / names[0]).read_text()


def test_next_match_id_follows_the_records_and_journals_of_the_day(tmp_path: Path) -> None:
    when = datetime(2026, 11, 30, 23, 59, tzinfo=timezone.utc)
    for name in ("2026-11-30-001-trictrac.mat", "2026-11-30-007-rally.mat", "2026-11-29-042-trictrac.mat", "x.mat"):
        (tmp_path / name).write_text("")
    assert next_match_id(when, tmp_path, []) == "2026-11-30-008"
    starts = [StartEntry(1, 0.0, "trictrac", match="2026-11-30-011"), StartEntry(1, 0.0, "rally", match="2026-12-01-020")]
    assert next_match_id(when, tmp_path, starts) == "2026-11-30-012"
    assert next_match_id(when, None, []) == "2026-11-30-001"
    assert next_match_id(when, tmp_path / "none", []) == "2026-11-30-001"
    assert record_name(StartEntry(1, 0.0, "rally", match="2026-11-30-003")) == "2026-11-30-003-rally.mat"
    old = StartEntry(1, 0.0, "trictrac")
    assert record_name(old) == record_name(decode(encode(old))) and record_name(old).startswith("undated-")


# ----------------------------------------------------------------------------- during play


def test_the_record_is_rewritten_after_every_finished_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    finished: list[int] = []
    real = runner_module.write_record

    def spy(folder, start, match):  # type: ignore[no-untyped-def]
        path = real(folder, start, match)
        finished.append(len([g for g in read_mat(path.read_text()).games if g.finished]))
        return path

    monkeypatch.setattr(runner_module, "write_record", spy)
    journal, records = Journal(tmp_path / "j.jsonl"), tmp_path / "records"
    table = Table(Settings(BACKGAMMON, match_length=3), seed=6, journal=journal, records=records)
    table.play_match()
    games = len(table.controller.match.results)
    assert games >= 2 and finished == list(range(1, games + 1))
    (path,) = records.iterdir()
    done = _replays(path)
    assert done.score == table.controller.match.score and len(done.games) == games
    assert not [p for p in records.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_a_record_that_cannot_be_written_is_reported_and_play_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(folder, start, match):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(runner_module, "write_record", broken)
    logs: list[str] = []
    table = Table(Settings(BACKGAMMON), seed=2, journal=Journal(tmp_path / "j.jsonl"), records=tmp_path / "r", log=logs.append)
    table.play_match()
    assert table.controller.match.results
    assert any("could not write the record" in line and "No space left" in line for line in logs)


# ----------------------------------------------------------------------------- rebuilt at start


def test_missing_records_are_rebuilt_from_the_journals_the_same(tmp_path: Path) -> None:
    journal, records = tmp_path / "board.jsonl", tmp_path / "records"
    for seed in ("1", "2"):
        assert run(["run", "--players", "random", "--seed", seed, "--journal", str(journal), "--records", str(records)])[0] == 0
    written = {path.name: path.read_bytes() for path in records.iterdir()}
    for path in records.iterdir():
        path.unlink()
    logs: list[str] = []
    rebuilt = records_of_journals(Journal(journal), records, logs.append)
    assert {path.name: path.read_bytes() for path in rebuilt} == written
    assert len(logs) == 2 and all("rebuilt from the journal" in line for line in logs)
    assert records_of_journals(Journal(journal), records, logs.append) == []  # idempotent


def test_a_match_cut_by_a_crash_keeps_its_finished_games(tmp_path: Path) -> None:
    """The power fails after game 1 of a match and before its record was written."""
    path, records = tmp_path / "j.jsonl", tmp_path / "records"
    table = Table(Settings(BACKGAMMON, match_length=3), seed=6, journal=Journal(path))
    table.play_match()
    lines = path.read_bytes().splitlines(keepends=True)
    second = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "game")
    path.write_bytes(b"".join(lines[: second + 4]))
    logs: list[str] = []
    controller, begin = open_controller(Settings(BACKGAMMON), Journal(path), logs.append, 0.0)
    assert begin is None
    (record,) = records_of_journals(Journal(path), records, logs.append)
    mat = read_mat(record.read_text())
    assert mat.games[0].finished and not mat.games[1].finished
    assert _replays(record).games[0].result is not None
    assert record.name == record_name(decode(json.loads(lines[0])))


def test_a_journal_from_before_match_ids_gets_a_stable_undated_name(tmp_path: Path) -> None:
    path, records = tmp_path / "j.jsonl", tmp_path / "records"
    records.mkdir()
    table = Table(Settings(BACKGAMMON), seed=3, journal=Journal(path))
    table.play_match()
    lines = path.read_bytes().splitlines(keepends=True)
    start = json.loads(lines[0])
    for key in ("match", "started"):
        start.pop(key)
    path.write_bytes(json.dumps(start).encode() + b"\n" + b"".join(lines[1:]))
    (first,) = records_of_journals(Journal(path), records, lambda line: None)
    text = first.read_bytes()
    first.write_bytes(text[:100])  # a record cut short, older than its journal: rebuilt, to the same file
    os.utime(first, (0, 0))
    (again,) = records_of_journals(Journal(path), records, lambda line: None)
    assert first == again and first.name.startswith("undated-") and len(list(records.iterdir())) == 1
    assert again.read_bytes() == text


def test_damaged_finished_journals_are_read_without_being_changed(tmp_path: Path) -> None:
    path, records = tmp_path / "j.jsonl", tmp_path / "records"
    table = Table(Settings(BACKGAMMON), seed=5, journal=Journal(path))
    table.play_match()
    done = tmp_path / "j.jsonl.done-1"
    data = path.read_bytes()
    path.rename(done)
    lines = data.splitlines(keepends=True)
    broken = b"".join(lines[:6] + [b"\x00garbage\n"] + lines[6:])
    done.write_bytes(broken)
    (tmp_path / "j.jsonl.done-2").write_bytes(b"not a journal\n")
    logs: list[str] = []
    (record,) = records_of_journals(Journal(path), records, logs.append)
    assert done.read_bytes() == broken  # read only
    assert _replays(record).games[0].result is not None


# ----------------------------------------------------------------------------- atomic writes


def test_write_atomic_replaces_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a.mat"
    write_atomic(target, b"old")
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"

    def fail(*args: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        write_atomic(target, b"newer")
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.mat"]


def test_a_records_path_that_is_a_file_is_refused_before_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "records"
    file.write_text("not a folder")
    journal = tmp_path / "j.jsonl"
    code, text = run(["run", "--players", "random", "--journal", str(journal), "--records", str(file)])
    assert code == 2
    assert not journal.exists() and text == ""  # refused before any play
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(file) in err[0]
