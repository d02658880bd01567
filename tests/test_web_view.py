"""The state a page shows, built from a real controller over simulated games: it says what
the controller and the sensors say, and it is what docs/web.md promises."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from controller.machine import Controller, Output, Settings
from controller.notation.gnubg_id import position_id_decode
from controller.notation.moves import format_play
from controller.notation.position_json import position_from_json
from controller.notation.xgid import xgid_decode
from controller.rules.registry import get_rule_set
from controller.rules.values import Colour
from hal.interfaces import DARK
from hal.zones import ZONES
from simulator.players import Behaviour
from simulator.table import Table
from web.view import StateView

RULE_SETS = ("trictrac", "backgammon", "rally", "rally-hitting")


def check(state: dict, controller: Controller, output: Output) -> None:
    """Every field of ``state`` against the controller it was built from."""
    rules = controller.settings.rules
    json.dumps(state)  # plain JSON
    assert state["rules"] == rules.name
    assert position_from_json(state["position"])[1] == controller.game.position
    snapshot = controller.snapshot
    if snapshot is not None:
        assert state["zones"] == [None if r is None else [r.white, r.black] for r in snapshot.readings]
    assert len(state["zones"]) == len(state["lights"]) == len(state["zone_names"]) == 28
    assert state["zone_names"] == list(ZONES)
    for zone, light in zip(ZONES, state["lights"]):
        shown = output.frame.light(zone)
        assert light == (None if shown == DARK else {"colour": shown.colour.value, "mode": shown.mode.value})
    assert state["message"] == output.frame.message
    moving = controller.turn_in_progress
    assert state["dice"] == ([] if moving is None else [moving[1].first, moving[1].second])
    assert state["phase"] == controller.phase.value
    assert (state["warning"] is not None) == controller.warning
    game = controller.game
    assert [t["play"] for t in state["turns"]] == [format_play(t.play, rules) for t in game.turns()]
    assert state["pips"] == {c.value: game.position.pip_count(c) for c in Colour}
    score = controller.match.score
    assert (state["score"]["white"], state["score"]["black"]) == tuple(score.values())
    owner, offered = game.cube_owner, game.offered_by
    assert state["cube"] == {"value": game.cube_value, "owner": owner.value if owner else None,
                             "offered_by": offered.value if offered else None}
    if rules.MIRRORED:
        record = xgid_decode(state["xgid"], rules)
        assert record.position == game.position
        assert position_id_decode(state["position_id"], game.position.turn, rules) == game.position
    else:
        assert state["xgid"] is None and state["position_id"] is None


@pytest.mark.parametrize("rules", RULE_SETS)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_every_state_of_a_game_says_what_the_controller_says(rules: str, seed: int) -> None:
    controller = Controller(Settings(get_rule_set(rules)))
    view = StateView(controller)
    seen = {"states": 0, "warnings": 0}

    def observe(output: Output) -> None:
        state = view.state(output)
        check(state, controller, output)
        seen["states"] += 1
        seen["warnings"] += state["warning"] is not None

    table = Table(controller.settings, seed=seed, controller=controller, observer=observe,
                  behaviour=Behaviour(illegal_rate=0.5))
    table.play_match()
    assert seen["states"] > 50
    assert controller.match.winner() is not None


def test_a_warning_keeps_its_reason_until_the_board_is_right_again() -> None:
    controller = Controller(Settings(get_rule_set("trictrac")))
    view = StateView(controller)
    reasons: list[tuple[str | None, bool]] = []

    def observe(output: Output) -> None:
        state = view.state(output)
        reasons.append((state["warning"]["reason"] if state["warning"] else None, output.warning is not None))

    Table(controller.settings, seed=3, controller=controller, observer=observe,
          behaviour=Behaviour(illegal_rate=1.0)).play_match()
    warned = [reason for reason, began in reasons if reason is not None]
    assert warned and set(warned) <= {"illegal", "fault", "more to play"}
    # a warning that goes on after the output that began it keeps the reason that output gave
    assert any(reason is not None and not began for reason, began in reasons)
