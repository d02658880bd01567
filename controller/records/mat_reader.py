"""Reading ``.mat`` text, strictly: every error is one line naming the source and line number.

The layout is described in ``controller.records.matfile``.  Besides the layout the reader
checks what the text alone shows about a match: games numbered 1, 2, 3 ... in order, each
ended by a ``Wins`` line before the next begins, the score above each game equal to the
results of the games before it, nothing after the match is won, numbers in range (a match
of 0-99 points, a ``Wins`` worth no more than the game's cube allows).  Whether the turns
are legal and the results right is ``controller.records.replay``'s job.

GNU Backgammon's own spellings are read as the standard ones: ``25/22`` (an entry from the
bar) as ``bar/22`` and ``6/0`` (a bear-off) as ``6/off``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..rules.values import WHITE, Colour, Roll
from .mat_model import (
    DEFAULT_RULES,
    LEFT_COLOUR,
    MAX_CUBE,
    MAX_MATCH_LENGTH,
    MAX_NUMBER_DIGITS,
    MAX_POINTS_PER_CUBE,
    RULE_SETS,
    GameRecordGame,
    MatchRecord,
    RecordError,
    Turn,
    check_header,
    check_name,
)

_ENTRY_WORDS = frozenset(
    {"double", "doubles", "take", "takes", "drop", "drops", "win", "wins", "beaver", "beavers", "raccoon", "raccoons"}
)
_TRUE_WORDS = ("true", "on", "yes")
_FALSE_WORDS = ("false", "off", "no")
_RIGHT_FROM_COLUMN = 19  # a lone entry starting here or further right is the right column

_OPTION_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_HEADER_LINE = re.compile(r'\[\s*(?P<key>[^"\[\]]*?)\s+"(?P<value>[^"]*)"(?:\s+"(?P<extra>[^"]*)")?\s*\]')
_MATCH_LINE = re.compile(r"\s*(-?\d+)\s+point\s+match\s*", re.IGNORECASE)
_GAME_LINE = re.compile(r"\s*Game\b\s*(?P<number>.*?)\s*")
_SCORE_LINE = re.compile(r"\s*(?P<white>[^:]*?)\s*:\s*(?P<sw>\d+)\s+(?P<black>[^:]*?)\s*:\s*(?P<sb>\d+)\s*")
_NUMBERED = re.compile(r"\s*\d+\)")
_DICE = re.compile(r"[1-6][1-6]")
_DOUBLE = re.compile(r"doubles?(?:\s*=>\s*(?P<value>\d+))?", re.IGNORECASE)
_TAKE = re.compile(r"takes?", re.IGNORECASE)
_DROP = re.compile(r"drops?", re.IGNORECASE)
_WINS = re.compile(r"wins?\s+(?P<points>\d+)\s+points?(?P<match>\s+and\s+the\s+match)?", re.IGNORECASE)
_GNUBG_MOVE = re.compile(r"(?P<path>[^()]*)(?P<count>\(\d+\))?")


def standard_play(play: str) -> str:
    """A play in gnubg's spelling with the standard words: ``25/22`` -> ``bar/22``,
    ``6/0`` -> ``6/off`` (``25/21*/15``, ``6/0(2)`` too).  Anything else is left as it is."""
    words = []
    for word in play.split():
        match = _GNUBG_MOVE.fullmatch(word)
        if match is None:
            words.append(word)
            continue
        points = match.group("path").split("/")
        if len(points) >= 2:
            if points[0] == "25":
                points[0] = "bar"
            points[1:] = ["off" if p in ("0", "0*") else p for p in points[1:]]
        words.append("/".join(points) + (match.group("count") or ""))
    return " ".join(words)


@dataclass
class _GameDraft:
    """A game being read, with the line of its ``Game N`` header for errors."""

    line: int
    number: int
    score_white: int = 0
    score_black: int = 0
    turns: list[Turn] = field(default_factory=list)
    winner: Colour | None = None
    points: int | None = None
    wins_line: int | None = None
    to_the_match: bool = False
    """The Wins line says '... and the match'."""
    cube: int = 1
    """The cube's value as the doubles written so far allow (each double doubles it)."""


