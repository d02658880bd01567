"""A small kit for scenario tests: a simulated table with the real controller, driven by
hand actions on the simulated board, read back through what a player sees (the lights,
the sounds, the turn LEDs) and what the controller journals.

Everything runs on the virtual clock of ``simulator.table.Table``; a scenario either runs a
generator script with ``perform`` (``Table.run_script``) or acts on the board directly and
lets time pass with ``advance``, which pumps the controller after every scheduled callback
exactly as ``Table.run_script`` does, so grace-time ticks happen at their deadlines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from controller.journal import Journal
from controller.machine import Controller, Output, Phase, Settings
from controller.rules import Colour, Position, get_rule_set
from controller.rules.game import Game
from controller.tracking import Kind
from hal.interfaces import (
    Button,
    Event,
    LightColour,
    LightFrame,
    LightMode,
    SnapshotEvent,
    Sound,
)
from hal.zones import TRAY, WAITING, Checker, Zone
from simulator.players import Steps
from simulator.table import Table

W, B = Colour.WHITE, Colour.BLACK
SETTLE = 0.2
"""Virtual seconds that let one board change settle (three 20 ms scans) and be judged."""


@dataclass
class Scene:
    """A table, and the bookkeeping a scenario asserts on.

    ``journal`` holds every journal entry the controller asked for; ``verdicts`` the
    tracker's judgement of every snapshot handled (``(time, Kind or None)``), so a test can
    show that a wrong board was really seen when it asserts that no warning came.
    """

    table: Table
    journal: list[dict]
    verdicts: list[tuple[float, Kind | None]] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"<Scene {self.phase.value} at {self.now:.2f} s: {self.message!r}>"

    # -- the devices ---------------------------------------------------------------------
    @property
    def controller(self) -> Controller:
        return self.table.controller

    @property
    def board(self):
        return self.table.sim.board

    @property
    def now(self) -> float:
        return self.table.sim.clock.now()

    @property
    def frame(self) -> LightFrame:
        """The frame the LEDs show now."""
        return self.table.sim.lights.current

    @property
    def message(self) -> str:
        return self.frame.message

    @property
    def phase(self) -> Phase:
        return self.controller.phase

    @property
    def turn_led(self) -> Checker | None:
        return self.table.sim.turn_indicator.current

    def lit(self, colour: LightColour) -> set[Zone]:
        """The zones lit in ``colour`` now."""
        return set(self.frame.lit(colour))

    def all_lit(self) -> dict[Zone, tuple[LightColour, LightMode]]:
        """Every lit zone with its colour and mode."""
        return {zone: (light.colour, light.mode) for zone, light in self.frame.lights}

    def sounds(self, since: float = 0.0) -> list[Sound]:
        """The sounds played at or after ``since``."""
        return [sound for at, sound in self.table.sim.sounder.played if at >= since]

    def warnings(self, since: float = 0.0) -> int:
        """How many WARNING sounds since ``since``."""
        return self.sounds(since).count(Sound.WARNING)

    def frames(self, since: float = 0.0) -> list[LightFrame]:
        """Every frame shown at or after ``since``."""
        return [frame for at, frame in self.table.sim.lights.history() if at >= since]

    def entries(self, kind: str) -> list[dict]:
        """The journal entries of one type."""
        return [entry for entry in self.journal if entry["type"] == kind]

    def zone(self, colour: Colour, point: int) -> Zone:
        """The zone of ``colour``'s own point (25 its waiting zone, 0 its tray)."""
        return self.controller.reader.zone_of(colour, point)

    # -- time ------------------------------------------------------------------------------
    def advance(self, seconds: float = SETTLE) -> None:
        """Let ``seconds`` of virtual time pass, the controller handling every event on time."""
        table = self.table
        scheduler = table.sim.scheduler
        end = self.now + seconds
        table.pump()  # what the last action posted is handled at once, as the runner would
        while True:
            when = scheduler.next_time()
            if when is None or when > end:
                break
            scheduler.run_next()
            table.pump()
        scheduler.run_until(end)
        table.pump()

    def perform(self, script: Steps, limit: float = 120.0) -> None:
        """Run a generator script on the table (``Table.run_script``)."""
        self.table.run_script(script, limit)

    # -- hand actions (each followed by time to settle) --------------------------------------
    def lift(self, zone: Zone, colour: Colour, settle: float = SETTLE) -> None:
        self.board.lift(zone, _checker(colour))
        self.advance(settle)

    def place(self, zone: Zone, colour: Colour, settle: float = SETTLE) -> None:
        self.board.place(zone, _checker(colour))
        self.advance(settle)

    def move(self, frm: Zone, to: Zone, colour: Colour, settle: float = SETTLE) -> None:
        """Lift and put down, with time to settle in between."""
        self.lift(frm, colour, settle)
        self.place(to, colour, settle)

    def throw(self, a: int, b: int, settle: float = 0.05) -> None:
        self.table.sim.dice.throw(a, b)
        self.advance(settle)

    def press(self, button: Button, settle: float = 0.05) -> None:
        self.table.sim.buttons.press(button)
        self.advance(settle)

    def set_position(self, position: Position, settle: float = 0.3) -> None:
        """Put exactly ``position`` on the board (hand emptied)."""
        self.board.set_zones(zones_of(self.controller, position))
        self.advance(settle)

    def board_counts(self) -> dict[Zone, tuple[int, int]]:
        """The checkers really on the board."""
        return {z: (r.white, r.black) for z, r in self.board.readings().items() if not r.empty}


