"""A simulated table restarted on a journal: the match as the journal holds it, and the
board and tray as the players left them while the controller was down.

A real board goes on while the Pi restarts: a play begun or made, the next roll thrown.
``restart_scene`` does the same at random (seeded), so the resumed controller meets every
board a legal continuation may show, and reports the tray as a real device does after a
restart.  The table's truth continues the journal's games, so its comparison of plays made
and recorded stays exact across restarts.
"""

from __future__ import annotations

import random
from typing import Generator, Protocol

from controller.machine import Controller
from controller.resume import replayed_game, same_roll
from controller.rules.base import RuleSet
from controller.rules.game import Game
from controller.rules.values import Colour, Play, Position, Roll

from .hardware import SimulatedHardware
from .players import Strategy


class _Ledger(Protocol):
    plays_made: int


class Table(Protocol):
    """What a restart needs of the simulated table (``simulator.table.Table``), named here so
    this module does not import the table that imports it."""

    rules: RuleSet
    controller: Controller
    sim: SimulatedHardware
    players: dict[Colour, Strategy]
    restart_moves: bool
    truth: list[Game]
    replayed: list[int]
    partial: tuple[Play, int] | None

    @property
    def report(self) -> _Ledger: ...

    def throw(self, a: int, b: int) -> None: ...


def resume_truth(table: Table) -> Game:
    """The truth of a resumed match: its games as the journal holds them; the game in play."""
    table.truth = [replayed_game(table.rules, game) for game in table.controller.match.games]
    table.replayed = [len([t for t in game.turns() if t.play]) for game in table.truth]
    return table.truth[-1]


def put(table: Table, position: Position) -> None:
    """Put ``position`` on the physical board at once (the hand empty)."""
    snapshot = table.controller.reader.snapshot_of(position)
    table.sim.board.set_zones({z: (r.white, r.black) for z, r in snapshot.as_dict().items() if r})


def restart_scene(table: Table, truth: Game) -> Generator[float, None, Roll | None]:
    """The board and tray as the players left them while the controller was down (maybe
    a play begun or made, maybe the next roll thrown), the tray reported as a real
    device reports it after a restart; returns the roll in play."""
    point = table.controller.resume_point
    assert point is not None
    pending = point.pending if truth.opening is not None else None
    roll, tray = pending, pending or point.last_dice
    rng = table.sim.rng("restart")
    activity = rng.choice(("none", "part", "whole", "next")) if table.restart_moves and truth.opening else "none"
    board = truth.position
    if activity != "none":
        if roll is None:  # the player to move threw since the last journalled turn
            roll = tray = _fresh_throw(table, truth, point.last_dice, rng)
        plays = table.rules.legal_plays(truth.position, roll)
        if plays:
            play = table.players[truth.turn].choose(table.rules, truth.position, roll, plays, rng)
            done = len(play) if activity != "part" or len(play) < 2 else rng.randrange(1, len(play))
            for move in play.moves[:done]:
                board = table.rules.apply(board, Play((move,))).with_turn(board.turn)
            if done < len(play):
                table.partial = (play, done)
            else:
                truth.play(roll, play)
                table.report.plays_made += 1
                board, roll = truth.position, None
                if activity == "next" and not truth.is_over:
                    roll = tray = table.players[truth.turn].roll(rng)
    put(table, board if truth.opening is not None else table.rules.start_position())
    yield 0.3
    if tray is not None:
        table.throw(tray.first, tray.second)
        yield 0.3
    return roll


def _fresh_throw(table: Table, truth: Game, last: Roll | None, rng: random.Random) -> Roll:
    """A throw made during the restart.  One throw is left out: the journal's last numbers
    again with no legal play.  The board does not change and the tray looks as before, so
    nothing can tell it from the old roll still lying there (the controller takes it for
    that); the players would have to throw again for the board to follow."""
    while True:
        roll = table.players[truth.turn].roll(rng)
        if last is None or not same_roll(roll, last) or table.rules.legal_plays(truth.position, roll):
            return roll
