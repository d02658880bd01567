"""The simulated board on the wall clock, played by hand from another thread (as the browser
does): whole games end with the record the controller journalled, no false warning."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from controller.machine import Controller, Settings
from controller.rules.registry import get_rule_set
from controller.rules.values import Colour
from hal.zones import Checker
from simulator.live_table import LiveTable
from simulator.table import Table

from web_person import LiveSession, play_by_hand

SPEED = 40.0
"""Virtual seconds per real second: fast, yet a hand's lift and place stay well within the grace time."""


@pytest.mark.parametrize("rules,people", [
    ("trictrac", {Colour.WHITE}),
    ("rally-hitting", {Colour.BLACK}),
    ("backgammon", {Colour.WHITE, Colour.BLACK}),
])
def test_a_whole_game_by_hand_is_recorded_as_played(rules: str, people: set[Colour], tmp_path: Path) -> None:
    session = LiveSession(rules, people, tmp_path, seed=5, speed=SPEED)
    session.thread.start()
    deadline = time.monotonic() + 240
    try:
        plays = play_by_hand(session.live, session.hub.state, session.controller.reader.geometry,
                             {c.value for c in people}, random.Random(5),
                             lambda: not session.thread.is_alive() or time.monotonic() > deadline)
    finally:
        session.close()
    assert session.over(), session.controller.message
    assert plays > 5
    assert not session.warnings, [(w.warning, w.frame.message) for w in session.warnings]
    assert not session.errors
    assert session.recorded_as_played()


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
