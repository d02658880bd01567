"""Which Pi GPIO pins the buttons, buzzer, turn LEDs and dice button are wired to.

Pure values and validation, importing nothing from gpiozero, so a configuration can be
checked on any machine.  Pins are BCM GPIO numbers; an unwired part's pin is ``None``.

The mapping ``GpioConfig.from_mapping`` reads (the ``gpio`` section of the config)::

    {"buttons": {"roll": 5, "done": 6, "takeback": 13, "menu": 19},
     "buzzer": 18,
     "leds": {"white": 23, "black": 24},
     "dice_button": 26,
     "bounce_time": 0.05}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from .interfaces import Button

BCM_PINS = range(28)
"""The Pi's BCM GPIO numbers on the 40-pin header."""

DEFAULT_BOUNCE_TIME = 0.05
"""Seconds a button's contact must settle before another edge counts."""

_SECTION = "gpio"
_PIN_KEYS: dict[str, str] = {
    "roll": "buttons.roll",
    "done": "buttons.done",
    "takeback": "buttons.takeback",
    "menu": "buttons.menu",
    "buzzer": "buzzer",
    "led_white": "leds.white",
    "led_black": "leds.black",
    "dice_button": "dice_button",
}
"""Each pin field's key in the mapping, as error messages name it."""


@dataclass(frozen=True, slots=True)
class GpioConfig:
    """The BCM pin of every part wired to the Pi (None: not wired), checked on creation."""

    roll: int | None = None
    done: int | None = None
    takeback: int | None = None
    menu: int | None = None
    buzzer: int | None = None
    led_white: int | None = None
    led_black: int | None = None
    dice_button: int | None = None
    bounce_time: float | None = DEFAULT_BOUNCE_TIME

    def __post_init__(self) -> None:
        used: dict[int, str] = {}
        for name, key in _PIN_KEYS.items():
            pin = getattr(self, name)
            if pin is None:
                continue
            _check_pin(key, pin)
            if pin in used:
                raise ValueError(f"{_SECTION}: pin {pin} is used by both {used[pin]} and {key}")
            used[pin] = key
        if (self.led_white is None) != (self.led_black is None):
            raise ValueError(f"{_SECTION}.leds: wire both white and black turn LEDs, or neither")
        _check_bounce_time(self.bounce_time)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> GpioConfig:
        """A config from the ``gpio`` section's mapping; ValueError naming the bad key."""
        _check_keys(_SECTION, data, {"buttons", "buzzer", "leds", "dice_button", "bounce_time"})
        buttons = _section(data, "buttons", {button.value for button in Button})
        leds = _section(data, "leds", {"white", "black"})
        return cls(
            roll=buttons.get("roll"),
            done=buttons.get("done"),
            takeback=buttons.get("takeback"),
            menu=buttons.get("menu"),
            buzzer=data.get("buzzer"),
            led_white=leds.get("white"),
            led_black=leds.get("black"),
            dice_button=data.get("dice_button"),
            bounce_time=data.get("bounce_time", DEFAULT_BOUNCE_TIME),
        )

    @property
    def button_pins(self) -> dict[Button, int | None]:
        """``{button: pin}`` for the four buttons, as ``GpioButtons`` takes them."""
        return {button: getattr(self, button.value) for button in Button}

    def pins(self) -> dict[str, int]:
        """``{key: pin}`` for every wired part, keyed as in the mapping."""
        wired = ((key, getattr(self, name)) for name, key in _PIN_KEYS.items())
        return {key: pin for key, pin in wired if pin is not None}


assert set(_PIN_KEYS) | {"bounce_time"} == {f.name for f in fields(GpioConfig)}


def _check_pin(key: str, pin: object) -> None:
    """ValueError naming ``key`` unless ``pin`` is a BCM GPIO number."""
    if not isinstance(pin, int) or isinstance(pin, bool):
        raise ValueError(f"{_SECTION}.{key}: pin {pin!r} is not an integer BCM GPIO number")
    if pin not in BCM_PINS:
        raise ValueError(f"{_SECTION}.{key}: pin {pin} is not a BCM GPIO number (0-27)")


def _check_bounce_time(value: object) -> None:
    """ValueError unless the bounce time is None or 0 to 1 seconds."""
    if value is None:
        return
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 1:
        raise ValueError(f"{_SECTION}.bounce_time: {value!r} is not a number of seconds (0-1) or null")


def _check_keys(where: str, data: object, allowed: set[str]) -> None:
    """ValueError naming ``where`` unless ``data`` is a mapping with only ``allowed`` keys."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{where}: expected a mapping, not {type(data).__name__}")
    unknown = sorted(str(key) for key in data if key not in allowed)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(allowed))})")


def _section(data: Mapping[str, Any], key: str, allowed: set[str]) -> Mapping[str, Any]:
    """The nested mapping ``data[key]`` (empty when absent), its keys checked."""
    section = data.get(key)
    if section is None:
        return {}
    _check_keys(f"{_SECTION}.{key}", section, allowed)
    checked: Mapping[str, Any] = section
    return checked
