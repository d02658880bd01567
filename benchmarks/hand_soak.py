"""Soak: does the board follow every hand?  (issue 8's "Done when")

Not a test.  Plays whole one-game matches through the full controller with simulated
players whose hands have every habit of issue 8 turned on (``Behaviour.real_hands``: blots
taken off before the hitter, to the bar or held in the hand; checkers carried straight
over several dice and past hit points; two checkers lifted at once; the next roll thrown
while the last checker is in the hand or a hand hovers over the board), over a grid of

    seeds x rule sets (``controller.rules.rule_set_names()``) x sensor noise (up to 7.5)
    x illegal-attempt rates (up to 1.0) x link (direct, serial) x players' speed (1: a person)

and prints per cell: games finished of games asked, plays made, plays misrecorded, illegal
attempts, unwarned attempts, false warnings, stuck tables, errors.  A table is *stuck* when
its controller never saw the game end (no winner at the end of the match, or the table had
to start another game because the controller's game went on; the players do not wait for
the board, so a controller that lost the game shows as stuck and as misrecorded plays).

Over the serial link the firmware runs on a virtual device behind a real BoardLink over a
pty, in lock-step with the virtual clock (``trictrac simulate --link serial``); its sensor
noise is the hall sensors' own, so the noise level applies to the direct path only (a serial
cell is run once per noise level all the same, with other seeds).  Serial games take about
a minute each, so serial cells play fewer games (``--serial-games``).

    python benchmarks/hand_soak.py [--quick] [--json] [--seeds N] [--games N]
        [--rules NAME ...] [--noise 0.5 7.5] [--illegal 0.2 1.0] [--links direct serial]
        [--speeds 1 20] [--plain] [--habits real|hits|lifts|throws|handover|all]

Exit status 1 when any cell has a failure (a misrecorded play, an unwarned illegal attempt,
a false warning, a stuck table, an unfinished game or an error), else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.machine import Settings  # noqa: E402
from controller.rules import get_rule_set, rule_set_names  # noqa: E402
from simulator.players import HABITS, Behaviour  # noqa: E402
from simulator.sensors import NoiseModel  # noqa: E402
from simulator.table import Table  # noqa: E402

FULL = {"seeds": 5, "games": 2, "noise": [0.0, 0.5, 2.5, 5.0, 7.5], "illegal": [0.0, 0.2, 0.5, 1.0],
        "links": ["direct", "serial"], "speeds": [1.0, 3.0, 8.0, 20.0], "serial_games": 1}
"""The full grid: every rule set, noise up to 7.5, illegal rates up to 1, speeds past 5x."""
QUICK = {"seeds": 1, "games": 1, "noise": [0.5, 7.5], "illegal": [0.2, 1.0],
         "links": ["direct", "serial"], "speeds": [1.0, 20.0], "serial_games": 1}
"""A few minutes: the corners of the grid (serial only at the lowest noise and illegal rate)."""


@dataclass
class Cell:
    """The figures of one cell of the grid."""

    rules: str
    noise: float
    illegal_rate: float
    link: str
    speed: float
    asked: int = 0
    finished: int = 0
    plays_made: int = 0
    misrecorded: int = 0
    illegal_attempts: int = 0
    unwarned: int = 0
    false_warnings: int = 0
    stuck: int = 0
    errors: int = 0
    seconds: float = 0.0
    examples: list[str] = field(default_factory=list)
    """A few mismatches, false warnings and errors, to start looking from."""

    @property
    def failures(self) -> int:
        """Everything that must be 0 (or equal) when the board follows every hand."""
        return (self.misrecorded + self.unwarned + self.false_warnings + self.stuck + self.errors
                + (self.asked - self.finished))

    def line(self) -> str:
        """One row of the table."""
        return (f"{self.rules:<14}{self.noise:>5.1f}{self.illegal_rate:>6.2f} {self.link:<7}{self.speed:>5.0f}x"
                f"{self.finished:>5}/{self.asked:<3}{self.plays_made:>7}{self.misrecorded:>7}{self.illegal_attempts:>7}"
                f"{self.unwarned:>7}{self.false_warnings:>7}{self.stuck:>6}{self.errors:>5}{self.seconds:>8.1f}"
                + ("   FAIL" if self.failures else ""))


HEADER = (f"{'rules':<14}{'noise':>5}{'illeg':>6} {'link':<7}{'speed':>6}{'games':>9}{'plays':>7}"
          f"{'misrec':>7}{'illeg':>7}{'unwarn':>7}{'false':>7}{'stuck':>6}{'err':>5}{'secs':>8}")


def play_table(cell: Cell, seed: int, behaviour: Behaviour) -> None:
    """One one-game match into ``cell``'s figures."""
    settings = Settings(get_rule_set(cell.rules))
    cell.asked += 1
    table: Table | None = None
    try:
        table = Table(settings, seed=seed, noise=NoiseModel.scaled(cell.noise), behaviour=behaviour, link=cell.link)
        report = table.play_match()
    except Exception as error:  # a crash is a failure of the cell, not of the sweep
        cell.errors += 1
        cell.examples.append(f"seed {seed}: {type(error).__name__}: {error}")
        traceback.print_exc(file=sys.stderr)
        return
    finally:
        if table is not None:
            table.close()
    truth_done = bool(table.truth) and table.truth[0].is_over
    controller_done = table.controller.match.winner() is not None
    cell.finished += truth_done and controller_done and report.games == 1
    cell.plays_made += report.plays_made
    cell.misrecorded += report.plays_made - report.plays_recorded_identically
    cell.illegal_attempts += report.illegal_attempts
    cell.unwarned += report.illegal_attempts - report.attempts_warned
    cell.false_warnings += len(report.false_warnings)
    cell.stuck += (not controller_done) or report.games > 1
    if len(cell.examples) < 4:
        cell.examples += [f"seed {seed}: {m}" for m in report.mismatches[:1]]
        cell.examples += [f"seed {seed}: false warning at {w.time:.1f} s: {w.message}" for w in report.false_warnings[:1]]
        unwarned = report.illegal_attempts - report.attempts_warned
        cell.examples += [f"seed {seed}: {unwarned} illegal attempt(s) unwarned"] if unwarned else []


