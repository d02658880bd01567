"""A model of the board's hall sensors for tests and the on-device self-check: the raw readings
a board of checkers and dice gives, with each sensor's offset and gain, each checker's magnet
strength, crosstalk, noise and spikes; and the calibration the calibrate procedure would
measure on it.  Figures from HARDWARE.md (DRV5055A1 at 3.3 V, 12 x 3 mm N42 magnets).
"""

from .classify import Calibration
from .dice import EMPTY
from .scan import median

ZERO = 32768
"""Zero field: half the supply, mid-scale of ``read_u16``."""
LEVELS = (7580, 11360, 13490)
"""Counts from zero for 1, 2 and 3 checkers stacked on a slot (6.4, 9.5, 11.3 mT)."""
FACES = (7350, 4600, 1830, -1830, -4600, -7350)
"""Counts from zero under a die with face 1..6 on top (the magnet tilted 4 : 2.5 : 1)."""
COCKED = "cocked"


class Lcg:
    """A tiny deterministic random source (xorshift32) with ``random``, ``uniform`` and an
    approximate ``gauss``, for MicroPython whose ``random`` has no ``gauss``."""

    def __init__(self, seed=1):
        self._state = (seed & 0xFFFFFFFF) or 1

    def random(self):
        x = self._state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self._state = x
        return x / 4294967296

    def uniform(self, low, high):
        return low + (high - low) * self.random()

    def gauss(self, mu, sigma):
        total = self.random() + self.random() + self.random() + self.random()
        return mu + sigma * (total - 2) * 1.7320508


class HallBoard:
    """The raw readings of a modelled board.  ``rng`` has ``random``/``uniform``/``gauss``
    (``random.Random`` or ``Lcg``); spreads are fractions, noise and offsets in counts."""

    def __init__(self, layout, rng, noise=40, spike_rate=0.0, offset_spread=1300, gain_spread=0.05,
                 magnet_spread=0.05, crosstalk=0.01, polarity=1, samples=3):
        self.layout = layout
        self.rng = rng
        self.noise = noise
        self.spike_rate = spike_rate
        self.magnet_spread = magnet_spread
        self.crosstalk = crosstalk
        self.polarity = polarity
        self.samples = samples
        self.spoilt = set()
        self.supply = 0
        """Counts the sensor supply has moved: every zero and the reference move with it."""
        count = layout.sensor_count
        self.zero = [ZERO + int(rng.uniform(-offset_spread, offset_spread)) for _ in range(count)]
        self.gain = [1 + rng.uniform(-gain_spread, gain_spread) for _ in range(count)]
        if layout.reference_sensor is not None:
            self.zero[layout.reference_sensor] = ZERO
        self.slots = [[] for _ in range(layout.zone_sensor_count)]
        """Per slot sensor, the checkers on it from the bottom: (+1 White / -1 Black, magnet strength)."""
        self.dice = [EMPTY] * layout.dice_sensors

    def place(self, zone, white=0, black=0, nominal=False):
        """Set a zone to ``white`` or ``black`` checkers, filling its slots row by row as a
        player stacks them; ``nominal`` magnets are all exactly as strong."""
        sensors = list(self.layout.zone_sensors(zone))
        for sensor in sensors:
            self.slots[sensor] = []
        for sign, count in ((1, white), (-1, black)):
            for k in range(count):
                strength = 1.0 if nominal else 1 + self.rng.uniform(-self.magnet_spread, self.magnet_spread)
                self.slots[sensors[k % len(sensors)]].append((sign, strength))

    def clear(self):
        """No checker anywhere, the tray empty."""
        for zone in range(self.layout.zones):
            self.place(zone)
        self.dice = [EMPTY] * self.layout.dice_sensors

    def _slot_field(self, sensor):
        field, below = 0.0, 0
        for layer, (sign, strength) in enumerate(self.slots[sensor]):
            level = LEVELS[layer] if layer < len(LEVELS) else LEVELS[-1] + (LEVELS[-1] - LEVELS[-2]) // 2
            field += sign * strength * (level - below)
            below = level
        return field

    def ideal(self, sensor):
        """A sensor's noiseless reading."""
        layout = self.layout
        if sensor == layout.reference_sensor:
            return ZERO + self.supply
        if sensor >= layout.zone_sensor_count:
            face = self.dice[sensor - layout.first_dice_sensor]
            if face == EMPTY:
                field = 0
            elif face == COCKED:
                field = (FACES[0] + FACES[1]) / 2
            else:
                field = FACES[face - 1]
        else:
            field = self._slot_field(sensor)
            slot = sensor % layout.sensors_per_zone
            if slot > 0:
                field -= self.crosstalk * self._slot_field(sensor - 1)
            if slot < layout.sensors_per_zone - 1:
                field -= self.crosstalk * self._slot_field(sensor + 1)
            field *= self.polarity
        return self.zero[sensor] + self.supply + self.gain[sensor] * field

    def _sample(self, ideal):
        """One ADC sample and whether it spiked."""
        value = self.rng.gauss(ideal, self.noise)
        spiked = bool(self.spike_rate) and self.rng.random() < self.spike_rate
        if spiked:
            value += self.rng.uniform(3000, 30000) * (1 if self.rng.random() < 0.5 else -1)
        return min(max(int(value), 0), 65535), spiked

    def scan(self):
        """One scan: each sensor the median of ``samples`` noisy samples, as the firmware reads
        it; ``spoilt`` holds the sensors where two or more samples spiked (the median may too)."""
        raw = []
        self.spoilt = set()
        for sensor in range(self.layout.sensor_count):
            ideal = self.ideal(sensor)
            samples, spikes = [], 0
            for _ in range(self.samples):
                value, spiked = self._sample(ideal)
                samples.append(value)
                spikes += spiked
            if spikes > 1:
                self.spoilt.add(sensor)
            raw.append(median(samples))
        return raw

    def typical(self, scans):
        """Every sensor's median reading over ``scans`` scans: what calibrating records (a mean
        would let one spike move a level)."""
        readings = [self.scan() for _ in range(scans)]
        return [median([reading[s] for reading in readings]) for s in range(self.layout.sensor_count)]


def calibrate(board, scans=16, layers=3):
    """The calibrate procedure on a modelled board: zero with the board empty, then every zone
    with 5, 10 and 15 White checkers (matched magnets), then the dice with each face on top."""
    layout = board.layout
    board.clear()
    zero = board.typical(scans)
    per_zone = layout.sensors_per_zone
    stacked = []
    for layer in range(1, layers + 1):
        for zone in range(layout.zones):
            board.place(zone, white=layer * per_zone, nominal=True)
        stacked.append(board.typical(scans))
    board.clear()
    polarity = 1 if sum(stacked[0][s] - zero[s] for s in range(layout.zone_sensor_count)) >= 0 else -1
    zones = []
    for zone in range(layout.zones):
        zones.append([(zero[s], [abs(reading[s] - zero[s]) for reading in stacked])
                      for s in layout.zone_sensors(zone)])
    faces_read = []
    for face in range(1, 7):
        board.dice = [face] * layout.dice_sensors
        faces_read.append(board.typical(scans))
    board.clear()
    dice = []
    for die in range(layout.dice_sensors):
        s = layout.dice_sensor(die)
        dice.append((zero[s], [reading[s] - zero[s] for reading in faces_read]))
    reference = zero[layout.reference_sensor] if layout.reference_sensor is not None else None
    return Calibration(zones, dice, reference, polarity)
