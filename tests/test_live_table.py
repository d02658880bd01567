"""The simulated board on the wall clock, played by hand from another thread (as the browser
does): whole games end with the record the controller journalled, no false warning."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from controller.journal import Journal
from controller.machine import Controller, Output, Settings
from controller.records.matfile import read_mat
from controller.records.replay import replay
from controller.rules.registry import get_rule_set
from controller.rules.values import Colour
from hal.zones import Checker
from simulator.live_table import LiveTable
from simulator.players import GreedyPlayer, RandomPlayer
from simulator.table import Table
from web.hub import Hub
from web.session import Publisher
from web.view import StateView

from web_person import play_by_hand

SPEED = 25.0
"""Virtual seconds per real second: fast, yet a hand's lift and place stay well within the grace time."""


def live_game(rules: str, people: set[Colour], tmp_path: Path, seed: int) -> tuple[Controller, Table, list[Output], int, list[str]]:
    """One game at a live table; the person plays ``people``, a greedy player the rest."""
    controller = Controller(Settings(get_rule_set(rules), match_length=1))
    hub = Hub()
    holder: dict[str, Table] = {}
    publish = Publisher(hub, StateView(controller), hand=lambda: holder["t"].sim.board.hand)
    warnings: list[Output] = []

    def observe(out: Output) -> None:
        publish(out)
        if out.warning is not None:
            warnings.append(out)

    journal = Journal(tmp_path / "journal.jsonl")
    table = holder["t"] = Table(controller.settings, seed=seed, players=(RandomPlayer(), GreedyPlayer()),
                                controller=controller, observer=observe, journal=journal, records=tmp_path / "records")
    errors: list[str] = []
    live = LiveTable(table, frozenset(people), speed=SPEED, on_error=errors.append)
    over = threading.Event()
    thread = threading.Thread(target=live.run, kwargs={"until": lambda: controller.match.winner() is not None or over.is_set()})
    thread.start()
    deadline = time.monotonic() + 240
    try:
        plays = play_by_hand(live, hub.state, controller.reader.geometry, {c.value for c in people}, random.Random(seed),
                             lambda: not thread.is_alive() or time.monotonic() > deadline)
    finally:
        over.set()
        thread.join(10)
        journal.close()
    return controller, table, warnings, plays, errors


@pytest.mark.parametrize("rules,people", [
    ("trictrac", {Colour.WHITE}),
    ("rally-hitting", {Colour.BLACK}),
    ("backgammon", {Colour.WHITE, Colour.BLACK}),
])
def test_a_whole_game_by_hand_is_recorded_as_played(rules: str, people: set[Colour], tmp_path: Path) -> None:
    controller, table, warnings, plays, errors = live_game(rules, people, tmp_path, seed=5)
    assert controller.match.winner() is not None, controller.message
    assert plays > 5
    assert not warnings, [(w.warning, w.frame.message) for w in warnings]
    assert not errors
    game = controller.match.games[0]
    records = list((tmp_path / "records").glob("*.mat"))
    assert len(records) == 1
    replayed = replay(read_mat(records[0].read_text())).games[0]
    assert [(t.colour, t.roll, t.after) for t in replayed.turns] == [(t.colour, t.roll, t.after) for t in game.turns()]
    assert replayed.result == game.result()


def test_a_hand_action_the_board_cannot_take_is_reported_not_fatal(tmp_path: Path) -> None:
    controller = Controller(Settings(get_rule_set("trictrac")))
    table = Table(controller.settings, seed=1, controller=controller)
    errors: list[str] = []
    live = LiveTable(table, frozenset({Colour.WHITE}), speed=SPEED, on_error=errors.append)
    thread = threading.Thread(target=live.run)
    thread.start()
    live.lift("5", Checker.WHITE)  # the board is empty at the start
    live.place("5", Checker.BLACK)  # no black checker in the hand
    time.sleep(0.3)
    live.stop()
    thread.join(5)
    assert not thread.is_alive()
    assert len(errors) == 2 and "cannot lift" in errors[0] and "cannot place" in errors[1]
