"""The .mat game record: round trips, real gnubg files, the Mendelev sample, bad input."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.records.matfile import (
    RULE_SETS,
    GameRecordGame,
    MatchRecord,
    RecordError,
    Turn,
    read_mat,
    write_mat,
)
from controller.rules.values import BLACK, WHITE, Roll, RulesError

SAMPLE = Path(__file__).resolve().parents[1] / "controller" / "data" / "mendelev.mat"

# --------------------------------------------------------------------------- strategies

MOVES = ["13/8", "24/23", "bar/22", "8/2*", "6/off", "13/9(2)", "13/9/6", "pool/22", "bar/22*", "3/off", "24/18/13/7*"]
colours = st.sampled_from([WHITE, BLACK])
rolls = st.builds(Roll, st.integers(1, 6), st.integers(1, 6))
plays = st.lists(st.sampled_from(MOVES), max_size=6).map(" ".join)  # up to 60 characters: overflows the column
roll_turns = st.builds(Turn, colours, rolls, plays)
cube_turns = st.builds(lambda c, a: Turn(c, action=a), colours, st.sampled_from(["double", "take", "drop"]))
turns = st.one_of(roll_turns, roll_turns, roll_turns, cube_turns)
safe_text = st.text(alphabet=string.ascii_letters + string.digits + " _-.',()", min_size=1, max_size=24)
names = safe_text.map(str.strip).filter(bool)
header_keys = st.sampled_from(["Site", "Event", "Round", "EventDate", "Crawford", "Match ID", "Player 1 Elo"])
header_values = st.text(alphabet=string.ascii_letters + string.digits + " .:;[]/-", max_size=20)
comments = safe_text.map(str.strip).filter(lambda c: bool(c) and not c.startswith("["))


@st.composite
def games(draw: st.DrawFn, number: int, score: dict, finished: bool) -> GameRecordGame:
    """Game ``number`` after games that left ``score``; ``finished`` games end with Wins."""
    won = draw(colours) if finished else None
    points = draw(st.integers(1, 8)) if finished else None
    game = GameRecordGame(
        number, score[WHITE], score[BLACK], tuple(draw(st.lists(turns, max_size=12))), won, points
    )
    if won is not None:
        score[won] += points
    return game


@st.composite
def records(draw: st.DrawFn) -> MatchRecord:
    """A record the reader accepts: games in order, each but the last finished, scores that
    follow the results, nothing after the match is won."""
    length = draw(st.integers(0, 25))
    count = draw(st.integers(0, 4))
    score = {WHITE: 0, BLACK: 0}
    played = []
    for n in range(1, count + 1):
        last = n == count or (length and max(score.values()) >= length)
        if length and max(score.values()) >= length:
            break
        played.append(draw(games(n, score, finished=not last or draw(st.booleans()))))
    return MatchRecord(
        rules=draw(st.sampled_from(RULE_SETS)),
        options=draw(st.dictionaries(st.sampled_from(["bear_off_higher", "mars", "crawford"]), st.booleans())),
        match_length=length,
        white_name=draw(names),
        black_name=draw(names),
        games=tuple(played),
        headers=tuple(draw(st.lists(st.tuples(header_keys, header_values), max_size=3))),
        comments=tuple(draw(st.lists(comments, max_size=2))),
    )


# --------------------------------------------------------------------------- round trip


@settings(max_examples=300, deadline=None)
@given(records())
def test_write_read_write_round_trip(record: MatchRecord) -> None:
    text = write_mat(record)
    again = read_mat(text)
    assert again == record
    assert write_mat(again) == text


def test_turn_normalises_spaces_and_keeps_the_dice_order() -> None:
    turn = Turn(WHITE, Roll(1, 5), "  13/8   24/23 ")
    assert turn.play == "13/8 24/23"
    game = GameRecordGame(1, turns=(turn,))
    text = write_mat(MatchRecord("backgammon", games=(game,)))
    assert "  1) 15: 13/8 24/23" in text.splitlines()
    assert read_mat(text).games[0].turns[0].roll == Roll(1, 5)


def test_layout_matches_gnubg_columns() -> None:
    long_play = "24/18/13/7* 13/9(2) 6/off"  # 25 characters + "33: " overflows the 27 columns
    game = GameRecordGame(
        1,
        turns=(
            Turn(BLACK, Roll(4, 1), "13/9 24/23"),
            Turn(WHITE, Roll(3, 3), long_play),
            Turn(BLACK, Roll(6, 2), ""),
            Turn(WHITE, action="double"),
            Turn(BLACK, action="take"),
            Turn(WHITE, Roll(5, 2), "13/8 13/11"),
            Turn(BLACK, action="double"),
            Turn(WHITE, action="drop"),
        ),
        winner=BLACK,
        points=2,
    )
    lines = write_mat(MatchRecord("backgammon", games=(game,), white_name="A", black_name="B")).splitlines()
    body = lines[lines.index(" Game 1") :]
    assert body == [
        " Game 1",
        " A : 0                          B : 0",
        "  1)                             41: 13/9 24/23",
        f"  2) 33: {long_play} 62:",
        "  3)  Doubles => 2                Takes",
        "  4) 52: 13/8 13/11               Doubles => 4",
        "  5)  Drops                       Wins 2 points",
        "",
    ]


def test_wins_line_goes_in_the_winners_column() -> None:
    white_wins = GameRecordGame(1, turns=(Turn(WHITE, Roll(6, 4), "6/off 4/off"),), winner=WHITE, points=1)
    black_wins = GameRecordGame(
        2, 1, 0, (Turn(WHITE, Roll(2, 1), "3/1"), Turn(BLACK, Roll(6, 6), "6/off(4)")), BLACK, 4
    )
    lines = write_mat(MatchRecord("trictrac", games=(white_wins, black_wins))).splitlines()
    assert "      Wins 1 point" in lines
    assert " " * 34 + "Wins 4 points" in lines
    back = read_mat("\n".join(lines))
    assert [(g.winner, g.points) for g in back.games] == [(WHITE, 1), (BLACK, 4)]


def test_variation_and_option_headers() -> None:
    record = MatchRecord("rally-hitting", {"mars": True, "bear_off_higher": False})
    text = write_mat(record)
    assert '; [Variation "rally-hitting"]' in text
    assert '; [Option "bear_off_higher" "false"]' in text
    assert '; [Option "mars" "true"]' in text
    back = read_mat(text)
    assert back.rules == "rally-hitting" and dict(back.options) == {"mars": True, "bear_off_higher": False}
    assert '; [Variation "Backgammon"]' in write_mat(MatchRecord("backgammon"))


def test_no_variation_header_reads_as_backgammon() -> None:
    record = read_mat(" 1 point match\n\n Game 1\n A : 0       B : 0\n  1) 31: 8/5 6/5\n")
    assert record.rules == "backgammon"
    assert (record.white_name, record.black_name) == ("A", "B")
    assert record.games[0].turns == (Turn(WHITE, Roll(3, 1), "8/5 6/5"),)


def test_xg_style_headers_and_cannot_move() -> None:
    text = "\ufeff" + "\n".join(
        [
            '; [Site "eXtreme Gammon"]',
            '; [Player 1 "Ann Lee"]',
            '; [Player 2 "Bo"]',
            '; [Variation "Backgammon"]',
            '; [Crawford "On"]',
            "",
            "1 point match",
            "",
            " Game 1",
            " Ann Lee : 0                              Bo : 0",
            "  1) 65: 24/18 18/13                  43: Cannot Move",
            "  2) 21: 13/11 6/5",
            "      Wins 1 point and the match",
        ]
    )
    record = read_mat(text)
    assert (record.white_name, record.black_name, record.match_length) == ("Ann Lee", "Bo", 1)
    assert record.headers == (("Site", "eXtreme Gammon"), ("Crawford", "On"))
    assert record.header("crawford") == "On"
    assert record.games[0].turns[1] == Turn(BLACK, Roll(4, 3), "")
    assert (record.games[0].winner, record.games[0].points) == (WHITE, 1)


# --------------------------------------------------------------------------- real files

# Exported by GNU Backgammon ("export match mat"), games 1 and 2 of
# test/gnubg_selfplay_drops_7p.mat in github.com/kevung/gnubgparser, copied verbatim with
# gnubg's trailing spaces.  It shows the empty left half when the right player starts, a
# left entry of exactly 27 characters, and both places a drop's "Wins" line can go.
GNUBG_DROPS = """\
; [EventDate "2026.09.24"]

 7 point match

 Game 1
 charlot1 : 0                   charlot2 : 0
  1)                             51: 13/8 24/23 
  2) 33: 24/21 24/21 13/10 13/10 62: 24/22 22/16 
  3) 66: 21/15 21/15 15/9* 15/9  63: 25/22 13/7 
  4)  Doubles => 2                Drops
      Wins 1 point

 Game 2
 charlot1 : 1                   charlot2 : 0
  1) 51: 13/8 24/23              64: 6/2* 8/2 
  2) 33: 25/22 13/10 8/5 8/5     21: 6/4 4/3* 
  3) 44: 25/21 13/9 8/4 8/4      21: 6/4* 4/3 
  4) 61: 25/24 10/4              53: 13/8 13/10 
  5) 52: 9/7 7/2                 64: 10/4 8/4 
  6) 43: 6/2 6/3                 66: 24/18 24/18 13/7 13/7
  7) 22: 13/11 13/11 11/9 11/9    Doubles => 2
  8)  Drops                       Wins 1 point 

