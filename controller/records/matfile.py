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
- **Match length**: `` 0 point match`` is an unlimited session (money play in gnubg).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from ..rules.values import WHITE, Colour, Roll, RulesError

RULE_SETS: tuple[str, ...] = ("trictrac", "backgammon", "rally", "rally-hitting")
"""Rule-set names a record may carry (RULES.md section 4)."""

DEFAULT_RULES = "backgammon"
"""The rule set of a file without a ``Variation`` header (a plain gnubg/XG export)."""

CUBE_ACTIONS: tuple[str, ...] = ("double", "take", "drop")

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
_RIGHT_FROM_COLUMN = 19  # a lone entry starting here or further right is the right column

# Words that start a cube or end-of-game entry; a play may not contain them as words.
_ENTRY_WORDS = frozenset(
    {"double", "doubles", "take", "takes", "drop", "drops", "win", "wins", "beaver", "beavers", "raccoon", "raccoons"}
)
_TRUE_WORDS = ("true", "on", "yes")
_FALSE_WORDS = ("false", "off", "no")

_OPTION_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_HEADER_KEY = re.compile(r"[A-Za-z][A-Za-z0-9 _.-]*")
_HEADER_LINE = re.compile(r'\[\s*(?P<key>[^"\[\]]*?)\s+"(?P<value>[^"]*)"(?:\s+"(?P<extra>[^"]*)")?\s*\]')
_MATCH_LINE = re.compile(r"\s*(\d+)\s+point\s+match\s*", re.IGNORECASE)
_GAME_LINE = re.compile(r"\s*Game\b\s*(?P<number>.*?)\s*")
_SCORE_LINE = re.compile(r"\s*(?P<white>[^:]*?)\s*:\s*(?P<sw>\d+)\s+(?P<black>[^:]*?)\s*:\s*(?P<sb>\d+)\s*")
_NUMBERED = re.compile(r"\s*\d+\)")
_DICE = re.compile(r"[1-6][1-6]")
_DOUBLE = re.compile(r"doubles?(?:\s*=>\s*(?P<value>\d+))?", re.IGNORECASE)
_TAKE = re.compile(r"takes?", re.IGNORECASE)
_DROP = re.compile(r"drops?", re.IGNORECASE)
_WINS = re.compile(r"wins?\s+(?P<points>\d+)\s+points?(?:\s+and\s+the\s+match)?", re.IGNORECASE)


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


def _check_name(name: object, which: str) -> None:
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


def _check_header(key: object, value: object) -> None:
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
        if not _is_count(self.match_length, 0):
            raise RecordError(f"the match length is a whole number >= 0 (0: unlimited), not {self.match_length!r}")
        _check_name(self.white_name, "White's")
        _check_name(self.black_name, "Black's")
        games = tuple(self.games)
        for game in games:
            if not isinstance(game, GameRecordGame):
                raise RecordError(f"{game!r} is not a GameRecordGame")
        object.__setattr__(self, "games", games)
        headers = tuple(tuple(pair) for pair in self.headers)
        for pair in headers:
            if len(pair) != 2:
                raise RecordError(f"a header is a (key, value) pair, not {pair!r}")
            _check_header(*pair)
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
    return _Reader(source).read(text)


@dataclass
class _GameDraft:
    """A game being read, with the line of its ``Game N`` header for errors."""

    line: int
    number: int
    score_white: int = 0
    score_black: int = 0
    white_name: str = ""
    black_name: str = ""
    turns: list[Turn] | None = None
    winner: Colour | None = None
    points: int | None = None


