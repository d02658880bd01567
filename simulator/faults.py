"""Fault injection on the serial path: a seeded ``FaultPlan`` of faults on the cable between the
virtual board's firmware and the Pi's ``BoardLink``, in lock-step on the virtual clock
(``simulator/serial_table.py``), and the verdict on whether the board kept its promise.

Frame faults hit the next frame of a type, in either direction, from a moment on: dropped,
duplicated, swapped with the next frame, a byte flipped in the body (the CRC fails) or in the
COBS code (the framing fails).  Board faults: garbage (50 B or 20 kB, with or without 0x00)
on the line either way, the device stalled (no scan, no byte either way), the line dead (the
device scans on), the cable pulled and put back, the device rebooted, and the cable pulled from
a board it powers (off, then a reboot at the replug).

The players at the table behave as real ones would when the board truly missed a throw: the
board still says "roll", so they throw again (the same numbers: the table's own record of the
match already holds them).  That is only when the loss is physical: the device was stalled or
booting while the dice landed and never saw them settle, or it rebooted before the Pi took a
throw it had seen.  A throw the device saw and kept must reach the controller through the
protocol; no second throw covers for it.

``simulator/live_faults.py`` does the same on a real-time board.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from controller.machine import Phase, Settings
from controller.rules import get_rule_set
from firmware import protocol as p
from hal.link_protocol import snapshot_of

from .players import Behaviour, Steps
from .sensors import NoiseModel
from .serial_table import SerialBoard, SerialLinkStalled
from .table import Table, TableReport
from .virtual_device import SCAN_PERIOD, TUMBLE

RULES = ("trictrac", "backgammon", "rally", "rally-hitting")
UP, DOWN = "up", "down"
"""Directions: ``up`` board -> Pi, ``down`` Pi -> board."""
FRAME_KINDS = ("drop", "duplicate", "swap", "corrupt-crc", "corrupt-cobs", "drop-reboot")
"""``drop-reboot``: every frame of the target dropped from the first hit until the device reboots
0.3 s later (so a throw it saw is still unacknowledged when it restarts)."""
UP_TARGETS = ("DICE", "LAST_SNAPSHOT", "SNAPSHOT", "HEARTBEAT", "ACK", "HELLO")
DOWN_TARGETS = ("DICE_ACK", "LEDS", "HEARTBEAT", "SNAPSHOT_REQUEST", "HELLO_REQUEST")
TRIGGERS = {"HELLO": "reboot", "SNAPSHOT_REQUEST": "reboot", "HELLO_REQUEST": "unplug"}
"""Frames sent only at a (re)connection or a request: the plan makes one happen at the fault."""
NOTICE = 0.5
"""Seconds after the dice settle before a player notices the board did not take the throw."""
PATIENCE = 40.0
"""Seconds a player waits for the board to take a throw before playing on regardless (longer
than any stall: a board that never takes a thrown roll shows as a failure, not a wait)."""
LOOK = 0.1
"""Seconds between a waiting player's looks at the board."""
SETTLED = TUMBLE + 14 * SCAN_PERIOD
"""Seconds after a throw by which a running device has seen the dice settle."""


@dataclass
class Fault:
    """One fault: ``kind`` (a frame kind, ``garbage``, ``stall``, ``cut``, ``unplug``, ``reboot``,
    ``power``), for frame faults ``direction`` and ``target`` (a message name, or
    ``LAST_SNAPSHOT``: the snapshot that completes a play), armed from ``at`` (virtual s)."""

    kind: str
    at: float = 0.0
    direction: str = ""
    target: str = ""
    count: int = 1
    """Frames hit in a row (frame faults)."""
    size: int = 0
    """Garbage bytes."""
    zeros: bool = False
    """The garbage holds 0x00 bytes."""
    seconds: float = 0.0
    """How long a stall, a dead line or an unplug lasts."""
    fired: list[float] = field(default_factory=list)
    """When it hit (one entry per frame hit)."""

    @property
    def name(self) -> str:
        """The fault's class, as the figures name it."""
        if self.kind == "drop-reboot":
            return f"drop {self.direction} {self.target} until a reboot"
        if self.kind in FRAME_KINDS:
            times = f" x{self.count}" if self.count > 1 else ""
            return f"{self.kind} {self.direction} {self.target}{times}"
        if self.kind == "garbage":
            size = f"{self.size // 1000} kB" if self.size >= 1000 else f"{self.size} B"
            return f"garbage {self.direction} {size} {'with' if self.zeros else 'without'} 0x00"
        if self.kind in ("stall", "cut", "unplug", "power"):
            return f"{self.kind} {self.seconds:g} s"
        return self.kind

    @property
    def done(self) -> bool:
        """It has hit as often as it should."""
        return len(self.fired) >= (self.count if self.kind in FRAME_KINDS else 1)

    def describe(self) -> str:
        """The fault with its moment, for a reproduction line."""
        return f"{self.name} at {self.at:g} s"


