"""The built-in engine: legal plays only, deterministic under a seed, sound encodings and
evaluations, shipped weights with their training record, and ``simulate --white builtin``.

Behaviour only: strength is measured by ``benchmarks/strength.py``, never asserted here.
"""

from __future__ import annotations

import io
import json
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from strategies import cases, random_game

from controller.cli import main
from controller.engine import DEFAULT_LEVEL, ENGINE_LEVELS, INPUTS, Engine, EngineError, encode, shipped
from controller.engine.encoding import LEVELS, inputs, swap
from controller.rules import Play, Roll, get_rule_set, rule_set_names
from simulator.engine_player import BuiltinPlayer, strategy

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(cases())
def test_every_level_picks_a_legal_play(case) -> None:  # type: ignore[no-untyped-def]
    legal = case.rules.legal_plays(case.position, case.roll)
    for level in ("beginner", "intermediate"):
        play = Engine(case.rules, level).choose(case.position, case.roll, legal, random.Random(3))
        if legal:
            assert play in legal
        else:
            assert play == Play()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_the_best_level_picks_a_legal_play_among_the_plays_it_is_given(case) -> None:  # type: ignore[no-untyped-def]
    legal = case.rules.legal_plays(case.position, case.roll)
    play = Engine(case.rules, "best").choose(case.position, case.roll, None, random.Random(3))
    assert (play in legal) if legal else play == Play()


@FAST
@given(cases())
def test_the_encoding_has_a_fixed_length_and_no_nan(case) -> None:  # type: ignore[no-untyped-def]
    key = case.rules.board_key(case.position)
    features = encode([key, swap(key, case.rules.MIRRORED)], case.rules.MIRRORED)
    assert features.shape == (2, INPUTS)
    assert np.isfinite(features).all()


@FAST
@given(cases())
def test_evaluations_are_probabilities_and_bounded_equities(case) -> None:  # type: ignore[no-untyped-def]
    evaluation = Engine(case.rules, "intermediate").evaluate(case.position)
    chances = [evaluation.win, *evaluation.wins_at_least.values(), *evaluation.losses_at_least.values()]
    assert all(0.0 <= p <= 1.0 for p in chances)
    top = max(LEVELS[case.rules.name])
    assert -top - 1e-6 <= evaluation.equity <= top + 1e-6


@pytest.mark.parametrize("name", rule_set_names())
def test_beginner_choices_repeat_under_the_same_seed(name: str) -> None:
    rules = get_rule_set(name)
    engine = Engine(rules, "beginner")
    for ply in random_game(rules, 4)[5:60:5]:
        plays = rules.legal_plays(ply.before, ply.roll)
        first = engine.choose(ply.before, ply.roll, plays, random.Random(11))
        again = engine.choose(ply.before, ply.roll, plays, random.Random(11))
        assert first == again


@pytest.mark.parametrize("name", rule_set_names())
def test_the_shipped_weights_load_with_their_training_record(name: str) -> None:
    net, meta = shipped(name)
    assert meta["rules"] == name
    assert meta["games"] > 0 and meta["cpu_seconds"] > 0
    assert isinstance(meta["seed"], int)
    assert meta["settings"]["inputs"] == net.shape[0] == inputs(name)  # INPUTS, rally-hitting a few more
    assert net.shape[2] == 1 + 2 * len(LEVELS[name])


@pytest.mark.parametrize("name", rule_set_names())
def test_a_middle_game_decision_at_the_default_level(name: str) -> None:
    rules = get_rule_set(name)
    plies = random_game(rules, 7)
    ply = next(p for p in plies[len(plies) // 3:] if len(rules.legal_plays(p.before, p.roll)) > 3)
    play = Engine(rules).choose(ply.before, ply.roll)
    assert play in rules.legal_plays(ply.before, ply.roll)
    assert Engine(rules).level == DEFAULT_LEVEL in ENGINE_LEVELS


def test_unknown_levels_and_players_are_refused() -> None:
    with pytest.raises(EngineError):
        Engine(get_rule_set("trictrac"), "grandmaster")
    with pytest.raises(ValueError):
        strategy("builtin:grandmaster")
    with pytest.raises(ValueError):
        strategy("gnubg:9")
    assert isinstance(strategy("builtin"), BuiltinPlayer)
    assert strategy("greedy").name == "greedy"


def test_the_builtin_player_plays_the_engine_choice() -> None:
    rules = get_rule_set("rally-hitting")
    ply = random_game(rules, 2)[30]
    plays = rules.legal_plays(ply.before, ply.roll)
    chosen = BuiltinPlayer("intermediate").choose(rules, ply.before, ply.roll, plays, random.Random(1))
    assert chosen == Engine(rules, "intermediate").choose(ply.before, ply.roll, plays)


def test_simulate_reports_the_winners_of_builtin_against_greedy() -> None:
    out = io.StringIO()
    code = main(["simulate", "--white", "builtin", "--black", "greedy", "--games", "2", "--json"],
                out=out, stdin=io.StringIO())
    report = json.loads(out.getvalue())
    assert code == 0
    assert report["players"] == {"white": "builtin:best", "black": "greedy"}
    assert sum(report["wins"].values()) == 2
    assert report["points"]["white"] + report["points"]["black"] >= 2
    assert not math.isnan(report["cpu_per_snapshot"]["median_ms"])


def test_simulate_refuses_an_unknown_player() -> None:
    out = io.StringIO()
    code = main(["simulate", "--white", "chess-engine", "--games", "1"], out=out, stdin=io.StringIO())
    assert code == 2
