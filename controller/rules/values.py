"""Small immutable values of the game: colours, rolls, moves, plays and positions.

Points are plain ints in each player's *own-point numbering* (RULES.md section 1): the
number of pips still to travel, 1 the last point before leaving the board.  Two extra
indices complete a side: ``OFF`` (0, borne off) and ``BAR`` (25, waiting to enter: the bar
in trictrac, the pool in the rally).  A side is a tuple of 26 counts indexed that way.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Mapping, NamedTuple

Point = int
"""An own-point number 1-24, or ``BAR`` (25) / ``OFF`` (0)."""

OFF: Point = 0
BAR: Point = 25
CHECKERS = 15
SIDE_LENGTH = 26


class RulesError(ValueError):
    """Base of every error the rules engine raises for bad input."""


class PositionError(RulesError):
    """An impossible position: wrong checker count, mixed point, bad index."""


class IllegalPlayError(RulesError):
    """A play, move or roll that the rules do not allow in this position."""


class UnknownRuleSetError(RulesError):
    """A rule-set name or option that the registry does not know."""


class Colour(Enum):
    """The two players.  ``WHITE`` moves first in trictrac."""

    WHITE = "white"
    BLACK = "black"

    @property
    def opponent(self) -> Colour:
        """The other colour."""
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE

    def __repr__(self) -> str:
        return f"Colour.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Colour:
        """Read ``white``/``black`` (any case, or ``w``/``b``)."""
        word = text.strip().lower()
        for colour in cls:
            if word in (colour.value, colour.value[0]):
                return colour
        raise RulesError(f"unknown colour {text!r}: expected 'white' or 'black'")


WHITE = Colour.WHITE
BLACK = Colour.BLACK


@dataclass(frozen=True, slots=True)
class Roll:
    """A throw of the two dice, in the order thrown."""

    first: int
    second: int

    def __post_init__(self) -> None:
        for die in (self.first, self.second):
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise IllegalPlayError(f"a die shows 1 to 6, not {die!r}")

    @property
    def is_double(self) -> bool:
        """Both dice alike: four moves of that number."""
        return self.first == self.second

    @property
    def dice(self) -> tuple[int, ...]:
        """The moves this roll gives: two dice, or four for a double."""
        if self.is_double:
            return (self.first,) * 4
        return (self.first, self.second)

    @property
    def high(self) -> int:
        """The larger die."""
        return max(self.first, self.second)

    @property
    def low(self) -> int:
        """The smaller die."""
        return min(self.first, self.second)

    def __str__(self) -> str:
        return f"{self.high}{self.low}"

    @classmethod
    def parse(cls, text: str) -> Roll:
        """Read ``52``, ``5-2`` or ``5 2``."""
        digits = [c for c in text if not c.isspace() and c not in "-:,"]
        if len(digits) != 2 or not all(c in "123456" for c in digits):
            raise IllegalPlayError(f"a roll is two dice 1-6 such as '52' or '5-2', not {text!r}")
        return cls(int(digits[0]), int(digits[1]))


class Move(NamedTuple):
    """One checker moved by one die: ``frm`` to ``to`` (own points; 25 bar, 0 off)."""

    frm: Point
    to: Point
    die: int
    hit: bool = False

    @property
    def is_entry(self) -> bool:
        """The checker comes from the bar or pool."""
        return self.frm == BAR

    @property
    def is_bear_off(self) -> bool:
        """The checker leaves the board."""
        return self.to == OFF

    def __str__(self) -> str:
        frm = "bar" if self.frm == BAR else str(self.frm)
        to = "off" if self.to == OFF else str(self.to)
        return f"{frm}/{to}{'*' if self.hit else ''}"


class Play(tuple[Move, ...]):
    """A whole turn: the single moves in the order they are made (empty: the turn passes).

    A tuple of moves, so building thousands of candidate plays stays cheap.
    """

    __slots__ = ()

    def __new__(cls, moves: Iterable[Move] = ()) -> Play:
        return super().__new__(cls, moves)

    def __repr__(self) -> str:
        return f"Play({tuple.__repr__(self)})"

    @property
    def moves(self) -> tuple[Move, ...]:
        """The single moves, in order."""
        return tuple(self)

    @property
    def dice_used(self) -> tuple[int, ...]:
        """The dice this play uses, in order."""
        return tuple(move.die for move in self.moves)

    @property
    def hits(self) -> int:
        """How many opposing checkers this play hits."""
        return sum(1 for move in self.moves if move.hit)


def _side(counts: Mapping[int, int] | None, bar: int, off: int) -> tuple[int, ...]:
    side = [0] * SIDE_LENGTH
    for point, count in (counts or {}).items():
        if not isinstance(point, int) or not 1 <= point <= 24:
            raise PositionError(f"point {point!r} is not on the board (own points are 1-24)")
        side[point] = count
    side[BAR] = bar
    side[OFF] = off
    return tuple(side)


@dataclass(frozen=True, slots=True)
class Position:
    """Where every checker stands and whose turn it is.

    ``white`` and ``black`` are sides: 26 counts indexed by own point, ``OFF`` and ``BAR``.
    Whether two counts share a physical point depends on the rule set's geometry, so the
    rule set, not the position, checks that a position is possible.
    """

    white: tuple[int, ...]
    black: tuple[int, ...]
    turn: Colour = WHITE

    def __post_init__(self) -> None:
        for colour, side in ((WHITE, self.white), (BLACK, self.black)):
            if not isinstance(side, tuple) or len(side) != SIDE_LENGTH:
                raise PositionError(f"{colour.value}: a side is 26 counts (off, points 1-24, bar)")
            for index, count in enumerate(side):
                if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                    where = {OFF: "off", BAR: "bar"}.get(index, f"point {index}")
                    raise PositionError(f"{colour.value} {where}: count {count!r} is not a whole number >= 0")
            total = sum(side)
            if total != CHECKERS:
                raise PositionError(f"{colour.value} has {total} checkers, not {CHECKERS}")

    def __hash__(self) -> int:
        # The boards alone: cheaper than the generated hash (whose Colour hash runs in
        # Python), and positions differing only in the turn are rare in one set.
        return hash((self.white, self.black))

    @classmethod
    def from_counts(
        cls,
        white: Mapping[int, int] | None = None,
        black: Mapping[int, int] | None = None,
        *,
        turn: Colour = WHITE,
        white_bar: int = 0,
        black_bar: int = 0,
        white_off: int = 0,
        black_off: int = 0,
    ) -> Position:
        """Build a position from ``{own point: count}`` mappings."""
        return cls(_side(white, white_bar, white_off), _side(black, black_bar, black_off), turn)

    def side(self, colour: Colour) -> tuple[int, ...]:
        """The 26 counts of ``colour``."""
        return self.white if colour is WHITE else self.black

    def points(self, colour: Colour) -> dict[int, int]:
        """The occupied own points of ``colour`` with their counts."""
        side = self.side(colour)
        return {point: side[point] for point in range(24, 0, -1) if side[point]}

    def bar(self, colour: Colour) -> int:
        """Checkers of ``colour`` waiting to enter (bar or pool)."""
        return self.side(colour)[BAR]

    def off(self, colour: Colour) -> int:
        """Checkers of ``colour`` borne off."""
        return self.side(colour)[OFF]

    def pip_count(self, colour: Colour) -> int:
        """Pips ``colour`` still has to travel."""
        side = self.side(colour)
        return sum(point * side[point] for point in range(1, 26))

    def with_turn(self, turn: Colour) -> Position:
        """The same checkers with ``turn`` to move."""
        return Position(self.white, self.black, turn)

    def swapped(self) -> Position:
        """Colours exchanged: White's checkers become Black's and the turn passes over."""
        return Position(self.black, self.white, self.turn.opponent)

    def winner(self) -> Colour | None:
        """The colour that has borne off all its checkers, if any."""
        for colour in (WHITE, BLACK):
            if self.off(colour) == CHECKERS:
                return colour
        return None

