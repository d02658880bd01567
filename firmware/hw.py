"""The thin layer over ``machine``: mux select and bank lines, the ADC inputs, the WS2812
chain, the status LED and the watchdog, built from a pin map.  The only module that touches
the hardware; everything it does not need to know lives in the pure modules.
"""

import time

from machine import ADC, WDT, Pin
from neopixel import NeoPixel

from .scan import SAMPLES, run_scan

SETTLE_US = 20
"""Wait after switching a mux: 1 kOhm + 1 nF at the ADC pin settle to 12 bits in ~10 us."""
WATCHDOG_MS = 2000
"""The Pico resets if a loop does not feed the watchdog for 2 s (the rp2 port allows up to 8.3 s)."""


class Hardware:
    """The board's hardware; ``scan()`` reads every sensor once, ``show()`` lights the chain,
    ``feed()`` keeps the watchdog quiet.  ``watchdog_ms=0`` leaves the watchdog off (bench work:
    once started it cannot be stopped)."""

    def __init__(self, pins, layout, settle_us=SETTLE_US, watchdog_ms=WATCHDOG_MS, samples=SAMPLES):
        if layout.adcs != len(pins.adc) or layout.banks != len(pins.enable):
            raise ValueError("the layout reads %d ADC inputs x %d banks, the pin map wires %d x %d"
                             % (layout.adcs, layout.banks, len(pins.adc), len(pins.enable)))
        self.layout = layout
        self.settle_us = settle_us
        self.samples = samples
        self._select = [Pin(gpio, Pin.OUT, value=0) for gpio in pins.select]
        self._enable = [Pin(gpio, Pin.OUT, value=1) for gpio in pins.enable]  # active low: all off
        self._readers = [ADC(Pin(gpio)).read_u16 for gpio in pins.adc]
        self._chain = NeoPixel(Pin(pins.neopixel, Pin.OUT), layout.zones)
        self._status = Pin(pins.status_led, Pin.OUT, value=0)
        if pins.smps_mode is not None:
            Pin(pins.smps_mode, Pin.OUT, value=1)  # the Pico's regulator in PWM mode: less ADC noise
        self._steps = layout.steps()
        self._bank = None
        self._wdt = WDT(timeout=watchdog_ms) if watchdog_ms else None

    def _choose(self, bank, channel):
        if bank != self._bank:
            if self._bank is not None:
                self._enable[self._bank].value(1)
            self._enable[bank].value(0)
            self._bank = bank
        for bit in range(4):
            self._select[bit].value((channel >> bit) & 1)
        time.sleep_us(self.settle_us)

    def scan(self):
        """Every sensor's raw reading (median of ``samples`` ADC samples), in sensor order;
        all muxes are off again afterwards."""
        try:
            return run_scan(self._steps, self._choose, self._readers, self.layout.sensor_count, self.samples)
        finally:
            if self._bank is not None:
                self._enable[self._bank].value(1)
                self._bank = None

    def show(self, pixels):
        """Send one RGB triple per zone down the WS2812 chain."""
        for i, rgb in enumerate(pixels):
            self._chain[i] = rgb
        self._chain.write()

    def status(self, on):
        """Light or darken the Pico's status LED."""
        self._status.value(1 if on else 0)

    def feed(self):
        """Tell the watchdog the loop is alive; call once a loop."""
        if self._wdt is not None:
            self._wdt.feed()
