"""A scripted person at a live simulated table: reads the published states (as a browser
does) and acts through the table's hand API (as the browser's drags do): throws, moves
checkers one lift and place at a time (the hit checker to the bar or pool first), presses
Done.  Tests use it to play whole games through ``simulator.live_table.LiveTable``."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.journal import Journal
from controller.machine import Controller, Output, Settings
from controller.notation.position_json import position_from_json
from controller.records.matfile import read_mat
from controller.records.replay import replay
from controller.rules.registry import get_rule_set
from controller.rules.geometry import Geometry
from controller.rules.values import Colour, Move, Play, Roll
from hal.interfaces import Button
from hal.zones import TRAY, WAITING, Checker
from simulator.live_table import LiveTable
from simulator.players import GreedyPlayer, RandomPlayer
from simulator.table import Table
from web.hub import Hub
from web.session import Publisher, live_sink
from web.view import StateView


def zone_of(geometry: Geometry, colour: Colour, point: int) -> str:
    """The zone of ``colour``'s own point (25: its bar or pool, 0: its tray)."""
    checker = Checker(colour.value)
    if point == 25:
        return WAITING[checker]
    if point == 0:
        return TRAY[checker]
    return geometry.line(colour, point)


def hand_steps(geometry: Geometry, colour: Colour, move: Move) -> list[tuple[str, str, Checker]]:
    """The lifts and places of one move: (``lift``/``place``, zone, colour)."""
    me, them = Checker(colour.value), Checker(colour.opponent.value)
    to = zone_of(geometry, colour, move.to)
    steps = [("lift", to, them), ("place", WAITING[them], them)] if move.hit else []
    return steps + [("lift", zone_of(geometry, colour, move.frm), me), ("place", to, me)]


def choose_play(state: dict[str, Any], rng: random.Random) -> tuple[Colour, Play] | None:
    """A random legal play for the state's turn and dice (None for a pass)."""
    rules, position = position_from_json(state["position"])
    plays = rules.legal_plays(position, Roll(*state["dice"]))
    if not plays or not plays[0]:
        return None
    return Colour(state["turn"]), rng.choice(plays)


def play_by_hand(table: Any, read: Callable[[], dict[str, Any]], geometry: Geometry, colours: set[str],
                 rng: random.Random, until: Callable[[], bool], pause: float = 0.01) -> int:
    """Play ``colours`` until ``until()``: returns the number of plays made."""
    done: tuple[Any, ...] | None = None
    plays = 0
    while not until():
        time.sleep(0.02)
        state = read()
        if not state:
            continue
        phase = state["phase"]
        key = (phase, state["turn"], tuple(state["dice"]), len(state["turns"]), state["score"]["game"])
        if phase == "opening":
            table.throw()
            time.sleep(0.3)
        elif key == done:
            continue
        elif phase == "await roll" and state["turn"] in colours:
            done = key
            table.throw()
        elif phase == "game over":
            done = key
            time.sleep(0.3)
            table.press(Button.DONE)
        elif phase == "moving" and state["turn"] in colours:
            done = key
            chosen = choose_play(state, rng)
            if chosen is None:
                continue
            colour, play = chosen
            for move in play:
                for kind, zone, checker in hand_steps(geometry, colour, move):
                    (table.lift if kind == "lift" else table.place)(zone, checker)
                    time.sleep(pause)
            plays += 1
            time.sleep(0.1)
            table.press(Button.DONE)
    return plays


class LiveSession:
    """A one-game match at a live table as ``trictrac run --web`` composes it: a controller
    with a journal and records in ``folder``, its states published to a hub, the table on
    the wall clock with ``people`` played from outside and a greedy player for the rest;
    the warnings given and the hand actions refused are kept."""

    def __init__(self, rules: str, people: set[Colour], folder: Path, seed: int, speed: float,
                 players: dict[str, str] | None = None, **more: Any) -> None:
        self.controller = Controller(Settings(get_rule_set(rules), match_length=1, **more))
        self.hub = Hub(web_sides=tuple(sorted(c.value for c in people)))
        self.publish = Publisher(self.hub, StateView(self.controller, players), hand=lambda: self.table.sim.board.hand)
        self.warnings: list[Output] = []
        self.errors: list[str] = []
        self.journal = Journal(folder / "journal.jsonl")
        self.records = folder / "records"
        self.table = Table(self.controller.settings, seed=seed, players=(RandomPlayer(), GreedyPlayer()),
                           controller=self.controller, observer=self._observe, journal=self.journal, records=self.records)
        self.live = LiveTable(self.table, frozenset(people), speed=speed, on_error=self.errors.append)
        self.hub.sink = live_sink(self.live)
        self.publish()
        self.thread = threading.Thread(target=self.live.run, kwargs={"until": self.over}, daemon=True)

    def _observe(self, out: Output) -> None:
        self.publish(out)
        if out.warning is not None:
            self.warnings.append(out)

    def over(self) -> bool:
        """The match has a winner."""
        return self.controller.match.winner() is not None

    def close(self) -> None:
        """Stop the table's loop and close the journal."""
        self.live.stop()
        self.thread.join(10)
        self.journal.close()

    def recorded_as_played(self) -> bool:
        """The match's one record replays to the controller's game, turn by turn, and its result."""
        game = self.controller.match.games[0]
        records = list(self.records.glob("*.mat"))
        if len(records) != 1:
            return False
        replayed = replay(read_mat(records[0].read_text())).games[0]
        return ([(t.colour, t.roll, t.after) for t in replayed.turns] == [(t.colour, t.roll, t.after) for t in game.turns()]
                and replayed.result == game.result())
