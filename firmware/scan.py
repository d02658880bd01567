"""Scan scheduling: which mux channel and ADC input each sensor is read through, the order
of a full scan, and the scan itself as a list of raw readings.

Sensor numbers: the slot sensors of the 28 zones in zone order (zone ``z``, slot ``s`` is
``z * sensors_per_zone + s``), then the dice sensors, then the supply reference.  Each zone
sits whole on one CD74HC4067 (16 channels): mux ``m`` carries zones ``3m`` to ``3m + 2`` on
channels 0-14; the dice sensors and the reference take the next free channels.  Mux ``m``
drives ADC input ``m % adcs`` and is enabled by bank line ``m // adcs``, so one select of
(bank, channel) reads up to ``adcs`` sensors.
"""

SCAN_PERIOD_MS = 20
"""A full scan starts every 20 ms (50 Hz): ~8 ms of reading, the rest for classifying,
the LEDs and the serial link.  With 3 identical scans to settle a change shows in 60 ms."""
SAMPLES = 3
"""ADC samples per sensor per scan; their median is the reading (one spiky sample is lost)."""
CHANNELS = 16


class Layout:
    """Where every sensor is wired; ValueError when the muxes cannot hold them all."""

    def __init__(self, zones=28, sensors_per_zone=5, zones_per_mux=3, dice_sensors=2,
                 reference=True, adcs=3, banks=4, channels=CHANNELS):
        if zones < 1 or sensors_per_zone < 1 or zones_per_mux < 1 or dice_sensors < 0:
            raise ValueError("zones, sensors per zone and zones per mux are 1 or more")
        if zones_per_mux * sensors_per_zone > channels:
            raise ValueError("%d zones of %d sensors do not fit on a %d-channel mux"
                             % (zones_per_mux, sensors_per_zone, channels))
        self.zones = zones
        self.sensors_per_zone = sensors_per_zone
        self.zones_per_mux = zones_per_mux
        self.dice_sensors = dice_sensors
        self.adcs = adcs
        self.banks = banks
        self.channels = channels
        self.zone_sensor_count = zones * sensors_per_zone
        self.first_dice_sensor = self.zone_sensor_count
        extras = dice_sensors + (1 if reference else 0)
        self.reference_sensor = self.zone_sensor_count + dice_sensors if reference else None
        self.sensor_count = self.zone_sensor_count + extras
        self._wiring = self._wire(extras)
        self.mux_count = self._wiring[-1][0] + 1
        if self.mux_count > adcs * banks:
            raise ValueError("%d sensors need %d muxes; %d ADC inputs x %d banks hold %d"
                             % (self.sensor_count, self.mux_count, adcs, banks, adcs * banks))

    def _wire(self, extras):
        """(mux, channel) of every sensor, in sensor order."""
        wiring = []
        for zone in range(self.zones):
            mux = zone // self.zones_per_mux
            first = (zone % self.zones_per_mux) * self.sensors_per_zone
            for slot in range(self.sensors_per_zone):
                wiring.append((mux, first + slot))
        mux, channel = wiring[-1]
        for _ in range(extras):
            channel += 1
            if channel == self.channels:
                mux, channel = mux + 1, 0
            wiring.append((mux, channel))
        return wiring

    def zone_sensors(self, zone):
        """The sensor numbers of one zone's slots, from the slot nearest the board's edge."""
        first = zone * self.sensors_per_zone
        return range(first, first + self.sensors_per_zone)

    def dice_sensor(self, die):
        """The sensor number under die 0 or 1."""
        return self.first_dice_sensor + die

    def address(self, sensor):
        """(adc, bank, channel) that sensor ``sensor`` is read through."""
        mux, channel = self._wiring[sensor]
        return mux % self.adcs, mux // self.adcs, channel

    def mux_of(self, sensor):
        """(mux, channel) of a sensor, as the wiring table in HARDWARE.md lists them."""
        return self._wiring[sensor]

    def steps(self):
        """The scan schedule: ``(bank, channel, ((adc, sensor), ...))`` for every select that
        reads something, bank by bank so each bank is enabled once per scan."""
        reads = {}
        for sensor in range(self.sensor_count):
            adc, bank, channel = self.address(sensor)
            reads.setdefault((bank, channel), []).append((adc, sensor))
        return [(bank, channel, tuple(sorted(reads[(bank, channel)])))
                for bank, channel in sorted(reads)]


def median(samples):
    """The middle of a few samples (the upper middle of an even count)."""
    if len(samples) == 3:
        a, b, c = samples
        if a > b:
            a, b = b, a
        return b if b <= c else (a if a > c else c)
    ordered = sorted(samples)
    return ordered[len(ordered) // 2]


def run_scan(steps, select, readers, sensor_count, samples=SAMPLES):
    """One full scan as raw readings in sensor order: ``select(bank, channel)`` sets the muxes,
    ``readers[adc]()`` returns one 16-bit sample of that ADC input; each reading is the median
    of ``samples`` samples (three are compared inline: this is the firmware's hottest loop)."""
    raw = [0] * sensor_count
    for bank, channel, reads in steps:
        select(bank, channel)
        for adc, sensor in reads:
            read = readers[adc]
            if samples == 3:
                a, b, c = read(), read(), read()
                if a > b:
                    a, b = b, a
                raw[sensor] = b if b <= c else (a if a > c else c)
            else:
                raw[sensor] = median([read() for _ in range(samples)])
    return raw
