"""gpiozero drivers for the parts wired straight to the Pi: four buttons, a buzzer, two
turn LEDs and the electronic-dice button.

Every device takes its BCM pins and an optional gpiozero ``pin_factory`` (a ``MockFactory``
in tests, the default factory on the Pi), posts typed events on the one queue stamped by
the injected clock, and releases its pins on ``close()``.  gpiozero calls the ``when_*``
callbacks on its own thread; the queue is what makes that safe.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType

import gpiozero
from gpiozero import Factory

from .gpio_config import DEFAULT_BOUNCE_TIME, GpioConfig
from .interfaces import Button, ButtonEvent, Clock, DiceEvent, DiceKind, EventQueue, Sound
from .zones import Checker

__all__ = [
    "DEFAULT_PATTERNS",
    "BeepPattern",
    "DieDraw",
    "ElectronicDice",
    "GpioButtons",
    "GpioBuzzer",
    "GpioConfig",
    "GpioDevices",
    "GpioTurnLeds",
    "open_gpio",
    "secure_die",
]

DieDraw = Callable[[], int]
"""Draws one die, 1 to 6."""


def secure_die() -> int:
    """One fair die from the OS's cryptographic source, so no player can predict the next roll."""
    return secrets.randbelow(6) + 1


def _close_all(devices: list[gpiozero.Device]) -> None:
    """Close every device (releasing its pin) and forget it."""
    while devices:
        devices.pop().close()


# -- buttons ----------------------------------------------------------------------------------


class GpioButtons:
    """The four buttons beside the board (pulled up, pressed to ground); a press posts a ``ButtonEvent``."""

    def __init__(
        self,
        pins: Mapping[Button, int | None],
        events: EventQueue,
        clock: Clock,
        *,
        bounce_time: float | None = DEFAULT_BOUNCE_TIME,
        pin_factory: Factory | None = None,
    ) -> None:
        self._events = events
        self._clock = clock
        self._devices: dict[Button, gpiozero.Button] = {}
        try:
            for button, pin in pins.items():
                if pin is not None:
                    device = gpiozero.Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
                    self._devices[button] = device
                    device.when_pressed = partial(self._pressed, button)
        except BaseException:
            self.close()
            raise

    @property
    def wired(self) -> tuple[Button, ...]:
        """The buttons that have a pin."""
        return tuple(self._devices)

    def _pressed(self, button: Button) -> None:
        """Post the press (called on gpiozero's thread)."""
        self._events.put(ButtonEvent(self._clock.now(), button))

    def close(self) -> None:
        """Release the buttons' pins; no more events after this."""
        devices: list[gpiozero.Device] = list(self._devices.values())
        self._devices.clear()
        _close_all(devices)


# -- buzzer -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BeepPattern:
    """``n`` beeps of ``on_time`` seconds, each followed by ``off_time`` seconds of silence."""

    on_time: float
    off_time: float = 0.0
    n: int = 1

    def __post_init__(self) -> None:
        if self.on_time <= 0 or self.off_time < 0 or self.n < 1:
            raise ValueError(f"a beep pattern needs on_time > 0, off_time >= 0 and n >= 1, not {self}")

    @property
    def duration(self) -> float:
        """Seconds from the first beep to the end of the last silence."""
        return self.n * (self.on_time + self.off_time)

    def scaled(self, factor: float) -> BeepPattern:
        """The same beeps, ``factor`` times as long (tests play them fast)."""
        return BeepPattern(self.on_time * factor, self.off_time * factor, self.n)


DEFAULT_PATTERNS: Mapping[Sound, BeepPattern] = MappingProxyType(
    {
        Sound.WARNING: BeepPattern(on_time=0.1, off_time=0.1, n=3),  # three short beeps
        Sound.TURN: BeepPattern(on_time=0.08),  # one short chime
        Sound.GAME_OVER: BeepPattern(on_time=1.0),  # one long beep
    }
)
"""What each sound sounds like on an on/off buzzer."""