def catalogue() -> list[Fault]:
    """Every fault class once (``at`` 0): the frame faults on every message type both ways,
    then the line and board faults."""
    kinds = [kind for kind in FRAME_KINDS if kind != "drop-reboot"]
    faults = [Fault(kind, direction=UP, target=target) for kind in kinds for target in UP_TARGETS]
    faults += [Fault(kind, direction=DOWN, target=target) for kind in kinds for target in DOWN_TARGETS]
    faults += [Fault("drop", direction=UP, target="DICE", count=3), Fault("drop", direction=DOWN, target="DICE_ACK", count=3)]
    faults += [Fault("drop-reboot", direction=UP, target="DICE", count=2)]
    faults += [Fault("garbage", direction=d, size=size, zeros=zeros)
               for d in (UP, DOWN) for size in (50, 20_000) for zeros in (True, False)]
    faults += [Fault(kind, seconds=s) for kind in ("stall", "cut") for s in (1.0, 8.0, 30.0)]
    faults += [Fault("unplug", seconds=0.5), Fault("unplug", seconds=8.0), Fault("reboot"), Fault("power", seconds=8.0)]
    return faults


def copy_fault(fault: Fault, at: float) -> Fault:
    """A fresh fault of the same class armed at ``at``."""
    return Fault(fault.kind, at, fault.direction, fault.target, fault.count, fault.size, fault.zeros, fault.seconds)


# -- the cable ------------------------------------------------------------------------------------


def frame_type(frame: bytes) -> tuple[int, bytes] | None:
    """(type, payload) of one intact wire frame (with its 0x00), or None."""
    try:
        msg_type, _seq, payload = p.decode_frame(frame)
    except p.ProtocolError:
        return None
    return msg_type, payload


def flip(frame: bytes, index: int, rng: random.Random) -> bytes:
    """``frame`` with byte ``index`` changed to another non-zero value (the frame stays one frame)."""
    data = bytearray(frame)
    old = data[index]
    data[index] = rng.choice([v for v in range(1, 256) if v != old])
    return bytes(data)


def garbage(rng: random.Random, size: int, zeros: bool) -> bytes:
    """``size`` random bytes; with ``zeros`` about one in 20 is 0x00, else none is."""
    if zeros:
        data = bytearray(rng.randrange(1, 256) for _ in range(size))
        for i in range(0, size, 20):
            data[min(size - 1, i + rng.randrange(20))] = 0
        return bytes(data)
    return bytes(rng.randrange(1, 256) for _ in range(size))


