"""A virtual board on a pseudo-terminal: the firmware's own ``Device`` and ``BoardLogic``
running over the simulated hall sensors of a simulated board, so a ``BoardLink`` opened on
the pty's path talks to it through real pyserial exactly as to the Pico.

* ``VirtualDevice`` owns the pty (``os.openpty``; ``pty_path`` is ``/dev/pts/N``, ``path`` a
  symlink to it that survives an unplug and replug, as a udev ``by-id`` link does), the
  device and the sensors.  ``start()`` runs it in real time: a thread that scans every
  20 ms and answers the Pi at once.  Without ``start()`` a driver runs it in lock-step
  (``simulator/serial_table.py``).  ``unplug()`` closes the pty; ``replug()`` opens a new one.
* ``serve(rules_name, seed)`` adds simulated players who perform on the board in real time,
  reading the LED frames that come back over the link; it is what ``trictrac run --port``
  talks to without hardware.  ``python -m simulator.virtual_device`` serves from a shell.
"""

from __future__ import annotations

import argparse
import os
import random
import select
import shutil
import signal
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterator

from firmware import protocol as p
from firmware.board_logic import BoardLogic
from firmware.device import FIRMWARE, Device
from hal.interfaces import Sound

from .board import PhysicalBoard
from .hall_sensors import Dice, HallSensors

SCAN_PERIOD = 0.02
"""Seconds between scans, as the firmware's SCAN_PERIOD_MS."""
TUMBLE = 0.06
"""Seconds thrown dice are out of their pockets before they land."""
MIN_TUMBLE = 0.08
"""Real seconds the live players' dice stay out at least: a few scans, so the firmware sees them go."""
Lights = tuple[tuple[int, int], ...]
LightsListener = Callable[[float, Lights], None]
Trace = Callable[[str, int, float], None]
"""``trace(direction, message type, time.monotonic())``; direction "in" (from the Pi) or "out"."""


