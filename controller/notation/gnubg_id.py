"""GNU Backgammon's Position ID: a position as 14 base64 characters (an 80-bit key).

The key is a bit string: for each of two players, for each own point 1..24 and then the
bar, as many 1 bits as checkers stand there, then a 0 bit; padded with 0 bits to 80 and
packed little-endian (the first bit is the lowest bit of the first byte).  The 10 bytes
are written in standard base64 without the ``==`` padding.  Checkers borne off are not
stored: a player's off count is 15 minus the rest.

**Which player comes first.**  The gnubg manual ("A technical description of the Position
ID") says the key starts with the player on roll.  gnubg's code does the reverse:
``PositionKey`` writes ``anBoard[0]`` then ``anBoard[1]``, and in gnubg ``anBoard[1]`` is the
side to move (its move generator moves ``anBoard[1]``; ``DrawBoard`` prints it as X, "On
roll").  Every published board checked agrees with the code: the key holds the player
*not* on roll first, the player on roll second.  Checked with gnubg 1.1.0a16 (PyPI): for
``sOfgEwDg8+AIBg``, ``findbestmove`` with 6-5 plays 16/10 13/8 from the second half.  This
module follows gnubg: the first half is ``turn.opponent``, the second half ``turn``.  For
the starting position both halves are equal, so ``4HPwATDgc/ABMA`` cannot tell.

The ID carries no turn: ``position_id_decode`` takes the colour on roll as an argument.
Own-point numbering makes the key independent of the board geometry, so a rally position
can be stored too; the geometry only decides which positions are possible (checked with
``rule_set``, by default backgammon's: White's point p is Black's point 25 - p).
"""

from __future__ import annotations

import base64
import binascii

from ..rules.base import RuleSet
from ..rules.registry import get_rule_set
from ..rules.values import CHECKERS, OFF, SIDE_LENGTH, WHITE, Colour, Position, PositionError

ID_LENGTH = 14
KEY_BYTES = 10
KEY_BITS = 80
SLOTS = 25
"""Own points 1..24 and the bar, per player."""

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


class PositionIdError(PositionError):
    """A Position ID that cannot be read, or a position that cannot be written as one."""


# -- writing -------------------------------------------------------------------------------


def position_key(position: Position) -> bytes:
    """The 10-byte key: the player not on roll, then the player on roll (as gnubg writes it)."""
    bits = 0
    at = 0
    for colour in (position.turn.opponent, position.turn):
        side = position.side(colour)
        for point in range(1, SLOTS + 1):  # own points 1..24, then BAR (25)
            count = side[point]
            bits |= ((1 << count) - 1) << at
            at += count + 1
    return bits.to_bytes(KEY_BYTES, "little")


def position_id_encode(position: Position) -> str:
    """The 14-character Position ID of ``position`` (its ``turn`` says who is on roll)."""
    if not isinstance(position, Position):
        raise PositionIdError(f"position_id_encode: expected a Position, got {type(position).__name__}")
    return base64.b64encode(position_key(position)).decode("ascii").rstrip("=")


# -- reading -------------------------------------------------------------------------------


def _key_bits(text: str) -> int:
    """The 80-bit key of a Position ID, as an int (bit 0 the first bit of the string)."""
    if not isinstance(text, str):
        raise PositionIdError(f"a Position ID is text, not {type(text).__name__}")
    if len(text) != ID_LENGTH:
        raise PositionIdError(f"a Position ID has {ID_LENGTH} characters, got {len(text)} in {text!r}")
    for index, char in enumerate(text):
        if char not in _ALPHABET:
            raise PositionIdError(f"Position ID {text!r}: character {index + 1} ({char!r}) is not base64 (A-Z a-z 0-9 + /)")
    if _ALPHABET.index(text[-1]) & 0x0F:
        raise PositionIdError(
            f"Position ID {text!r}: the last character carries 2 bits of the key, its low 4 bits must be 0"
        )
    try:
        key = base64.b64decode(text + "==", validate=True)
    except (binascii.Error, ValueError) as error:  # pragma: no cover - the checks above catch these
        raise PositionIdError(f"Position ID {text!r}: {error}") from None
    return int.from_bytes(key, "little")


def _read_sides(text: str, bits: int) -> tuple[list[int], list[int]]:
    """The two players' counts (first half, second half), each indexed 1..25."""
    halves: list[list[int]] = []
    at = 0
    for half in ("first", "second"):
        side = [0] * SIDE_LENGTH
        for point in range(1, SLOTS + 1):
            while at < KEY_BITS and bits >> at & 1:
                side[point] += 1
                at += 1
            if at >= KEY_BITS:
                raise PositionIdError(f"Position ID {text!r}: the key ends inside the {half} player's checkers")
            at += 1  # the 0 that ends this point
        total = sum(side)
        if total > CHECKERS:
            raise PositionIdError(f"Position ID {text!r}: the {half} player has {total} checkers, at most {CHECKERS}")
        halves.append(side)
    if bits >> at:
        raise PositionIdError(f"Position ID {text!r}: bits set after both players' checkers (padding must be 0)")
    return halves[0], halves[1]


def position_id_decode(text: str, turn: Colour = WHITE, rule_set: RuleSet | None = None) -> Position:
    """The position a Position ID holds, with ``turn`` the colour on roll.

    Checkers not on the board or bar are borne off.  The position is checked under
    ``rule_set`` (default: backgammon's geometry, as gnubg assumes).
    """
    if not isinstance(turn, Colour):
        raise PositionIdError(f"turn: expected WHITE or BLACK, got {turn!r}")
    first, second = _read_sides(text, _key_bits(text))
    for side in (first, second):
        side[OFF] = CHECKERS - sum(side)
    waiting, mover = tuple(first), tuple(second)
    position = Position(mover, waiting, turn) if turn is WHITE else Position(waiting, mover, turn)
    checker = rule_set if rule_set is not None else get_rule_set("backgammon")
    try:
        return checker.validate(position)
    except PositionIdError:
        raise
    except PositionError as error:
        raise PositionIdError(f"Position ID {text!r}: {error}") from None


__all__ = ["PositionIdError", "position_id_decode", "position_id_encode", "position_key"]
