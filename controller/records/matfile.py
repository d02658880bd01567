"""The plain-text game record: the Jellyfish ``.mat`` match file, read and written.

GNU Backgammon and eXtreme Gammon import this layout (gnubg: ``import mat``), so a
trictrac or backgammon game played on the board opens there for analysis.  The rally rule
sets use the same layout with a header naming the rule set.  This module is purely
textual: it checks the layout, not the rules.  Moves stay as notation strings
(``13/8 24/23``, ``bar/22``, ``8/2*``, ``6/off``, ``13/9(2)``, ``13/9/6``, ``pool/22``);
``controller.records.replay`` turns them into plays.

The layout, as gnubg's ``ExportMatchMat``/``ExportGameJF`` writes it and its ``ImportMat``
reads it::

    ; [Player 1 "White"]
    ; [Player 2 "Black"]
    ; [Variation "trictrac"]
    ; [Option "mars" "true"]

     0 point match

     Game 1
     White : 0                      Black : 0
      1) 51: 13/8 24/23              43: 13/9/6
      2) 44: 13/9(2) 8/4(2)          32: 13/8
      3)  Doubles => 2                Takes
      4) 52:                         64: 8/2* 6/2
                                      Wins 2 points

Decisions (see the module's tests for the real gnubg files they were checked against):

- **Columns**: the left column is always White, the right column always Black, in every
  game (``.mat`` keeps one player per column for the whole match; ``Player 1`` is the left
  one).  When Black moves first, the first line has an empty left half:
  ``  1)`` and spaces up to column 33, as gnubg writes it.
- **Widths**: ``"%3d) "``, the left entry padded to 27 characters and one space, so the
  right entry starts at column 33; a longer left entry pushes the right one along (it is
  still separated by a space).  Cube actions and ``Wins`` carry gnubg's leading space
  (``  3)  Doubles => 2``).  The score line is ``" %-31s%s : %d"``.  Trailing spaces,
  which gnubg leaves, are not written and are ignored when read.
- **Turns**: ``52: 13/8 24/23`` with the dice in the order thrown; a pass (no legal play,
  or a rally turn lost to closed entry points) is the roll alone, ``63:`` (gnubg writes
  ``63: `` with nothing after it; XG's ``63: Cannot Move`` reads as a pass too).
- **Cube**: ``Doubles => N`` (N recomputed when written: 2, 4, 8 ... per game, as gnubg
  does; when read it is checked to be a number but not kept), ``Takes``, ``Drops``.
- **End**: ``Wins N point(s)`` in the winner's column: on the drop's line when the right
  player wins after a drop, otherwise on a line of its own (6 spaces for the left column,
  34 for the right).  ``... and the match`` (Jellyfish) is accepted when read.  A game
  without a ``Wins`` line is unfinished.
- **Headers**: ``; [Key "value"]`` comment lines before the ``N point match`` line, the
  PGN-like style of XG and gnubg.  ``Player 1``/``Player 2`` name White and Black;
  ``Variation`` names the rule set (``trictrac``, ``Backgammon``, ``rally``,
  ``rally-hitting``: backgammon is written with gnubg's and XG's capital so that they
  recognise it; read in any case; a file without it, e.g. one exported by gnubg, is
  ``backgammon``); each rule-set option is ``; [Option "name" "true"]`` or ``"false"``.
  Other headers (``Site``, ``Event``, ``EventDate``, ``Crawford`` ...) are kept as they
  are; other ``;`` lines are free comments.  gnubg files its unknown headers (our
  ``Variation "trictrac"`` and ``Option``) as match comments and imports the moves.
- **Match length**: `` 0 point match`` is an unlimited session (money play in gnubg); at
  most ``MAX_MATCH_LENGTH`` (99, the board's own limit; gnubg 1.07 takes 0-64).
- **gnubg's spellings**: ``25/22`` (from the bar) and ``6/0`` (a bear-off), as GNU Backgammon
  1.07 exports them, are read as ``bar/22`` and ``6/off`` (gnubg imports either).
- **Strict reading** (``controller.records.mat_reader``): games numbered 1, 2, 3 ... in
  order, each ended by ``Wins`` before the next; each score line equal to the results
  before it; no game after the match is won; numbers in range.  A record built in code may
  break these (``write_mat`` writes it); ``read_mat`` then refuses it, naming the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

from ..rules.values import WHITE, Colour, Roll, RulesError

RULE_SETS: tuple[str, ...] = ("trictrac", "backgammon", "rally", "rally-hitting")
"""Rule-set names a record may carry (RULES.md section 4)."""

DEFAULT_RULES = "backgammon"
"""The rule set of a file without a ``Variation`` header (a plain gnubg/XG export)."""

CUBE_ACTIONS: tuple[str, ...] = ("double", "take", "drop")

MAX_MATCH_LENGTH = 99
"""The longest match a record may hold: the board's own limit (``game.match_length`` in the
configuration).  GNU Backgammon 1.07 itself plays and imports matches of 0-64 points."""

MAX_POINTS_PER_CUBE = 8
"""The most one game is worth before the cube (trictrac's 8, RULES.md 2.3): a ``Wins`` line
worth more than this times the cube the game's doubles allow is refused when read."""

MAX_CUBE = 4096
MAX_NUMBER_DIGITS = 6
"""A number in a record (match length, score, cube, points) has at most this many digits."""

LEFT_COLOUR: Colour = WHITE
"""The colour written in the left column (``Player 1``); Black is in the right column."""

_VARIATION_WRITTEN = {
    "trictrac": "trictrac",
    "backgammon": "Backgammon",
    "rally": "rally",
    "rally-hitting": "rally-hitting",
}

_LEFT_WIDTH = 27  # gnubg: "%3d) %-27s " puts the right entry at column 33
_NO_NUMBER = " " * 5  # where "%3d) " would be, on a line of its own such as "Wins"
_SCORE_WIDTH = 31  # gnubg: " %-31s%s : %d"

# Words that start a cube or end-of-game entry; a play may not contain them as words.
_ENTRY_WORDS = frozenset(
    {"double", "doubles", "take", "takes", "drop", "drops", "win", "wins", "beaver", "beavers", "raccoon", "raccoons"}
)

_OPTION_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_HEADER_KEY = re.compile(r"[A-Za-z][A-Za-z0-9 _.-]*")


class RecordError(RulesError):
    """A game record that cannot be read or written; names the source and line when known."""

    def __init__(self, message: str, *, line: int | None = None, source: str | None = None) -> None:
        self.message = message
        self.line = line
        self.source = source
        where = source if line is None else f"{source or '<string>'} line {line}"
        super().__init__(f"{where}: {message}" if where else message)


# --------------------------------------------------------------------------- values


def _is_count(value: object, minimum: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def _clean_play(play: object) -> str:
    """The play text with single spaces; RecordError if it would not survive the layout."""
    if not isinstance(play, str):
        raise RecordError(f"a play is text such as '13/8 24/23', not {play!r}")
    words = play.split()
    for word in words:
        if ":" in word or word.lower() in _ENTRY_WORDS or "Game" in word or not word.isprintable():
            raise RecordError(f"{word!r} cannot be part of a play in a .mat record (play {play!r})")
    text = " ".join(words)
    if text.lower() == "cannot move":
        raise RecordError("write a pass as an empty play, not 'Cannot Move'")
    return text


def check_name(name: object, which: str) -> None:
    if (
        not isinstance(name, str)
        or not name
        or name != name.strip()
        or not name.isprintable()
        or any(c in name for c in ':"')
    ):
        raise RecordError(
            f"{which} name {name!r} must be non-empty printable text without ':' or '\"' "
            "and without spaces at either end"
        )


def check_header(key: object, value: object) -> None:
    if not isinstance(key, str) or not _HEADER_KEY.fullmatch(key) or key != key.rstrip():
        raise RecordError(f"header key {key!r} must be letters, digits, spaces, '_', '.' or '-'")
    if key.lower() in ("player 1", "player 2", "variation", "option"):
        raise RecordError(f"header {key!r} is written from the record's own fields; do not repeat it in headers")
    if not isinstance(value, str) or not value.isprintable() or '"' in value:
        raise RecordError(f"header {key!r}: value {value!r} must be printable text without '\"'")


@dataclass(frozen=True, slots=True)
class Turn:
    """One entry of a game: a roll and its play, or a cube action (then ``roll`` is None).

    ``play`` is the move notation as written (``13/8 24/23``), ``""`` for a pass; runs of
    spaces are reduced to one.  ``action`` is ``"double"``, ``"take"`` or ``"drop"``.
    """

    colour: Colour
    roll: Roll | None = None
    play: str = ""
    action: str | None = None
    line: int | None = field(default=None, compare=False, repr=False)
    """The line of the file it was read from, for error messages."""

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            raise RecordError(f"a turn's colour is Colour.WHITE or Colour.BLACK, not {self.colour!r}")
        if self.action is None:
            if not isinstance(self.roll, Roll):
                raise RecordError(f"a turn has a roll, or a cube action instead (roll {self.roll!r})")
            object.__setattr__(self, "play", _clean_play(self.play))
        else:
            if self.action not in CUBE_ACTIONS:
                raise RecordError(f"cube action {self.action!r} is not one of {', '.join(CUBE_ACTIONS)}")
            if self.roll is not None or self.play != "":
                raise RecordError(f"a cube action ({self.action}) has no roll and no play")

    @property
    def is_pass(self) -> bool:
        """A roll with no play written: no legal play, the turn passes."""
        return self.action is None and self.play == ""


@dataclass(frozen=True, slots=True)
class GameRecordGame:
    """One game of a record: the score before it, its turns, and how it ended.

    ``winner`` and ``points`` are both None for an unfinished game.
    """

    number: int
    score_white: int = 0
    score_black: int = 0
    turns: tuple[Turn, ...] = ()
    winner: Colour | None = None
    points: int | None = None
    line: int | None = field(default=None, compare=False, repr=False)
    """The line of its ``Game N`` header, when read from a file."""
    wins_line: int | None = field(default=None, compare=False, repr=False)
    """The line of its ``Wins`` entry, when read from a file."""

    def __post_init__(self) -> None:
        if not _is_count(self.number, 1):
            raise RecordError(f"a game number is a whole number from 1, not {self.number!r}")
        for which, score in (("White", self.score_white), ("Black", self.score_black)):
            if not _is_count(score, 0):
                raise RecordError(f"game {self.number}: {which}'s score {score!r} is not a whole number >= 0")
        turns = tuple(self.turns)
        for turn in turns:
            if not isinstance(turn, Turn):
                raise RecordError(f"game {self.number}: {turn!r} is not a Turn")
        object.__setattr__(self, "turns", turns)
        if (self.winner is None) != (self.points is None):
            raise RecordError(f"game {self.number}: give both the winner and the points, or neither")
        if self.winner is not None:
            if not isinstance(self.winner, Colour):
                raise RecordError(f"game {self.number}: winner {self.winner!r} is not a Colour")
            if not _is_count(self.points, 1):
                raise RecordError(f"game {self.number}: a win is worth a whole number of points from 1, not {self.points!r}")

    @property
    def finished(self) -> bool:
        """The record says who won."""
        return self.winner is not None


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A whole record: rule set and options, match length, names, games and extra headers.

    ``options`` may be given as a mapping; it is kept as sorted ``(name, value)`` pairs so
    that the record stays immutable (``dict(record.options)`` gives the mapping back).
    ``headers`` are further ``(key, value)`` header lines (``Site``, ``Event`` ...), in
    order; ``comments`` are free ``;`` comment lines.  ``match_length`` 0 is unlimited.
    """

    rules: str
    options: tuple[tuple[str, bool], ...] = ()
    match_length: int = 0
    white_name: str = "White"
    black_name: str = "Black"
    games: tuple[GameRecordGame, ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    comments: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.rules not in RULE_SETS:
            raise RecordError(f"unknown rule set {self.rules!r} (known: {', '.join(RULE_SETS)})")
        object.__setattr__(self, "options", _normalise_options(self.options))
        if not _is_count(self.match_length, 0) or self.match_length > MAX_MATCH_LENGTH:
            raise RecordError(
                f"the match length is a whole number of points 0-{MAX_MATCH_LENGTH} (0: unlimited), not {self.match_length!r}"
            )
        check_name(self.white_name, "White's")
        check_name(self.black_name, "Black's")
        games = tuple(self.games)
        for game in games:
            if not isinstance(game, GameRecordGame):
                raise RecordError(f"{game!r} is not a GameRecordGame")
        object.__setattr__(self, "games", games)
        headers = tuple(tuple(pair) for pair in self.headers)
        for pair in headers:
            if len(pair) != 2:
                raise RecordError(f"a header is a (key, value) pair, not {pair!r}")
            check_header(*pair)
        object.__setattr__(self, "headers", headers)
        comments = tuple(c.strip() if isinstance(c, str) else c for c in self.comments)
        for comment in comments:
            if not isinstance(comment, str) or not comment or not comment.isprintable() or comment.startswith("["):
                raise RecordError(f"a comment is one non-empty line not starting with '[', not {comment!r}")
        object.__setattr__(self, "comments", comments)

    def option(self, name: str, default: bool = False) -> bool:
        """The value of option ``name`` as recorded, ``default`` if it is not recorded."""
        return dict(self.options).get(name, default)

    def header(self, key: str) -> str | None:
        """The value of the first extra header called ``key`` (any case), if any."""
        for k, value in self.headers:
            if k.lower() == key.lower():
                return value
        return None


def _normalise_options(options: object) -> tuple[tuple[str, bool], ...]:
    items = options.items() if isinstance(options, Mapping) else options
    seen: dict[str, bool] = {}
    try:
        pairs = [tuple(pair) for pair in items]  # type: ignore[union-attr]
    except TypeError:
        raise RecordError(f"options are a mapping of names to true/false, not {options!r}") from None
    for pair in pairs:
        if len(pair) != 2:
            raise RecordError(f"an option is a (name, value) pair, not {pair!r}")
        name, value = pair
        if not isinstance(name, str) or not _OPTION_NAME.fullmatch(name):
            raise RecordError(f"option name {name!r} must be a word such as 'bear_off_higher'")
        if not isinstance(value, bool):
            raise RecordError(f"option {name!r} is true or false, not {value!r}")
        if name in seen:
            raise RecordError(f"option {name!r} is given twice")
        seen[name] = value
    return tuple(sorted(seen.items()))


# --------------------------------------------------------------------------- writing


def write_mat(record: MatchRecord) -> str:
    """The ``.mat`` text of ``record``, in the layout gnubg imports (see the module doc)."""
    if not isinstance(record, MatchRecord):
        raise TypeError(f"write_mat needs a MatchRecord, not {type(record).__name__}")
    lines = [
        _header_line("Player 1", record.white_name),
        _header_line("Player 2", record.black_name),
    ]
    lines += [_header_line(key, value) for key, value in record.headers]
    lines.append(_header_line("Variation", _VARIATION_WRITTEN[record.rules]))
    lines += [f'; [Option "{name}" "{"true" if value else "false"}"]' for name, value in record.options]
    lines += [f"; {comment}" for comment in record.comments]
    lines += ["", f" {record.match_length} point match", ""]
    for game in record.games:
        lines += _game_lines(game, record.white_name, record.black_name)
        lines.append("")
    return "\n".join(lines) + "\n"


def _header_line(key: str, value: str) -> str:
    return f'; [{key} "{value}"]'


def _score_line(white: str, score_white: int, black: str, score_black: int) -> str:
    left = f"{white} : {score_white}"
    return f" {left.ljust(_SCORE_WIDTH - 1)} {black} : {score_black}"


def _entry_line(number: int | None, left: str | None, right: str | None) -> str:
    prefix = f"{number:3d}) " if number is not None else _NO_NUMBER
    return (prefix + (left or "").ljust(_LEFT_WIDTH) + " " + (right or "")).rstrip()


def _game_lines(game: GameRecordGame, white: str, black: str) -> list[str]:
    """The lines of one game: each turn in its colour's column, in order."""
    out = [f" Game {game.number}", _score_line(white, game.score_white, black, game.score_black)]
    number = 0
    open_left: str | None = None  # a left entry whose line still waits for a right one
    cube = 1
    for turn in game.turns:
        if turn.action == "double":
            cube *= 2
            entry = f" Doubles => {cube}"
        elif turn.action == "take":
            entry = " Takes"
        elif turn.action == "drop":
            entry = " Drops"
        else:
            assert turn.roll is not None
            entry = f"{turn.roll.first}{turn.roll.second}: {turn.play}".rstrip()
        if turn.colour is LEFT_COLOUR:
            if open_left is not None:
                out.append(_entry_line(number, open_left, None))
            number += 1
            open_left = entry
        elif open_left is not None:
            out.append(_entry_line(number, open_left, entry))
            open_left = None
        else:
            number += 1
            out.append(_entry_line(number, None, entry))
    if game.winner is not None:
        wins = f" Wins {game.points} point{'' if game.points == 1 else 's'}"
        if game.winner is not LEFT_COLOUR and open_left is not None:
            out.append(_entry_line(number, open_left, wins))
            open_left = None
        else:
            if open_left is not None:
                out.append(_entry_line(number, open_left, None))
                open_left = None
            left_wins = game.winner is LEFT_COLOUR
            out.append(_entry_line(None, wins if left_wins else None, None if left_wins else wins))
    if open_left is not None:
        out.append(_entry_line(number, open_left, None))
    return out


# --------------------------------------------------------------------------- reading


def read_mat(text: str, *, source: str = "<string>") -> MatchRecord:
    """Read ``.mat`` text; RecordError naming ``source`` and the line if it is malformed."""
    if not isinstance(text, str):
        raise TypeError(f"read_mat needs text, not {type(text).__name__}")
    from .mat_reader import Reader  # the reader builds the classes of this module

    return Reader(source).read(text)
