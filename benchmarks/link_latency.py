"""Benchmark: latency from a sensor change to the light frame coming back over the serial link.

Not a test.  A real-time virtual board (``simulator.virtual_device.VirtualDevice``: the
firmware's Device and BoardLogic over simulated hall sensors, scanning every 20 ms) runs in a
child process, as the Pico is a separate machine; this process runs what the Pi runs: a
``BoardLink`` on the pty, the real controller and the ``BoardRunner``.  The board sits in the
setup phase and the child adds and removes a checker on an empty point, so every change
settles into a SNAPSHOT and brings back a new LEDS frame.  For each change it measures, on
its own clock:

* link round trip: the SNAPSHOT written by the device -> the LEDS frame read by the device
  (link, controller, runner, link back; the figure the target is about: p99 <= 15 ms);
* change to lights: the checker put down -> the LEDS frame read (adds the firmware's
  debouncing, 3 scans of 20 ms, by design).

    python benchmarks/link_latency.py [--changes N] [--same-process] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware import protocol as p  # noqa: E402 - after the path is set

LEDS_TIMEOUT = 2.0


def device_side(conn, changes: int, seed: int) -> None:  # conn: a multiprocessing Connection
    """The board: serve the pty, then make ``changes`` changes and report the timings."""
    from simulator.board import PhysicalBoard
    from simulator.virtual_device import VirtualDevice

    board = PhysicalBoard()
    device = VirtualDevice(board, seed=seed)
    lock = threading.Lock()
    marks: dict[str, float | None] = {"snapshot": None, "leds": None}
    arrived = threading.Event()

    def trace(direction: str, msg_type: int, at: float) -> None:
        with lock:
            if direction == "out" and msg_type == p.SNAPSHOT and marks["snapshot"] is None:
                marks["snapshot"] = at
            elif direction == "in" and msg_type == p.LEDS and marks["snapshot"] is not None and marks["leds"] is None:
                marks["leds"] = at
                arrived.set()

    device.start()
    conn.send(device.path)
    conn.recv()  # the Pi side is connected and showing its lights
    time.sleep(0.5)
    rng = random.Random(seed)
    device.trace = trace
    results = []
    for n in range(changes):
        with lock:
            marks["snapshot"] = marks["leds"] = None
            arrived.clear()
        changed = time.monotonic()
        if n % 2 == 0:
            board.set_zones({"3": (1, 0)}, reset=False)
        else:
            board.set_zones({"3": (0, 0)}, reset=False)
        if arrived.wait(LEDS_TIMEOUT):
            with lock:
                results.append((changed, marks["snapshot"], marks["leds"]))
        else:
            results.append((changed, None, None))
        time.sleep(rng.uniform(0.02, 0.06))
    device.trace = None
    conn.send(results)
    device.close()


def pi_side(path: str, log: list[str]) -> tuple[object, threading.Event, threading.Thread]:
    """The Pi: link, controller and runner on the board at ``path``, stepping on a thread."""
    from controller.machine import Controller, Settings
    from controller.rules import get_rule_set
    from controller.runner import BoardRunner
    from hal.clock import MonotonicClock
    from hal.interfaces import Hardware
    from hal.queue import ThreadSafeQueue
    from hal.serial_link import open_board

    class Quiet:
        def play(self, sound: object) -> None:
            pass

    events, clock = ThreadSafeQueue(), MonotonicClock()
    link = open_board(path, events, clock, log.append)
    controller = Controller(Settings(get_rule_set("trictrac")))
    hardware = Hardware(clock=clock, events=events, lights=link, sounder=Quiet(), sensor=link, dice=[link])
    runner = BoardRunner(controller, hardware, log=log.append)
    runner.apply(controller.begin(clock.now()))
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            runner.step(wait=0.1)
        link.close()

    thread = threading.Thread(target=loop, name="runner", daemon=True)
    thread.start()
    return link, stop, thread


def figures(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 2),
        "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
    }


def run(changes: int, seed: int, same_process: bool) -> dict[str, object]:
    """Run the benchmark; the figures."""
    log: list[str] = []
    if same_process:
        parent, child = multiprocessing.Pipe()
        worker = threading.Thread(target=device_side, args=(child, changes, seed), daemon=True)
    else:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        worker = context.Process(target=device_side, args=(child, changes, seed), daemon=True)
    worker.start()
    path = parent.recv()
    _link, stop, thread = pi_side(path, log)
    parent.send("go")
    results = parent.recv()
    stop.set()
    thread.join(timeout=5)
    worker.join(timeout=10)
    done = [(c, s, l) for c, s, l in results if s is not None and l is not None]
    return {
        "changes": changes,
        "answered": len(done),
        "device": "same process" if same_process else "separate process",
        "link_round_trip": figures([l - s for _c, s, l in done]),
        "change_to_lights": figures([l - c for c, _s, l in done]),
        "target_p99_ms": 15.0,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--same-process", action="store_true", help="run the virtual board on a thread here")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report = run(args.changes, args.seed, args.same_process)
    if args.json:
        print(json.dumps(report))
        return 0
    trip, total = report["link_round_trip"], report["change_to_lights"]
    print(f"{report['answered']}/{report['changes']} changes answered (virtual board in a {report['device']})")
    print(f"link round trip (SNAPSHOT out -> LEDS in): median {trip['median_ms']} ms, p99 {trip['p99_ms']} ms, "
          f"max {trip['max_ms']} ms (target p99 <= 15 ms)")
    print(f"change to lights (incl. 3-scan debounce): median {total['median_ms']} ms, p99 {total['p99_ms']} ms, "
          f"max {total['max_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