class Reader:
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
        self.score = {WHITE: 0, WHITE.opponent: 0}
        """The score after the games read so far."""
        self.match_won_at: int | None = None

    def error(self, line: int, message: str) -> RecordError:
        return RecordError(message, line=line, source=self.source)

    def number(self, line: int, text: str, what: str, high: int) -> int:
        """``text`` (digits) as a number 0..high, or a RecordError naming ``what``."""
        digits = text.lstrip("-")
        if len(digits) > MAX_NUMBER_DIGITS or text.startswith("-") or int(digits) > high:
            raise self.error(line, f"{what} {text[:20]}{'...' if len(text) > 20 else ''} is out of range (0-{high})")
        return int(digits)

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
                raise self.error(number, f"expected a 'Game N' line before the moves but found {line.strip()[:60]!r}")
            else:
                self.entry_line(number, line)
        last = max(len(lines), 1)
        if self.match_length is None:
            raise self.error(last, "no ' N point match' line: this is not a .mat match file")
        if self.expect_score and self.game is not None:
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
            self.match_length = self.number(number, match.group(1), "the match length", MAX_MATCH_LENGTH)
            return
        if _GAME_LINE.fullmatch(line):
            raise self.error(number, "expected a ' N point match' line before the first game")
        raise self.error(
            number, f"expected a '; [Key \"value\"]' header or the ' N point match' line but found {stripped[:60]!r}"
        )

    def header(self, number: int, content: str) -> None:
        match = _HEADER_LINE.fullmatch(content)
        if not match:
            raise self.error(number, f"expected a header like '[Site \"value\"]' but found {content[:60]!r}")
        key, value, extra = match.group("key"), match.group("value"), match.group("extra")
        lowered = key.lower()
        if lowered == "option":
            if extra is None:
                raise self.error(number, f"an option header is '[Option \"name\" \"true\"]', not {content[:60]!r}")
            if not _OPTION_NAME.fullmatch(value):
                raise self.error(number, f"option name {value[:40]!r} must be a word such as 'bear_off_higher'")
            if value in self.options:
                raise self.error(number, f"option {value!r} is given twice")
            word = extra.strip().lower()
            if word not in _TRUE_WORDS + _FALSE_WORDS:
                raise self.error(number, f"option {value!r} is \"true\" or \"false\", not {extra[:40]!r}")
            self.options[value] = word in _TRUE_WORDS
            return
        if extra is not None:
            raise self.error(number, f"header {key[:40]!r} takes one value, not two")
        if lowered == "variation":
            if self.rules is not None:
                raise self.error(number, "a second Variation header")
            rules = value.strip().lower()
            if rules not in RULE_SETS:
                raise self.error(number, f"unknown variation {value[:40]!r} (known: {', '.join(RULE_SETS)})")
            self.rules = rules
        elif lowered in ("player 1", "player 2"):
            colour = "white" if lowered == "player 1" else "black"
            try:
                check_name(value, "White's" if colour == "white" else "Black's")
            except RecordError as error:
                raise self.error(number, error.message) from None
            self.names[colour] = value
        else:
            try:
                check_header(key, value)
            except RecordError as error:
                raise self.error(number, error.message) from None
            self.headers.append((key, value))

    # -- games

    def game_line(self, number: int, line: str) -> None:
        match = _GAME_LINE.fullmatch(line)
        if match is None:  # the caller saw a game line: cannot happen
            raise self.error(number, f"expected a line like ' Game 1' but found {line.strip()[:60]!r}")
        text = match.group("number")
        if not text.isdigit() or len(text) > MAX_NUMBER_DIGITS or int(text) < 1:
            raise self.error(number, f"expected a game number like 'Game 1' but found {line.strip()[:40]!r}")
        previous = self.game
        if previous is not None and previous.winner is None:
            raise self.error(
                number, f"'Game {text}' begins, but game {previous.number} (line {previous.line}) has not ended: no 'Wins' line"
            )
        if self.match_won_at is not None:
            raise self.error(number, f"'Game {text}' comes after the match was won (line {self.match_won_at})")
        expected = len(self.games) + (previous is not None) + 1
        if int(text) != expected:
            raise self.error(number, f"expected 'Game {expected}' here (games are numbered 1, 2, 3 ... in order), not 'Game {text}'")
        self.finish_game()
        self.game = _GameDraft(number, int(text))
        self.expect_score = True

    def score_line(self, number: int, line: str) -> None:
        match = _SCORE_LINE.fullmatch(line)
        if not match or not match.group("white") or not match.group("black"):
            raise self.error(
                number, f"expected a score line like ' White : 0      Black : 0' but found {line.strip()[:60]!r}"
            )
        game = self.game
        if game is None:  # a score line is expected only after a game line: cannot happen
            raise self.error(number, "a score line before any 'Game' line")
        white = self.number(number, match.group("sw"), "the score", 10**MAX_NUMBER_DIGITS)
        black = self.number(number, match.group("sb"), "the score", 10**MAX_NUMBER_DIGITS)
        expected = (self.score[WHITE], self.score[WHITE.opponent])
        if (white, black) != expected:
            raise self.error(
                number,
                f"the score before game {game.number} is {expected[0]}-{expected[1]} after the games before it, "
                f"not {white}-{black}",
            )
        game.score_white, game.score_black = white, black
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
                    tuple(draft.turns),
                    draft.winner,
                    draft.points,
                    line=draft.line,
                    wins_line=draft.wins_line,
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
                raise self.error(number, f"expected a roll like '52:', a cube action or 'Wins' but found {word[:40]!r}")
        return entries

    def entry(self, number: int, words: list[str], colour: Colour) -> None:
        game = self.game
        if game is None:  # entries are read only after a game line: cannot happen
            raise self.error(number, "a move before any 'Game' line")
        text = " ".join(words)
        if game.winner is not None:
            raise self.error(number, f"{text[:60]!r} comes after the game was already won")
        head = words[0]
        if ":" in head:
            dice, _, rest = head.partition(":")
            if not _DICE.fullmatch(dice):
                raise self.error(number, f"expected a roll like '52:' but found {dice[:20] + ':'!r}")
            play = " ".join(([rest] if rest else []) + words[1:])
            if play.lower() == "cannot move":
                play = ""
            try:
                game.turns.append(Turn(colour, Roll(int(dice[0]), int(dice[1])), standard_play(play), line=number))
            except RecordError as error:
                raise self.error(number, error.message) from None
            return
        double = _DOUBLE.fullmatch(text)
        wins = _WINS.fullmatch(text)
        if double:
            value = double.group("value")
            if value is not None and self.number(number, value, "the cube", MAX_CUBE) < 2:
                raise self.error(number, f"a double makes the cube 2 or more, not {value}")
            if game.cube >= MAX_CUBE:
                raise self.error(number, f"the cube cannot go past {MAX_CUBE}")
            game.turns.append(Turn(colour, action="double", line=number))
        elif _TAKE.fullmatch(text):
            game.turns.append(Turn(colour, action="take", line=number))
            game.cube *= 2
        elif _DROP.fullmatch(text):
            game.turns.append(Turn(colour, action="drop", line=number))
        elif wins:
            self.wins(number, game, colour, wins)
        elif head.lower().startswith(("beaver", "raccoon")):
            raise self.error(number, f"{text[:60]!r}: beavers and raccoons are not part of these rules")
        else:
            raise self.error(
                number, f"cannot read {text[:60]!r}: expected 'Doubles => 2', 'Takes', 'Drops' or 'Wins 1 point'"
            )

    def wins(self, number: int, game: _GameDraft, colour: Colour, wins: re.Match[str]) -> None:
        """A ``Wins N points`` entry: in range for the game's cube, and the match as it says."""
        most = MAX_POINTS_PER_CUBE * game.cube
        text = wins.group("points")
        if len(text) > MAX_NUMBER_DIGITS or int(text) > most:
            raise self.error(
                number,
                f"'Wins {text[:20]} points' is more than this game can be worth "
                f"(at most {most}: {MAX_POINTS_PER_CUBE} times the cube of {game.cube})",
            )
        points = int(text)
        if points < 1:
            raise self.error(number, f"a win is worth 1 point or more, not {points}")
        game.winner, game.points, game.wins_line = colour, points, number
        self.score[colour] += points
        length = self.match_length or 0
        won = length > 0 and self.score[colour] >= length
        if wins.group("match") and length and not won:
            raise self.error(
                number,
                f"'{wins.group(0)[:40]}', but {colour.value} has {self.score[colour]} of the {length} points the match needs",
            )
        if won:
            self.match_won_at = number
