"""Tools for people building or repairing a board: ``doctor`` (is the link, the firmware,
the LED chain and every sensor alive?) and ``calibrate`` (the guided calibration of
firmware/HARDWARE.md, stored on the microcontroller).

Both talk to a ``BoardLink`` and to a person through two callables: ``say(line)`` and
``perform(step)``, where a step says what the person must do (empty the board, stack
checkers on the lit zones, turn a die) and returns once it is done.  The CLI prompts at
the terminal; tests perform the steps on the simulated board.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Callable

from firmware.classify import Calibration, CalibrationError
from firmware.scan import Layout

from .interfaces import DiceEvent, EventQueue, Light, LightColour, LightFrame, SnapshotEvent
from .board_client import POLL, BoardClient, WaitClock
from .clock import MonotonicClock
from .serial_link import BoardLink, LinkError
from .zones import ZONES

Say = Callable[[str], None]

LEVEL_ROUNDS = 3
"""Stacks of 5, 10 and 15 checkers: 1, 2 and 3 on every slot of a zone."""


@dataclass(frozen=True)
class Step:
    """One thing the person calibrating must do before the readings are taken."""

    kind: str  # "empty", "stack", "dice", "start"
    text: str
    white_zone: int | None = None
    black_zone: int | None = None
    checkers: int = 0
    face: int = 0


# -- doctor -----------------------------------------------------------------------------


def doctor(link: BoardLink, events: EventQueue, say: Say, live_seconds: float = 0.0,
           clock: WaitClock | None = None) -> bool:
    """Check the link, the firmware, the calibration and the LEDs, then show the sensors
    live for ``live_seconds``; True when nothing is wrong.  ``clock``: see ``calibrate``."""
    timer = clock or MonotonicClock()
    healthy = True
    try:
        hello = link.wait_connected(5.0, first_attempt=True)
    except LinkError as error:
        say(f"link: FAILED: {error}")
        return False
    say(f"link: connected to {link.url}")
    say(f"firmware: {hello.firmware}, protocol {hello.protocol_version}, {hello.zone_count} zones, id {hello.device_id.hex()}")
    try:
        levels = BoardClient(link, clock).get_levels()
        say(f"calibration: stored, {len(levels)} sensors")
    except LinkError as error:
        say(f"calibration: MISSING: {error}")
        healthy = False
    for colour in (LightColour.WARNING, LightColour.TARGET, LightColour.SOURCE, LightColour.OFF):
        try:
            BoardClient(link, clock).show_test(colour)
        except LinkError as error:
            say(f"LED test: FAILED on {colour.value}: {error}")
            healthy = False
            break
        timer.sleep(0.3)
    else:
        say("LED test: every LED showed red, then the target and source colours, then went dark")
    if live_seconds > 0:
        say(f"live view for {live_seconds:g} s (move checkers, roll the dice):")
        link.request_snapshot()
        end = timer.now() + live_seconds
        while timer.now() < end:
            event = events.get(timeout=min(0.5, max(end - timer.now(), 0.0)))
            if event is None and clock is not None:  # a virtual clock's queue does not block
                clock.sleep(min(POLL, max(end - clock.now(), 0.0)))
            if isinstance(event, SnapshotEvent):
                say("  " + describe_snapshot(event.snapshot.readings))
            elif isinstance(event, DiceEvent):
                say(f"  dice: {event.dice if event.dice else 'no clear roll'}")
    say(f"link traffic: {link.stats}")
    return healthy


def describe_snapshot(readings: tuple[object, ...]) -> str:
    """One line: every zone that holds checkers or cannot be read."""
    parts = []
    for zone, reading in zip(ZONES, readings):
        if reading is None:
            parts.append(f"{zone}:?")
        elif reading.white or reading.black:  # type: ignore[attr-defined]
            parts.append(f"{zone}:{reading.white}w{reading.black}b")  # type: ignore[attr-defined]
    return " ".join(parts) or "(empty board)"


# -- calibrate ----------------------------------------------------------------------------


def calibration_steps(layout: Layout) -> list[Step]:
    """Every step of the calibration, in order (firmware/HARDWARE.md, "Calibration")."""
    per_zone = layout.sensors_per_zone
    steps = [Step("empty", "Take every checker off the board and both dice out of the tray")]
    for first in range(0, layout.zones, 2):
        second = first + 1 if first + 1 < layout.zones else None
        for layer in range(1, LEVEL_ROUNDS + 1):
            count = layer * per_zone
            where = f"{count} White checkers on {ZONES[first]}"
            if second is not None:
                where += f" and {count} Black checkers on {ZONES[second]}"
            steps.append(Step("stack", f"Put {where} (the lit zones), one stack per slot", first, second, count))
    for face in range(1, 7):
        steps.append(Step("dice", f"Take the checkers off; sit both dice in the tray with {face} on top", face=face))
    steps.append(Step("start", "Take the dice out and set up the start position of trictrac"))
    return steps


def _medians(scans: list[list[int]]) -> list[int]:
    return [int(statistics.median(column)) for column in zip(*scans)]


def calibrate(link: BoardLink, perform: Callable[[Step], None], say: Say, layout: Layout | None = None,
              scans: int = 16, clock: WaitClock | None = None) -> Calibration:
    """Run the guided calibration, store it on the board and return it.

    ``clock``: the time the waits for the board run on (real time when None; a test's
    virtual clock drives a lock-step virtual board).

    Raises LinkError for a link problem and CalibrationError (naming the sensor) for
    readings that cannot be a calibration (levels that do not rise, faces too close).
    """
    layout = layout or Layout()
    link.wait_connected(5.0, first_attempt=True)
    zero: list[int] = []
    stacked = [[0] * layout.sensor_count for _ in range(LEVEL_ROUNDS)]
    white_signs: dict[int, int] = {}
    faces: list[list[int]] = []
    for step in calibration_steps(layout):
        lit = {}
        if step.white_zone is not None:
            lit[ZONES[step.white_zone]] = Light(LightColour.SETUP)
        if step.black_zone is not None:
            lit[ZONES[step.black_zone]] = Light(LightColour.TARGET)
        link.show(LightFrame.of(lit, step.text))
        perform(step)
        if step.kind == "start":
            break
        readings = _medians(BoardClient(link, clock).raw_scans(scans * 2 if step.kind == "empty" else scans, timeout=30.0))
        if step.kind == "empty":
            zero = readings
        elif step.kind == "stack":
            layer = step.checkers // layout.sensors_per_zone - 1
            for zone in (step.white_zone, step.black_zone):
                if zone is not None:
                    for s in layout.zone_sensors(zone):
                        stacked[layer][s] = abs(readings[s] - zero[s])
            if step.white_zone is not None:
                offset = sum(readings[s] - zero[s] for s in layout.zone_sensors(step.white_zone))
                white_signs[step.white_zone] = 1 if offset >= 0 else -1
        else:
            faces.append(readings)
    polarity = _polarity(white_signs)
    zones = [[(zero[s], [stacked[layer][s] for layer in range(LEVEL_ROUNDS)]) for s in layout.zone_sensors(z)]
             for z in range(layout.zones)]
    dice = []
    for d in range(layout.dice_sensors):
        sensor = layout.dice_sensor(d)
        dice.append((zero[sensor], [faces[f][sensor] - zero[sensor] for f in range(6)]))
    reference = zero[layout.reference_sensor] if layout.reference_sensor is not None else None
    calibration = Calibration(zones, dice, reference, polarity)
    calibration.check(layout)
    client = BoardClient(link, clock)
    client.set_calibration(calibration, layout)
    client.store_calibration()
    say(f"calibration stored on the board ({layout.zone_sensor_count} slot sensors, polarity {polarity:+d})")
    return calibration


def _polarity(white_signs: dict[int, int]) -> int:
    """+1 when White's checkers read above zero; every zone measured must agree."""
    if not white_signs:
        raise CalibrationError("no zone was measured with White's checkers")
    votes = sorted(set(white_signs.values()))
    if len(votes) > 1:
        majority = 1 if sum(white_signs.values()) >= 0 else -1
        odd = [ZONES[z] for z, sign in white_signs.items() if sign != majority]
        raise CalibrationError(f"White reads the other way on {', '.join(odd)}: a magnet or sensor is upside down")
    return votes[0]


__all__ = ["CalibrationError", "Step", "calibrate", "calibration_steps", "doctor", "describe_snapshot"]
