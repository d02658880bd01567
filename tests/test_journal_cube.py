"""Cube actions in the journal and the records: the ``cube`` entry encodes and decodes, a
journal with doubles, takes and a drop resumes to the same match, and the ``.mat`` written
from it reads back (and imports into gnubg when it is installed)."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.journal_entries import (
    CubeEntry, Entry, EntryError, GameEntry, GameOverEntry, OpeningEntry, StartEntry, TurnEntry, decode, encode,
)
from controller.journal_salvage import resume_kept, salvage
from controller.machine import Controller, Phase, ResumeError, Settings
from controller.notation.moves import format_play
from controller.notation.position_json import position_to_json
from controller.records.from_match import match_record
from controller.records.matfile import read_mat, write_mat
from controller.records.replay import replay as replay_record
from controller.rules import get_rule_set
from controller.rules.game import CubeAction, Match
from controller.rules.values import BLACK, Colour, Play, Roll

RULES = get_rule_set("backgammon")
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)


def test_a_cube_entry_encodes_and_decodes() -> None:
    entry = CubeEntry(7, 12.5, BLACK, "double", 4)
    data = encode(entry)
    assert data == {"seq": 7, "time": 12.5, "type": "cube", "colour": "black", "action": "double", "value": 4}
    assert decode(data) == entry


@pytest.mark.parametrize(
    ("change", "named"),
    [({"action": "redouble"}, "'action'"), ({"value": 3}, "power of two"), ({"value": 1}, "'value'"),
     ({"colour": "red"}, "'colour'")],
)
def test_a_bad_cube_entry_names_its_field(change: dict, named: str) -> None:
    data = {"seq": 7, "time": 1.0, "type": "cube", "colour": "white", "action": "take", "value": 2, **change}
    with pytest.raises(EntryError, match=named):
        decode(data)


class _Journal:
    """Journal entries of a match written by hand, as the controller writes them."""

    def __init__(self, length: int) -> None:
        self.entries: list[Entry] = [StartEntry(1, 0.0, "backgammon", {}, None, length)]
        self.match = Match(RULES, length)
        self.game = self.match.new_game()

    def add(self, entry_of: type, *fields: object) -> None:
        self.entries.append(entry_of(len(self.entries) + 1, float(len(self.entries)), *fields))

    def turns(self, rng: random.Random, count: int) -> None:
        game = self.game
        if game.opening is None:
            self.add(OpeningEntry, (5, 2))
            game.throw_opening(5, 2)
        for _ in range(count):
            if game.is_over:
                return
            roll = game.pending_roll or _roll(rng)
            play = rng.choice(game.legal_plays(roll)) if game.legal_plays(roll) else None
            play = play if play is not None else Play()
            colour = game.turn
            game.play(roll, play)
            self.add(TurnEntry, colour, roll, format_play(play, RULES), play, position_to_json(RULES, game.position))

    def cube(self, colour: Colour, action: str) -> None:
        value = self.game.cube_value * 2
        self.game.cube(colour, action)
        self.add(CubeEntry, colour, action, value)

    def end(self) -> None:
        result = self.game.result()
        assert result is not None
        self.match.finish_game()
        self.add(GameOverEntry, result.winner, result.points, result.kind)

    def next_game(self) -> None:
        self.game = self.match.new_game()
        self.add(GameEntry, len(self.match.games))


def _roll(rng: random.Random) -> Roll:
    return Roll(rng.randint(1, 6), rng.randint(1, 6))


def _cube_match() -> _Journal:
    """A 5-point match: game 1 doubled, taken, redoubled and dropped; game 2 doubled and
    taken, then played on a while."""
    rng = random.Random(11)
    journal = _Journal(5)
    journal.turns(rng, 3)
    mover = journal.game.turn
    journal.cube(mover, "double")
    journal.cube(mover.opponent, "take")
    journal.turns(rng, 1)
    journal.cube(mover.opponent, "double")
    journal.cube(mover, "drop")
    journal.end()
    journal.next_game()
    journal.turns(rng, 4)
    mover = journal.game.turn
    journal.cube(mover, "double")
    journal.cube(mover.opponent, "take")
    journal.turns(rng, 2)
    return journal


def test_a_journal_with_cube_actions_resumes_to_the_same_match() -> None:
    journal = _cube_match()
    controller = Controller(Settings(RULES, match_length=5))
    controller.resume([encode(e) for e in journal.entries])
    assert controller.match.score == journal.match.score
    assert controller.match.results == journal.match.results
    (first, second) = controller.match.games
    assert first.result() is not None and first.result().points == 2 and first.result().kind == "drop"
    assert second.cube_value == 2 and second.cube_owner is journal.game.cube_owner
    assert [h for h in second.history if isinstance(h, CubeAction)] == [
        h for h in journal.game.history if isinstance(h, CubeAction)
    ]
    assert controller.phase is Phase.AWAIT_ROLL


def test_a_cube_entry_that_does_not_follow_is_refused() -> None:
    journal = _cube_match()
    bad = [encode(e) for e in journal.entries]
    index = next(i for i, e in enumerate(bad) if e["type"] == "cube")
    bad[index]["value"] = 4
    with pytest.raises(ResumeError, match=r"journal entry \d+ \(cube\): the cube is at 1"):
        Controller(Settings(RULES, match_length=5)).resume(bad)


def test_salvage_keeps_the_cube_actions_that_still_replay() -> None:
    """A take damaged in the middle is left out; nothing after it follows (the double stands
    unanswered), so the match resumes waiting for the answer."""
    journal = _cube_match()
    entries = [encode(e) for e in journal.entries]
    index = next(i for i, e in enumerate(entries) if e["type"] == "cube" and e["action"] == "take")
    entries[index]["value"] = 8  # the first take no longer follows
    settings = Settings(RULES, match_length=5)
    keep, problems = salvage(settings, entries)
    assert index not in keep and "the cube is at 1" in problems[index]
    assert keep == list(range(index))
    controller = resume_kept(settings, entries, keep, problems)
    assert controller.phase is Phase.CUBE_OFFERED and controller.game.offered_by is not None


def test_the_record_shows_the_cube_and_reads_back() -> None:
    journal = _cube_match()
    text = write_mat(match_record(journal.match))
    assert "Doubles => 2" in text and "Doubles => 4" in text and "Takes" in text and "Drops" in text
    assert "Wins 2 points" in text
    record = read_mat(text, source="cube.mat")
    done = replay_record(record)
    assert done.games[0].result is not None and (done.games[0].result.points, done.games[0].result.kind) == (2, "drop")


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
def test_gnubg_imports_the_cube_actions(tmp_path: Path) -> None:
    journal = _cube_match()
    ours = tmp_path / "ours.mat"
    ours.write_text(write_mat(match_record(journal.match)), encoding="utf-8")
    back = tmp_path / "back.mat"
    commands = tmp_path / "commands.txt"
    commands.write_text(f"import mat {ours}\nexport match mat {back}\n")
    subprocess.run([GNUBG, "-t", "-q", "-c", str(commands)], capture_output=True, timeout=120, check=True)
    again = back.read_text(encoding="utf-8")
    assert "Doubles => 2" in again and "Doubles => 4" in again and "Drops" in again
    record = read_mat(again, source="back.mat")
    assert record.games[0].winner is not None and record.games[0].points == 2
    assert [t.action for t in record.games[1].turns if t.action] == ["double", "take"]
