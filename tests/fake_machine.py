"""A small explicit fake of what ``firmware/hw.py`` touches in MicroPython's ``machine`` and
``neopixel``: Pin levels, ADC samples from a wiring function, the watchdog and the chain.

The same file stands in for both modules, under CPython (``tests/test_firmware.py`` puts it
in ``sys.modules``) and under MicroPython (``firmware/mpy-test/run_firmware.mjs``).  Plain
MicroPython-compatible Python.
"""

levels = {}
"""GPIO -> the level last driven."""
wiring = None
"""``wiring(adc_gpio, levels) -> int``: what an ADC input reads with the pins as they stand."""
watchdog = {"timeout": None, "fed": 0}
chains = []


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, gpio, mode=-1, value=None):
        self.gpio = gpio
        if value is not None:
            levels[gpio] = value

    def value(self, level=None):
        if level is None:
            return levels.get(self.gpio, 0)
        levels[self.gpio] = level
        return None


class ADC:
    def __init__(self, pin):
        self.gpio = pin.gpio

    def read_u16(self):
        return wiring(self.gpio, levels)


class WDT:
    def __init__(self, timeout=5000):
        watchdog["timeout"] = timeout

    def feed(self):
        watchdog["fed"] += 1


class NeoPixel:
    def __init__(self, pin, n):
        self.gpio = pin.gpio
        self.pixels = [(0, 0, 0)] * n
        self.written = []
        chains.append(self)

    def __setitem__(self, index, rgb):
        self.pixels[index] = rgb

    def write(self):
        self.written.append(list(self.pixels))


def reset():
    """Forget every level, the wiring, the watchdog and the chains."""
    global wiring
    levels.clear()
    wiring = None
    watchdog["timeout"], watchdog["fed"] = None, 0
    del chains[:]
