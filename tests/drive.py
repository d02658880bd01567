"""A test driver: plays a game through the real controller by showing it whole boards.

The simulator's players do this physically, checker by checker; this driver shows the
board after each single move, which is what the sensors report once a hand is done.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from controller.journal import Journal
from controller.machine import Controller, Output, Settings
from controller.rules import Play, Position, Roll, RuleSet
from controller.tracking import Kind
from hal.interfaces import Button, ButtonEvent, DiceEvent, DiceKind, SnapshotEvent, TickEvent


@dataclass
class Driver:
    """Feeds a controller boards, rolls and buttons, journalling like the runner does."""

    controller: Controller
    journal: Journal | None = None
    time: float = 0.0
    outputs: list[Output] = field(default_factory=list)

    @classmethod
    def new(cls, rules: RuleSet, journal: Journal | None = None, **settings: object) -> Driver:
        controller = Controller(Settings(rules, **settings))  # type: ignore[arg-type]
        driver = cls(controller, journal)
        driver._apply(controller.begin(0.0))
        return driver

    def _apply(self, out: Output) -> Output:
        if self.journal is not None and out.journal:
            self.journal.append(out.journal)
        self.outputs.append(out)
        return out

    def tick(self, seconds: float = 0.0) -> Output:
        self.time += seconds
        return self._apply(self.controller.handle(TickEvent(self.time)))

    def show(self, position: Position, after: float = 0.1) -> Output:
        self.time += after
        snapshot = self.controller.reader.snapshot_of(position)
        return self._apply(self.controller.handle(SnapshotEvent(self.time, snapshot)))

    def roll(self, a: int, b: int, after: float = 0.1) -> Output:
        """Throw; a roll held over a complete play that another play passes through (the
        hand may be carrying on) is let stand its grace time, as nothing moves here."""
        self.time += after
        moving = self.controller.turn_in_progress
        out = self._apply(self.controller.handle(DiceEvent(self.time, (a, b), DiceKind.TRAY)))
        verdict = self.controller.last_verdict
        if (moving is not None and self.controller.turn_in_progress == moving and out.deadline is not None
                and verdict is not None and verdict.kind is Kind.COMPLETE):
            out = self.tick(out.deadline - self.time)
        return out

    def press(self, button: Button, after: float = 0.1) -> Output:
        self.time += after
        return self._apply(self.controller.handle(ButtonEvent(self.time, button)))

    def play_moves(self, position: Position, play: Play) -> Position:
        """Show the board after each move of ``play`` from ``position``; returns the end board."""
        rules = self.controller.settings.rules
        mover = position.turn
        board = position
        for move in play:
            board = rules.apply(board, Play((move,))).with_turn(mover)
            self.show(board)
        return board.with_turn(mover.opponent)


def random_game(driver: Driver, rng: random.Random, max_turns: int = 600) -> list[tuple[Roll, Play]]:
    """Play random legal plays through the controller until the game ends; the plays made
    (a pass as an empty play)."""
    controller = driver.controller
    rules = controller.settings.rules
    driver.show(rules.start_position())
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            break
    made: list[tuple[Roll, Play]] = []

    def roll(first: int, second: int) -> None:
        before = len(controller.game.turns())
        driver.roll(first, second)
        turns = controller.game.turns()
        # the roll may end the last play and then pass at once: note the pass
        if turns and len(turns) > before and not turns[-1].play and controller.turn_in_progress is None:
            made.append((turns[-1].roll, Play()))

    roll(a, b)
    for _ in range(max_turns):
        if controller.game.is_over:
            break
        progress = controller.turn_in_progress
        if progress is None:
            roll(rng.randint(1, 6), rng.randint(1, 6))
            continue
        _, dice = progress
        position = controller.game.position
        play = rng.choice(rules.legal_plays(position, dice))
        driver.play_moves(position, play)
        made.append((dice, play))
        if not controller.game.is_over:
            roll(rng.randint(1, 6), rng.randint(1, 6))
    return made
