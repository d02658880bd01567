"""What the two simulated players do at the table during a match: set the checkers out, throw
the opening, throw and play each turn by hand (the next player maybe throwing early), carry
the computer's plays from the lights, handle the cube, and press Done for the next game.

The scripts are generators of virtual-second delays run by the table's pump; the truth (the
table's own ``Game`` per game) is played alongside, so the table can compare it afterwards
with what the controller recorded.
"""

from __future__ import annotations

import random
from typing import Generator, Protocol

from controller.machine import Phase, Settings
from controller.rules.game import Game
from controller.rules.values import Colour, IllegalPlayError, Play, Position, Roll
from hal.interfaces import Button
from hal.zones import LINES

from .cube_play import CubeTable
from .follower import LightFollower
from .players import Behaviour, Hand, Steps, Strategy
from .restart import Table as RestartTable
from .restart import put, restart_scene, resume_truth
from .table_pump import DICE_GAP
from .table_report import TableReport

GAME_TIME_LIMIT = 20_000.0
"""Virtual seconds after which a game is abandoned as stuck (it never should be)."""
NEXT_GAME_PATIENCE = 10.0
"""Seconds the players wait for the board to show the game over before pressing Done anyway."""
OPENING_HEARD = 0.5
"""Seconds the players wait, after an opening throw made before the board had shown itself
set up, for its answer: "Set up the board before rolling" (a dropout hid the setup from the
sensors, rally 1350940528 at 8x) and they throw again when it asks."""


class ScriptedTable(RestartTable, Protocol):
    """What the players' scripts need of the simulated table (``simulator.table.Table``),
    named here so this module does not import the table that imports it."""

    settings: Settings
    rng: random.Random
    behaviour: Behaviour
    players: dict[Colour, Strategy]
    hand: Hand
    follower: LightFollower
    cube: CubeTable | None

    @property
    def report(self) -> TableReport: ...

    @property
    def thrown_at(self) -> float: ...

    def run_script(self, script: Steps, limit: float) -> None: ...