def _checker(colour: Colour | Checker) -> Checker:
    return colour if isinstance(colour, Checker) else Checker(colour.value)


def zones_of(controller: Controller, position: Position) -> dict[Zone, tuple[int, int]]:
    """``{zone: (white, black)}`` of a board holding exactly ``position``."""
    snapshot = controller.reader.snapshot_of(position)
    return {z: (r.white, r.black) for z, r in snapshot.as_dict().items() if r is not None and not r.empty}


def scene(
    rules: str = "trictrac",
    *,
    quarter: str | None = None,
    grace: float = 1.0,
    match_length: int = 1,
    seed: int = 0,
    start: Position | None = None,
    journal: Journal | None = None,
    controller: Controller | None = None,
    **more: object,
) -> Scene:
    """A table at the start of a match (setup lights showing), optionally from a custom start;
    ``more``: further ``Settings`` (the computer's sides, hints)."""
    settings = Settings(get_rule_set(rules), quarter, match_length, grace, **more)  # type: ignore[arg-type]
    kept: list[dict] = []
    made_here = controller is None
    if controller is None:
        controller = Controller(settings)
        if start is not None:
            game = Game(settings.rules, start)
            controller.match.games[-1] = game
            controller.game = game
    table = Table(controller.settings, seed=seed, noise=None, journal=journal, controller=controller)
    runner_apply = table.runner.apply

    def apply(out) -> None:  # keep every journal entry, whether or not a file journal is used
        kept.extend(out.journal)
        runner_apply(out)

    table.runner.apply = apply  # type: ignore[method-assign]
    result = Scene(table, kept)
    handle = controller.handle

    def judged(event: Event) -> Output:  # note how each snapshot was judged
        out = handle(event)
        if isinstance(event, SnapshotEvent):
            verdict = controller._verdict
            kind = verdict.kind if verdict is not None and controller.phase in (Phase.MOVING, Phase.AWAIT_ROLL, Phase.OPENING) else None
            result.verdicts.append((event.time, kind))
        return out

    controller.handle = judged  # type: ignore[method-assign]
    if made_here:
        table.apply(controller.begin(table.sim.clock.now()))
    return result


def opened(rules: str = "trictrac", dice: tuple[int, int] = (3, 1), **kw) -> Scene:
    """A scene past the setup and the opening throw ``dice`` (trictrac: White moves with them)."""
    s = scene(rules, **kw)
    s.set_position(s.controller.game.position)
    assert s.phase is Phase.OPENING, s.message
    s.throw(*dice)
    return s


def pos(white: dict[int, int] | None = None, black: dict[int, int] | None = None, **kw: int) -> Position:
    """A position from own-point counts (White to move); checkers not placed are borne off."""
    for colour, points in (("white", white or {}), ("black", black or {})):
        kw.setdefault(f"{colour}_off", 15 - sum(points.values()) - kw.get(f"{colour}_bar", 0))
    return Position.from_counts(white or {}, black or {}, **kw)


def wait(seconds: float) -> Steps:
    """A script step that only lets time pass."""
    yield seconds


def act(fn: Callable[[], object], then: float = SETTLE) -> Steps:
    """A script step: do ``fn`` now, then let ``then`` seconds pass."""
    fn()
    yield then


def carry(board, frm: Zone, to: Zone, colour: Colour, *, hold: float = 0.3, via: Iterable[Zone] = (), stop: float = 0.1) -> Steps:
    """A hand lifts a checker from ``frm`` (hovering), holds it ``hold`` s, lets it touch
    down on each zone of ``via`` for ``stop`` s (a slide), and puts it down on ``to``."""
    checker = _checker(colour)
    board.hover([frm])
    yield 0.05
    board.lift(frm, checker)
    yield 0.05
    board.unhover()
    yield hold
    for zone in via:
        board.place(zone, checker)
        yield stop
        board.lift(zone, checker)
        yield 0.02
    board.hover([to])
    yield 0.05
    board.place(to, checker)
    yield 0.05
    board.unhover()
    yield 0.2


def chain(*steps: Iterable[float]) -> Steps:
    """Scripts one after the other."""
    for step in steps:
        yield from step


__all__ = ["SETTLE", "TRAY", "WAITING", "B", "Scene", "W", "act", "carry", "chain", "opened", "pos", "scene", "wait", "zones_of"]
