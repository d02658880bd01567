"""The simulated board as its hall sensors read it: the checkers of a ``PhysicalBoard`` and the
dice of the tray, turned into raw ``read_u16`` scans by ``firmware.synthetic.HallBoard``
(each sensor's offset and gain, each magnet's strength, crosstalk, noise), calibrated the
way ``trictrac calibrate`` would, with ``firmware.synthetic.calibrate``.

What the model adds to HallBoard: a zone under a hand reads over range (the magnet of the
checker in the hand is right above it), so the firmware reports it unreadable, as the plain
sensor model does; a checker of the other colour goes beside the ones there (a hitter is
put next to the blot, not on it); and a scan is cheap: the noiseless readings are kept until
the board changes, and each scan adds the noise a median of three samples leaves (a run of
a table of normal samples, from a random start).
Thread-safe: a player may move checkers while the device thread scans.
"""

from __future__ import annotations

import random
import threading

from firmware.classify import Calibration
from firmware.dice import EMPTY
from firmware.scan import Layout
from firmware.synthetic import HallBoard, calibrate
from hal.interfaces import ZoneReading
from hal.zones import ZONE_INDEX

from .board import PhysicalBoard

OVER_RANGE = 65535
"""What a sensor under a hand reads: past the valid window, so its zone is unreadable."""
MEDIAN_OF_THREE = 0.67
"""The spread of the median of three normal samples, as a fraction of one sample's."""
NOISE_TABLE = 8192
Dice = tuple[int, int] | None


class HallSensors:
    """Raw scans of a ``PhysicalBoard`` and a two-dice tray; ``calibration`` is measured at start."""

    def __init__(
        self,
        board: PhysicalBoard,
        rng: random.Random,
        *,
        layout: Layout | None = None,
        noise: float = 40,
        magnet_spread: float = 0.03,
        calibration_scans: int = 16,
    ) -> None:
        self.board = board
        self.layout = layout or Layout()
        self._rng = rng
        self._lock = threading.Lock()
        self.hall = HallBoard(self.layout, rng, noise=noise, magnet_spread=magnet_spread)
        self.calibration: Calibration = calibrate(self.hall, scans=calibration_scans)
        self._sigma = noise * MEDIAN_OF_THREE
        self._noise = [rng.gauss(0.0, self._sigma) for _ in range(NOISE_TABLE)]
        """Noise samples; each scan reads a run of them from a random start (cheaper than gauss per sensor)."""
        self._zones: list[ZoneReading | None] = [None] * self.layout.zones
        self._hovered: frozenset[str] = frozenset()
        self._ideal: list[float] | None = None

    # -- the tray ---------------------------------------------------------------------------
    def set_dice(self, dice: Dice) -> None:
        """The dice lying in their pockets with these faces up (None: both pockets empty)."""
        with self._lock:
            faces = [EMPTY] * self.layout.dice_sensors if dice is None else list(dice)
            if len(faces) != self.layout.dice_sensors:
                raise ValueError(f"the tray holds {self.layout.dice_sensors} dice, not {len(faces)}")
            self.hall.dice = faces
            self._ideal = None

    @property
    def dice(self) -> Dice:
        """The faces up in the tray (None: a pocket is empty)."""
        faces = self.hall.dice
        return None if EMPTY in faces else (faces[0], faces[1])

    # -- scanning -----------------------------------------------------------------------------
    def sync(self) -> bool:
        """Take the board's checkers and hand as they are now; True when the readings changed."""
        with self._lock:
            return self._sync()

    def scan(self) -> list[int]:
        """One scan: every sensor's raw reading, in sensor order."""
        with self._lock:
            self._sync()
            ideal = self._ideal
            if ideal is None:
                ideal = self._ideal = self._compute()
            table = self._noise
            start = self._rng.randrange(len(table) - len(ideal))
            return [min(max(int(value + table[start + i]), 0), 65535) for i, value in enumerate(ideal)]

    def _sync(self) -> bool:
        board, zones = self.board, self._zones
        changed = False
        for index, reading in enumerate(board.as_tuple()):
            if reading != zones[index]:
                self._place(index, reading)
                zones[index] = reading
                changed = True
        hovered = board.hovered
        if hovered != self._hovered:
            self._hovered = hovered
            changed = True
        if changed:
            self._ideal = None
        return changed

    def _place(self, zone: int, reading: ZoneReading) -> None:
        """Lay a zone's checkers on its slots row by row, the other colour beside them."""
        hall, rng = self.hall, self._rng
        sensors = list(self.layout.zone_sensors(zone))
        for sensor in sensors:
            hall.slots[sensor] = []
        spread = hall.magnet_spread
        for k in range(reading.white):
            hall.slots[sensors[k % len(sensors)]].append((1, 1 + rng.uniform(-spread, spread)))
        for k in range(reading.black):
            hall.slots[sensors[(reading.white + k) % len(sensors)]].append((-1, 1 + rng.uniform(-spread, spread)))

    def _compute(self) -> list[float]:
        """Every sensor's noiseless reading; a hovered zone's sensors read over range."""
        hall, layout = self.hall, self.layout
        ideal = [hall.ideal(sensor) for sensor in range(layout.sensor_count)]
        if self._hovered:
            for zone in self._hovered:
                for sensor in layout.zone_sensors(ZONE_INDEX[zone]):
                    ideal[sensor] = OVER_RANGE + 4 * self._sigma
        return ideal
