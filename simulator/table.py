"""A simulated table: two simulated players at the simulated board, with the real controller.

The table knows the truth (its own ``Game``: every roll thrown and play made by hand), runs
everything on the virtual clock, feeds every event through the controller and the runner
exactly as a real board would, and keeps the ledger the soak checks: plays made, plays
recorded identically, illegal attempts and whether each was warned, and warnings given
when nothing was wrong.
"""

from __future__ import annotations

import dataclasses

import random
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from controller.collector import collect_when_idle
from controller.journal import Journal
from controller.machine import Controller, Output, Phase, Settings
from controller.rules.game import Game, TurnRecord
from controller.rules.values import Colour, IllegalPlayError, Play, Roll
from controller.files import write_atomic
from controller.records.from_match import match_record
from controller.records.matfile import write_mat
from controller.runner import BoardRunner
from hal.interfaces import Button, DiceEvent, SnapshotEvent, TickEvent
from hal.zones import LINES

from .hardware import SimulatedHardware
from .follower import LightFollower
from .cube_play import CubeTable
from .players import Behaviour, Hand, RandomPlayer, Steps, Strategy
from .restart import put, restart_scene, resume_truth
from .scheduler import ScheduledCall
from .sensors import NoiseModel

if TYPE_CHECKING:
    from .serial_table import SerialBoard

DICE_GAP = 0.3
"""Virtual seconds at least between two throws of the dice, whatever the players' speed: the
dice must land and be picked up (a person at speed 1 never throws sooner after the last throw)."""
GAME_TIME_LIMIT = 20_000.0
NEXT_GAME_PATIENCE = 10.0
"""Seconds the players wait for the board to show the game over before pressing Done anyway."""
"""Virtual seconds after which a game is abandoned as stuck (it never should be)."""
LINKS = ("direct", "serial")
"""How the board reaches the controller: ``direct`` (the sensor model posts on the queue) or
``serial`` (the firmware on a virtual device, a real BoardLink over a pty, in lock-step)."""


@dataclass
class Warning_:
    """A warning the board gave: when, why, and whether an illegal attempt stood then."""

    time: float
    reason: str
    message: str
    during_attempt: bool


@dataclass
class TableReport:
    """What one table session did and what the board made of it."""

    games: int = 0
    finished: int = 0
    plays_made: int = 0
    plays_recorded_identically: int = 0
    illegal_attempts: int = 0
    attempts_warned: int = 0
    false_warnings: list[Warning_] = field(default_factory=list)
    snapshot_ns: list[int] = field(default_factory=list)
    snapshot_kinds: dict[str, list[int]] = field(default_factory=dict)
    roll_ns: list[int] = field(default_factory=list)
    snapshots: int = 0
    mismatches: list[str] = field(default_factory=list)
    virtual_seconds: float = 0.0
    wins: dict[str, int] = field(default_factory=lambda: {"white": 0, "black": 0})
    points: dict[str, int] = field(default_factory=lambda: {"white": 0, "black": 0})
    """Games won and points scored per colour (finished games only)."""
    cube_actions: int = 0
    cube_actions_recorded_identically: int = 0
    """Doubles, takes and passes made at the table, and of those recorded as made."""

    def merge(self, other: TableReport) -> None:
        """Add another session's counts to these."""
        for colour in ("white", "black"):
            self.wins[colour] += other.wins[colour]
            self.points[colour] += other.points[colour]
        self.games += other.games
        self.cube_actions += other.cube_actions
        self.cube_actions_recorded_identically += other.cube_actions_recorded_identically
        self.finished += other.finished
        self.plays_made += other.plays_made
        self.plays_recorded_identically += other.plays_recorded_identically
        self.illegal_attempts += other.illegal_attempts
        self.attempts_warned += other.attempts_warned
        self.false_warnings += other.false_warnings
        self.snapshot_ns += other.snapshot_ns
        self.roll_ns += other.roll_ns
        for kind, times in other.snapshot_kinds.items():
            self.snapshot_kinds.setdefault(kind, []).extend(times)
        self.snapshots += other.snapshots
        self.mismatches += other.mismatches
        self.virtual_seconds += other.virtual_seconds

    def cpu_per_snapshot(self) -> dict[str, float]:
        """Median and 99th percentile of the controller's time per snapshot, in ms."""
        return timing(self.snapshot_ns)

    def as_json(self) -> dict[str, object]:
        """The figures ``trictrac simulate --json`` prints."""
        return {
            "games": self.games,
            "games_finished": self.finished,
            "plays_made": self.plays_made,
            "plays_recorded_identically": self.plays_recorded_identically,
            "illegal_attempts": self.illegal_attempts,
            "warnings_for_attempts": self.attempts_warned,
            "false_warnings": len(self.false_warnings),
            "snapshots": self.snapshots,
            "cpu_per_snapshot": self.cpu_per_snapshot(),
            "cpu_per_roll": timing(self.roll_ns),
            "virtual_hours": round(self.virtual_seconds / 3600, 2),
            "wins": dict(self.wins),
            "points": dict(self.points),
            "cube_actions": self.cube_actions,
            "cube_actions_recorded_identically": self.cube_actions_recorded_identically,
            "mismatches": self.mismatches[:20],
        }


