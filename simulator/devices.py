"""Simulated dice, lights, sounder, turn indicator and buttons: they post events now or record what they are told."""

from __future__ import annotations

import random
from itertools import chain

from hal.interfaces import Button, ButtonEvent, DiceEvent, DiceKind, Light, LightColour, LightFrame, LightMode, Sound
from hal.zones import Checker

from .clock import VirtualClock
from .queue import SimEventQueue

Roll = tuple[int, int]


class SimDice:
    """A ``hal.interfaces.DiceSource`` of one kind: posts ``DiceEvent``s when a roll is thrown."""

    def __init__(self, clock: VirtualClock, queue: SimEventQueue, kind: DiceKind = DiceKind.TRAY) -> None:
        if not isinstance(kind, DiceKind):
            raise TypeError(f"not a dice kind: {kind!r}")
        self.kind = kind
        self._clock, self._queue = clock, queue
        self.thrown: list[DiceEvent] = []

    def throw(self, a: int, b: int) -> None:
        """Post the roll ``(a, b)`` now."""
        for die in (a, b):
            if not isinstance(die, int) or not 1 <= die <= 6:
                raise ValueError(f"a die shows 1 to 6, not {die!r}")
        self._post((a, b))

    def throw_cocked(self) -> None:
        """Post ``dice=None`` now: the tray shows no clear roll (a cocked die, one die out)."""
        if self.kind is not DiceKind.TRAY:
            raise ValueError(f"only tray dice can land cocked, not {self.kind.value} dice")
        self._post(None)

    def roll(self, rng: random.Random, cocked_chance: float = 0.0) -> Roll | None:
        """Throw seeded random dice now (tray dice land cocked with ``cocked_chance``); returns what was posted."""
        if cocked_chance and rng.random() < cocked_chance:
            self.throw_cocked()
            return None
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        self.throw(*dice)
        return dice

    def _post(self, dice: Roll | None) -> None:
        """Post and record one DiceEvent."""
        # tray and electronic dice are read the instant they land; a typed roll comes after
        # the dice were thrown, by how long nobody knows
        late = None if self.kind is DiceKind.TYPED else 0.0
        event = DiceEvent(self._clock.now(), dice, self.kind, late=late)
        self.thrown.append(event)
        self._queue.put(event)


Packed = tuple[object, ...]
"""A light frame shown, as plain values in one flat tuple: ``(time, message, zone, colour,
mode, zone, colour, mode, ...)``."""


def _pack(at: float, frame: LightFrame) -> Packed:
    return (at, frame.message) + tuple(chain.from_iterable((z, l.colour.value, l.mode.value) for z, l in frame.lights))


def _unpack(packed: Packed) -> tuple[float, LightFrame]:
    at, message, *flat = packed
    lights = tuple((flat[i], Light(LightColour(flat[i + 1]), LightMode(flat[i + 2]))) for i in range(0, len(flat), 3))
    return at, LightFrame(lights, message)  # type: ignore[arg-type]


class SimLights:
    """A ``hal.interfaces.PointLights`` that records every frame it is shown, with the time.

    The record holds flat tuples of strings and floats, which the garbage collector stops
    tracking at its first look: a long run's thousands of frames add nothing to its full
    collections (each would walk them all); ``history`` rebuilds the frames when asked.
    """

    def __init__(self, clock: VirtualClock) -> None:
        self._clock = clock
        self._history: list[Packed] = []
        self._current = LightFrame()

    def show(self, frame: LightFrame) -> None:
        """Show (record) a frame."""
        self._current = frame
        self._history.append(_pack(self._clock.now(), frame))

    @property
    def current(self) -> LightFrame:
        """The frame shown now (all dark before any)."""
        return self._current

    @property
    def frames(self) -> list[LightFrame]:
        """Every frame shown, oldest first."""
        return [_unpack(packed)[1] for packed in self._history]

    def history(self) -> list[tuple[float, LightFrame]]:
        """Every frame shown with its time, oldest first."""
        return [_unpack(packed) for packed in self._history]


class SimSounder:
    """A ``hal.interfaces.Sounder`` that records every sound with its time."""

    def __init__(self, clock: VirtualClock) -> None:
        self._clock = clock
        self.played: list[tuple[float, Sound]] = []

    def play(self, sound: Sound) -> None:
        """Play (record) a sound."""
        self.played.append((self._clock.now(), sound))

    @property
    def sounds(self) -> list[Sound]:
        """The sounds played, oldest first."""
        return [sound for _, sound in self.played]


class SimTurnIndicator:
    """A ``hal.interfaces.TurnIndicator`` that records whose turn it showed and when."""

    def __init__(self, clock: VirtualClock) -> None:
        self._clock = clock
        self.current: Checker | None = None
        self._history: list[tuple[float, str | None]] = []
        """Shown on every output: kept as plain values the garbage collector stops tracking."""

    def show_turn(self, checker: Checker | None) -> None:
        """Light one colour's LED, or neither."""
        self.current = checker
        self._history.append((self._clock.now(), None if checker is None else checker.value))

    @property
    def history(self) -> list[tuple[float, Checker | None]]:
        """Every call with its time, oldest first."""
        return [(at, None if value is None else Checker(value)) for at, value in self._history]


class SimButtons:
    """The buttons beside the board: ``press`` posts a ``ButtonEvent`` now."""

    def __init__(self, clock: VirtualClock, queue: SimEventQueue) -> None:
        self._clock, self._queue = clock, queue
        self.pressed: list[ButtonEvent] = []

    def press(self, button: Button) -> None:
        """Press ``button``."""
        if not isinstance(button, Button):
            raise TypeError(f"not a button: {button!r}")
        event = ButtonEvent(self._clock.now(), button)
        self.pressed.append(event)
        self._queue.put(event)