class GpioBuzzer:
    """A ``Sounder`` on an active buzzer: each sound a beep pattern, played in the background."""

    def __init__(
        self,
        pin: int,
        *,
        patterns: Mapping[Sound, BeepPattern] = DEFAULT_PATTERNS,
        pin_factory: Factory | None = None,
    ) -> None:
        missing = [sound.value for sound in Sound if sound not in patterns]
        if missing:
            raise ValueError(f"no beep pattern for sound(s) {', '.join(missing)}")
        self._patterns = dict(patterns)
        self._buzzer = gpiozero.Buzzer(pin, initial_value=False, pin_factory=pin_factory)

    def play(self, sound: Sound) -> None:
        """Start the sound's pattern and return at once; a new sound cuts off one still playing."""
        pattern = self._patterns[sound]
        self._buzzer.off()  # else a beep cut short would run on into the new sound's first
        self._buzzer.beep(pattern.on_time, pattern.off_time, pattern.n, background=True)

    def close(self) -> None:
        """Stop any sound and release the pin."""
        self._buzzer.close()


# -- turn LEDs --------------------------------------------------------------------------------


class GpioTurnLeds:
    """A ``TurnIndicator``: one LED beside each player, lit while it is that player's turn."""

    def __init__(self, white_pin: int, black_pin: int, *, pin_factory: Factory | None = None) -> None:
        self._leds: dict[Checker, gpiozero.LED] = {}
        try:
            for checker, pin in ((Checker.WHITE, white_pin), (Checker.BLACK, black_pin)):
                self._leds[checker] = gpiozero.LED(pin, initial_value=False, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    def show_turn(self, checker: Checker | None) -> None:
        """Light the LED of ``checker`` only; None turns both off."""
        for colour, led in self._leds.items():
            led.value = colour is checker

    def close(self) -> None:
        """Release both pins (the LEDs go dark)."""
        devices: list[gpiozero.Device] = list(self._leds.values())
        self._leds.clear()
        _close_all(devices)


# -- electronic dice --------------------------------------------------------------------------


class ElectronicDice:
    """A ``DiceSource`` for boards without a dice tray: the dice button draws two dice and posts them."""

    kind: DiceKind = DiceKind.ELECTRONIC

    def __init__(
        self,
        pin: int,
        events: EventQueue,
        clock: Clock,
        *,
        draw: DieDraw = secure_die,
        bounce_time: float | None = DEFAULT_BOUNCE_TIME,
        pin_factory: Factory | None = None,
    ) -> None:
        self._events = events
        self._clock = clock
        self._draw = draw
        self._button = gpiozero.Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=pin_factory)
        self._button.when_pressed = self.roll

    def roll(self) -> DiceEvent:
        """Draw two dice and post them (the button calls this; so may a menu)."""
        dice = (self._die(), self._die())
        event = DiceEvent(self._clock.now(), dice, DiceKind.ELECTRONIC, late=0.0)
        self._events.put(event)
        return event

    def _die(self) -> int:
        """One die from the draw function, checked."""
        value = self._draw()
        if not isinstance(value, int) or not 1 <= value <= 6:
            raise ValueError(f"a die shows 1 to 6, but the draw gave {value!r}")
        return value

    def close(self) -> None:
        """Release the button's pin; no more rolls after this."""
        self._button.close()


# -- all of them ------------------------------------------------------------------------------


@dataclass
class GpioDevices:
    """Every GPIO device the config wires (None: not wired); ``close()`` releases them all."""

    buttons: GpioButtons
    sounder: GpioBuzzer | None = None
    turn_indicator: GpioTurnLeds | None = None
    dice: ElectronicDice | None = None

    def close(self) -> None:
        """Release every pin."""
        for device in (self.dice, self.turn_indicator, self.sounder, self.buttons):
            if device is not None:
                device.close()


def open_gpio(
    config: GpioConfig,
    events: EventQueue,
    clock: Clock,
    *,
    draw: DieDraw = secure_die,
    pin_factory: Factory | None = None,
) -> GpioDevices:
    """Open every device ``config`` wires, all on one pin factory; on failure none stays open."""
    devices = GpioDevices(
        GpioButtons(config.button_pins, events, clock, bounce_time=config.bounce_time, pin_factory=pin_factory)
    )
    try:
        if config.buzzer is not None:
            devices.sounder = GpioBuzzer(config.buzzer, pin_factory=pin_factory)
        if config.led_white is not None and config.led_black is not None:
            devices.turn_indicator = GpioTurnLeds(config.led_white, config.led_black, pin_factory=pin_factory)
        if config.dice_button is not None:
            devices.dice = ElectronicDice(
                config.dice_button, events, clock, draw=draw, bounce_time=config.bounce_time, pin_factory=pin_factory
            )
    except BaseException:
        devices.close()
        raise
    return devices
