"""Fault injection in real time: the virtual board served on a pty (``virtual_device.serve``:
the firmware over simulated sensors, players who watch its LEDs) and an in-process
``BoardLink`` + ``Controller`` + ``BoardRunner`` on the real clock, with the same cable
(``simulator.faults.Cable``) between the device's bytes and the pty, and the board faults
in real seconds: garbage, a stalled device (its loop blocked: no scan, no byte either way), a
dead line, the cable pulled (``unplug``/``replug``: a new pty behind the same path), a reboot
(a fresh firmware on the same board), and a cable-powered board unplugged (off, then a reboot).

A run plays one game; it survived when the game finished on the board and in the controller,
every play was recorded as made, every illegal attempt the board could see was warned, and no
warning came when none was due.  Real time costs real seconds: a 30 s stall takes 30 s.
"""

from __future__ import annotations

import dataclasses

import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from controller.machine import Controller, Phase
from controller.runner import BoardRunner
from firmware.board_logic import BoardLogic
from firmware.device import Device
from hal.clock import MonotonicClock
from hal.interfaces import Hardware
from hal.queue import ThreadSafeQueue
from hal.serial_link import BoardLink, LinkTimings

from .faults import LOOK, NOTICE, PATIENCE, RECOVERY, SETTLED, Cable, Fault, copy_fault, garbage, settings_for
from .serial_table import BOOT_TIME
from .virtual_device import LiveBoard, serve

SPEED = 10.0
"""The players' speed: ten times a person's, so a game takes a minute or two."""
GAME_LIMIT = 600.0
"""Real seconds a game may take before the run is called stuck."""


class _Quiet:
    def play(self, sound: object) -> None:
        pass


@dataclass
class LiveOutcome:
    """One real-time game under faults."""

    rules: str
    seed: int
    faults: list[Fault]
    problems: list[str] = field(default_factory=list)
    plays_made: int = 0
    plays_recorded: int = 0
    rethrows: int = 0
    seconds: float = 0.0

    @property
    def survived(self) -> bool:
        return not self.problems

    def reproduce(self) -> str:
        faults = "; ".join(f.describe() for f in self.faults)
        return f"real time: rules {self.rules} seed {self.seed}: {faults}"