def sweep(args: argparse.Namespace, say) -> list[Cell]:  # type: ignore[no-untyped-def]
    """Every cell of the grid, played and printed as it finishes."""
    cells: list[Cell] = []
    for link in args.links:
        for name in args.rules:
            for noise in args.noise:
                for illegal in args.illegal:
                    for speed in args.speeds:
                        if link == "serial" and args.quick and (noise, illegal) != (args.noise[0], args.illegal[0]):
                            continue  # the serial path costs a minute a game: its corner only
                        cell = Cell(name, noise, illegal, link, speed)
                        behaviour = (Behaviour(illegal_rate=illegal, speed=speed) if args.plain
                                     else Behaviour.careless(args.habits, illegal_rate=illegal, speed=speed))
                        games = args.serial_games if link == "serial" else args.games
                        started = time.perf_counter()
                        for s in range(args.seeds):
                            for g in range(games):
                                play_table(cell, (args.seed + s) * 100_003 + g, behaviour)
                        cell.seconds = time.perf_counter() - started
                        cells.append(cell)
                        say(cell.line())
    return cells


def main() -> int:
    """Run the sweep; exit 1 on any failure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the corners of the grid, a few minutes")
    parser.add_argument("--json", action="store_true", help="one JSON object per cell, then a summary")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--seeds", type=int)
    parser.add_argument("--games", type=int, help="one-game matches per seed and cell (direct link)")
    parser.add_argument("--serial-games", type=int, help="one-game matches per seed and cell (serial link)")
    parser.add_argument("--rules", nargs="+", default=list(rule_set_names()), choices=rule_set_names())
    parser.add_argument("--noise", nargs="+", type=float)
    parser.add_argument("--illegal", nargs="+", type=float)
    parser.add_argument("--links", nargs="+", choices=("direct", "serial"))
    parser.add_argument("--speeds", nargs="+", type=float, help="players' speed factors (1: a person)")
    parser.add_argument("--plain", action="store_true", help="the plain Behaviour (no issue 8 habits): a control")
    parser.add_argument("--habits", default="real", choices=tuple(HABITS),
                        help="hands more careless than real_hands, one habit pushed far (simulator.players.HABITS)")
    args = parser.parse_args()
    grid = QUICK if args.quick else FULL
    for key, value in grid.items():
        if getattr(args, key) is None:
            setattr(args, key, value)

    def say(line: str) -> None:
        if not args.json:
            print(line, flush=True)

    say(HEADER)
    cells = sweep(args, say)
    total = Cell("total", 0.0, 0.0, "-", 0.0)
    for cell in cells:
        for name in ("asked", "finished", "plays_made", "misrecorded", "illegal_attempts", "unwarned",
                     "false_warnings", "stuck", "errors", "seconds"):
            setattr(total, name, getattr(total, name) + getattr(cell, name))
    failing = [cell for cell in cells if cell.failures]
    if args.json:
        for cell in cells:
            print(json.dumps({**asdict(cell), "failures": cell.failures}))
        print(json.dumps({"summary": {**asdict(total), "failures": total.failures, "cells": len(cells),
                                      "failing_cells": len(failing)}}))
    else:
        say("-" * len(HEADER))
        say(total.line())
        say(f"{len(failing)} of {len(cells)} cells fail")
        for cell in failing[:10]:
            for example in cell.examples[:2]:
                say(f"  {cell.rules} noise {cell.noise} illegal {cell.illegal_rate} {cell.link} {cell.speed:g}x: {example}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
