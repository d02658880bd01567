"""What the controller may know of the hardware: small immutable values, typed events on
one queue, and the protocols every device (real driver or simulator) implements.

The controller never starts a thread and never reads a device directly: devices post
events onto the queue, the runner hands them to the controller one at a time, and the
controller answers with what the lights and sounds must show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping, Protocol, runtime_checkable

from .zones import ZONE_INDEX, ZONES, Checker, Zone, check_zone

# -- board snapshots ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ZoneReading:
    """What the sensors see in one zone: how many white and black checkers.

    Both counts above zero is a physically impossible reading (two colours on a point)
    that the controller must report, so it is representable.
    """

    white: int = 0
    black: int = 0

    def __post_init__(self) -> None:
        for count in (self.white, self.black):
            if not isinstance(count, int) or count < 0 or count > 30:
                raise ValueError(f"a zone holds 0 to 30 checkers, not {count!r}")

    def count(self, checker: Checker) -> int:
        """How many checkers of that colour."""
        return self.white if checker is Checker.WHITE else self.black

    @property
    def empty(self) -> bool:
        """No checker seen."""
        return not self.white and not self.black


EMPTY = ZoneReading()


@dataclass(frozen=True, slots=True)
class BoardSnapshot:
    """One full reading of the 28 zones, in ``ZONES`` order; ``None`` marks an unreadable zone."""

    readings: tuple[ZoneReading | None, ...]

    def __post_init__(self) -> None:
        if len(self.readings) != len(ZONES):
            raise ValueError(f"a snapshot has {len(ZONES)} zones, not {len(self.readings)}")

    @classmethod
    def from_zones(cls, zones: Mapping[Zone, ZoneReading | None]) -> BoardSnapshot:
        """A snapshot from ``{zone: reading}``; zones left out are empty."""
        readings: list[ZoneReading | None] = [EMPTY] * len(ZONES)
        for zone, reading in zones.items():
            readings[ZONE_INDEX[check_zone(zone)]] = reading
        return cls(tuple(readings))

    def reading(self, zone: Zone) -> ZoneReading | None:
        """The reading of one zone (None: unreadable)."""
        return self.readings[ZONE_INDEX[zone]]

    def unreadable(self) -> tuple[Zone, ...]:
        """The zones the sensors could not read."""
        return tuple(zone for zone, reading in zip(ZONES, self.readings) if reading is None)

    def as_dict(self) -> dict[Zone, ZoneReading | None]:
        """``{zone: reading}`` for every zone."""
        return dict(zip(ZONES, self.readings))


# -- lights and sounds -------------------------------------------------------------------


class LightColour(Enum):
    """What a zone's LED means; the driver picks the RGB values."""

    OFF = "off"
    SOURCE = "source"  # a checker here may move
    TARGET = "target"  # the lifted checker may go here
    HIT = "hit"  # a hit checker must go to the bar or pool
    WARNING = "warning"  # wrong: red
    SETUP = "setup"  # a checker is missing or extra here
    WINNER = "winner"
    TURN = "turn"  # whose turn it is (waiting zones)
    ENGINE = "engine"  # the computer's play (or a hint) to carry out: cyan


class LightMode(Enum):
    """Steady or blinking."""

    STEADY = "steady"
    BLINK = "blink"


@dataclass(frozen=True, slots=True)
class Light:
    """One zone's LED state."""

    colour: LightColour
    mode: LightMode = LightMode.STEADY


DARK = Light(LightColour.OFF)


@dataclass(frozen=True, slots=True)
class LightFrame:
    """The state of every zone's LED, and a one-line message for a display or log."""

    lights: tuple[tuple[Zone, Light], ...] = ()
    message: str = ""

    @classmethod
    def of(cls, lights: Mapping[Zone, Light], message: str = "") -> LightFrame:
        """A frame from ``{zone: light}``; zones left out are dark."""
        for zone in lights:
            check_zone(zone)
        ordered = tuple(sorted(((z, l) for z, l in lights.items() if l != DARK), key=lambda item: ZONE_INDEX[item[0]]))
        return cls(ordered, message)

    def light(self, zone: Zone) -> Light:
        """The light of one zone."""
        return dict(self.lights).get(zone, DARK)

    def lit(self, colour: LightColour | None = None) -> tuple[Zone, ...]:
        """The zones lit (in that colour)."""
        return tuple(z for z, l in self.lights if colour is None or l.colour is colour)


