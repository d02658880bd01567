"""The values of a ``.mat`` game record (``MatchRecord``, its games and turns), checked as
they are built, and ``RecordError``; ``controller.records.matfile`` writes and reads them."""

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