class _Direction:
    """One direction of the cable: frames split at 0x00, faults applied, a swapped frame held."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.partial = b""
        self.held: bytes | None = None
        self.inject = b""


class Cable:
    """The fault-injecting cable (a ``serial_table.ByteFilter``) for one table's frame faults;
    ``completes_play(payload)`` says whether a SNAPSHOT is the last of a turn."""

    def __init__(self, faults: list[Fault], rng: random.Random, completes_play: Callable[[bytes], bool],
                 reboot: Callable[[Fault], None] | None = None) -> None:
        self.faults = [f for f in faults if f.kind in FRAME_KINDS]
        self.rng = rng
        self._completes_play = completes_play
        self._reboot = reboot
        self._up = _Direction(UP)
        self._down = _Direction(DOWN)
        self.frames = {UP: {}, DOWN: {}}  # type: dict[str, dict[str, int]]
        """Intact frames that passed, by direction and message name."""

    def to_device(self, data: bytes, now: float) -> bytes:
        return self._pass(self._down, data, now)

    def to_link(self, data: bytes, now: float) -> bytes:
        return self._pass(self._up, data, now)

    def inject(self, direction: str, data: bytes) -> None:
        """Bytes to put on the line in ``direction`` just before the next bytes that pass."""
        (self._up if direction == UP else self._down).inject += data

    def _pass(self, way: _Direction, data: bytes, now: float) -> bytes:
        out = bytearray(way.inject)
        way.inject = b""
        buffer = way.partial + data
        start = 0
        while True:
            end = buffer.find(b"\x00", start)
            if end < 0:
                break
            out += self._frame(way, buffer[start:end + 1], now)
            start = end + 1
        way.partial = buffer[start:]
        return bytes(out)

    def _frame(self, way: _Direction, frame: bytes, now: float) -> bytes:
        decoded = frame_type(frame) if len(frame) > 1 else None
        out = frame
        if decoded is not None:
            msg_type, payload = decoded
            name = p.message_name(msg_type)
            counts = self.frames[way.name]
            counts[name] = counts.get(name, 0) + 1
            for fault in self.faults:
                if fault.done or fault.direction != way.name or now < fault.at or not self._hits(fault, msg_type, payload):
                    continue
                fault.fired.append(now)
                out = self._apply(way, fault, frame)
                break
        return self._release(way, out)

    def _release(self, way: _Direction, out: bytes | None) -> bytes:
        """``out`` (None: held back for a swap), with a frame held before it sent after it."""
        if out is None:
            return b""
        if way.held is not None and out:
            held, way.held = way.held, None
            return out + held
        return out

    def _hits(self, fault: Fault, msg_type: int, payload: bytes) -> bool:
        target = fault.target
        if target == "LAST_SNAPSHOT":
            return msg_type == p.SNAPSHOT and self._completes_play(payload)
        if target == "DICE":  # a throw (thrown flag), not a report of the tray
            if msg_type != p.DICE:
                return False
            try:
                return bool(p.parse_dice(payload)[1])
            except p.ProtocolError:
                return False
        return p.message_name(msg_type) == target

    def _apply(self, way: _Direction, fault: Fault, frame: bytes) -> bytes | None:
        kind = fault.kind
        if kind == "drop":
            return b""
        if kind == "drop-reboot":
            fault.fired = fault.fired[:1]  # dropping on until the reboot ends it
            if len(fault.fired) == 1 and self._reboot is not None:
                self._reboot(fault)
            return b""
        if kind == "duplicate":
            return frame + frame
        if kind == "swap":
            if way.held is not None:  # already holding one: send that first, hold this
                held, way.held = way.held, frame
                return held
            way.held = frame
            return None
        if kind == "corrupt-crc":
            return flip(frame, self.rng.randrange(1, len(frame) - 1), self.rng)
        if kind == "corrupt-cobs":
            return flip(frame, 0, self.rng)
        raise ValueError(f"not a frame fault: {kind}")


# -- a table under a plan -------------------------------------------------------------------------


@dataclass
class _Throw:
    dice: tuple[int, int]
    generation: int
    """The firmware boot the dice landed under (a reboot since: compare with its first throw)."""
    number: int
    taken: int
    resolved: bool = False


class FaultPlan:
    """Faults to inject into one serial table, seeded; ``attach(table)`` before ``play_match``."""

    def __init__(self, faults: Iterable[Fault], seed: int = 0) -> None:
        self.faults = list(faults)
        self.rng = random.Random(f"{seed}/faults")
        self.rethrows = 0
        """Throws the players repeated because the board truly never took them."""
        self.outages: list[tuple[float, float]] = []
        """When the board could not see or could not say anything (stalled, booting, cut off)."""
        self.cable: Cable | None = None
        self._serial: SerialBoard | None = None
        self._table: Table | None = None
        self._throw: _Throw | None = None
        self._throw_dice: Callable[[int, int], None] | None = None
        self._queued: list[tuple[int, int]] = []
        self._reboots: set[int] = set()
        """Drop-reboot faults (by id) whose reboot is already scheduled."""
        self.waited = 0.0
        """Seconds the players spent waiting for the board to take a throw."""

    def attach(self, table: Table) -> None:
        """Put the cable in and schedule the board faults on ``table``'s virtual clock."""
        serial = table.serial
        if serial is None:
            raise ValueError("fault injection needs a table with link='serial'")
        self._table, self._serial = table, serial
        self.cable = Cable(self.faults, self.rng, self._completes_play, self._reboot_after)
        serial.filter = self.cable
        scheduler = table.sim.scheduler
        for fault in self.faults:
            trigger = TRIGGERS.get(fault.target) if fault.kind in FRAME_KINDS else None
            if fault.kind not in FRAME_KINDS or trigger:
                scheduler.at(fault.at, lambda fault=fault, trigger=trigger: self._board_fault(fault, trigger))
        self._throw_dice = serial.throw
        serial.throw = self._thrown  # type: ignore[method-assign]
        perform = table.hand.perform

        def looking(*args: object, **kwargs: object) -> Steps:
            yield from self._until_taken()
            return (yield from perform(*args, **kwargs))  # type: ignore[arg-type]

        table.hand.perform = looking  # type: ignore[method-assign]

    # -- board faults ---------------------------------------------------------------------------
    def _reboot_after(self, fault: Fault) -> None:
        """A drop-reboot fault hit: the device reboots 0.3 s later, and the dropping ends."""
        table = self._table
        assert table is not None
        if id(fault) in self._reboots:
            return
        self._reboots.add(id(fault))

        def reboot() -> None:
            fault.fired.append(table.sim.clock.now())  # done: no more frames dropped
            self._board_fault(Fault("reboot"), None)

        table.sim.scheduler.after(0.3, reboot)

    def _board_fault(self, fault: Fault, trigger: str | None) -> None:
        serial, table = self._serial, self._table
        assert serial is not None and table is not None
        scheduler, now = table.sim.scheduler, table.sim.clock.now()
        kind = trigger or fault.kind
        if not trigger:
            fault.fired.append(now)
        if kind in ("stall", "cut", "unplug", "power"):
            self.outages.append((now, now + (fault.seconds if not trigger else 0.5)))
        elif kind == "reboot":
            self.outages.append((now, now + 0.5))
        if kind == "garbage":
            assert self.cable is not None
            self.cable.inject(fault.direction, garbage(self.rng, fault.size, fault.zeros))
        elif kind == "stall":
            serial.freeze(fault.seconds)
        elif kind == "cut":
            serial.cut(fault.seconds)
        elif kind == "reboot":
            self._rebooting(serial.frozen_until if serial.frozen() else now)
            serial.reboot()
        elif kind in ("unplug", "power"):
            seconds = fault.seconds if kind != "unplug" or not trigger else 0.5
            if not serial.device.plugged:
                return
            serial.unplug()
            if kind == "power":  # the board is powered by the cable: off until the replug
                self._rebooting(now)
                serial.freeze(seconds, reboot=True)
            scheduler.at(now + seconds, serial.replug)
        else:
            raise ValueError(f"not a board fault: {kind}")

    # -- the players' throws ----------------------------------------------------------------------
    def _pending(self) -> bool:
        """The last throw has not been taken by the board yet."""
        throw = self._throw
        return throw is not None and not self._taken(throw)

    def _until_taken(self) -> Steps:
        """A player about to move looks at the board first: until it has taken the throw (or
        PATIENCE runs out), they wait; meanwhile a throw it truly lost is thrown again."""
        waited = 0.0
        while (self._pending() or self._queued) and waited < PATIENCE:
            yield LOOK
            waited += LOOK
        self.waited += waited

    def _thrown(self, a: int, b: int) -> None:
        """The players throw: watched, so a throw the board truly lost is thrown again; a
        player whose board has not taken the last throw yet (a turn that passed) waits."""
        serial, table = self._serial, self._table
        assert serial is not None and table is not None and self._throw_dice is not None
        if self._pending() or self._queued:
            if not self._queued:
                table.sim.scheduler.after(LOOK, lambda: self._release(0.0))
            self._queued.append((a, b))
            return
        self._throw_now(a, b)

    def _release(self, waited: float) -> None:
        """Throw a waiting player's dice once the board has taken the last throw."""
        assert self._table is not None
        if self._pending() and waited < PATIENCE:
            self._table.sim.scheduler.after(LOOK, lambda: self._release(waited + LOOK))
            return
        self.waited += waited
        if self._queued:
            self._throw_now(*self._queued.pop(0))
        if self._queued:
            self._table.sim.scheduler.after(LOOK, lambda: self._release(0.0))

    def _throw_now(self, a: int, b: int) -> None:
        serial, table = self._serial, self._table
        assert serial is not None and table is not None and self._throw_dice is not None
        throw = self._throw = _Throw((a, b), serial.generation, serial.device.device.throw, serial.link.stats.throws)
        self._throw_dice(a, b)
        table.sim.scheduler.after(SETTLED + NOTICE, lambda: self._check_throw(throw))

    def _taken(self, throw: _Throw) -> bool:
        serial = self._serial
        assert serial is not None
        return serial.link.stats.throws > throw.taken

    def _check_throw(self, throw: _Throw) -> None:
        """After the dice settled: did the device ever see them land?"""
        serial, table = self._serial, self._table
        assert serial is not None and table is not None
        if throw is not self._throw or throw.resolved or self._taken(throw):
            return
        if serial.frozen():  # it cannot look yet: ask again once it runs
            table.sim.scheduler.at(serial.frozen_until + SETTLED + NOTICE, lambda: self._check_throw(throw))
            return
        number = serial.device.device.throw
        seen = number != throw.number if throw.generation == serial.generation else number != serial.first_throw
        if not seen:
            self._again(throw)  # the device never saw it settle: the board says "roll"

    def _rebooting(self, when: float) -> None:
        """The device restarts at ``when``: a throw the Pi has not taken is forgotten."""
        throw, table = self._throw, self._table
        assert table is not None
        if throw is None or throw.resolved or self._taken(throw):
            return
        throw.resolved = True
        table.sim.scheduler.at(when + 0.5 + SETTLED + NOTICE, lambda: self._again(throw))

    def _again(self, throw: _Throw) -> None:
        serial = self._serial
        assert serial is not None
        if serial.frozen():
            assert self._table is not None
            self._table.sim.scheduler.at(serial.frozen_until + SETTLED + NOTICE, lambda: self._again(throw))
            return
        if self._throw is not throw and self._throw is not None and not self._throw.resolved:
            return  # thrown again meanwhile
        if self._taken(throw):
            return  # the board took it after all: nothing to throw again
        throw.resolved = True
        self.rethrows += 1
        self._throw_now(*throw.dice)

    def _completes_play(self, payload: bytes) -> bool:
        """The SNAPSHOT shows the board after a complete legal play of the turn in progress."""
        table = self._table
        assert table is not None
        controller = table.controller
        turn = controller.turn_in_progress
        if controller.phase is not Phase.MOVING or turn is None:
            return False
        try:
            _counter, zones = p.parse_snapshot(payload)
        except p.ProtocolError:
            return False
        reading = controller.reader.read(snapshot_of(zones))
        if reading.unreadable:
            return False
        rules, position = controller.settings.rules, controller.game.position
        for play in rules.legal_plays(position, turn[1]):
            wanted = controller.reader.position_reading(rules.apply(position, play))
            if wanted.white == reading.white and wanted.black == reading.black:
                return True
        return False


