"""The state machine you can read: the transition table is the truth (an undeclared change
raises), each phase value holds only its own data, and docs/state-machine.md is what
``python -m controller.diagram`` generates from the table now."""

from __future__ import annotations

import dataclasses

import pytest

from controller import diagram
from controller.machine import Controller, Phase, Settings
from controller.phases import AwaitRoll, GameOver, Moving, Opening, Restore, Setup
from controller.rules import get_rule_set
from controller.transitions import TRANSITIONS, Trigger, UndeclaredTransition, check


def test_the_committed_diagram_is_generated_from_the_table() -> None:
    assert diagram.DOC.read_text(encoding="utf-8") == diagram.document(), (
        "docs/state-machine.md is out of date: run python -m controller.diagram"
    )


def test_every_phase_and_trigger_appears_in_the_table() -> None:
    assert {t.source for t in TRANSITIONS} | {t.target for t in TRANSITIONS} == set(Phase)
    assert {t.trigger for t in TRANSITIONS} == set(Trigger)
    assert len(set(TRANSITIONS)) == len(TRANSITIONS), "a row is declared twice"


def test_an_undeclared_change_raises() -> None:
    check(Phase.SETUP, Trigger.BOARD_SET_UP, Phase.OPENING)
    with pytest.raises(UndeclaredTransition, match="setup -> moving"):
        check(Phase.SETUP, Trigger.ROLL, Phase.MOVING)
    controller = Controller(Settings(get_rule_set("trictrac")))
    with pytest.raises(UndeclaredTransition):
        controller._go(Trigger.WINNING_PLAY, GameOver())
    assert controller.phase is Phase.SETUP


@pytest.mark.parametrize("kind", [Setup, Opening, AwaitRoll, Moving, Restore, GameOver])
def test_phase_values_are_immutable_and_name_their_phase(kind: type) -> None:
    assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert isinstance(kind.kind, Phase)


def test_the_controller_reports_the_phase_of_its_value() -> None:
    controller = Controller(Settings(get_rule_set("trictrac")))
    assert controller.phase is Phase.SETUP and controller.turn_in_progress is None