class _Reader:
    """Line-by-line reader: header comments, the match line, then games."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.rules: str | None = None
        self.options: dict[str, bool] = {}
        self.names: dict[str, str] = {}
        self.headers: list[tuple[str, str]] = []
        self.comments: list[str] = []
        self.match_length: int | None = None
        self.games: list[GameRecordGame] = []
        self.game: _GameDraft | None = None
        self.expect_score = False
        self.first_names: tuple[str, str] = ("", "")  # from the first score line

    def error(self, line: int, message: str) -> RecordError:
        return RecordError(message, line=line, source=self.source)

    def read(self, text: str) -> MatchRecord:
        lines = text.splitlines()
        if lines and lines[0].startswith("\ufeff"):
            lines[0] = lines[0][1:]  # XG writes a byte-order mark
        for number, raw in enumerate(lines, 1):
            line = raw.expandtabs().rstrip()
            if not line.strip():
                continue
            if self.match_length is None:
                self.header_part(number, line)
            elif self.expect_score:
                self.score_line(number, line)
            elif _GAME_LINE.fullmatch(line):
                self.game_line(number, line)
            elif self.game is None:
                raise self.error(number, f"expected a 'Game N' line before the moves but found {line.strip()!r}")
            else:
                self.entry_line(number, line)
        last = max(len(lines), 1)
        if self.match_length is None:
            raise self.error(last, "no ' N point match' line: this is not a .mat match file")
        if self.expect_score:
            assert self.game is not None
            raise self.error(self.game.line, f"'Game {self.game.number}' has no score line after it")
        self.finish_game()
        white = self.names.get("white") or self.first_names[0] or "White"
        black = self.names.get("black") or self.first_names[1] or "Black"
        try:
            return MatchRecord(
                rules=self.rules or DEFAULT_RULES,
                options=self.options,
                match_length=self.match_length,
                white_name=white,
                black_name=black,
                games=tuple(self.games),
                headers=tuple(self.headers),
                comments=tuple(self.comments),
            )
        except RecordError as error:
            raise RecordError(error.message, source=self.source) from None

    # -- before the match line

    def header_part(self, number: int, line: str) -> None:
        stripped = line.strip()
        if stripped[0] in ";#":
            content = stripped[1:].strip()
            if content.startswith("["):
                self.header(number, content)
            elif content:
                self.comments.append(content)
            return
        match = _MATCH_LINE.fullmatch(line)
        if match:
            self.match_length = int(match.group(1))
            return
        if _GAME_LINE.fullmatch(line):
            raise self.error(number, "expected a ' N point match' line before the first game")
        raise self.error(
            number, f"expected a '; [Key \"value\"]' header or the ' N point match' line but found {stripped!r}"
        )

    def header(self, number: int, content: str) -> None:
        match = _HEADER_LINE.fullmatch(content)
        if not match:
            raise self.error(number, f"expected a header like '[Site \"value\"]' but found {content!r}")
        key, value, extra = match.group("key"), match.group("value"), match.group("extra")
        lowered = key.lower()
        if lowered == "option":
            if extra is None:
                raise self.error(number, f"an option header is '[Option \"name\" \"true\"]', not {content!r}")
            if not _OPTION_NAME.fullmatch(value):
                raise self.error(number, f"option name {value!r} must be a word such as 'bear_off_higher'")
            if value in self.options:
                raise self.error(number, f"option {value!r} is given twice")
            word = extra.strip().lower()
            if word not in _TRUE_WORDS + _FALSE_WORDS:
                raise self.error(number, f"option {value!r} is \"true\" or \"false\", not {extra!r}")
            self.options[value] = word in _TRUE_WORDS
            return
        if extra is not None:
            raise self.error(number, f"header {key!r} takes one value, not two")
        if lowered == "variation":
            if self.rules is not None:
                raise self.error(number, "a second Variation header")
            rules = value.strip().lower()
            if rules not in RULE_SETS:
                raise self.error(number, f"unknown variation {value!r} (known: {', '.join(RULE_SETS)})")
            self.rules = rules
        elif lowered in ("player 1", "player 2"):
            colour = "white" if lowered == "player 1" else "black"
            try:
                _check_name(value, "White's" if colour == "white" else "Black's")
            except RecordError as error:
                raise self.error(number, error.message) from None
            self.names[colour] = value
        else:
            try:
                _check_header(key, value)
            except RecordError as error:
                raise self.error(number, error.message) from None
            self.headers.append((key, value))

    # -- games

    def game_line(self, number: int, line: str) -> None:
        match = _GAME_LINE.fullmatch(line)
        assert match
        text = match.group("number")
        if not text.isdigit() or int(text) < 1:
            raise self.error(number, f"expected a game number like 'Game 1' but found {line.strip()!r}")
        self.finish_game()
        self.game = _GameDraft(number, int(text), turns=[])
        self.expect_score = True

    def score_line(self, number: int, line: str) -> None:
        match = _SCORE_LINE.fullmatch(line)
        if not match or not match.group("white") or not match.group("black"):
            raise self.error(
                number, f"expected a score line like ' White : 0      Black : 0' but found {line.strip()!r}"
            )
        assert self.game is not None
        self.game.score_white, self.game.score_black = int(match.group("sw")), int(match.group("sb"))
        if not self.first_names[0]:
            self.first_names = (match.group("white"), match.group("black"))
        self.expect_score = False

    def finish_game(self) -> None:
        draft = self.game
        if draft is None:
            return
        try:
            self.games.append(
                GameRecordGame(
                    draft.number,
                    draft.score_white,
                    draft.score_black,
                    tuple(draft.turns or ()),
                    draft.winner,
                    draft.points,
                )
            )
        except RecordError as error:
            raise self.error(draft.line, error.message) from None
        self.game = None

    def entry_line(self, number: int, line: str) -> None:
        """A line of one or two entries: left column White, right column Black."""
        entries = self.split_entries(number, line)
        if len(entries) > 2:
            raise self.error(number, f"a line holds at most two entries, one per player, but found {len(entries)}")
        if len(entries) == 2:
            colours = [LEFT_COLOUR, LEFT_COLOUR.opponent]
        elif entries:
            column = entries[0][0]
            colours = [LEFT_COLOUR.opponent if column >= _RIGHT_FROM_COLUMN else LEFT_COLOUR]
        else:
            colours = []
        for (_, words), colour in zip(entries, colours):
            self.entry(number, words, colour)

    def split_entries(self, number: int, line: str) -> list[tuple[int, list[str]]]:
        """The entries of a line as (starting column, words), after any ``N)`` number."""
        numbered = _NUMBERED.match(line)
        start = numbered.end() if numbered else 0
        entries: list[tuple[int, list[str]]] = []
        for match in re.finditer(r"\S+", line[start:]):
            word = match.group()
            if ":" in word or word.lower() in _ENTRY_WORDS:
                entries.append((start + match.start(), [word]))
            elif entries:
                entries[-1][1].append(word)
            else:
                raise self.error(
                    number,
                    f"expected a roll like '52:', a cube action or 'Wins' but found {word!r}",
                )
        return entries

    def entry(self, number: int, words: list[str], colour: Colour) -> None:
        game = self.game
        assert game is not None and game.turns is not None
        if game.winner is not None:
            raise self.error(number, f"{' '.join(words)!r} comes after the game was already won")
        head = words[0]
        text = " ".join(words)
        if ":" in head:
            dice, _, rest = head.partition(":")
            if not _DICE.fullmatch(dice):
                raise self.error(number, f"expected a roll like '52:' but found {dice + ':'!r}")
            play = " ".join(([rest] if rest else []) + words[1:])
            if play.lower() == "cannot move":
                play = ""
            try:
                game.turns.append(Turn(colour, Roll(int(dice[0]), int(dice[1])), play))
            except RecordError as error:
                raise self.error(number, error.message) from None
            return
        if _DOUBLE.fullmatch(text):
            value = _DOUBLE.fullmatch(text).group("value")  # type: ignore[union-attr]
            if value is not None and int(value) < 2:
                raise self.error(number, f"a double makes the cube 2 or more, not {value}")
            game.turns.append(Turn(colour, action="double"))
        elif _TAKE.fullmatch(text):
            game.turns.append(Turn(colour, action="take"))
        elif _DROP.fullmatch(text):
            game.turns.append(Turn(colour, action="drop"))
        elif _WINS.fullmatch(text):
            points = int(_WINS.fullmatch(text).group("points"))  # type: ignore[union-attr]
            if points < 1:
                raise self.error(number, f"a win is worth 1 point or more, not {points}")
            game.winner, game.points = colour, points
        elif head.lower().startswith(("beaver", "raccoon")):
            raise self.error(number, f"{text!r}: beavers and raccoons are not part of these rules")
        else:
            raise self.error(
                number, f"cannot read {text!r}: expected 'Doubles => 2', 'Takes', 'Drops' or 'Wins 1 point'"
            )