# -- running and judging ----------------------------------------------------------------------------


@dataclass
class Outcome:
    """One table run under a plan: what happened and whether the board kept its promise."""

    rules: str
    seed: int
    faults: list[Fault]
    report: TableReport | None = None
    error: str = ""
    rethrows: int = 0
    excused: int = 0
    """Illegal attempts made and given up while the board was blind or mute (a stall, a dead
    line, the cable out): no board could warn them, so they are not counted against it."""
    seconds: float = 0.0
    """Real seconds the run took."""
    link: dict[str, int] = field(default_factory=dict)

    @property
    def problems(self) -> list[str]:
        """Why the board's promise was broken (empty: survived)."""
        if self.error:
            return [self.error]
        report = self.report
        assert report is not None
        found = []
        if report.finished != report.games or not report.games:
            found.append(f"{report.finished} of {report.games} games finished")
        if report.plays_recorded_identically != report.plays_made:
            found.append(f"{report.plays_recorded_identically} of {report.plays_made} plays recorded identically")
        found += report.mismatches[:3]
        if report.attempts_warned + self.excused != report.illegal_attempts:
            found.append(f"{report.attempts_warned} of {report.illegal_attempts} illegal attempts warned "
                         f"({self.excused} during an outage)")
        for warning in report.false_warnings[:3]:
            found.append(f"false warning at {warning.time:.1f} s: {warning.reason}: {warning.message}")
        return found

    @property
    def survived(self) -> bool:
        return not self.problems

    def reproduce(self) -> str:
        """The line that reproduces this run."""
        faults = "; ".join(f.describe() for f in self.faults)
        return f"rules {self.rules} seed {self.seed}: {faults}"


