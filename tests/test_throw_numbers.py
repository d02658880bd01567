"""The board's throw numbers reach the journal, so a controller restarted while the board
still repeats a throw it had already taken (the DICE_ACK lost with the dying process) does
not take that throw for a new roll; a new throw, even with the same numbers, is one."""

from __future__ import annotations

from controller.machine import Controller, Phase, Settings
from controller.rules import get_rule_set
from hal.interfaces import BoardSnapshot, DiceEvent, DiceKind, SnapshotEvent, ZoneReading
from hal.zones import ZONES
from scenario_kit import zones_of


def start_board(controller: Controller) -> SnapshotEvent:
    counts = zones_of(controller, controller.game.position)
    zones = tuple(ZoneReading(*counts.get(zone, (0, 0))) for zone in ZONES)
    return SnapshotEvent(0.0, BoardSnapshot(zones))


def test_a_throw_repeated_after_a_restart_is_not_a_new_roll() -> None:
    settings = Settings(get_rule_set("trictrac"))
    first = Controller(settings)
    journal = list(first.begin(0.0).journal)
    journal += first.handle(start_board(first)).journal
    assert first.phase is Phase.OPENING
    out = first.handle(DiceEvent(1.0, (5, 2), DiceKind.TRAY, throw=40001))
    journal += out.journal
    opening = [e for e in journal if e["type"] == "opening"]
    assert opening and opening[0]["throw"] == 40001, "the throw number is journalled with the roll"
    assert first.turn_in_progress is not None

    # the process dies; the board never got the DICE_ACK and repeats throw 40001
    again = Controller(settings)
    again.resume(journal)
    repeat = again.handle(DiceEvent(5.0, (5, 2), DiceKind.TRAY, throw=40001))
    assert not repeat.journal and "taken before" in repeat.log[0]
    assert again.turn_in_progress == first.turn_in_progress


def test_a_new_throw_with_the_same_numbers_is_a_new_roll() -> None:
    controller = Controller(Settings(get_rule_set("trictrac")))
    controller.begin(0.0)
    controller.handle(start_board(controller))
    controller.handle(DiceEvent(1.0, (5, 2), DiceKind.TRAY, throw=7))
    assert controller.turn_in_progress is not None
    out = controller.handle(DiceEvent(2.0, (5, 2), DiceKind.TRAY, throw=8))
    assert "taken before" not in " ".join(out.log)
