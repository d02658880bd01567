"""The Pico's main loop: scan the sensors, step the board logic, talk to the Pi over USB
serial, light the LEDs, feed the watchdog; one pass every SCAN_PERIOD_MS.

Everything it decides lives in ``device.py`` and ``board_logic.py``; this file only moves
bytes and time.  On the Pico the package sits in ``/firmware`` and ``/main.py`` holds::

    import firmware.main
    firmware.main.run()

It disables Ctrl-C on the USB serial port (a 0x03 is an ordinary byte of a frame); to get
the REPL back, stop it from ``mpremote`` (which sends its own break sequence) or rename
``/main.py``.
"""

import os
import select
import sys
import time

import micropython

from . import protocol as p
from .board_logic import BoardLogic
from .classify import Calibration, CalibrationError
from .device import NO_ID, Device
from .hw import Hardware
from .pins import DEFAULT_PINS
from .scan import SCAN_PERIOD_MS, Layout

CALIBRATION_FILE = "/calibration.json"
READ_CHUNK = 256


def load_calibration(path=CALIBRATION_FILE):
    """(the stored calibration or None, what is wrong with the file or None)."""
    try:
        with open(path) as handle:
            text = handle.read()
    except OSError:
        return None, None  # none stored: boot() reports CALIBRATION_MISSING
    try:
        return Calibration.from_json(text), None
    except CalibrationError as error:
        return None, "%s: %s" % (path, error)


def store_calibration(text, path=CALIBRATION_FILE):
    """Write the calibration's JSON to flash: a new file first, then renamed over the old."""
    fresh = path + ".new"
    with open(fresh, "w") as handle:
        handle.write(text)
    try:
        os.rename(fresh, path)
    except OSError:  # a filesystem whose rename does not replace
        os.remove(path)
        os.rename(fresh, path)


class Uptime:
    """Milliseconds since boot that never wrap (``ticks_ms`` wraps; the differences do not)."""

    def __init__(self):
        self._last = time.ticks_ms()
        self._ms = 0

    def ms(self):
        now = time.ticks_ms()
        self._ms += time.ticks_diff(now, self._last)
        self._last = now
        return self._ms


class UsbSerial:
    """The USB CDC port as MicroPython's stdin/stdout: reads what has arrived, never blocks."""

    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def wait(self, ms):
        """Block up to ``ms`` for input; True if some arrived."""
        return bool(self._poll.poll(max(ms, 0)))

    def read(self):
        data = bytearray()
        while len(data) < READ_CHUNK and self._poll.poll(0):
            data.extend(self._in.read(1))
        return data

    def write(self, data):
        if data:
            self._out.write(data)


def device_id(hardware):
    """The flash's unique id if the hardware layer offers it, else zeros."""
    unique_id = getattr(hardware, "unique_id", None)
    if unique_id is None:
        return NO_ID
    return (bytes(unique_id()) + NO_ID)[: len(NO_ID)]


def run(pins=DEFAULT_PINS, layout=None):
    """The main loop; never returns (the watchdog resets the Pico if it stalls)."""
    micropython.kbd_intr(-1)
    layout = layout or Layout()
    hardware = Hardware(pins, layout)
    calibration, problem = load_calibration()
    logic = BoardLogic(layout, calibration)
    device = Device(logic, device_id=device_id(hardware), store=store_calibration)
    serial = UsbSerial()
    clock = Uptime()
    serial.write(device.boot(clock.ms()))
    if problem is not None:
        serial.write(device.error(p.CALIBRATION_MISSING, problem))
    shown = None
    due = clock.ms()
    while True:
        data = serial.read()
        if data:
            serial.write(device.receive(data, clock.ms()))
        raw = hardware.scan()
        serial.write(device.tick(raw, clock.ms()))
        now = clock.ms()
        pixels = logic.pixels(now)
        if pixels != shown:
            hardware.show(pixels)
            shown = pixels
        hardware.status(logic.status_on(now))
        hardware.feed()
        due += SCAN_PERIOD_MS
        left = due - clock.ms()
        while left > 0:  # answer the Pi at once while waiting for the next scan
            if serial.wait(left):
                serial.write(device.receive(serial.read(), clock.ms()))
            left = due - clock.ms()
        if -left > SCAN_PERIOD_MS:  # overran by a whole period: do not try to catch up
            due = clock.ms()