def settings_for(rules: str) -> Settings:
    """The rule set with the rally's start quarter where it needs one (as the soak does)."""
    return Settings(get_rule_set(rules), quarter="VII-XII" if rules.startswith("rally") else None)


def run_lockstep(rules: str, seed: int, faults: list[Fault], *, illegal_rate: float = 0.2, noise: float = 0.0) -> Outcome:
    """One match of ``rules`` on a serial table (seed ``seed``) with ``faults`` injected."""
    outcome = Outcome(rules, seed, faults)
    plan = FaultPlan(faults, seed)
    started = time.monotonic()
    table = Table(settings_for(rules), seed=seed, link="serial", noise=NoiseModel.scaled(noise),
                  behaviour=Behaviour(illegal_rate=illegal_rate))
    try:
        plan.attach(table)
        outcome.report = table.play_match()
    except (SerialLinkStalled, RuntimeError, AssertionError) as error:
        outcome.error = f"{type(error).__name__}: {error}"
    finally:
        table.close()
    outcome.seconds = time.monotonic() - started
    outcome.rethrows = plan.rethrows
    outcome.excused = sum(1 for attempt in table.hand.attempts if not attempt.warned and _blind(attempt, plan.outages))
    assert table.serial is not None
    stats = table.serial.link.stats
    outcome.link = {"rejected": stats.rejected, "gaps": stats.gaps, "snapshot_requests": stats.snapshot_requests,
                    "throw_repeats": stats.throw_repeats, "losses": stats.losses, "resends": stats.resends}
    return outcome


def _blind(attempt: object, outages: list[tuple[float, float]]) -> bool:
    """The attempt stood only while the board could not see or say it: it overlaps an outage
    and was given up before the board, back, could have warned (its grace time and a scan)."""
    start, end = attempt.start, attempt.end  # type: ignore[attr-defined]
    return any(start <= until + RECOVERY and end >= begin and end <= until + RECOVERY for begin, until in outages)


RECOVERY = 2.0
"""Seconds a board back from an outage needs to see a wrong board and warn (1 s grace and more)."""


def spread(faults: list[Fault], rng: random.Random, first: float = 20.0, gap: float = 45.0) -> list[Fault]:
    """Fresh copies of ``faults`` armed one after another, about ``gap`` virtual seconds apart."""
    return [copy_fault(fault, round(first + i * gap + rng.uniform(0.0, gap / 2), 2)) for i, fault in enumerate(faults)]


__all__ = [
    "DOWN",
    "RULES",
    "UP",
    "Cable",
    "Fault",
    "FaultPlan",
    "Outcome",
    "catalogue",
    "copy_fault",
    "garbage",
    "run_lockstep",
    "settings_for",
    "spread",
]
