"""A simulated table: two simulated players at the simulated board, with the real controller.

The table knows the truth (its own ``Game``: every roll thrown and play made by hand), runs
everything on the virtual clock, feeds every event through the controller and the runner
exactly as a real board would, and keeps the ledger the soak checks: plays made, plays
recorded identically, illegal attempts and whether each was warned, and warnings given
when nothing was wrong.

``Table`` wires the parts together: the event pump and its bookkeeping (``table_pump``), the
players' scripts (``game_script``), the comparison of truth and record (``table_ledger``)
and the report (``table_report``); ``simulate`` plays many tables for the CLI and the soaks.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from controller.collector import collect_when_idle
from controller.files import write_atomic
from controller.journal import Journal
from controller.machine import Controller, Output, Settings
from controller.records.from_match import match_record
from controller.records.matfile import write_mat
from controller.rules.base import RuleSet
from controller.rules.game import Game
from controller.rules.values import Colour, Play
from controller.runner import BoardRunner

from .cube_play import CubeTable
from .follower import LightFollower
from .game_script import GAME_TIME_LIMIT, NEXT_GAME_PATIENCE, MatchScript
from .hardware import SimulatedHardware
from .players import Attempt, Behaviour, Hand, RandomPlayer, Steps, Strategy
from .sensors import NoiseModel
from .table_ledger import compare_match
from .table_pump import DICE_GAP, LINKS, TablePump
from .table_report import TableReport, Warning_, timing

if TYPE_CHECKING:
    from .serial_table import SerialBoard

__all__ = [
    "DICE_GAP", "GAME_TIME_LIMIT", "LINKS", "NEXT_GAME_PATIENCE",
    "Table", "TableReport", "Warning_", "simulate", "timing",
]


class Table:
    """One match between two simulated players on a simulated board, through the controller:
    the parts (the pump, the players' hands, the scripts, the ledger) wired together."""

    def __init__(
        self,
        settings: Settings,
        *,
        seed: int = 0,
        noise: NoiseModel | None = None,
        behaviour: Behaviour | None = None,
        players: tuple[Strategy, Strategy] | None = None,
        journal: Journal | None = None,
        records: Path | None = None,
        log: Callable[[str], None] | None = None,
        controller: Controller | None = None,
        observer: Callable[[Output], None] | None = None,
        pace: float = 0.0,
        link: str = "direct",
        restart_moves: bool = True,
        ahead: bool | None = None,
    ) -> None:
        if link not in LINKS:
            raise ValueError(f"link is one of {', '.join(LINKS)}, not {link!r}")
        # as on a real board: a warning waits for a fresh snapshot, which the sensors (the
        # firmware, or their model) post once the board has settled
        settings = dataclasses.replace(settings, confirm=True)
        self.settings = settings
        point = controller.resume_point if controller is not None else None
        self.sim = SimulatedHardware(seed, noise, start=point.time if point is not None else 0.0)
        self.restart_moves = restart_moves
        """After a restart, the players may have gone on while the controller was down."""
        self.replayed: list[int] = []
        """Plays per game the journal already held when this table resumed a match."""
        self.partial: tuple[Play, int] | None = None
        """A play begun before a restart, and how many of its moves stand."""
        self.rng = self.sim.rng("players")
        self.behaviour = behaviour or Behaviour()
        self.players = {Colour.WHITE: (players or (RandomPlayer(), RandomPlayer()))[0],
                        Colour.BLACK: (players or (RandomPlayer(), RandomPlayer()))[1]}
        self.controller = controller or Controller(settings)
        self.report = TableReport()
        self.feed = TablePump(self.sim, self.controller, self.report, self._attempts, link=link, journal=journal,
                              records=records, log=log, observer=observer, pace=pace,
                              ahead=ahead)
        """The events into the controller, the dice, the timing and warning bookkeeping."""
        self.hand = Hand(
            self.rules,
            self.controller.reader,
            self.sim.board,
            self.rng,
            self.behaviour,
            self.sim.clock.now,
            lambda: self.sim.sounder.played,
        )
        self.follower = LightFollower(
            self.rules, self.controller.reader, self.hand, lambda: self.sim.lights.current, lambda: self.controller.plan
        )
        """The person carrying the computer's checkers (the sides in ``settings.computer``)."""
        self.cube = CubeTable(self.rules, settings.match_length, self.players, self.sim.buttons.press,
                              lambda: self.controller.phase, lambda: self.controller.game,
                              frozenset(settings.computer)) if point is None else None
        """The truth's match and the players' cube actions (a resumed match's games are not followed)."""
        self.truth: list[Game] = []
        if point is not None:  # a resumed match goes on differently after each restart
            self.rng = random.Random(f"{seed}/players/{point.seq}")
        if controller is None:
            self.apply(self.controller.begin(self.sim.clock.now()))

    # -- the parts' names, as callers have always used them ------------------------------------
    @property
    def rules(self) -> RuleSet:
        """The rule set played (the settings')."""
        return self.settings.rules

    @property
    def serial(self) -> SerialBoard | None:
        """The virtual device and BoardLink with ``link="serial"``."""
        return self.feed.serial

    @property
    def runner(self) -> BoardRunner:
        """The controller's runner (journal, records, outputs to the devices)."""
        return self.feed.runner

    @property
    def logs(self) -> list[str]:
        """Every line logged by the runner and the link."""
        return self.feed.logs

    @property
    def observer(self) -> Callable[[Output], None] | None:
        """Called with every output the controller gives."""
        return self.feed.observer

    @observer.setter
    def observer(self, observer: Callable[[Output], None] | None) -> None:
        self.feed.observer = observer

    @property
    def pace(self) -> float:
        """Virtual seconds per real second (0: as fast as possible)."""
        return self.feed.pace

    @pace.setter
    def pace(self, pace: float) -> None:
        self.feed.pace = pace

    @property
    def thrown_at(self) -> float:
        """When the dice were last thrown (for ``DICE_GAP``)."""
        return self.feed.thrown_at

    def _attempts(self) -> Sequence[Attempt]:
        """The illegal attempts the hand made so far (for the pump's false-warning check)."""
        return self.hand.attempts

    # -- the event pump ------------------------------------------------------------------------
    def apply(self, out: Output) -> None:
        """Carry out an output the controller gave outside the pump (its first, say)."""
        self.feed.apply(out)

    def pump(self) -> None:
        """Hand every queued event to the controller and carry out its output (``TablePump.pump``)."""
        self.feed.pump()

    def close(self) -> None:
        """Release the serial link and virtual device, if any (the plain path holds nothing)."""
        self.feed.close()

    def throw(self, a: int, b: int) -> None:
        """The dice thrown: straight onto the queue, or into the virtual device's tray."""
        self.feed.throw(a, b)

    def run_script(self, script: Steps, limit: float) -> None:
        """Run a performance on the virtual clock, pumping events after every step."""
        self.feed.run_script(script, limit)

    # -- a match --------------------------------------------------------------------------------
    def play_match(self) -> TableReport:
        """Play games until the controller's match is over (or one game when it has no length),
        then compare what was played with what was recorded.  A controller resumed from a
        journal goes on with its match where the journal left it."""
        MatchScript(self).play()
        self.report.virtual_seconds = self.sim.clock.now()
        compare_match(self.report, self.truth, self.controller.match, self.replayed, self.hand.attempts, self.cube)
        return self.report


def simulate(
    settings: Settings,
    games: int,
    *,
    seed: int = 0,
    noise: float = 0.0,
    illegal_rate: float = 0.0,
    records: Path | None = None,
    progress: Callable[[int, TableReport], None] | None = None,
    link: str = "direct",
    hands: str = "plain",
    speed: float = 1.0,
    players: Callable[[], tuple[Strategy, Strategy]] | None = None,
    ahead: bool = False,
) -> TableReport:
    """Play ``games`` one-game matches headless through the full controller; the merged report.
    ``link="serial"`` puts the firmware on a virtual device and a BoardLink over a pty in between
    (the sensor noise is then the hall sensors' own; ``noise`` applies to the plain path).
    ``hands="real"`` turns on every hand habit of ``Behaviour.real_hands``; ``speed`` is the
    players' pace against a person's.  ``players`` makes each game's White and Black
    strategies (random by default).  ``ahead``: build the next turn's maps between events as
    a real board does while idle (``controller.idle``; the same games, twice the CPU)."""
    total = TableReport()
    if hands == "real":
        behaviour = Behaviour.real_hands(illegal_rate=illegal_rate, speed=speed)
    else:
        behaviour = Behaviour(illegal_rate=illegal_rate, speed=speed)
    for n in range(games):
        table = Table(settings, seed=seed * 100_003 + n, noise=NoiseModel.scaled(noise), behaviour=behaviour, link=link,
                      players=players() if players is not None else None, ahead=ahead)
        try:
            report = table.play_match()
            for game in table.truth:
                result = game.result()
                if result is not None:
                    report.wins[result.winner.value] += 1
                    report.points[result.winner.value] += result.points
            total.merge(report)
        finally:
            table.close()
        if records is not None:  # named by seed and game, so another run never overwrites them
            records.mkdir(parents=True, exist_ok=True)
            path = records / f"sim-{settings.rules.name}-seed{seed}-{n + 1:04d}.mat"
            write_atomic(path, write_mat(match_record(table.controller.match)).encode("utf-8"))
        if progress is not None:
            progress(n + 1, total)
        del table
        collect_when_idle()  # the finished table is all reference cycles: cleared here, not inside a later event
    return total