class LiveFaults:
    """A served virtual board with the cable and the board faults wired into its device."""

    def __init__(self, board: LiveBoard, faults: list[Fault], seed: int) -> None:
        self.board = board
        self.device = board.device
        self.faults = faults
        self.rng = random.Random(f"{seed}/live-faults")
        self.started = time.monotonic()
        self.cable = Cable(faults, self.rng, lambda payload: False)
        self.lock = threading.RLock()
        self.frozen_until = 0.0
        self.cut_until = 0.0
        self.reboot_due = False
        self.booting = False
        self.generation = 0
        self.first_throw = board.device.device.throw
        self.outages: list[tuple[float, float]] = []
        """In the players' time (``table.now()``)."""
        self.rethrows = 0
        self.waited = 0.0
        """Real seconds the players waited for the board to take a throw."""
        self._resolved: set[int] = set()
        self._throw: tuple[tuple[int, int], int, int, int] | None = None
        self.link: BoardLink | None = None
        self._timers: list[threading.Timer] = []
        device = self.device
        self._read, self._write, self._tick, self._set_dice = device.read, device.write, device.tick, device.throw
        device.read, device.write, device.tick = self._read_hook, self._write_hook, self._tick_hook  # type: ignore[method-assign]
        device.throw = self._thrown  # type: ignore[method-assign]
        table = board.table

        def looking() -> Iterator[float]:
            """After the throw the player looks at the board until it has taken it (a light
            change alone, as after a reboot, is not enough), at most PATIENCE s."""
            started = time.monotonic()
            while self._pending() and time.monotonic() - started < PATIENCE:
                yield LOOK * table.speed
            self.waited += time.monotonic() - started

        table.after_throw = looking

    def now(self) -> float:
        return time.monotonic() - self.started

    def start(self) -> None:
        """Arm every fault on real-time timers."""
        for fault in self.faults:
            if fault.kind not in ("drop", "duplicate", "swap", "corrupt-crc", "corrupt-cobs"):
                self._later(fault.at, lambda fault=fault: self._board_fault(fault))

    def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()

    def _later(self, at: float, action: Callable[[], None]) -> None:
        timer = threading.Timer(max(0.0, at - self.now()), action)
        timer.daemon = True
        self._timers.append(timer)
        timer.start()

    # -- the device's loop, hooked ----------------------------------------------------------------
    def _stall(self) -> None:
        """Block the device's loop while it is stalled (its bytes stay in the pty)."""
        while True:
            left = self.frozen_until - self.now()
            if left <= 0:
                return
            time.sleep(min(left, 0.1))

    def _read_hook(self) -> bytes:
        self._stall()
        data = self._read()
        with self.lock:
            if self.now() < self.cut_until:
                return b""
            return self.cable.to_device(data, self.now()) if data else self.cable.to_device(b"", self.now())

    def _write_hook(self, data: bytes) -> int:
        with self.lock:
            if self.now() < self.cut_until:
                return len(data)
            data = self.cable.to_link(data, self.now())
        return self._write(data) if data else 0

    def _tick_hook(self, now_ms: int, scan: bool = True) -> bytes:
        self._stall()
        if self.reboot_due:
            self.booting, self.reboot_due = True, False
            time.sleep(BOOT_TIME)
            device = self.device
            device.logic = BoardLogic(device.sensors.layout, device.sensors.calibration)
            old = device.device
            device.device = Device(device.logic, firmware=old.firmware, device_id=old.device_id, store=old.store,
                                   now_ms=now_ms, first_throw=self.rng.getrandbits(16))
            self.first_throw = device.device.throw
            self.generation += 1
            self.booting = False
            self._write(device.device.boot(now_ms))
        return self._tick(now_ms, scan)

    # -- board faults --------------------------------------------------------------------------------
    def _outage(self, seconds: float) -> None:
        table_now = self.board.table.now()
        self.outages.append((table_now, table_now + seconds * self.board.table.speed))

    def _board_fault(self, fault: Fault) -> None:
        now = self.now()
        fault.fired.append(now)
        device = self.device
        if fault.kind == "garbage":
            with self.lock:
                self.cable.inject(fault.direction, garbage(self.rng, fault.size, fault.zeros))
        elif fault.kind == "stall":
            self._outage(fault.seconds)
            self.frozen_until = now + fault.seconds
        elif fault.kind == "cut":
            self._outage(fault.seconds)
            self.cut_until = now + fault.seconds
        elif fault.kind == "reboot":
            self._outage(BOOT_TIME)
            self._rebooting()
            self.reboot_due = True
        elif fault.kind in ("unplug", "power"):
            self._outage(fault.seconds)
            device.unplug()
            if fault.kind == "power":
                self._rebooting()
                self.frozen_until = now + fault.seconds
                self.reboot_due = True
            self._later(now + fault.seconds, device.replug)
        else:
            raise ValueError(f"not a board fault: {fault.kind}")

    # -- the players' throws: thrown again only when the board truly lost them ---------------------
    def _thrown(self, dice: tuple[int, int] | None) -> None:
        self._set_dice(dice)
        if dice is None:
            return
        link = self.link
        self._throw = (dice, self.generation, self.device.device.throw, link.stats.throws if link else 0)
        throw = self._throw
        self._later(self.now() + (SETTLED + NOTICE), lambda: self._check(throw))

    def _pending(self) -> bool:
        throw = self._throw
        return throw is not None and not self._taken(throw)

    def _taken(self, throw: tuple[tuple[int, int], int, int, int]) -> bool:
        return self.link is not None and self.link.stats.throws > throw[3]

    def _down(self) -> bool:
        """The device is stalled or booting now."""
        return self.now() < self.frozen_until or self.reboot_due or self.booting

    def _check(self, throw: tuple[tuple[int, int], int, int, int]) -> None:
        if self._throw is not throw or self._taken(throw) or id(throw) in self._resolved:
            return
        if self._down():
            self._later(max(self.frozen_until, self.now()) + BOOT_TIME + (SETTLED + NOTICE), lambda: self._check(throw))
            return
        number = self.device.device.throw
        seen = number != throw[2] if throw[1] == self.generation else number != self.first_throw
        if not seen:
            self._again(throw)  # the device never saw these dice settle

    def _rebooting(self) -> None:
        throw = self._throw
        if throw is None or self._taken(throw):
            return
        self._resolved.add(id(throw))
        self._later(max(self.frozen_until, self.now()) + BOOT_TIME + (SETTLED + NOTICE), lambda: self._again(throw))

    def _again(self, throw: tuple[tuple[int, int], int, int, int]) -> None:
        if self._down():
            self._later(max(self.frozen_until, self.now()) + BOOT_TIME + 1.0, lambda: self._again(throw))
            return
        if self._throw is not throw:
            return  # thrown again meanwhile
        self._resolved.add(id(throw))
        self.rethrows += 1
        self._set_dice(None)
        time.sleep(0.1)
        self._thrown(throw[0])