class MatchScript:
    """The players' performance of one match at ``table``: game after game until the
    controller's match is over, the truth played alongside."""

    def __init__(self, table: ScriptedTable) -> None:
        self.table = table

    def play(self) -> None:
        """Play games until the controller's match is over (or one game when it has no length).
        A controller resumed from a journal goes on with its match where the journal left it."""
        table = self.table
        games = max(table.settings.match_length, 1)
        resumed = resume_truth(table) if table.controller.resume_point is not None and not table.truth else None
        if resumed is not None and table.controller.phase is Phase.GAME_OVER:
            put(table, resumed.position)
            table.run_script(self._next_game(), 60.0)
            resumed = None
        for _ in range(games * 4):
            table.run_script(self._game(resumed), GAME_TIME_LIMIT)
            resumed = None
            if table.controller.match.winner() is not None or table.settings.match_length == 0:
                break
            table.run_script(self._next_game(), 60.0)

    def _dice_left(self) -> float:
        """Seconds until the last throw is ``DICE_GAP`` old (the dice read and picked up)."""
        return self.table.thrown_at + DICE_GAP - self.table.sim.clock.now()

    def _dice_gap(self) -> Steps:
        """Wait until the last throw is ``DICE_GAP`` old (only fast players ever wait)."""
        left = self._dice_left()
        if left > 1e-9:
            yield left

    def _next_game(self) -> Steps:
        """Done pressed for the next game, a second after the last."""
        yield 1.0
        self.table.sim.buttons.press(Button.DONE)
        yield 0.5

    def _setup(self) -> Steps:
        """Put the checkers out for the start (all at once: a person's setup is not the point)."""
        table = self.table
        position = table.rules.start_position()
        table.sim.board.set_zones({z: (r.white, r.black) for z, r in table.controller.reader.snapshot_of(position).as_dict().items() if r})
        yield 0.5

    def _game(self, resumed: Game | None = None) -> Steps:
        """One game: the setup (or the scene a restart left), the opening, every turn to the end."""
        table = self.table
        rng = table.rng
        table.report.games += 1
        roll: Roll | None = None
        if resumed is None:
            truth = table.cube.new_game() if table.cube is not None else Game(table.rules)
            table.truth.append(truth)
            yield from self._setup()
        else:
            truth = resumed
            roll = yield from restart_scene(table, truth)
        speed = table.behaviour.speed
        while truth.opening is None:
            a = table.players[Colour.WHITE].opening(rng)
            b = table.players[Colour.BLACK].opening(rng)
            yield rng.uniform(0.3, 1.0) / speed
            yield from self._dice_gap()
            unseen = table.controller.phase is Phase.SETUP  # the board not yet seen set up
            table.throw(a, b)
            if unseen and a != b:
                yield OPENING_HEARD  # the board's answer: kept until it sees the setup, or refused
                waited = 0.0
                while table.controller.phase is Phase.SETUP and waited < NEXT_GAME_PATIENCE:
                    yield 0.1
                    waited += 0.1
                if table.controller.phase is Phase.OPENING:  # refused: thrown again, as the board asks
                    continue
            if truth.throw_opening(a, b) is not None:
                roll = truth.pending_roll
        while not truth.is_over:
            colour = truth.turn
            rush = False
            if roll is None and table.cube is not None:
                if colour in table.settings.computer:  # the computer doubles on the board by itself
                    yield from table.cube.follow_computer(truth)
                else:
                    yield from table.cube.before_roll(truth, colour)
                if truth.is_over:  # a double passed
                    break
            if roll is None:
                roll = table.players[colour].roll(rng)
                rush = table.hand.chance(table.behaviour.hover_throw_rate)
                yield rng.uniform(*table.behaviour.think) / speed
                yield from self._dice_gap()
                if rush:  # a hand over some points when the dice land; the player moves at once
                    table.sim.board.hover(rng.sample(LINES, rng.randint(1, 3)))
                table.throw(roll.first, roll.second)
                yield (0.05 if rush else 0.3) / speed
                if table.cube is not None and colour in table.settings.computer and table.controller.phase is Phase.CUBE_OFFERED:
                    table.sim.board.unhover()  # the computer doubled first: its dice thrown are void
                    yield from table.cube.follow_computer(truth)
                    roll = None
                    if truth.is_over:
                        break
                    continue
            position = truth.position
            plays = table.rules.legal_plays(position, roll)
            if not plays:
                table.sim.board.unhover()
                yield from table.hand.put_down_handed(colour)  # a checker handed over that cannot enter
                truth.play(roll, Play())
                roll = None
                continue
            if colour in table.settings.computer and table.partial is None:  # a person carries the computer's play
                table.sim.board.unhover()  # the hand over the board when the dice landed: away, to see the lights
                yield from table.hand.put_down_handed(colour)
                play = yield from table.follower.carry(position, roll)
                try:
                    truth.play(roll, play)
                except IllegalPlayError:
                    table.report.mismatches.append(f"the lights left {colour.value}'s {roll} unfinished after {play}")
                    break
                table.report.plays_made += 1
                roll = None
                continue
            roll = yield from self._hand_play(truth, colour, position, roll, plays, rush)
            if table.sim.clock.now() > GAME_TIME_LIMIT * len(table.truth):
                break
        if table.cube is not None:
            table.cube.game_over(truth)
        if truth.is_over:
            table.report.finished += 1
            yield from self._await_game_over()
        yield 1.0

    def _hand_play(self, truth: Game, colour: Colour, position: Position, roll: Roll, plays: tuple[Play, ...],
                   rush: bool) -> Generator[float, None, Roll | None]:
        """A player's own play made by hand (or the rest of one begun before a restart), the
        next player maybe throwing before it is done; returns that early roll, if any."""
        table = self.table
        rng = table.rng
        play, done = table.partial or (table.players[colour].choose(table.rules, position, roll, plays, rng), 0)
        table.partial = None
        thrown: list[Roll] = []

        def throw_next(nxt: Colour = colour.opponent, thrown: list[Roll] = thrown) -> None:
            """The next player throws while this play is still in the hand, unless the dice
            thrown for this turn are too fresh to have been read (``DICE_GAP``)."""
            if self._dice_left() > 0:
                return
            dice = table.players[nxt].roll(rng)
            thrown.append(dice)
            table.throw(dice.first, dice.second)

        early = table.behaviour.early_throw_rate > 0 and table.rules.result(table.rules.apply(position, play)) is None
        yield from table.hand.perform(position, roll, play, done, throw_next if early else None, rush)
        table.sim.board.unhover()
        truth.play(roll, play)
        table.report.plays_made += 1
        return thrown[0] if thrown else None

    def _await_game_over(self) -> Steps:
        """The players look for the winner's lights before anything else (a winning play that
        went past a blot is waited on a while by the board: the next game's Done must not fall
        into that wait)."""
        table = self.table
        waited = 0.0
        while table.controller.phase is not Phase.GAME_OVER and waited < NEXT_GAME_PATIENCE:
            yield 0.25
            waited += 0.25

