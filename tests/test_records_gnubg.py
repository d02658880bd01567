"""The .mat reader reads what GNU Backgammon exports and is strict about everything else:
one clear error naming the line, never another exception."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.records.mat_reader import standard_play
from controller.records.matfile import MAX_MATCH_LENGTH, MatchRecord, RecordError, read_mat, write_mat
from controller.records.replay import ReplayError, replay
from controller.notation.moves import format_play
from controller.rules import get_rule_set
from controller.rules.values import BLACK, WHITE, Roll, RulesError

DATA = Path(__file__).resolve().parent / "data" / "gnubg"
MATCH5 = DATA / "gnubg-1.07-match5.mat"
RESIGN = DATA / "gnubg-1.07-match3-resign.mat"
MONEY = DATA / "gnubg-1.07-money-drop.mat"
GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if Path("/usr/games/gnubg").exists() else None)


def _read(path: Path) -> MatchRecord:
    return read_mat(path.read_text(encoding="utf-8"), source=path.name)


# ----------------------------------------------------------------------------- gnubg's files


@pytest.mark.parametrize(
    ("text", "standard"),
    [
        ("25/22", "bar/22"),
        ("25/21*/15 13/7", "bar/21*/15 13/7"),
        ("6/0(2) 5/0", "6/off(2) 5/off"),
        ("25/20 6/2*", "bar/20 6/2*"),
        ("9/3 6/0 6/0 5/0", "9/3 6/off 6/off 5/off"),
        ("bar/22 6/off 13/9(2) 13/9/6", "bar/22 6/off 13/9(2) 13/9/6"),
        ("0/5 22/25", "0/5 22/25"),  # not gnubg's: left for the notation to refuse
        ("", ""),
    ],
)
def test_gnubg_spellings_read_as_the_standard_ones(text: str, standard: str) -> None:
    assert standard_play(text) == standard


def test_gnubg_match_with_entries_bear_offs_drop_resignation_and_gammon_replays() -> None:
    record = _read(MATCH5)
    assert record.rules == "backgammon" and record.match_length == 5
    assert (record.white_name, record.black_name) == ("gnubg", "root")
    done = replay(record)
    outcomes = [(g.result.winner, g.result.points, g.result.kind) for g in done.games if g.result]
    assert outcomes == [(BLACK, 2, "drop"), (WHITE, 2, "resigned"), (WHITE, 2, "single"), (BLACK, 2, "gammon")]
    assert done.score == {WHITE: 4, BLACK: 4}
    plays = [t.play for g in record.games for t in g.turns if t.action is None]
    assert any(p.startswith("bar/") for p in plays) and any("/off" in p for p in plays)
    assert not any("25/" in p or p.endswith("/0") for p in plays)


def test_gnubg_resignation_worth_a_backgammon_with_the_cube_taken() -> None:
    done = replay(_read(RESIGN))
    (game,) = done.games
    assert game.result is not None and (game.result.winner, game.result.points) == (BLACK, 6)


def test_gnubg_money_session_with_a_drop() -> None:
    record = _read(MONEY)
    assert record.match_length == 0
    (game,) = replay(record).games
    assert game.result is not None and (game.result.winner, game.result.points, game.result.kind) == (BLACK, 1, "drop")


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
def test_gnubg_imports_what_we_write_and_exports_it_back(tmp_path: Path) -> None:
    record = _read(MATCH5)
    ours = tmp_path / "ours.mat"
    ours.write_text(write_mat(record), encoding="utf-8")
    back = tmp_path / "back.mat"
    commands = tmp_path / "commands.txt"
    commands.write_text(f"import mat {ours}\nexport match mat {back}\n")
    subprocess.run([GNUBG, "-t", "-q", "-c", str(commands)], capture_output=True, timeout=120, check=True)
    again = _read(back)
    assert [(g.winner, g.points) for g in again.games] == [(g.winner, g.points) for g in record.games]
    # gnubg writes the moves of a play in its own order: the plays are the same if every turn
    # leaves the same position
    assert [[(t.colour, t.roll, t.after) for t in g.turns] for g in replay(again).games] == [
        [(t.colour, t.roll, t.after) for t in g.turns] for g in replay(record).games
    ]


# ----------------------------------------------------------------------------- strict

HEAD = " 5 point match\n\n"
GAME1 = " Game 1\n A : 0                          B : 0\n  1) 31: 8/5 6/5                43: 24/21 13/9\n"


def _bad(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_mat(text, source="m.mat")
    message = str(caught.value)
    assert message.startswith(f"m.mat line {line}: ") and words in message, message
    assert "\n" not in message


STRICT = [
    # (text, line of the error, words the message must contain)
    (HEAD + GAME1 + "      Wins 1 point\n\n" + GAME1.replace("A : 0", "A : 1"), 8, "expected 'Game 2' here"),
    (HEAD + GAME1 + "\n Game 2\n A : 0        B : 0\n", 7, "game 1 (line 3) has not ended"),
    (HEAD + GAME1 + "      Wins 1 point\n Game 3\n A : 1      B : 0\n", 7, "expected 'Game 2' here"),
    (HEAD + GAME1 + "      Wins 99 points\n", 6, "more than this game can be worth (at most 8"),
    (HEAD + GAME1 + "  2)  Doubles => 2               Takes\n      Wins 17 points\n", 7, "at most 16"),
    (HEAD + GAME1 + "      Wins " + "9" * 5000 + " points\n", 6, "more than this game can be worth"),
    (" 100000000000000000000 point match\n", 1, "match length 10000000000000000000... is out of range (0-99)"),
    (" -1 point match\n", 1, "the match length -1 is out of range"),
    (f" {MAX_MATCH_LENGTH + 1} point match\n", 1, "out of range (0-99)"),
    (" " + "7" * 5000 + " point match\n", 1, "out of range"),
    (HEAD + GAME1.replace("B : 0", "B : 1"), 4, "the score before game 1 is 0-0"),
    (HEAD + GAME1 + "      Wins 2 points\n Game 2\n A : 0     B : 2\n", 8, "is 2-0 after the games before it, not 0-2"),
    (HEAD.replace("5", "1") + GAME1 + "      Wins 1 point\n Game 2\n A : 1     B : 0\n", 7, "after the match was won (line 6)"),
    (HEAD + GAME1 + "      Wins 1 point and the match\n", 6, "has 1 of the 5 points the match needs"),
    (HEAD + GAME1 + "  2)  Doubles => 99999999999\n", 6, "the cube 99999999999 is out of range"),
    (HEAD + GAME1.replace("B : 0", "B : " + "1" * 5000), 4, "the score 1111"),
]


@pytest.mark.parametrize(("text", "line", "words"), STRICT, ids=range(len(STRICT)))
def test_a_record_that_breaks_the_match_is_refused_naming_the_line(text: str, line: int, words: str) -> None:
    _bad(text, line, words)


def test_a_win_the_cube_allows_reads_and_replay_checks_it_against_the_position() -> None:
    text = HEAD + GAME1 + "  2)  Doubles => 2               Takes\n      Wins 16 points\n"
    record = read_mat(text)
    assert record.games[0].points == 16
    with pytest.raises(ReplayError, match=r"game 1 \(line 7\): white wins 16 by resignation, but with the cube at 2 a "
                                          r"backgammon game is worth 2, 4, 6"):
        replay(record)


def test_replay_names_the_line_of_an_illegal_turn() -> None:
    text = HEAD + GAME1 + "  2) 21: 13/1\n"
    with pytest.raises(ReplayError, match=r"^game 1, turn 3 \(white\) \(line 6\): "):
        replay(read_mat(text))


@pytest.mark.parametrize(
    ("variation", "options", "points", "ok"),
    [("rally", "", 1, True), ("rally", "", 2, False), ("rally", '; [Option "mars" "true"]\n', 2, True),
     ("trictrac", "", 8, True), ("trictrac", "", 3, False), ("backgammon", "", 3, True), ("backgammon", "", 4, False)],
)
def test_a_resignation_is_worth_what_the_rules_allow(variation: str, options: str, points: int, ok: bool) -> None:
    rules = get_rule_set(variation)
    play = format_play(rules.legal_plays(rules.start_position(), Roll(3, 1))[0], rules)
    text = (f'; [Variation "{variation}"]\n{options} 0 point match\n\n Game 1\n A : 0      B : 0\n'
            f"  1) 31: {play}\n      Wins {points} point{'s' if points > 1 else ''}\n")
    record = read_mat(text)
    if ok:
        assert replay(record).games[0].result.points == points  # type: ignore[union-attr]
    else:
        with pytest.raises(ReplayError, match="by resignation"):
            replay(record)


# ----------------------------------------------------------------------------- never another exception


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(" \n\t:;[]\"()/*-=>0123456789GamepointWinsTakesDropsDoubles") + ["\x00", "\ufeff", "é"]),
               max_size=400))
def test_any_text_is_read_or_refused_with_a_record_error(text: str) -> None:
    try:
        record = read_mat(" 5 point match\n Game 1\n A : 0   B : 0\n" + text)
    except RecordError as error:
        assert "\n" not in str(error)
        return
    try:
        replay(record)
    except RulesError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.binary(min_size=1, max_size=4), st.sampled_from(["replace", "insert", "delete"]))
def test_a_damaged_gnubg_file_is_read_or_refused_clearly(where: int, junk: bytes, how: str) -> None:
    data = MATCH5.read_bytes()
    at = where % len(data)
    if how == "replace":
        data = data[:at] + junk + data[at + len(junk):]
    elif how == "insert":
        data = data[:at] + junk + data[at:]
    else:
        data = data[:at] + data[at + len(junk):]
    text = data.decode("utf-8", errors="replace")
    try:
        record = read_mat(text, source="damaged.mat")
    except RecordError as error:
        assert str(error).startswith("damaged.mat") and "\n" not in str(error)
        return
    try:
        replay(record)
    except RulesError as error:
        assert "\n" not in str(error)