def run_realtime(rules: str, seed: int, faults: list[Fault], *, speed: float = SPEED, illegal_rate: float = 0.0,
                 log: Callable[[str], None] | None = None) -> LiveOutcome:
    """One game of ``rules`` on a real-time virtual board with ``faults`` (``at`` in real seconds)."""
    outcome = LiveOutcome(rules, seed, faults)
    started = time.monotonic()
    _path, board = serve(rules, seed, speed=speed, illegal_rate=illegal_rate,
                         quarter="VII-XII" if rules.startswith("rally") else None)
    hooks = LiveFaults(board, faults, seed)
    link = None
    warnings: list[tuple[float, str]] = []
    try:
        events, clock = ThreadSafeQueue(), MonotonicClock()
        link = BoardLink(board.path, events, clock, lambda line: None, timings=LinkTimings(retry=0.2)).start()
        link.wait_connected(15.0)
        hooks.link = link
        controller = Controller(dataclasses.replace(settings_for(rules), confirm=True))
        hardware = Hardware(clock=clock, events=events, lights=link, sounder=_Quiet(), sensor=link, dice=[link])
        runner = BoardRunner(controller, hardware, log=lambda line: None)
        apply = runner.apply

        def applying(out: object) -> None:
            if out.warning:  # type: ignore[attr-defined]
                warnings.append((board.table.now(), out.warning))  # type: ignore[attr-defined]
            apply(out)  # type: ignore[arg-type]

        runner.apply = applying  # type: ignore[method-assign]
        runner.apply(controller.begin(clock.now()))
        hooks.start()
        deadline = time.monotonic() + GAME_LIMIT
        while not board.table.finished.is_set() or controller.phase is not Phase.GAME_OVER:
            if time.monotonic() > deadline:
                outcome.problems.append(f"the game did not finish within {GAME_LIMIT:g} s "
                                        f"(controller: {controller.phase.value}, players done: {board.table.finished.is_set()})")
                break
            if board.table.finished.is_set() and time.monotonic() > deadline - GAME_LIMIT + 5 and not board.table.truth:
                break
            runner.step(wait=0.05)
            if board.table.finished.is_set() and controller.phase is not Phase.GAME_OVER:
                # the players are done: give the controller a few seconds to catch up
                end = time.monotonic() + 10.0
                while controller.phase is not Phase.GAME_OVER and time.monotonic() < end:
                    runner.step(wait=0.05)
                if controller.phase is not Phase.GAME_OVER:
                    outcome.problems.append(f"the players finished the game, the controller stands at {controller.phase.value}")
                break
        _judge(outcome, board, controller, warnings, hooks.outages)
    except Exception as error:  # noqa: BLE001 - a run that breaks is a failure to report, not a crash
        outcome.problems.append(f"{type(error).__name__}: {error}")
    finally:
        hooks.stop()
        board.stop()
        if link is not None:
            link.close()
    outcome.rethrows = hooks.rethrows
    outcome.seconds = time.monotonic() - started
    if log is not None:
        log(f"real time {rules} seed {seed}: {'survived' if outcome.survived else 'FAILED'} "
            f"({outcome.seconds:.0f} s, {outcome.plays_recorded}/{outcome.plays_made} plays, rethrows {outcome.rethrows})")
    return outcome