"""

# An excerpt (the opening of game 4, cut after turn 16, renumbered game 1 at 0-0 so that
# it stands alone) of test/charlot1-charlot2_7p_2025-11-08-2305.mat in
# github.com/kevung/gnubgparser, also a gnubg export: passes written as the roll alone
# ("62: "), and a left entry longer than its column ("14) 11: 17/16 16/15 15/14 14/13* 41: 25/21").
GNUBG_PASSES = """\
; [EventDate "2025.11.08"]

 7 point match

 Game 1
 charlot1 : 0                   charlot2 : 0
  1)                             21: 13/11 6/5 
  2) 41: 24/20* 24/23            43: 25/21 8/5* 
  9) 65: 8/3* 8/2*               41: 25/21 
 10) 31: 13/10 3/2               62: 
 13) 53: 25/20* 20/17            21: 
 14) 11: 17/16 16/15 15/14 14/13* 41: 25/21 
 15) 11: 8/7 8/7 7/6 7/6         52: 
 16) 31: 10/9 9/6                65: 
"""


def test_reads_gnubg_export_with_drops() -> None:
    record = read_mat(GNUBG_DROPS, source="gnubg_selfplay_drops_7p.mat")
    assert record.rules == "backgammon"
    assert record.match_length == 7
    assert (record.white_name, record.black_name) == ("charlot1", "charlot2")
    assert record.headers == (("EventDate", "2026.09.24"),)
    one, two = record.games
    assert one.turns == (
        Turn(BLACK, Roll(5, 1), "13/8 24/23"),
        Turn(WHITE, Roll(3, 3), "24/21 24/21 13/10 13/10"),
        Turn(BLACK, Roll(6, 2), "24/22 22/16"),
        Turn(WHITE, Roll(6, 6), "21/15 21/15 15/9* 15/9"),
        Turn(BLACK, Roll(6, 3), "bar/22 13/7"),  # gnubg's 25/22
        Turn(WHITE, action="double"),
        Turn(BLACK, action="drop"),
    )
    assert (one.winner, one.points) == (WHITE, 1)
    assert (two.number, two.score_white, two.score_black) == (2, 1, 0)
    assert len(two.turns) == 15
    assert two.turns[-2:] == (Turn(BLACK, action="double"), Turn(WHITE, action="drop"))
    assert (two.winner, two.points) == (BLACK, 1)
    # writing it again gives gnubg's layout back, but for the trailing spaces, our headers
    # and the standard spelling of an entry from the bar (gnubg imports either)
    ours = write_mat(record).splitlines()
    theirs = [line.rstrip().replace(" 25/", " bar/") for line in GNUBG_DROPS.splitlines()]
    ours, theirs = ours[ours.index(" Game 1") :], theirs[theirs.index(" Game 1") :]
    assert [" ".join(line.split()) if "bar/" in line else line for line in ours] == [
        " ".join(line.split()) if "bar/" in line else line for line in theirs
    ]


def test_reads_gnubg_export_with_passes() -> None:
    (game,) = read_mat(GNUBG_PASSES).games
    assert (game.number, game.score_white, game.score_black) == (1, 0, 0)
    assert game.turns[6] == Turn(BLACK, Roll(6, 2), "")
    assert game.turns[9] == Turn(WHITE, Roll(1, 1), "17/16 16/15 15/14 14/13*")
    assert game.turns[10] == Turn(BLACK, Roll(4, 1), "bar/21")
    assert game.turns[-1] == Turn(BLACK, Roll(6, 5), "")
    assert game.winner is None and len(game.turns) == 15


# --------------------------------------------------------------------------- the sample


def test_mendelev_sample_file() -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    record = read_mat(text, source=SAMPLE.name)
    assert record.rules == "trictrac"
    assert (record.white_name, record.black_name) == ("White", "Black")
    (game,) = record.games
    assert game.turns == (
        Turn(WHITE, Roll(5, 1), "13/8 24/23"),
        Turn(BLACK, Roll(4, 3), "13/9/6"),
        Turn(WHITE, Roll(4, 4), "13/9(2) 8/4(2)"),
        Turn(BLACK, Roll(3, 2), "13/8"),
        Turn(WHITE, Roll(6, 1), "13/7 8/7"),
        Turn(BLACK, Roll(6, 4), "8/2* 6/2"),
    )
    assert game.winner is None and game.points is None
    assert write_mat(record) == text  # the file is in the writer's own layout


# --------------------------------------------------------------------------- bad input

GOOD_HEAD = '; [Variation "trictrac"]\n\n 0 point match\n\n Game 1\n White : 0      Black : 0\n'

BAD_INPUT = [
    # (text, line of the error, words the message must contain)
    (GOOD_HEAD + "  1) 51: 13/8 24/23      43: 13/9/6\n  2) x2: 13/9\n", 8, "expected a roll like '52:' but found 'x2:'"),
    (GOOD_HEAD + "  1) 7: 13/8\n", 7, "expected a roll like '52:' but found '7:'"),
    (" 0 point match\n\n  1) 51: 13/8 24/23\n", 3, "'Game N'"),
    (GOOD_HEAD + "  1) 51: 13/8 24/23\nthe cat sat on the board\n", 8, "found 'the'"),
    (GOOD_HEAD.replace(" White : 0      Black : 0", " White 0 Black 0"), 6, "score line"),
    (GOOD_HEAD.replace("Black : 0", "Black : x"), 6, "score line"),
    (" 0 point match\n Game one\n", 2, "game number"),
    ('; [Site "x"]\n Game 1\n', 2, "point match"),
    ('; [Site "x"]\n', 1, "not a .mat match file"),
    ("", 1, "not a .mat match file"),
    ('hello\n 1 point match\n', 1, "found 'hello'"),
    ('; [Site "unterminated]\n 1 point match\n', 1, "expected a header"),
    ('; [Variation "NackGammon"]\n 1 point match\n', 1, "unknown variation 'NackGammon'"),
    ('; [Option "mars" "perhaps"]\n 1 point match\n', 1, '"true" or "false"'),
    ('; [Option "mars"]\n 1 point match\n', 1, "option header"),
    (GOOD_HEAD + "  1) 51: 13/8       43: 13/9/6     32: 13/8\n", 7, "at most two entries"),
    (GOOD_HEAD + "      Wins 1 point\n  2) 51: 13/8\n", 8, "after the game was already won"),
    (GOOD_HEAD + "  1)  Beavers => 4\n", 7, "beavers"),
    (GOOD_HEAD + "  1)  Doubles => banana\n", 7, "cannot read 'Doubles => banana'"),
    (GOOD_HEAD + "  1)  Wins 0 points\n", 7, "1 point or more"),
    (" 0 point match\n Game 1\n", 2, "no score line"),
    (" 0 point match\n Game 0\n A : 0  B : 0\n", 2, "game number"),
]


@pytest.mark.parametrize(("text", "line", "words"), BAD_INPUT)
def test_bad_input_names_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_mat(text, source="match.mat")
    error = caught.value
    assert error.line == line, str(error)
    assert str(error).startswith(f"match.mat line {line}: "), str(error)
    assert words in str(error), str(error)
    assert isinstance(error, RulesError) and isinstance(error, ValueError)


def test_error_message_shape() -> None:
    with pytest.raises(RecordError, match=r"^match\.mat line 8: expected a roll like '52:' but found 'x2:'$"):
        read_mat(BAD_INPUT[0][0], source="match.mat")


@pytest.mark.parametrize(
    "make",
    [
        lambda: Turn(WHITE, Roll(5, 2), "13/8: 24/23"),
        lambda: Turn(WHITE, Roll(5, 2), "13/8 Wins"),
        lambda: Turn(WHITE, None, "13/8"),
        lambda: Turn(WHITE, Roll(5, 2), "13/8", "double"),
        lambda: Turn(WHITE, action="beaver"),
        lambda: GameRecordGame(0),
        lambda: GameRecordGame(1, winner=WHITE),
        lambda: GameRecordGame(1, -1),
        lambda: MatchRecord("chess"),
        lambda: MatchRecord("trictrac", white_name="A:B"),
        lambda: MatchRecord("trictrac", black_name=" B"),
        lambda: MatchRecord("trictrac", {"mars": 1}),
        lambda: MatchRecord("trictrac", headers=(("Variation", "x"),)),
        lambda: MatchRecord("trictrac", headers=(("Site", 'say "hi"'),)),
        lambda: MatchRecord("trictrac", comments=("[Site \"x\"]",)),
        lambda: MatchRecord("trictrac", match_length=-1),
    ],
)
def test_records_that_cannot_be_written_are_refused(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RecordError):
        make()


def test_records_are_immutable_and_hashable() -> None:
    record = MatchRecord("rally", {"mars": True}, games=[GameRecordGame(1, turns=[Turn(WHITE, Roll(2, 1))])])
    assert isinstance(record.games, tuple) and isinstance(record.games[0].turns, tuple)
    assert record.options == (("mars", True),) and record.option("mars") and not record.option("bear_off_higher")
    hash(record)
    with pytest.raises(AttributeError):
        record.rules = "trictrac"  # type: ignore[misc]
