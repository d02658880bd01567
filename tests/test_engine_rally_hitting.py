"""The rally-hitting encoding's extra inputs (shots and contact on the shared track), and
weights of either input count accepted while the other rule sets keep the common 204."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from strategies import cases

from controller.engine import INPUTS, Engine, EngineError
from controller.engine.encoding import EXTRA_INPUTS, encode, inputs, swap
from controller.engine.network import Network
from controller.rules import WHITE, Position, get_rule_set, rule_set_names

RALLY_HITTING = get_rule_set("rally-hitting")


def _extra(position: Position) -> np.ndarray:
    return encode([RALLY_HITTING.board_key(position)], False, "rally-hitting")[0, INPUTS:]


@pytest.mark.parametrize("name", rule_set_names())
def test_only_rally_hitting_has_extra_inputs(name: str) -> None:
    assert inputs(name) == INPUTS + EXTRA_INPUTS.get(name, 0)
    assert (inputs(name) > INPUTS) == (name == "rally-hitting")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_the_extra_inputs_follow_the_common_ones_and_are_bounded(case) -> None:  # type: ignore[no-untyped-def]
    key = case.rules.board_key(case.position)
    keys = [key, swap(key, case.rules.MIRRORED)]
    common = encode(keys, case.rules.MIRRORED)
    own = encode(keys, case.rules.MIRRORED, case.rules.name)
    assert own.shape == (2, inputs(case.rules.name))
    assert np.array_equal(own[:, :INPUTS], common)
    assert np.isfinite(own).all() and (own[:, INPUTS:] >= 0).all() and (own[:, INPUTS:] <= 1).all()


def test_a_blot_four_pips_ahead_of_an_opponent_checker() -> None:
    # White's blot on 10, Black's checker on 14 (the same track): hit by any 4, 3-1, 2-2, 1-1
    position = Position.from_counts({10: 1, 3: 14}, {14: 1, 1: 14}, turn=WHITE, white_bar=0, black_bar=0)
    exposed_chance, exposed_cost, exposed_contact, threat_chance, threat_cost, threat_contact = _extra(position)
    assert exposed_chance == pytest.approx(15 / 36)
    assert exposed_cost == pytest.approx(15 / 36 * 15 / 24)  # a hit on 10 sends back 15 pips
    assert exposed_contact == 1.0 and threat_contact == 1.0
    assert threat_chance == 0.0 and threat_cost == 0.0  # White has nothing behind Black's blot


def test_the_pool_shoots_at_blots_in_the_start_quarter() -> None:
    position = Position.from_counts({22: 1, 3: 14}, {1: 14}, turn=WHITE, white_bar=0, black_bar=1)
    assert _extra(position)[0] == pytest.approx(14 / 36)  # entering with a 3, or 1-2, or 1-1


def test_contact_only_for_the_side_with_checkers_behind_it() -> None:
    # Black (19, 20) is behind all of White (1, 2): White's blot on 2 is hit only by 6-6 from
    # 20; White has nothing behind Black, so Black's side shows no shots and no contact
    position = Position.from_counts({2: 1, 1: 14}, {20: 1, 19: 14}, turn=WHITE, white_bar=0, black_bar=0)
    extra = _extra(position)
    assert extra[0] == pytest.approx(1 / 36) and extra[2] == 1.0
    assert list(extra[3:]) == [0.0, 0.0, 0.0]


def test_rally_hitting_takes_weights_of_either_input_count() -> None:
    rng = np.random.default_rng(0)
    position = RALLY_HITTING.start_position()
    for size in (INPUTS, inputs("rally-hitting")):
        engine = Engine(RALLY_HITTING, "intermediate", Network.initial(size, 8, 3, rng))
        assert 0.0 <= engine.evaluate(position).win <= 1.0
    with pytest.raises(EngineError):
        Engine(RALLY_HITTING, "intermediate", Network.initial(INPUTS + 1, 8, 3, rng))
    with pytest.raises(EngineError):
        Engine(get_rule_set("rally"), "intermediate", Network.initial(inputs("rally-hitting"), 8, 3, rng))
