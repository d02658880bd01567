"""``trictrac doctor`` and ``trictrac calibrate`` against the virtual board on a real
pseudo-terminal: the firmware's own logic over simulated hall sensors, through pyserial.
The doctor runs in real time; the calibration runs the board in lock-step on virtual time
(its waits sleep on the simulation's clock), so its forty-nine steps take no real time."""

from __future__ import annotations

import json

import pytest

from firmware import protocol as p
from firmware.classify import Calibration, CalibrationError
from hal.board_tools import Step, calibrate, calibration_steps, doctor
from hal.clock import MonotonicClock
from hal.interfaces import SnapshotEvent
from hal.queue import ThreadSafeQueue
from hal.serial_link import open_board
from hal.zones import ZONES
from simulator.board import PhysicalBoard
from simulator.hardware import SimulatedHardware
from simulator.serial_table import SerialBoard
from simulator.virtual_device import VirtualDevice


@pytest.fixture()
def virtual():  # type: ignore[no-untyped-def]
    board = PhysicalBoard()
    device = VirtualDevice(board, seed=3).start()
    events = ThreadSafeQueue()
    link = open_board(device.path, events, MonotonicClock(), log=lambda line: None)
    yield board, device, link, events
    link.close()
    device.close()


class LockStepClock:
    """Virtual time for the tools: sleeping runs the simulation, the lock-step board with it."""

    def __init__(self, sim: SimulatedHardware) -> None:
        self.sim = sim

    def now(self) -> float:
        """The simulation's virtual time."""
        return self.sim.clock.now()

    def sleep(self, seconds: float) -> None:
        """Run the simulation (scans, the link's exchanges) for ``seconds`` of virtual time."""
        self.sim.run_for(seconds)


@pytest.fixture()
def lockstep():  # type: ignore[no-untyped-def]
    sim = SimulatedHardware(seed=3)
    serial = SerialBoard(sim, lambda line: None)  # the virtual device on a pty, a real BoardLink
    yield sim, serial, LockStepClock(sim)
    serial.close()


def perform_on(board: PhysicalBoard, device: VirtualDevice, clock: LockStepClock):  # type: ignore[no-untyped-def]
    """A builder following the steps on the simulated board."""

    def perform(step: Step) -> None:
        if step.kind == "empty":
            board.set_zones({})
            device.sensors.set_dice(None)
        elif step.kind == "stack":
            zones = {ZONES[step.white_zone]: (step.checkers, 0)}
            if step.black_zone is not None:
                zones[ZONES[step.black_zone]] = (0, step.checkers)
            board.set_zones(zones)
        elif step.kind == "dice":
            board.set_zones({})
            device.sensors.set_dice((step.face, step.face))
        clock.sleep(0.15)  # the hand leaves; the readings settle

    return perform


def test_doctor_reports_a_healthy_board(virtual) -> None:  # type: ignore[no-untyped-def]
    board, device, link, events = virtual
    said: list[str] = []
    board.set_zones({"6": (5, 0), "VI": (0, 5)})
    assert doctor(link, events, said.append, live_seconds=0.5)
    text = "\n".join(said)
    assert "firmware:" in text and f"protocol {p.PROTOCOL_VERSION}" in text and "calibration: stored" in text
    assert "LED test: every LED" in text
    assert "6:5w0b" in text and "VI:0w5b" in text


def test_calibrate_measures_stores_and_reads_the_start(lockstep) -> None:  # type: ignore[no-untyped-def]
    sim, serial, clock = lockstep
    board, device, link = sim.board, serial.device, serial.link
    said: list[str] = []
    steps = calibration_steps(device.sensors.layout)
    assert sum(1 for s in steps if s.kind == "stack") == 42 and sum(1 for s in steps if s.kind == "dice") == 6
    result = calibrate(link, perform_on(board, device, clock), said.append, device.sensors.layout, scans=8,
                       clock=clock)
    assert "calibration stored" in said[-1]
    stored = Calibration.from_json(device.stored)  # the virtual flash holds it
    assert stored.polarity == result.polarity == 1
    assert len(stored.zones) == 28 and all(len(zone) == 5 for zone in stored.zones)
    # with the new calibration the board reads a position exactly
    sim.queue.drain()
    start = {"1": (0, 2), "VIII": (0, 3), "12": (0, 5), "VI": (0, 5), "I": (2, 0), "8": (3, 0), "XII": (5, 0), "6": (5, 0)}
    board.set_zones(start)
    deadline = clock.now() + 10
    seen = None
    while seen != start and clock.now() < deadline:
        clock.sleep(0.1)
        for event in sim.queue.drain():
            if isinstance(event, SnapshotEvent):
                seen = {z: (r.white, r.black) for z, r in event.snapshot.as_dict().items() if r and (r.white or r.black)}
                if seen == start:
                    break
    assert seen == start


def test_a_bad_calibration_names_the_sensor() -> None:
    with pytest.raises(CalibrationError):
        Calibration([[(32768, [100, 50, 20])] * 5] * 28)
    assert json.loads(Calibration([[(32768, [7000, 11000, 13000])] * 5] * 28).to_json())
