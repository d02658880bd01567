"""Benchmark: board changes through the simulated sensor model, per second of wall time.

Not a test: a seeded hand lifts and places checkers (10,000 board changes by default)
with random gaps (mean 0.1 s of virtual time, a third of them shorter than one scan),
and the sensor model settles and posts snapshots; run clean and with noise level 1.
It prints changes per second, virtual seconds per wall second, and how many grid scans
the event-driven model stood in for.

    python benchmarks/simulator_speed.py [--changes N] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hal.zones import BLACK, WHITE, ZONES  # noqa: E402
from simulator.hardware import SimulatedHardware  # noqa: E402
from simulator.sensors import NoiseModel  # noqa: E402


def run(changes: int, seed: int, level: float) -> dict[str, float]:
    """Make ``changes`` board changes with random gaps and return the figures."""
    sim = SimulatedHardware(seed, NoiseModel.scaled(level))
    sim.board.set_zones({"1": (15, 0), "I": (0, 15)})
    rng = sim.rng("bench")
    board, queue = sim.board, sim.queue
    colours = (WHITE, BLACK)
    started = time.perf_counter()
    t = 0.5
    for n in range(changes):
        t += rng.expovariate(1 / 0.1)
        sim.run_until(t)
        colour = colours[n // 2 % 2]
        if n % 2 == 0:
            board.lift(rng.choice([z for z in ZONES if board.reading(z).count(colour)]), colour)
        else:
            board.place(rng.choice(ZONES), colour)
        queue.drain()
    sim.run_for(1.0)
    queue.drain()
    wall = time.perf_counter() - started
    stats = sim.sensor.stats()
    return {
        "noise_level": level,
        "changes": changes,
        "wall_s": wall,
        "changes_per_s": changes / wall,
        "us_per_change": wall / changes * 1e6,
        "virtual_s": sim.clock.now(),
        "virtual_per_wall": sim.clock.now() / wall,
        "grid_scans_covered": stats.scans,
        "reading_changes": stats.reading_changes,
        "snapshots": stats.snapshots,
        "noise_events": sum(stats.noise.values()),
    }


def main() -> None:
    """Run the benchmark clean and noisy, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = [run(args.changes, args.seed, level) for level in (0.0, 1.0)]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for r in results:
        print(
            f"noise {r['noise_level']:.0f}: {r['changes']:,} board changes in {r['wall_s']:.3f} s "
            f"= {r['changes_per_s']:,.0f} changes/s ({r['us_per_change']:.1f} us each); "
            f"{r['virtual_s']:,.0f} virtual s at {r['virtual_per_wall']:,.0f}x real time; "
            f"{r['grid_scans_covered']:,} grid scans stood in for by {r['reading_changes']:,} reading changes; "
            f"{r['snapshots']:,} snapshots posted, {r['noise_events']:,} noise events"
        )


if __name__ == "__main__":
    main()
