"""A position drawn as a text board with Mendelev's line names.

Black's side (I-XII) is drawn on top, White's side (1-12) below, so that 1 faces I and 12
faces XII as on the physical board; each line shows its count and colour (``O`` White,
``X`` Black).
"""

from __future__ import annotations

from ..rules.base import RuleSet
from ..rules.geometry import ARABIC, ROMAN, Geometry
from ..rules.values import BLACK, WHITE, Position

SYMBOL = {WHITE: "O", BLACK: "X"}
WIDTH = 5


def _cell(position: Position, geometry: Geometry, line: str) -> str:
    for colour in (WHITE, BLACK):
        count = position.side(colour)[geometry.own_point(colour, line)]
        if count:
            return f"{count}{SYMBOL[colour]}"
    return "."


def _row(position: Position, geometry: Geometry, lines: tuple[str, ...]) -> tuple[str, str]:
    left, right = lines[:6], lines[6:]

    def fmt(names: tuple[str, ...], cells: bool) -> str:
        return "".join((_cell(position, geometry, n) if cells else n).rjust(WIDTH) for n in names)

    return (f"{fmt(left, False)} |{fmt(right, False)}", f"{fmt(left, True)} |{fmt(right, True)}")


def draw(rules: RuleSet, position: Position, geometry: Geometry | None = None) -> str:
    """The text board: both sides by line name, then bar or pool, trays, pips and turn."""
    geometry = geometry or rules.geometry()
    top = tuple(reversed(ROMAN))  # XII ... VII | VI ... I
    bottom = tuple(reversed(ARABIC))  # 12 ... 7 | 6 ... 1
    names_top, cells_top = _row(position, geometry, top)
    names_bottom, cells_bottom = _row(position, geometry, bottom)
    waiting = "bar" if rules.MIRRORED else "pool"
    lines = [
        f"{rules.name}: O = White, X = Black",
        names_top,
        cells_top,
        "",
        cells_bottom,
        names_bottom,
        f"{waiting}: White {position.bar(WHITE)}, Black {position.bar(BLACK)}   "
        f"off: White {position.off(WHITE)}, Black {position.off(BLACK)}   "
        f"pips: White {position.pip_count(WHITE)}, Black {position.pip_count(BLACK)}",
        f"{position.turn.value.capitalize()} to move",
    ]
    return "\n".join(lines)
