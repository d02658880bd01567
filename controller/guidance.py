"""Guidance: the light frames that tell players what they may do and what is wrong.

Pure functions from the game's state to a ``LightFrame``; the controller picks which.
"""

from __future__ import annotations

from typing import Iterable

from hal.interfaces import Light, LightColour, LightFrame, LightMode
from hal.zones import TRAY, WAITING, Zone

from .rules.geometry import QUARTERS
from .rules.values import BAR, Colour, Move
from .tracking import BoardReader, BoardReading, checker_of

STEADY = LightMode.STEADY
BLINK = LightMode.BLINK


def restore_frame(reader: BoardReader, shown: BoardReading, wanted: BoardReading, message: str) -> LightFrame:
    """Where checkers are missing (steady) or extra (blinking) until the board matches."""
    lights: dict[Zone, Light] = {}
    for zone, (white, black) in reader.differing_zones(shown, wanted).items():
        extra = white > 0 or black > 0
        lights[zone] = Light(LightColour.SETUP, BLINK if extra else STEADY)
    for zone in shown.unreadable:
        lights[zone] = Light(LightColour.WARNING, BLINK)
    return LightFrame.of(lights, message)


def start_quarter_lights(quarter: str | None) -> dict[Zone, Light]:
    """The rally's chosen start quarter, lit so both players see where to enter."""
    if quarter is None:
        return {}
    return {line: Light(LightColour.TURN) for line in QUARTERS[quarter]}


def turn_lights(colour: Colour) -> dict[Zone, Light]:
    """The waiting zone of the player to move, lit in the turn colour."""
    return {WAITING[checker_of(colour)]: Light(LightColour.TURN)}


SOURCE = Light(LightColour.SOURCE)


def source_frame(reader: BoardReader, colour: Colour, moves: Iterable[Move], message: str) -> LightFrame:
    """After the roll: the points whose checkers may move (the bar or pool if it must enter).
    Each origin once (a double's moves repeat them), its zone in the order first met."""
    zone_of = reader.zone_of
    lights = {zone_of(colour, frm): SOURCE for frm in dict.fromkeys([move.frm for move in moves])}
    return LightFrame.of(lights, message)


def target_frame(reader: BoardReader, colour: Colour, frm: int, targets: Iterable[int], message: str) -> LightFrame:
    """A checker lifted from ``frm``: where it may go (each die and each sum), off included."""
    lights = {reader.zone_of(colour, to): Light(LightColour.TARGET) for to in targets}
    lights[reader.zone_of(colour, frm)] = Light(LightColour.SOURCE, BLINK)
    return LightFrame.of(lights, message)


def hit_frame(reader: BoardReader, colour: Colour, points: Iterable[int], message: str) -> LightFrame:
    """A hit: the opponent's checker must go from the point to its bar or pool."""
    opponent = colour.opponent
    lights = {reader.zone_of(colour, p): Light(LightColour.HIT, BLINK) for p in points if p != BAR}
    lights[WAITING[checker_of(opponent)]] = Light(LightColour.HIT, BLINK)
    return LightFrame.of(lights, message)


def engine_frame(reader: BoardReader, colour: Colour, move: Move, message: str) -> LightFrame:
    """The computer's next move (or a hint): its checker's point steady and where it goes
    blinking, in the engine's colour; a hit also blinks the opponent's bar or pool."""
    lights = {reader.zone_of(colour, move.to): Light(LightColour.ENGINE, BLINK)}
    lights[reader.zone_of(colour, move.frm)] = Light(LightColour.ENGINE)
    if move.hit:
        lights[WAITING[checker_of(colour.opponent)]] = Light(LightColour.HIT, BLINK)
    return LightFrame.of(lights, message)


def warning_frame(reader: BoardReader, shown: BoardReading, legal: BoardReading, message: str) -> LightFrame:
    """Red on every zone that differs from the last legal board."""
    lights = {zone: Light(LightColour.WARNING, BLINK) for zone in reader.differing_zones(shown, legal)}
    for zone in shown.unreadable:
        lights[zone] = Light(LightColour.WARNING, BLINK)
    return LightFrame.of(lights, message)


def winner_frame(winner: Colour, message: str) -> LightFrame:
    """The winner's tray and waiting zone, blinking."""
    checker = checker_of(winner)
    return LightFrame.of(
        {TRAY[checker]: Light(LightColour.WINNER, BLINK), WAITING[checker]: Light(LightColour.WINNER, BLINK)},
        message,
    )


def pass_frame(colour: Colour, message: str) -> LightFrame:
    """No legal play: the mover's waiting zone blinks in warning colour, then the turn passes."""
    return LightFrame.of({WAITING[checker_of(colour)]: Light(LightColour.WARNING, BLINK)}, message)


__all__ = [
    "engine_frame", "hit_frame", "pass_frame", "restore_frame", "source_frame", "start_quarter_lights", "target_frame",
    "turn_lights", "warning_frame", "winner_frame",
]