class VirtualDevice:
    """The firmware over simulated sensors, served on a pty; see the module docstring."""

    def __init__(
        self,
        board: PhysicalBoard,
        *,
        seed: int = 0,
        rng: random.Random | None = None,
        noise: float = 40,
        firmware: str = FIRMWARE + " virtual",
    ) -> None:
        self.board = board
        self.sensors = HallSensors(board, rng or random.Random(f"{seed}/hall"), noise=noise)
        self.logic = BoardLogic(self.sensors.layout, self.sensors.calibration)
        device_id = random.Random(f"{seed}/id").getrandbits(64).to_bytes(8, "little")
        first_throw = random.Random(f"{seed}/throw").getrandbits(16)  # the Pico's os.urandom, seeded here
        self.device = Device(self.logic, firmware=firmware, device_id=device_id, store=self._store, first_throw=first_throw)
        self.stored: str | None = None
        """The calibration JSON last stored (the virtual flash)."""
        self.dropped = 0
        """Bytes the device wrote while no one read them (as a USB CDC port drops them)."""
        self.scans = 0
        """Scans made so far."""
        self.trace: Trace | None = None
        self._lights_listeners: list[LightsListener] = []
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._dir = tempfile.mkdtemp(prefix="trictrac-board-")
        self.path = os.path.join(self._dir, "board")
        """A symlink to the current pty: the same path across an unplug and replug."""
        self.pty_path = ""
        """The current pty's slave, /dev/pts/N ('' while unplugged)."""
        self._outgoing = p.Decoder()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.replug()

    # -- the cable ----------------------------------------------------------------------------
    @property
    def plugged(self) -> bool:
        """The pty is open."""
        return self._master is not None

    def replug(self) -> str:
        """Open a new pty (raw, so no byte is changed or echoed) and point ``path`` at it."""
        with self._lock:
            if self._master is not None:
                return self.pty_path
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self.pty_path = os.ttyname(slave)
            temporary = self.path + ".new"
            if os.path.lexists(temporary):
                os.unlink(temporary)
            os.symlink(self.pty_path, temporary)
            os.replace(temporary, self.path)
            return self.pty_path

    def unplug(self) -> None:
        """Close the pty: the Pi's reads fail as when the cable is pulled."""
        with self._lock:
            master, slave = self._master, self._slave
            self._master = self._slave = None
            self.pty_path = ""
            if os.path.lexists(self.path):
                os.unlink(self.path)
            for fd in (master, slave):
                if fd is not None:
                    os.close(fd)

    def close(self) -> None:
        """Stop the thread, close the pty and remove the symlink's folder."""
        self.stop()
        self.unplug()
        shutil.rmtree(self._dir, ignore_errors=True)

    # -- bytes in and out ------------------------------------------------------------------------
    def read(self) -> bytes:
        """What the Pi has sent (never blocks; b'' when nothing or unplugged)."""
        with self._lock:
            if self._master is None:
                return b""
            chunks = []
            while True:
                try:
                    data = os.read(self._master, 65536)
                except (BlockingIOError, InterruptedError):
                    break
                except OSError:  # EIO: no one has the other end open
                    break
                if not data:
                    break
                chunks.append(data)
            return b"".join(chunks)

    def wait_readable(self, timeout: float) -> bool:
        """Block up to ``timeout`` s until the Pi has sent something; False when unplugged."""
        master = self._master
        if master is None:
            return False
        try:
            ready, _, _ = select.select([master], [], [], timeout)
        except (OSError, ValueError):  # unplugged meanwhile
            return False
        return bool(ready)

    def write(self, data: bytes) -> int:
        """Send bytes to the Pi; what finds no room (no one reading) is dropped.  Bytes written."""
        if not data:
            return 0
        if self.trace is not None:
            now = time.monotonic()
            for msg_type, _seq, _payload in self._outgoing.feed(data):
                self.trace("out", msg_type, now)
        with self._lock:
            if self._master is None:
                self.dropped += len(data)
                return 0
            written = 0
            while written < len(data):
                try:
                    written += os.write(self._master, data[written:])
                except (BlockingIOError, InterruptedError):
                    break
                except OSError:
                    break
            self.dropped += len(data) - written
            return written

    def receive(self, data: bytes, now_ms: int) -> bytes:
        """Hand the Pi's bytes to the device; its answer (listeners hear about new lights)."""
        if not data:
            return b""
        before = dict(self.device.counts) if self.trace is not None else None
        lights = self.device.lights
        answer = self.device.receive(data, now_ms)
        if before is not None:
            now = time.monotonic()
            for msg_type, count in self.device.counts.items():
                for _ in range(count - before.get(msg_type, 0)):
                    self.trace("in", msg_type, now)  # type: ignore[misc]
        if self.device.lights != lights:
            for listener in tuple(self._lights_listeners):
                listener(time.monotonic(), self.device.lights)
        return answer

    def tick(self, now_ms: int, scan: bool = True) -> bytes:
        """One pass of the firmware's loop: a scan (or only the link's timers); what to send."""
        if scan:
            self.scans += 1
            return self.device.tick(self.sensors.scan(), now_ms)
        return self.device.tick(None, now_ms)

    def add_lights_listener(self, listener: LightsListener) -> None:
        """Call ``listener(time.monotonic(), lights)`` whenever the Pi changes the lights."""
        self._lights_listeners.append(listener)

    @property
    def lights(self) -> Lights:
        """The light frame the Pi last set: (colour code, mode code) per zone."""
        return self.device.lights

    def throw(self, dice: Dice) -> None:
        """Dice land in the tray now (None: take them out)."""
        self.sensors.set_dice(dice)

    def _store(self, text: str) -> None:
        self.stored = text

    # -- real time ------------------------------------------------------------------------------
    def start(self) -> VirtualDevice:
        """Run in real time on a thread: a scan every 20 ms, the Pi answered at once."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="virtual-board", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the real-time thread (the pty stays open)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None

    def _run(self) -> None:
        started = time.monotonic()

        def ms() -> int:
            return int((time.monotonic() - started) * 1000)

        self.write(self.device.boot(ms()))
        due = time.monotonic()
        while not self._stop.is_set():
            left = due - time.monotonic()
            master = self._master
            if left > 0:
                if master is None:
                    self._stop.wait(left)
                else:
                    try:
                        ready, _, _ = select.select([master], [], [], left)
                    except (OSError, ValueError):  # unplugged meanwhile
                        ready = []
                    if ready:
                        self.write(self.receive(self.read(), ms()))
                continue
            self.write(self.tick(ms()))
            due += SCAN_PERIOD
            if time.monotonic() - due > SCAN_PERIOD:  # fell behind by a whole scan: do not catch up
                due = time.monotonic() + SCAN_PERIOD


# -- serve: a real-time board with simulated players ---------------------------------------------


class LiveTable:
    """Simulated players performing games on a real-time virtual board, reading its LEDs."""

    def __init__(
        self,
        device: VirtualDevice,
        rules_name: str,
        seed: int,
        *,
        players: str = "greedy",
        quarter: str | None = None,
        games: int = 1,
        speed: float = 1.0,
        illegal_rate: float = 0.0,
        log: Callable[[str], None] | None = None,
    ) -> None:
        from controller.rules.registry import get_rule_set
        from controller.tracking import BoardReader

        from .players import STRATEGIES, Behaviour, Hand

        if players not in STRATEGIES:
            raise ValueError(f"unknown players {players!r} (known: {', '.join(STRATEGIES)})")
        if speed <= 0:
            raise ValueError(f"speed is a factor above 0, not {speed!r}")
        self.device = device
        self.rules = get_rule_set(rules_name)
        self.reader = BoardReader(self.rules, self.rules.geometry(quarter))
        self.games = games
        self.speed = speed
        self.log = log or (lambda line: None)
        self.rng = random.Random(f"{seed}/live")
        self.behaviour = Behaviour(illegal_rate=illegal_rate)
        self.players = (STRATEGIES[players](), STRATEGIES[players]())
        self.after_throw: Callable[[], Iterator[float]] | None = None
        """What a player does once the dice have landed (a fault run: wait until the board takes them)."""
        self._started = time.monotonic()
        self._warnings: list[tuple[float, Sound]] = []
        self._lights_changed = threading.Event()
        self.played = 0
        """Plays made so far."""
        self.truth: list[object] = []
        """The games as the players really played them (``controller.rules.game.Game``)."""
        self.finished = threading.Event()
        self._stop = threading.Event()
        self.hand = Hand(self.rules, self.reader, device.board, self.rng, self.behaviour, self.now, self._sounds)
        device.add_lights_listener(self._on_lights)
        self._thread = threading.Thread(target=self._run, name="virtual-players", daemon=True)

    def start(self) -> LiveTable:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._lights_changed.set()
        self._thread.join(timeout=5.0)

    def now(self) -> float:
        """The players' time: real seconds times the speed."""
        return (time.monotonic() - self._started) * self.speed

    # -- what the players see ---------------------------------------------------------------------
    def _on_lights(self, _at: float, lights: Lights) -> None:
        """Red lights (the board's warning colour) count as the warning a player hears."""
        if any(colour == p.COLOUR_CODES["warning"] for colour, _mode in lights):
            self._warnings.append((self.now(), Sound.WARNING))
        self._lights_changed.set()

    def _sounds(self) -> list[tuple[float, Sound]]:
        return list(self._warnings)

    def _showing(self, colour: str) -> bool:
        code = p.COLOUR_CODES[colour]
        return any(c == code for c, _mode in self.device.lights)

    def _wait_for(self, condition: Callable[[], bool], timeout: float | None) -> bool:
        """Wait (real time) until ``condition()`` holds after a lights change, or the timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._stop.is_set():
            if condition():
                return True
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            self._lights_changed.clear()
            self._lights_changed.wait(0.2 if left is None else min(left, 0.2))
        return False

    # -- the performance ----------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self.log("virtual board: waiting for the controller's lights")
            if not self._wait_for(lambda: self.device.device.counts.get(p.LEDS, 0) > 0, None):
                return
            for number in range(self.games):
                self._perform(self._game(number + 1))
                if self._stop.is_set():
                    return
                if number + 1 < self.games:
                    self.log("virtual board: game over; press Done for the next game")
                    self._wait_for(lambda: not self._showing("winner"), None)
        finally:
            self.finished.set()

    def _perform(self, steps: Iterator[float]) -> None:
        for delay in steps:
            if self._stop.wait(max(delay, 0.0) / self.speed):
                return

    def _throw(self, a: int, b: int, answer: float) -> Iterator[float]:
        """Throw, then look at the board until its lights take the roll (at most ``answer`` s)."""
        before = self.device.lights
        self.device.throw(None)
        yield max(TUMBLE, MIN_TUMBLE * self.speed)  # out of the pockets for a few scans, whatever the speed
        self.device.throw((a, b))
        self._wait_for(lambda: self.device.lights != before, answer)
        if self.after_throw is not None:
            yield from self.after_throw()

    def _game(self, number: int) -> Iterator[float]:
        from controller.rules.game import Game
        from controller.rules.values import Colour, Play

        rules, rng, hand = self.rules, self.rng, self.hand
        truth = Game(rules)
        self.truth.append(truth)
        self.device.throw(None)
        self.device.board.set_zones(
            {z: (r.white, r.black) for z, r in self.reader.snapshot_of(rules.start_position()).as_dict().items() if r}
        )
        self.log(f"virtual board: game {number}: checkers set up")
        yield 0.5
        if not self._wait_for(lambda: not self._showing("setup"), 10.0):
            self.log("virtual board: the lights still ask for setup; playing on")
        while True:
            a, b = self.players[0].opening(rng), self.players[1].opening(rng)
            yield rng.uniform(0.3, 1.0)
            yield from self._throw(a, b, 1.0)
            if truth.throw_opening(a, b) is not None:
                break
            yield 0.4
        roll = truth.pending_roll
        while not truth.is_over and not self._stop.is_set():
            colour = truth.turn
            player = self.players[0 if colour is Colour.WHITE else 1]
            if roll is None:
                roll = player.roll(rng)
                yield rng.uniform(*self.behaviour.think)
                yield from self._throw(roll.first, roll.second, 3.0)
                yield 0.3
            plays = rules.legal_plays(truth.position, roll)
            if not plays:
                truth.play(roll, Play())
                roll = None
                continue
            play = player.choose(rules, truth.position, roll, plays, rng)
            yield from hand.perform(truth.position, roll, play)
            truth.play(roll, play)
            self.played += 1
            roll = None
        self.log(f"virtual board: game {number} over after {self.played} plays")
        yield 1.0


class LiveBoard:
    """What ``serve`` returns besides the path: the device and players, and ``stop()``."""

    def __init__(self, device: VirtualDevice, table: LiveTable) -> None:
        self.device = device
        self.table = table

    @property
    def path(self) -> str:
        """A path that stays valid across unplug/replug."""
        return self.device.path

    def stop(self) -> None:
        """Stop the players and the device, close the pty."""
        self.table.stop()
        self.device.close()


def serve(
    rules_name: str,
    seed: int = 1,
    *,
    players: str = "greedy",
    quarter: str | None = None,
    games: int = 1,
    speed: float = 1.0,
    illegal_rate: float = 0.0,
    log: Callable[[str], None] | None = None,
) -> tuple[str, LiveBoard]:
    """Start a real-time virtual board with simulated players on a pty; (its /dev/pts/N path,
    the handle to stop it).  The players wait for the controller's first lights, set up, and
    play ``games`` games of ``rules_name``, watching the LEDs for warnings and game ends."""
    device = VirtualDevice(PhysicalBoard(), seed=seed).start()
    try:
        table = LiveTable(device, rules_name, seed, players=players, quarter=quarter, games=games, speed=speed,
                          illegal_rate=illegal_rate, log=log).start()
    except BaseException:
        device.close()
        raise
    return device.pty_path, LiveBoard(device, table)


def main(argv: list[str] | None = None) -> int:
    """Serve a virtual board until interrupted: ``python -m simulator.virtual_device``."""
    parser = argparse.ArgumentParser(prog="python -m simulator.virtual_device", description=main.__doc__)
    parser.add_argument("--rules", default="trictrac")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="greedy", choices=("random", "greedy"))
    parser.add_argument("--quarter")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--speed", type=float, default=1.0, help="players' speed (1: a person's)")
    args = parser.parse_args(argv)
    path, board = serve(args.rules, args.seed, players=args.players, quarter=args.quarter, games=args.games,
                        speed=args.speed, log=lambda line: print(line, file=sys.stderr, flush=True))
    print(path, flush=True)
    print(f"virtual board on {path} (stable link {board.path}); run: trictrac run --port {path}", file=sys.stderr)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    try:
        stopped.wait()  # the board stays up after the games, until stopped
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

