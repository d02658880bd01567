"""The physical zones of the board: 24 points by Mendelev's names, a waiting zone and an
off tray per colour.  28 in all, in a fixed order that the LED chain and the sensor scan
share.
"""

from __future__ import annotations

from enum import Enum


class Checker(Enum):
    """A checker's colour as the sensors see it (White's magnets north up, Black's south)."""

    WHITE = "white"
    BLACK = "black"


WHITE, BLACK = Checker.WHITE, Checker.BLACK
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")
LINES: tuple[str, ...] = tuple(str(n) for n in range(1, 13)) + ROMAN
"""The 24 points by Mendelev's names: 1-12 along White's side, I-XII along Black's."""

Zone = str
"""A zone's name: a line ``1``-``12`` or ``I``-``XII``, ``wait-white``, ``off-black``..."""

WAITING: dict[Checker, Zone] = {WHITE: "wait-white", BLACK: "wait-black"}
"""Where each colour's checkers wait to enter: the bar in trictrac, the pool in the rally."""
TRAY: dict[Checker, Zone] = {WHITE: "off-white", BLACK: "off-black"}
"""Where each colour's borne-off checkers go."""

POINT_ZONES: tuple[Zone, ...] = LINES
ZONES: tuple[Zone, ...] = LINES + (WAITING[WHITE], WAITING[BLACK], TRAY[WHITE], TRAY[BLACK])
"""All 28 zones; a zone's index here is its place in the LED chain and the sensor scan."""
ZONE_INDEX: dict[Zone, int] = {zone: i for i, zone in enumerate(ZONES)}


def zone_owner(zone: Zone) -> Checker | None:
    """The colour a waiting zone or tray belongs to; None for a point."""
    for colour in (WHITE, BLACK):
        if zone in (WAITING[colour], TRAY[colour]):
            return colour
    return None


def check_zone(zone: str) -> Zone:
    """``zone`` if it names one of the 28 zones, else ValueError naming it."""
    if zone not in ZONE_INDEX:
        raise ValueError(f"no zone called {zone!r} (zones: 1-12, I-XII, wait-white/black, off-white/black)")
    return zone
