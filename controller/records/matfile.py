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

from .mat_model import (
    CUBE_ACTIONS,
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
from .mat_reader import Reader

__all__ = [
    "CUBE_ACTIONS",
    "DEFAULT_RULES",
    "LEFT_COLOUR",
    "MAX_CUBE",
    "MAX_MATCH_LENGTH",
    "MAX_NUMBER_DIGITS",
    "MAX_POINTS_PER_CUBE",
    "RULE_SETS",
    "GameRecordGame",
    "MatchRecord",
    "RecordError",
    "Turn",
    "check_header",
    "check_name",
    "read_mat",
    "write_mat",
]

_VARIATION_WRITTEN = {
    "trictrac": "trictrac",
    "backgammon": "Backgammon",
    "rally": "rally",
    "rally-hitting": "rally-hitting",
}

_LEFT_WIDTH = 27  # gnubg: "%3d) %-27s " puts the right entry at column 33
_NO_NUMBER = " " * 5  # where "%3d) " would be, on a line of its own such as "Wins"
_SCORE_WIDTH = 31  # gnubg: " %-31s%s : %d"


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
        elif turn.roll is None:  # a Turn is built with a roll or an action: cannot happen
            raise RecordError(f"a turn of {turn.colour.value} has neither a roll nor a cube action")
        else:
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
    return Reader(source).read(text)
