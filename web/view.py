"""The state a page shows, built from the controller's public state after each output.

Pure: it reads the controller (on the controller's own thread) and returns a plain dict,
laid out as docs/web.md says; the hub encodes it and sends it to the browsers.
"""

from __future__ import annotations

from typing import Any

from controller.machine import Controller, Output
from controller.notation.gnubg_id import PositionIdError, position_id_encode
from controller.notation.moves import format_play
from controller.notation.position_json import position_to_json
from controller.notation.xgid import XgidError, XgidRecord, xgid_encode
from controller.rules.game import Game, Match
from controller.rules.values import Colour, Position, Roll
from hal.interfaces import DARK
from hal.zones import LINES, ZONES

WHITE, BLACK = Colour.WHITE, Colour.BLACK


class StateView:
    """Builds the docs/web.md state of one controller; remembers what outputs say only once
    (a warning's reason) and the notation of the turns already drawn."""

    def __init__(self, controller: Controller, players: dict[str, str] | None = None, link: str = "simulated") -> None:
        self.controller = controller
        self.players = players or {"white": "?", "black": "?"}
        self.link = link
        self._reason: str | None = None
        self._turns: tuple[int, int, list[dict[str, Any]]] = (-1, -1, [])
        self._facts: tuple[object, dict[str, Any]] = (None, {})
        geometry = controller.reader.geometry
        self._own_points = {
            colour.value: {line: geometry.own_point(colour, line) for line in LINES} for colour in (WHITE, BLACK)
        }

    def state(self, output: Output | None = None, hand: dict[str, int] | None = None) -> dict[str, Any]:
        """The state now; ``output`` is the controller's last (for a warning's reason)."""
        controller = self.controller
        rules = controller.settings.rules
        if not controller.warning:
            self._reason = None
        elif output is not None and output.warning is not None:
            self._reason = output.warning
        game = controller.game
        position = game.position
        moving = controller.turn_in_progress
        roll = moving[1] if moving is not None else None
        frame = controller.frame
        lights = dict(frame.lights)
        snapshot = controller.snapshot
        zones = ([None if r is None else [r.white, r.black] for r in snapshot.readings]
                 if snapshot is not None else [None] * len(ZONES))
        return {
            "rules": rules.name,
            **self._position_facts(position, roll, controller.match, game),
            "zones": zones,
            "zone_names": list(ZONES),
            "own_points": self._own_points,
            "lights": [_light(lights.get(zone, DARK)) for zone in ZONES],
            "dice": list(roll.dice[:2]) if roll is not None else [],
            "phase": controller.phase.value,
            "turn": moving[0].value if moving is not None else _next_turn(game),
            "message": frame.message,
            "warning": {"reason": self._reason or "illegal", "message": frame.message} if controller.warning else None,
            "turns": self._turn_list(game, len(controller.match.games)),
            "score": _score(controller.match),
            "cube": _cube(game),
            "link": self.link,
            "hand": hand or {"white": 0, "black": 0},
            "players": self.players,
            "computer": {c.value: e.name for c, e in controller.settings.computer.items()},
            "computer_play": controller.computer_play,
            "hints": [{"play": play, "equity": equity} for play, equity in controller.hints],
        }

    def _position_facts(self, position: Position, roll: Roll | None, match: Match, game: Game) -> dict[str, Any]:
        """What changes only with the game's position, the roll, the score or the cube (the
        interchange JSON, pips, XGID, Position ID): built again only when one of them changes."""
        key = (position, roll, tuple(match.score.values()), game.cube_value, game.cube_owner)
        if self._facts[0] != key:
            rules = game.rules
            self._facts = (key, {
                "position": position_to_json(rules, position),
                "pips": {c.value: position.pip_count(c) for c in (WHITE, BLACK)},
                "xgid": _xgid(position, roll, match, game),
                "position_id": _position_id(position) if rules.MIRRORED else None,
            })
        return self._facts[1]

    def _turn_list(self, game: Game, number: int) -> list[dict[str, Any]]:
        """This game's turns in standard notation, formatted again only when they change."""
        history = game.turns()
        seen_game, seen_count, done = self._turns
        if seen_game == number and seen_count == len(history):
            return done
        rules = game.rules
        done = [{"colour": t.colour.value, "dice": [t.roll.first, t.roll.second], "play": format_play(t.play, rules)}
                for t in history]
        self._turns = (number, len(history), done)
        return done


def _light(light: Any) -> dict[str, str] | None:
    return None if light == DARK else {"colour": light.colour.value, "mode": light.mode.value}


def _next_turn(game: Game) -> str | None:
    """Whose roll it is between turns (None before the opening decides)."""
    if game.opening is None or game.is_over:
        return None
    return game.turn.value


def _score(match: Match) -> dict[str, int]:
    return {"white": match.score[WHITE], "black": match.score[BLACK], "match_length": match.length,
            "game": max(len(match.games), 1)}


def _cube(game: Game) -> dict[str, Any]:
    """The doubling cube: its value, its owner (None: centred) and a double standing (None: none)."""
    owner, offered = game.cube_owner, game.offered_by
    return {
        "value": game.cube_value,
        "owner": owner.value if owner is not None else None,
        "offered_by": offered.value if offered is not None else None,
    }


def _xgid(position: Position, roll: Roll | None, match: Match, game: Game) -> str | None:
    """The position's XGID (trictrac geometry only), with the dice being played."""
    if not game.rules.MIRRORED:
        return None
    try:
        record = XgidRecord(
            position, cube_value=game.cube_value, cube_owner=game.cube_owner,
            dice=roll, score=(match.score[WHITE], match.score[BLACK]), match_length=match.length,
        )
        return xgid_encode(record, game.rules)
    except XgidError:
        return None


def _position_id(position: Position) -> str | None:
    """GNU Backgammon's Position ID (the trictrac geometry only: gnubg knows no rally)."""
    try:
        return position_id_encode(position)
    except PositionIdError:
        return None
