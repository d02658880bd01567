"""Every simulated device wired to one virtual clock, scheduler and queue, from one seed."""

from __future__ import annotations

import random

from hal.interfaces import DiceKind, Hardware

from .board import PhysicalBoard
from .clock import VirtualClock
from .devices import Roll, SimButtons, SimDice, SimLights, SimSounder, SimTurnIndicator
from .queue import SimEventQueue
from .scheduler import Scheduler
from .sensors import NoiseModel, SimulatedSensor


class SimulatedHardware:
    """A whole simulated board, deterministic from ``seed``; ``.hardware`` is what a controller gets."""

    def __init__(
        self,
        seed: int = 0,
        noise: NoiseModel | None = None,
        *,
        dice_kind: DiceKind = DiceKind.TRAY,
        scan_period: float = 0.02,
        settle_scans: int = 3,
        start: float = 0.0,
    ) -> None:
        self.seed = seed
        self._streams: dict[str, random.Random] = {}
        self.clock = VirtualClock(start)
        self.scheduler = Scheduler(self.clock)
        self.queue = SimEventQueue()
        self.board = PhysicalBoard()
        self.sensor = SimulatedSensor(
            self.clock,
            self.scheduler,
            self.queue,
            self.board,
            scan_period=scan_period,
            settle_scans=settle_scans,
            noise=noise,
            rng=self.rng("sensor"),
        )
        self.dice = SimDice(self.clock, self.queue, dice_kind)
        self.lights = SimLights(self.clock)
        self.sounder = SimSounder(self.clock)
        self.turn_indicator = SimTurnIndicator(self.clock)
        self.buttons = SimButtons(self.clock, self.queue)
        self._hardware = Hardware(
            clock=self.clock,
            events=self.queue,
            lights=self.lights,
            sounder=self.sounder,
            turn_indicator=self.turn_indicator,
            sensor=self.sensor,
            dice=[self.dice],
        )

    @property
    def hardware(self) -> Hardware:
        """The devices as the controller sees them (the same object every time)."""
        return self._hardware

    def rng(self, name: str) -> random.Random:
        """The seeded random stream called ``name`` (one per name, so users do not disturb each other)."""
        stream = self._streams.get(name)
        if stream is None:
            stream = self._streams[name] = random.Random(f"{self.seed}/{name}")
        return stream

    def roll_dice(self, cocked_chance: float = 0.0) -> Roll | None:
        """Throw the dice now from the ``dice`` stream."""
        return self.dice.roll(self.rng("dice"), cocked_chance)

    def run_until(self, t: float) -> int:
        """Run the simulation up to virtual time ``t``."""
        return self.scheduler.run_until(t)

    def run_for(self, seconds: float) -> int:
        """Run the simulation for ``seconds`` of virtual time."""
        return self.scheduler.run_for(seconds)