class Sound(Enum):
    """The sounds the board can make."""

    WARNING = "warning"
    TURN = "turn"
    GAME_OVER = "game-over"


class Button(Enum):
    """The buttons beside the board."""

    ROLL = "roll"
    DONE = "done"
    TAKEBACK = "takeback"
    MENU = "menu"


class DiceKind(Enum):
    """Where a roll came from."""

    TRAY = "tray"  # read from the physical dice in the dice tray
    ELECTRONIC = "electronic"  # drawn by the board when the roll button is pressed
    TYPED = "typed"  # typed in by a player


# -- events -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SnapshotEvent:
    """A settled reading of the board."""

    time: float
    snapshot: BoardSnapshot


@dataclass(frozen=True, slots=True)
class DiceEvent:
    """A roll: two dice, or ``None`` when the tray shows no clear roll (cocked die, one die).
    ``throw``: the board's number for this throw (the serial link's DICE), so a throw the
    board repeats after a restart of the controller is known for one already taken."""

    time: float
    dice: tuple[int, int] | None
    kind: DiceKind
    throw: int | None = None
    late: float | None = None
    """Seconds between the dice landing and ``time``: 0.0 when the roll is read at once
    (electronic dice, the simulator's own tray), None when not known (a tray read over a
    link that does not say, a roll typed in): the controller then allows for a late read."""


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A button pressed."""

    time: float
    button: Button


@dataclass(frozen=True, slots=True)
class TickEvent:
    """Time has passed with nothing else happening (so grace times can run out)."""

    time: float


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """A device's own news: a link lost or back, a sensor fault; shown to the player.
    ``stale``: the board's readings cannot be trusted until an ``ok`` DeviceEvent (the link
    is lost), so nothing may be warned about on the last board seen."""

    time: float
    device: str
    message: str
    ok: bool = True
    stale: bool = False


Event = SnapshotEvent | DiceEvent | ButtonEvent | TickEvent | DeviceEvent


# -- protocols ------------------------------------------------------------------------------------


@runtime_checkable
class Clock(Protocol):
    """Monotonic time in seconds; the simulator's is virtual."""

    def now(self) -> float: ...


@runtime_checkable
class EventQueue(Protocol):
    """The one queue devices post onto and the runner takes from."""

    def put(self, event: Event) -> None: ...

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event, or None when ``timeout`` seconds pass without one."""
        ...


@runtime_checkable
class BoardSensor(Protocol):
    """Posts a ``SnapshotEvent`` on every settled change; ``request_snapshot`` asks for one now."""

    def request_snapshot(self) -> None: ...


@runtime_checkable
class DiceSource(Protocol):
    """Posts ``DiceEvent``s of one kind."""

    kind: DiceKind


@runtime_checkable
class PointLights(Protocol):
    """The LED under every zone."""

    def show(self, frame: LightFrame) -> None: ...


@runtime_checkable
class Sounder(Protocol):
    """The buzzer or speaker."""

    def play(self, sound: Sound) -> None: ...


@runtime_checkable
class TurnIndicator(Protocol):
    """The two turn LEDs beside the board; ``None`` turns both off."""

    def show_turn(self, checker: Checker | None) -> None: ...


@dataclass
class Hardware:
    """The devices a controller runs with, real or simulated."""

    clock: Clock
    events: EventQueue
    lights: PointLights
    sounder: Sounder
    turn_indicator: TurnIndicator | None = None
    sensor: BoardSensor | None = None
    dice: list[DiceSource] = field(default_factory=list)
