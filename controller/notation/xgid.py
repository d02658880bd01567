"""eXtreme Gammon's XGID, read and written, for the trictrac geometry (``MIRRORED`` rule sets).

An XGID is ten fields separated by colons after an optional ``XGID=`` prefix::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10
         position                  | | | |  | | | | max cube (log2: 10 = 1024)
                                   | | | |  | | | match length (0 = money game)
                                   | | | |  | | Crawford (match) / Jacoby + beaver (money)
                                   | | | |  | score of the top player
                                   | | | |  score of the bottom player
                                   | | | dice: 00 not rolled, 63 rolled, D/B/R cube offered
                                   | | turn: 1 bottom player, -1 top player
                                   | cube owner: 1 bottom, -1 top, 0 centred
                                   cube value (log2)

The 26 position characters: ``-`` an empty point, ``A``..``O`` 1-15 checkers of the
*bottom* player, ``a``..``o`` of the *top* player.  Index ``i`` (1-24) is the bottom
player's own point ``i`` and the top player's own point ``25 - i``; index 0 is the top
player's bar, index 25 the bottom player's bar.  Checkers borne off are not written
(15 minus the rest).  Field 8 holds 1 for the Crawford game in a match; in a money game
it holds bit 0 for the Jacoby rule and bit 1 for beavers (3: both).

**Mapping (our convention):** XG's bottom player (upper case, "X", turn ``1``, the first
score) is our ``WHITE``; the top player (lower case, "O", turn ``-1``) is ``BLACK``.  Both
players' own points are XG's own points, since trictrac and backgammon share the geometry
(White's point p is Black's point 25 - p).

Checked against GNU Backgammon's XGID import (``set xgid``, gnubg 1.1.0a16 from PyPI):
for ``XGID=-CCCBBB------------cccbbb-:0:0:1:63:...`` the side that gnubg moves is the
upper-case one, for ``b-----B------------c-----C`` the upper-case player has 3 on the bar
(index 25), and for ``-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10`` (an XG text
export) gnubg shows the upper-case player on roll with 3 points, the other with 6 points
owning a 2-cube.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from ..rules.base import RuleSet
from ..rules.values import (
    BLACK,
    CHECKERS,
    OFF,
    SIDE_LENGTH,
    WHITE,
    Colour,
    IllegalPlayError,
    Position,
    PositionError,
    Roll,
)

PREFIX = "XGID="
FIELDS = 10
MAX_LOG2 = 15
"""The largest cube exponent accepted (a 32768-cube, as in gnubg's match ID)."""

_INT = re.compile(r"^-?\d{1,6}$")
_UPPER = "ABCDEFGHIJKLMNO"
_LOWER = _UPPER.lower()


class XgidError(PositionError):
    """An XGID that cannot be read or a record that cannot be written as one."""


class CubeAction(Enum):
    """A cube offer pending, as XG writes it in the dice field."""

    DOUBLED = "D"
    BEAVERED = "B"
    RACCOONED = "R"


@dataclass(frozen=True, slots=True)
class XgidRecord:
    """Everything an XGID holds: the position (its ``turn`` is XG's turn), cube, dice, match.

    ``score`` is ``(white, black)``; ``match_length`` 0 is a money game, where ``jacoby``
    and ``beaver`` apply; ``crawford`` applies to matches only.  ``cube_value`` and
    ``max_cube`` are cube values (powers of two), not XG's exponents.
    """

    position: Position
    cube_value: int = 1
    cube_owner: Colour | None = None
    dice: Roll | None = None
    cube_action: CubeAction | None = None
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    max_cube: int = 1024

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise XgidError(f"position: expected a Position, got {self.position!r}")
        _log2(self.cube_value, "cube_value")
        _log2(self.max_cube, "max_cube")
        if self.cube_owner is not None and not isinstance(self.cube_owner, Colour):
            raise XgidError(f"cube_owner: expected WHITE, BLACK or None, got {self.cube_owner!r}")
        if self.dice is not None and not isinstance(self.dice, Roll):
            raise XgidError(f"dice: expected a Roll or None, got {self.dice!r}")
        if self.cube_action is not None and not isinstance(self.cube_action, CubeAction):
            raise XgidError(f"cube_action: expected a CubeAction or None, got {self.cube_action!r}")
        if self.dice is not None and self.cube_action is not None:
            raise XgidError("dice and cube_action: a cube offer pending leaves no dice rolled")
        if not (isinstance(self.score, tuple) and len(self.score) == 2):
            raise XgidError(f"score: expected (white, black), got {self.score!r}")
        for colour, points in zip((WHITE, BLACK), self.score):
            _natural(points, f"score ({colour.value})")
        _natural(self.match_length, "match_length")
        for name in ("crawford", "jacoby", "beaver"):
            if not isinstance(getattr(self, name), bool):
                raise XgidError(f"{name}: expected True or False, got {getattr(self, name)!r}")
        if self.crawford and not self.match_length:
            raise XgidError("crawford: the Crawford rule applies to matches only (match_length > 0)")
        if (self.jacoby or self.beaver) and self.match_length:
            raise XgidError("jacoby/beaver: these rules apply to money games only (match_length 0)")

    @property
    def turn(self) -> Colour:
        """The colour on roll (or to answer a cube offer), as the XGID's turn field says."""
        return self.position.turn


def _natural(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise XgidError(f"{where}: expected a whole number >= 0, got {value!r}")
    return value


def _log2(value: object, where: str) -> int:
    """The exponent of a cube value 1, 2, 4 ... 2**15."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or value & (value - 1):
        raise XgidError(f"{where}: a cube value is a power of two (1, 2, 4 ...), got {value!r}")
    exponent = value.bit_length() - 1
    if exponent > MAX_LOG2:
        raise XgidError(f"{where}: {value} is above the largest cube, {1 << MAX_LOG2}")
    return exponent


# -- writing -----------------------------------------------------------------------------


def _check_geometry(position: Position, rule_set: RuleSet | None) -> None:
    if rule_set is not None:
        if not rule_set.MIRRORED:
            raise XgidError(f"an XGID holds trictrac-geometry positions; rule set {rule_set.name!r} is not one")
        rule_set.validate(position)
        return
    for point in range(1, 25):
        white, black = position.white[point], position.black[25 - point]
        if white and black:
            raise XgidError(
                f"White's point {point} and Black's point {25 - point} are one point, "
                f"holding {white} white and {black} black checkers"
            )


def _position_text(position: Position) -> str:
    chars = ["-"] * 26
    for index in range(26):
        white = position.white[index] if index else 0  # index 0 is Black's bar
        black = position.black[25 - index] if index != 25 else 0  # index 25 is White's bar
        if white:
            chars[index] = _UPPER[white - 1]
        elif black:
            chars[index] = _LOWER[black - 1]
    return "".join(chars)


def _dice_text(record: XgidRecord) -> str:
    if record.cube_action is not None:
        return record.cube_action.value
    if record.dice is None:
        return "00"
    return f"{record.dice.first}{record.dice.second}"


def _owner_text(owner: Colour | None) -> str:
    return "0" if owner is None else ("1" if owner is WHITE else "-1")


def _rules_field(record: XgidRecord) -> int:
    if record.match_length:
        return int(record.crawford)
    return int(record.jacoby) | int(record.beaver) << 1


def xgid_encode(item: XgidRecord | Position, rule_set: RuleSet | None = None) -> str:
    """The XGID (with its ``XGID=`` prefix) of a record, or of a bare position.

    A bare position gets a centred 1-cube, no dice, a money game without Jacoby or
    beavers.  With ``rule_set`` the position is checked under it (which must be a
    trictrac-geometry rule set); without, only that no point holds both colours.
    """
    record = item if isinstance(item, XgidRecord) else XgidRecord(_as_position(item))
    _check_geometry(record.position, rule_set)
    fields = [
        _position_text(record.position),
        str(_log2(record.cube_value, "cube_value")),
        _owner_text(record.cube_owner),
        "1" if record.turn is WHITE else "-1",
        _dice_text(record),
        str(record.score[0]),
        str(record.score[1]),
        str(_rules_field(record)),
        str(record.match_length),
        str(_log2(record.max_cube, "max_cube")),
    ]
    return PREFIX + ":".join(fields)


def _as_position(item: object) -> Position:
    if not isinstance(item, Position):
        raise XgidError(f"xgid_encode: expected an XgidRecord or a Position, got {type(item).__name__}")
    return item


# -- reading -----------------------------------------------------------------------------

_FIELD_NAMES = (
    "position", "cube value", "cube owner", "turn", "dice", "bottom player's score",
    "top player's score", "Crawford/Jacoby", "match length", "max cube",
)


def _where(index: int) -> str:
    return f"XGID field {index + 1} ({_FIELD_NAMES[index]})"


def _int_field(fields: list[str], index: int, low: int, high: int) -> int:
    text = fields[index]
    if not _INT.match(text):
        raise XgidError(f"{_where(index)}: expected a whole number, got {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise XgidError(f"{_where(index)}: {value} is out of range {low}..{high}")
    return value


def _slot_name(index: int) -> str:
    if index == 0:
        return "Black's bar"
    if index == 25:
        return "White's bar"
    return f"White's point {index} / Black's point {25 - index}"


def _read_position(text: str, turn: Colour) -> Position:
    where = _where(0)
    if len(text) != 26:
        raise XgidError(f"{where}: expected 26 characters, got {len(text)} in {text!r}")
    white = [0] * SIDE_LENGTH
    black = [0] * SIDE_LENGTH
    for index, char in enumerate(text):
        if char == "-":
            continue
        if char in _UPPER and index != 0:
            white[index] = _UPPER.index(char) + 1
        elif char in _LOWER and index != 25:
            black[25 - index] = _LOWER.index(char) + 1
        else:
            expected = "'-', 'A'-'O' or 'a'-'o'"
            if index == 0:
                expected = "'-' or 'a'-'o' (Black's bar holds only Black's checkers)"
            elif index == 25:
                expected = "'-' or 'A'-'O' (White's bar holds only White's checkers)"
            raise XgidError(f"{where}: character {index} ({_slot_name(index)}) is {char!r}, expected {expected}")
    for colour, side in ((WHITE, white), (BLACK, black)):
        total = sum(side)
        if total > CHECKERS:
            raise XgidError(f"{where}: {colour.value} has {total} checkers on the board and bar, at most {CHECKERS}")
        side[OFF] = CHECKERS - total
    return Position(tuple(white), tuple(black), turn)


def _read_dice(text: str) -> tuple[Roll | None, CubeAction | None]:
    if text == "00":
        return None, None
    for action in CubeAction:
        if text == action.value:
            return None, action
    if len(text) == 2 and text.isdigit():
        try:
            return Roll(int(text[0]), int(text[1])), None
        except IllegalPlayError:
            pass
    raise XgidError(f"{_where(4)}: expected '00', two dice 1-6 such as '63', or D/B/R, got {text!r}")


def _owner(value: int) -> Colour | None:
    return {0: None, 1: WHITE, -1: BLACK}[value]


def xgid_decode(text: str, rule_set: RuleSet | None = None) -> XgidRecord:
    """The record an XGID holds (with or without its ``XGID=`` prefix).

    With ``rule_set`` (a trictrac-geometry rule set) the position is also checked under it.
    """
    if not isinstance(text, str):
        raise XgidError(f"an XGID is text, not {type(text).__name__}")
    body = text.strip()
    if body[: len(PREFIX)].upper() == PREFIX:
        body = body[len(PREFIX):]
    fields = body.split(":")
    if len(fields) != FIELDS:
        raise XgidError(f"an XGID has {FIELDS} fields separated by ':', got {len(fields)} in {text!r}")
    cube = _int_field(fields, 1, 0, MAX_LOG2)
    owner = _owner(_int_field(fields, 2, -1, 1))
    turn_field = _int_field(fields, 3, -1, 1)
    if turn_field == 0:
        raise XgidError(f"{_where(3)}: expected 1 (bottom player, White) or -1 (top player, Black), got 0")
    turn = WHITE if turn_field == 1 else BLACK
    position = _read_position(fields[0], turn)
    dice, action = _read_dice(fields[4])
    score = (_int_field(fields, 5, 0, 32767), _int_field(fields, 6, 0, 32767))
    rules = _int_field(fields, 7, 0, 3)
    match_length = _int_field(fields, 8, 0, 32767)
    max_cube = _int_field(fields, 9, 0, MAX_LOG2)
    if match_length and rules > 1:
        raise XgidError(f"{_where(7)}: in a match this field is 0 or 1 (Crawford game), got {rules}")
    if rule_set is not None:
        _check_geometry(position, rule_set)
    return XgidRecord(
        position=position,
        cube_value=1 << cube,
        cube_owner=owner,
        dice=dice,
        cube_action=action,
        score=score,
        match_length=match_length,
        crawford=bool(match_length and rules),
        jacoby=bool(not match_length and rules & 1),
        beaver=bool(not match_length and rules & 2),
        max_cube=1 << max_cube,
    )


__all__ = ["CubeAction", "XgidError", "XgidRecord", "xgid_decode", "xgid_encode"]
