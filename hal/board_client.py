"""The calibration and diagnosis client of the board: commands that wait for the board's
answer (raw readings, calibration get/set/store, a test pattern on the LEDs).

It talks through a connected ``BoardLink`` (``exchange`` to send under the link's lock,
``wait_until`` to wait for the answer) and keeps no state of its own, so the link stays the
transport it is and ``trictrac doctor``/``calibrate`` use this instead.  Every method blocks
until the board answers or its timeout passes; LinkError names what went wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from firmware import protocol as p
from firmware.classify import Calibration
from firmware.scan import Layout
from firmware.wire_calibration import calibration_of, level_chunks, sensor_levels

from .interfaces import LightColour, LightMode
from .link_protocol import LinkError, LinkProtocol, Pending
from .serial_link import BoardLink, LinkState
from .zones import ZONES


POLL = 0.01
"""Seconds between looks at the link while waiting on an injected clock."""


class WaitClock(Protocol):
    """Time for the tools that wait on a person or a board: ``hal.clock.MonotonicClock``, or a
    test's virtual clock whose ``sleep`` runs a lock-step board meanwhile."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class BoardClient:
    """Blocking commands to the board over ``link``; see the module docstring.

    Without ``clock`` it waits on the link in real time; with one it looks at the link and
    sleeps on that clock in turn, so a lock-step virtual board answers in virtual time.
    """

    def __init__(self, link: BoardLink, clock: WaitClock | None = None) -> None:
        self.link = link
        self.clock = clock

    def wait_until(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Block until ``condition()`` holds (checked under the link's lock); False after ``timeout``."""
        clock = self.clock
        if clock is None:
            return self.link.wait_until(condition, timeout)
        deadline = clock.now() + timeout
        while not self.link.wait_until(condition, 0.0):
            left = deadline - clock.now()
            if left <= 0:
                return False
            clock.sleep(min(POLL, left))
        return True

    def set_raw_mode(self, on: bool, timeout: float = 2.0) -> None:
        """Turn the board's raw readings stream on or off."""
        self._command(p.RAW_MODE, p.raw_mode_payload(on), timeout)

    def raw_scans(self, count: int, timeout: float = 10.0) -> list[list[int]]:
        """``count`` whole raw scans (every sensor's reading, sensor order), raw mode on meanwhile."""
        link = self.link

        def want(wanted: int) -> Callable[[LinkProtocol, float], tuple[None, bytes]]:
            def step(protocol: LinkProtocol, _now: float) -> tuple[None, bytes]:
                protocol.raw_wanted, protocol.raw_scans = wanted, ([] if wanted else protocol.raw_scans)
                return None, b""
            return step

        link.exchange(want(count), connected=False)
        try:
            self.set_raw_mode(True)
            if not self.wait_until(lambda: len(link.protocol.raw_scans) >= count, timeout):
                got = len(link.protocol.raw_scans)
                raise LinkError(f"{link.url}: only {got} of {count} raw scans came in {timeout:g} s")
            return [list(scan) for scan in link.protocol.raw_scans[:count]]
        finally:
            link.exchange(want(0), connected=False)
            if link.state is LinkState.CONNECTED:
                try:
                    self.set_raw_mode(False)
                except LinkError as error:
                    link.say(f"board link: raw mode left on: {error}")

    def get_levels(self, timeout: float = 3.0) -> list[tuple[int, ...]]:
        """The board's calibration as the wire carries it: per sensor a tuple of levels."""
        link = self.link

        def ask(protocol: LinkProtocol, now: float) -> tuple[None, bytes]:
            protocol.levels = None
            protocol.errors.clear()
            return None, protocol.send(p.CALIBRATION_GET, b"", now)

        def answered() -> bool:
            protocol = link.protocol
            missing = any(code == p.CALIBRATION_MISSING for code, _text in protocol.errors)
            return missing or (protocol.levels is not None and None not in protocol.levels)

        link.exchange(ask)
        done = self.wait_until(answered, timeout)
        protocol = link.protocol
        for code, text in protocol.errors:
            if code == p.CALIBRATION_MISSING:
                raise LinkError(f"{link.url}: the board has no calibration ({text}): run trictrac calibrate")
        if not done or protocol.levels is None:
            raise LinkError(f"{link.url}: the board sent no whole calibration within {timeout:g} s")
        return [levels for levels in protocol.levels if levels is not None]

    def get_calibration(self, layout: Layout | None = None, timeout: float = 3.0) -> Calibration:
        """The board's calibration (hysteresis, window and over-range are the defaults: not sent)."""
        return calibration_of(self.get_levels(timeout), layout or Layout())

    def set_calibration(self, calibration: Calibration, layout: Layout | None = None, timeout: float = 3.0) -> None:
        """Send a calibration; the board uses it at once (in RAM).  LinkError names a refusal."""
        levels = sensor_levels(calibration, layout or Layout())
        for first, chunk in level_chunks(levels):
            self._command(p.CALIBRATION_SET, p.calibration_payload(first, len(levels), chunk), timeout)

    def store_calibration(self, timeout: float = 5.0) -> None:
        """Have the board write its calibration to flash."""
        self._command(p.CALIBRATION_STORE, b"", timeout)

    def show_test(self, colour: LightColour, mode: LightMode = LightMode.STEADY, timeout: float = 2.0) -> None:
        """Light every zone in one colour (``trictrac doctor``); the next ``show`` restores the game's lights."""
        code = (p.COLOUR_CODES[colour.value], p.MODE_CODES[mode.value])
        def replaced(protocol: LinkProtocol, _now: float) -> tuple[None, bytes]:
            protocol.lights_replaced()
            return None, b""

        self.link.exchange(replaced, connected=False)
        self._command(p.LEDS, p.leds_payload([code] * len(ZONES)), timeout)

    def _command(self, msg_type: int, payload: bytes, timeout: float) -> None:
        """Send an acknowledged command and wait for its ACK; LinkError unless it is OK."""
        link = self.link
        name = p.message_name(msg_type)

        def send(protocol: LinkProtocol, now: float) -> tuple[Pending, bytes]:
            protocol.errors.clear()
            return protocol.command(msg_type, payload, now)

        pending: Pending = link.exchange(send)
        if not self.wait_until(lambda: pending.done, timeout):
            raise LinkError(f"{link.url}: no acknowledgement of {name} within {timeout:g} s")
        if pending.failed:
            raise LinkError(f"{link.url}: {name} was not acknowledged ({link.reason or f'{pending.tries} tries'})")
        if pending.status != p.OK:
            self.wait_until(lambda: bool(link.protocol.errors), 0.2)  # the ERROR that says why
            why = "; ".join(text for _code, text in link.protocol.errors if text)
            status = p.CODE_NAMES.get(pending.status or 0, str(pending.status))
            raise LinkError(f"{link.url}: the board refused {name}: {status}{': ' + why if why else ''}")


__all__ = ["BoardClient", "WaitClock"]