def timing(times_ns: list[int]) -> dict[str, float]:
    """Median, 99th percentile and maximum of times in ns, in ms."""
    times = sorted(times_ns)
    if not times:
        return {"median_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    return {
        "median_ms": statistics.median(times) / 1e6,
        "p99_ms": times[int(0.99 * (len(times) - 1))] / 1e6,
        "max_ms": times[-1] / 1e6,
    }


class Table:
    """One match between two simulated players on a simulated board, through the controller."""

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
    ) -> None:
        if link not in LINKS:
            raise ValueError(f"link is one of {', '.join(LINKS)}, not {link!r}")
        if link == "serial":  # as on a real board: a warning waits for a fresh snapshot
            settings = dataclasses.replace(settings, confirm=True)
        self.settings = settings
        self.rules = settings.rules
        point = controller.resume_point if controller is not None else None
        self.sim = SimulatedHardware(seed, noise, start=point.time if point is not None else 0.0)
        self.restart_moves = restart_moves
        """After a restart, the players may have gone on while the controller was down."""
        self.replayed: list[int] = []
        """Plays per game the journal already held when this table resumed a match."""
        self.partial: tuple[Play, int] | None = None
        """A play begun before a restart, and how many of its moves stand."""
        self.logs: list[str] = []
        self._log = log
        self.serial: SerialBoard | None = None
        """The virtual device and BoardLink with ``link="serial"``."""
        hardware = self.sim.hardware
        if link == "serial":
            from .serial_table import SerialBoard

            self.serial = SerialBoard(self.sim, self._note)
            hardware = self.serial.hardware
        self.rng = self.sim.rng("players")
        self.behaviour = behaviour or Behaviour()
        self.players = {Colour.WHITE: (players or (RandomPlayer(), RandomPlayer()))[0],
                        Colour.BLACK: (players or (RandomPlayer(), RandomPlayer()))[1]}
        self.controller = controller or Controller(settings)
        self.runner = BoardRunner(self.controller, hardware, journal, records, log=self._note)
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
        self.report = TableReport()
        self.cube = CubeTable(self.rules, settings.match_length, self.players, self.sim.buttons.press,
                              lambda: self.controller.phase, lambda: self.controller.game,
                              frozenset(settings.computer)) if point is None else None
        """The truth's match and the players' cube actions (a resumed match's games are not followed)."""
        self.observer = observer
        self.pace = pace
        """Virtual seconds per real second (0: as fast as possible)."""
        self.truth: list[Game] = []
        self._thrown_at = -DICE_GAP
        """When the dice were last thrown (for ``DICE_GAP``)."""
        if point is not None:  # a resumed match goes on differently after each restart
            self.rng = random.Random(f"{seed}/players/{point.seq}")
        self._tick: ScheduledCall | None = None
        if controller is None:
            self.apply(self.controller.begin(self.sim.clock.now()))

    # -- the event pump ------------------------------------------------------------------------
    def _note(self, line: str) -> None:
        self.logs.append(line)
        if self._log is not None:
            self._log(line)

    def apply(self, out: Output) -> None:
        """Carry out an output the controller gave outside the pump (its first, say)."""
        self.runner.apply(out)
        self._after(out)
        if self.serial is not None:  # the lights reach the device before the clock moves
            self.serial.exchange()

    def pump(self) -> None:
        """Hand every queued event to the controller and carry out its output, timing each
        snapshot and roll from arrival to the new light frame; over a serial link, until the
        device has had every light frame and the link has handled every answer."""
        if self.serial is None:
            self._handle_queued()
            return
        while True:
            self.serial.exchange()
            if not len(self.sim.queue):
                return
            self._handle_queued()

    def close(self) -> None:
        """Release the serial link and virtual device, if any (the plain path holds nothing)."""
        if self.serial is not None:
            self.serial.close()

    def throw(self, a: int, b: int) -> None:
        """The dice thrown: straight onto the queue, or into the virtual device's tray."""
        self._thrown_at = self.sim.clock.now()
        if self.serial is not None:
            self.serial.throw(a, b)
        else:
            self.sim.dice.throw(a, b)

    def _handle_queued(self) -> None:
        """Handle queued events until the queue is empty."""
        queue = self.sim.queue
        report = self.report
        while True:
            event = queue.get()
            if event is None:
                return
            start = time.thread_time_ns()  # CPU time: a busy machine's other processes do not count
            out = self.controller.handle(event)
            self.runner.apply(out)
            spent = time.thread_time_ns() - start
            if isinstance(event, SnapshotEvent):
                report.snapshot_ns.append(spent)
                report.snapshots += 1
                verdict = self.controller.last_verdict
                kind = verdict.kind.value if verdict is not None else self.controller.phase.value
                report.snapshot_kinds.setdefault(kind, []).append(spent)
            elif isinstance(event, DiceEvent):
                report.roll_ns.append(spent)
            self._after(out)

    def _after(self, out: Output) -> None:
        """Warnings bookkeeping and the grace-time tick (the runner's job, on virtual time)."""
        if self.observer is not None:
            self.observer(out)
        if out.warning is not None:
            now = self.sim.clock.now()
            during = any(a.start <= now and (a.end == 0.0 or now <= a.end) for a in self.hand.attempts)
            if not during:
                self.report.false_warnings.append(Warning_(now, out.warning, out.frame.message, during))
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        if out.deadline is not None:
            deadline = max(out.deadline, self.sim.clock.now())
            self._tick = self.sim.scheduler.at(deadline, lambda: self.sim.queue.put(TickEvent(deadline)))

    def run_script(self, script: Steps, limit: float) -> None:
        """Run a performance on the virtual clock, pumping events after every step."""
        scheduler = self.sim.scheduler
        end = self.sim.clock.now() + limit
        finished = False

        def step() -> None:
            nonlocal finished
            try:
                delay = next(script)
            except StopIteration:
                finished = True
                return
            scheduler.after(max(delay, 0.0), step)

        scheduler.after(0.0, step)
        while not finished:
            when = scheduler.next_time()
            if when is None or when > end:
                raise RuntimeError(f"the table script stalled at {self.sim.clock.now():.1f} s")
            if self.pace > 0 and when > self.sim.clock.now():
                time.sleep((when - self.sim.clock.now()) / self.pace)
            scheduler.run_next()
            self.pump()
        # let the sensors settle and the controller catch up
        scheduler.run_until(self.sim.clock.now() + 0.5)
        self.pump()

    # -- a match --------------------------------------------------------------------------------
    def play_match(self) -> TableReport:
        """Play games until the controller's match is over (or one game when it has no length).
        A controller resumed from a journal goes on with its match where the journal left it."""
        games = max(self.settings.match_length, 1)
        resumed = resume_truth(self) if self.controller.resume_point is not None and not self.truth else None
        if resumed is not None and self.controller.phase is Phase.GAME_OVER:
            put(self, resumed.position)
            self.run_script(self._next_game(), 60.0)
            resumed = None
        for _ in range(games * 4):
            self.run_script(self._game(resumed), GAME_TIME_LIMIT)
            resumed = None
            if self.controller.match.winner() is not None or self.settings.match_length == 0:
                break
            self.run_script(self._next_game(), 60.0)
        self.report.virtual_seconds = self.sim.clock.now()
        self._compare()
        return self.report

    def _dice_gap(self) -> Steps:
        """Wait until the last throw is ``DICE_GAP`` old (only fast players ever wait)."""
        left = self._thrown_at + DICE_GAP - self.sim.clock.now()
        if left > 1e-9:
            yield left

    def _next_game(self) -> Steps:
        yield 1.0
        self.sim.buttons.press(Button.DONE)
        yield 0.5

    def _setup(self) -> Steps:
        """Put the checkers out for the start (all at once: a person's setup is not the point)."""
        position = self.rules.start_position()
        self.sim.board.set_zones({z: (r.white, r.black) for z, r in self.controller.reader.snapshot_of(position).as_dict().items() if r})
        yield 0.5

    def _game(self, resumed: Game | None = None) -> Steps:
        rng = self.rng
        self.report.games += 1
        if resumed is None:
            truth = self.cube.new_game() if self.cube is not None else Game(self.rules)
            self.truth.append(truth)
            yield from self._setup()
        else:
            truth = resumed
            roll = yield from restart_scene(self, truth)
        speed = self.behaviour.speed
        while truth.opening is None:
            a = self.players[Colour.WHITE].opening(rng)
            b = self.players[Colour.BLACK].opening(rng)
            yield rng.uniform(0.3, 1.0) / speed
            yield from self._dice_gap()
            self.throw(a, b)
            if truth.throw_opening(a, b) is not None:
                roll = truth.pending_roll
        while not truth.is_over:
            colour = truth.turn
            player = self.players[colour]
            rush = False
            if roll is None and self.cube is not None:
                if colour in self.settings.computer:  # the computer doubles on the board by itself
                    yield from self.cube.follow_computer(truth)
                else:
                    yield from self.cube.before_roll(truth, colour)
                if truth.is_over:  # a double passed
                    break
            if roll is None:
                roll = player.roll(rng)
                rush = self.hand.chance(self.behaviour.hover_throw_rate)
                yield rng.uniform(*self.behaviour.think) / speed
                yield from self._dice_gap()
                if rush:  # a hand over some points when the dice land; the player moves at once
                    self.sim.board.hover(rng.sample(LINES, rng.randint(1, 3)))
                self.throw(roll.first, roll.second)
                yield (0.05 if rush else 0.3) / speed
                if self.cube is not None and colour in self.settings.computer and self.controller.phase is Phase.CUBE_OFFERED:
                    self.sim.board.unhover()  # the computer doubled first: its dice thrown are void
                    yield from self.cube.follow_computer(truth)
                    roll = None
                    if truth.is_over:
                        break
                    continue
            position = truth.position
            plays = self.rules.legal_plays(position, roll)
            if not plays:
                self.sim.board.unhover()
                truth.play(roll, Play())
                roll = None
                continue
            if colour in self.settings.computer and self.partial is None:  # a person carries the computer's play
                self.sim.board.unhover()  # the hand over the board when the dice landed: away, to see the lights
                play = yield from self.follower.carry(position, roll)
                try:
                    truth.play(roll, play)
                except IllegalPlayError:
                    self.report.mismatches.append(f"the lights left {colour.value}'s {roll} unfinished after {play}")
                    break
                self.report.plays_made += 1
                roll = None
                continue
            play, done = self.partial or (player.choose(self.rules, position, roll, plays, rng), 0)
            self.partial = None
            thrown: list[Roll] = []

            def throw_next(nxt: Colour = colour.opponent, thrown: list[Roll] = thrown) -> None:
                """The next player throws while this play is still in the hand, unless the dice
                thrown for this turn are too fresh to have been read (``DICE_GAP``)."""
                if self.sim.clock.now() < self._thrown_at + DICE_GAP:
                    return
                dice = self.players[nxt].roll(rng)
                thrown.append(dice)
                self.throw(dice.first, dice.second)

            early = self.behaviour.early_throw_rate > 0 and self.rules.result(self.rules.apply(position, play)) is None
            yield from self.hand.perform(position, roll, play, done, throw_next if early else None, rush)
            self.sim.board.unhover()
            truth.play(roll, play)
            self.report.plays_made += 1
            roll = thrown[0] if thrown else None
            if self.sim.clock.now() > GAME_TIME_LIMIT * len(self.truth):
                break
        if self.cube is not None:
            self.cube.game_over(truth)
        if truth.is_over:
            self.report.finished += 1
            yield from self._await_game_over()
        yield 1.0

    def _await_game_over(self) -> Steps:
        """The players look for the winner's lights before anything else (a winning play that
        went past a blot is waited on a while by the board: the next game's Done must not fall
        into that wait)."""
        waited = 0.0
        while self.controller.phase is not Phase.GAME_OVER and waited < NEXT_GAME_PATIENCE:
            yield 0.25
            waited += 0.25

    # -- the ledger -------------------------------------------------------------------------------
    def _compare(self) -> None:
        """Plays recorded identically: the controller's turns against the truth, turn by turn."""
        report = self.report
        report.illegal_attempts = len(self.hand.attempts)
        report.attempts_warned = sum(1 for a in self.hand.attempts if a.warned)
        games = self.controller.match.games
        for number, truth in enumerate(self.truth):
            recorded = games[number].turns() if number < len(games) else []
            made = [t for t in truth.turns() if t.play]
            kept = [t for t in recorded if t.play]
            replayed = self.replayed[number] if number < len(self.replayed) else 0
            for i, turn in enumerate(made):
                other = kept[i] if i < len(kept) else None
                if other is not None and _same(turn, other):
                    report.plays_recorded_identically += i >= replayed
                else:
                    report.mismatches.append(
                        f"game {number + 1} play {i + 1}: made {turn.colour.value} {turn.roll} "
                        f"{[str(m) for m in turn.play]}, recorded "
                        f"{(other.colour.value, str(other.roll), [str(m) for m in other.play]) if other else None}"
                    )
            if len(kept) > len(made):
                report.mismatches.append(f"game {number + 1}: {len(kept) - len(made)} plays recorded that were not made")
        if self.cube is not None:
            self.cube.compare(self.controller.match, report.mismatches)
            report.cube_actions += self.cube.made
            report.cube_actions_recorded_identically += self.cube.recorded


def _same(made: TurnRecord, recorded: TurnRecord) -> bool:
    return (
        made.colour is recorded.colour
        and sorted(made.roll.dice) == sorted(recorded.roll.dice)
        and made.after == recorded.after
    )


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
) -> TableReport:
    """Play ``games`` one-game matches headless through the full controller; the merged report.
    ``link="serial"`` puts the firmware on a virtual device and a BoardLink over a pty in between
    (the sensor noise is then the hall sensors' own; ``noise`` applies to the plain path).
    ``hands="real"`` turns on every hand habit of ``Behaviour.real_hands``; ``speed`` is the
    players' pace against a person's.  ``players`` makes each game's White and Black
    strategies (random by default)."""
    total = TableReport()
    if hands == "real":
        behaviour = Behaviour.real_hands(illegal_rate=illegal_rate, speed=speed)
    else:
        behaviour = Behaviour(illegal_rate=illegal_rate, speed=speed)
    for n in range(games):
        table = Table(settings, seed=seed * 100_003 + n, noise=NoiseModel.scaled(noise), behaviour=behaviour, link=link,
                      players=players() if players is not None else None)
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


