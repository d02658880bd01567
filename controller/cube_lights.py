"""The doubling cube on the lights and in the messages (one LED a zone, so the cube is told
by the off trays): a double standing blinks the doubler's off tray and lights the
answerer's waiting zone; between turns the cube owner's off tray is lit steady."""

from __future__ import annotations

from hal.interfaces import Light, LightColour, LightFrame, LightMode
from hal.zones import TRAY, WAITING, Zone

from .rules.game import Game
from .rules.values import Colour
from .tracking import checker_of


def offer_frame(doubler: Colour, message: str) -> LightFrame:
    """An offer standing: the doubler's off tray blinks, the answerer's waiting zone is lit."""
    lights = {
        TRAY[checker_of(doubler)]: Light(LightColour.TURN, LightMode.BLINK),
        WAITING[checker_of(doubler.opponent)]: Light(LightColour.TURN),
    }
    return LightFrame.of(lights, message)


def owner_lights(game: Game) -> dict[Zone, Light]:
    """The cube owner's off tray, lit steady (nothing while the cube is centred)."""
    if game.cube_owner is None:
        return {}
    return {TRAY[checker_of(game.cube_owner)]: Light(LightColour.TURN)}


def cube_note(game: Game) -> str:
    """The cube in a message: `` (cube 2, black's)``; empty while centred at 1."""
    if game.cube_owner is None:
        return ""
    return f" (cube {game.cube_value}, {game.cube_owner.value}'s)"


__all__ = ["cube_note", "offer_frame", "owner_lights"]
