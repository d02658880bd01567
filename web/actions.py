"""What a browser may ask of the simulated board: typed values read from one WebSocket text
message, with one clear error per bad message (python-chess style: errors split by kind)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from hal.interfaces import Button
from hal.zones import ZONE_INDEX, Checker

MAX_MESSAGE = 1024
"""Bytes a browser message may have; anything longer is refused unread."""


class ActionError(ValueError):
    """A browser message that is not an action: what is wrong, in one line."""


@dataclass(frozen=True, slots=True)
class Lift:
    """A hand lifts one checker of ``colour`` from ``zone``."""

    zone: str
    colour: Checker


@dataclass(frozen=True, slots=True)
class Place:
    """The hand puts one checker of ``colour`` down on ``zone``."""

    zone: str
    colour: Checker


@dataclass(frozen=True, slots=True)
class Throw:
    """The dice are thrown (their faces come from the simulator's seeded stream)."""


@dataclass(frozen=True, slots=True)
class Press:
    """A board button is pressed."""

    button: Button


Action = Lift | Place | Throw | Press
BUTTONS = {"done": Button.DONE, "takeback": Button.TAKEBACK, "menu": Button.MENU}


def parse_action(text: str | bytes) -> Action:
    """The action one message asks for; ActionError saying what is wrong otherwise."""
    if len(text) > MAX_MESSAGE:
        raise ActionError(f"message of {len(text)} bytes: at most {MAX_MESSAGE}")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise ActionError(f"not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ActionError("an action is a JSON object")
    kind = data.get("type")
    expected = {"lift": {"type", "zone", "colour"}, "place": {"type", "zone", "colour"},
                "throw": {"type"}, "press": {"type", "button"}}
    if kind not in expected:
        raise ActionError(f"unknown action type {kind!r} (lift, place, throw, press)")
    extra = set(data) - expected[kind]
    missing = expected[kind] - set(data)
    if extra or missing:
        raise ActionError(f"{kind}: " + "; ".join(
            ([f"unknown field(s) {sorted(extra)}"] if extra else []) + ([f"missing {sorted(missing)}"] if missing else [])))
    if kind == "throw":
        return Throw()
    if kind == "press":
        button = BUTTONS.get(data["button"]) if isinstance(data["button"], str) else None
        if button is None:
            raise ActionError(f"press: no button {data['button']!r} (done, takeback, menu)")
        return Press(button)
    zone, colour = data["zone"], data["colour"]
    if not isinstance(zone, str) or zone not in ZONE_INDEX:
        raise ActionError(f"{kind}: no zone {zone!r} (1-12, I-XII, wait-white/black, off-white/black)")
    if colour not in ("white", "black"):
        raise ActionError(f"{kind}: colour is white or black, not {colour!r}")
    return (Lift if kind == "lift" else Place)(zone, Checker(colour))
