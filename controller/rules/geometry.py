"""Where each player's own points lie on the physical board, by Mendelev's line names.

Lines 1-12 run along White's side and I-XII along Black's; 1 faces I and 12 faces XII at
the two ends of the board, and the bar lies between 6|7 and VI|VII.  The LEDs and sensors
address the physical lines; the engine counts own points.  This module converts.
"""

from __future__ import annotations

from dataclasses import dataclass

from .values import BLACK, WHITE, Colour, Point, PositionError, RulesError

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")
ARABIC = tuple(str(n) for n in range(1, 13))
LINES: tuple[str, ...] = ARABIC + ROMAN
"""All 24 physical lines: White's side 1-12, then Black's side I-XII."""

QUARTERS: dict[str, tuple[str, ...]] = {
    "1-6": ARABIC[0:6],
    "7-12": ARABIC[6:12],
    "I-VI": ROMAN[0:6],
    "VII-XII": ROMAN[6:12],
}
"""The four quarters by name, with their lines; a rally starts in one of them."""


def _track(quarter: str) -> tuple[str, ...]:
    """The 24 lines in track order (track position 1 first) for a rally start quarter.

    Track 1 is the start-quarter line at the board's edge, 6 the one by the bar; 7-12 go on
    through the next quarter on the same side, 13-24 come back along the other side
    (RULES.md 3.1).
    """
    if quarter == "1-6":
        return ARABIC + tuple(reversed(ROMAN))
    if quarter == "I-VI":
        return ROMAN + tuple(reversed(ARABIC))
    if quarter == "7-12":
        return tuple(reversed(ARABIC)) + ROMAN
    if quarter == "VII-XII":
        return tuple(reversed(ROMAN)) + ARABIC
    raise RulesError(f"unknown start quarter {quarter!r} (one of {', '.join(QUARTERS)})")


@dataclass(frozen=True, slots=True)
class Geometry:
    """The map between own points of each colour and physical lines."""

    white: tuple[str, ...]
    """``white[p - 1]``: the line of White's own point ``p``."""
    black: tuple[str, ...]
    """``black[p - 1]``: the line of Black's own point ``p``."""

    def line(self, colour: Colour, point: Point) -> str:
        """The line name of ``colour``'s own point ``point`` (1-24)."""
        if not 1 <= point <= 24:
            raise PositionError(f"own point {point} is not on the board (1-24)")
        return (self.white if colour is WHITE else self.black)[point - 1]

    def own_point(self, colour: Colour, line: str) -> Point:
        """``colour``'s own point number for the line called ``line``."""
        lines = self.white if colour is WHITE else self.black
        name = line.strip().upper()
        if name not in lines:
            raise PositionError(f"no line called {line!r} (lines are 1-12 and I-XII)")
        return lines.index(name) + 1

    def same_point(self, colour: Colour, point: Point) -> Point:
        """The opponent's own number for ``colour``'s own point ``point``."""
        return self.own_point(colour.opponent, self.line(colour, point))


def trictrac_geometry() -> Geometry:
    """RULES.md 2.1: White travels I -> XII -> 12 -> 1, Black 1 -> 12 -> XII -> I."""
    white = tuple(ARABIC[p - 1] if p <= 12 else ROMAN[24 - p] for p in range(1, 25))
    black = tuple(ROMAN[p - 1] if p <= 12 else ARABIC[24 - p] for p in range(1, 25))
    return Geometry(white, black)


def rally_geometry(quarter: str) -> Geometry:
    """RULES.md 3.1: both players on one track from ``quarter``; own point p = track 25 - p."""
    track = _track(quarter)
    own = tuple(track[24 - p] for p in range(1, 25))
    return Geometry(own, own)


__all__ = ["ARABIC", "BLACK", "LINES", "QUARTERS", "ROMAN", "Geometry", "rally_geometry", "trictrac_geometry"]