def _judge(outcome: LiveOutcome, board: LiveBoard, controller: Controller, warnings: list[tuple[float, str]],
           outages: list[tuple[float, float]]) -> None:
    table = board.table
    truth = table.truth[0] if table.truth else None
    if truth is None:
        outcome.problems.append("no game was played")
        return
    made = [(t.colour, t.after) for t in truth.turns() if t.play]
    recorded = [(t.colour, t.after) for t in controller.game.turns() if t.play]
    outcome.plays_made = len(made)
    outcome.plays_recorded = sum(1 for a, b in zip(made, recorded) if a == b)
    if recorded != made:
        first = next((i for i, (a, b) in enumerate(zip(made, recorded)) if a != b), min(len(made), len(recorded)))
        outcome.problems.append(f"{outcome.plays_recorded} of {len(made)} plays recorded identically "
                                f"({len(recorded)} recorded; first difference at play {first + 1})")
    attempts = table.hand.attempts
    blind = RECOVERY * table.speed  # the board back from an outage warns within this (players' time)
    for attempt in attempts:
        if attempt.warned or any(begin <= attempt.end <= until + blind for begin, until in outages):
            continue
        outcome.problems.append(f"an illegal attempt at {attempt.start:.1f} s (players' time) was not warned")
    for at, reason in warnings:
        if not any(a.start <= at and (a.end == 0.0 or at <= a.end + 0.5 * table.speed) for a in attempts):
            outcome.problems.append(f"false warning at {at:.1f} s (players' time): {reason}")


REALTIME_FAULTS = (
    "garbage up 50 B with 0x00", "garbage up 20 kB with 0x00", "garbage up 50 B without 0x00",
    "garbage up 20 kB without 0x00", "garbage down 50 B with 0x00", "garbage down 20 kB with 0x00",
    "drop up DICE", "drop up SNAPSHOT", "drop down DICE_ACK", "corrupt-crc up DICE", "corrupt-cobs down LEDS",
    "duplicate up DICE", "swap up SNAPSHOT", "drop up HEARTBEAT",
    "stall 1 s", "stall 8 s", "cut 8 s", "unplug 8 s", "reboot", "power 8 s",
)
"""The real-time batch: each of these once per round, plus one 30 s stall per campaign."""


def realtime_campaign(rounds: int, seed: int, log: Callable[[str], None], *, per_game: int = 6,
                      long_stall: bool = True) -> tuple[dict, list[dict]]:
    """``rounds`` passes over REALTIME_FAULTS (and one 30 s stall), ``per_game`` faults a game,
    ten real seconds apart from the fifth second on; per class {injected, survived, not_fired}."""
    from .faults import RULES, catalogue

    by_name = {fault.name: fault for fault in catalogue()}
    rng = random.Random(f"{seed}/realtime")
    pool = [by_name[name] for _ in range(rounds) for name in REALTIME_FAULTS]
    if long_stall:
        pool.append(by_name["stall 30 s"])
    rng.shuffle(pool)
    figures: dict[str, dict[str, int]] = defaultdict(lambda: {"injected": 0, "survived": 0, "not_fired": 0})
    failures: list[dict] = []
    for number, start in enumerate(range(0, len(pool), per_game)):
        rules = RULES[number % len(RULES)]
        faults, at = [], 5.0
        for fault in pool[start:start + per_game]:
            faults.append(copy_fault(fault, at))
            at += 10.0 + fault.seconds
        outcome = run_realtime(rules, seed * 1000 + number, faults, log=log)
        for fault in faults:
            entry = figures[fault.name]
            if not fault.fired:
                entry["not_fired"] += 1
            else:
                entry["injected"] += 1
                entry["survived"] += outcome.survived
        if not outcome.survived:
            failures.append({"reproduce": outcome.reproduce(), "problems": outcome.problems[:5], "combined": False})
    return dict(figures), failures


__all__ = ["REALTIME_FAULTS", "LiveFaults", "LiveOutcome", "realtime_campaign", "run_realtime"]
