"""The engine's cube decisions (controller.engine.cube): clear positions, the take point, the
match equity table, Crawford and post-Crawford, and determinism."""

from __future__ import annotations

import pytest

from controller.engine import Engine, Evaluation
from controller.engine.cube import CubeAction, CubeState, cube_state, decide, offers, takes
from controller.engine.met import kazaross_xg2
from controller.rules import get_rule_set
from controller.rules.game import Match
from controller.rules.values import BLACK, WHITE, Position

RULES = get_rule_set("backgammon")


def plain(win: float, gammon: float = 0.0, lose_gammon: float = 0.0) -> Evaluation:
    """A cubeless evaluation with the given chances (no backgammons)."""
    return Evaluation(win, {2: gammon, 3: 0.0}, {2: lose_gammon, 3: 0.0}, 0.0)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(RULES, "intermediate")


def test_a_race_far_ahead_is_double_pass(engine: Engine) -> None:
    race = Position.from_counts({1: 4, 2: 4, 3: 4}, {6: 4, 5: 4, 4: 4}, turn=WHITE, white_off=3, black_off=3)
    decision = decide(engine.evaluate(race), CubeState())
    assert decision.action is CubeAction.DOUBLE_PASS
    assert not decision.takes


def test_the_opening_position_is_no_double(engine: Engine) -> None:
    decision = decide(engine.evaluate(RULES.start_position()), CubeState())
    assert decision.action is CubeAction.NO_DOUBLE
    assert decision.takes


def test_a_sure_gammon_is_too_good_to_double() -> None:
    decision = decide(plain(0.97, 0.8), CubeState())
    assert decision.action is CubeAction.TOO_GOOD
    assert not decision.doubles


def test_too_good_where_gnubg_says_too_good() -> None:
    """gnubg 1.07 (0 ply) calls this 'too good to double, pass': 81.4 % wins, 23.8 % gammons."""
    decision = decide(Evaluation(0.814, {2: 0.238, 3: 0.016}, {2: 0.022, 3: 0.0}, 0.0), CubeState())
    assert decision.action is CubeAction.TOO_GOOD and not decision.takes


def test_the_money_take_point_without_gammons_is_janowskis() -> None:
    """x = 0.68: the taker needs about 21.4 % (the doubler's 78.6 %)."""
    assert takes(plain(0.780), CubeState())
    assert takes(plain(0.785), CubeState())
    assert not takes(plain(0.790), CubeState())
    assert decide(plain(0.785), CubeState()).action is CubeAction.DOUBLE_TAKE


def test_the_doubling_point_without_gammons() -> None:
    assert not offers(plain(0.65), CubeState())
    assert offers(plain(0.72), CubeState())


def test_gammons_for_the_doubler_move_the_take_point() -> None:
    assert takes(plain(0.75), CubeState())
    assert not takes(plain(0.75, gammon=0.3), CubeState())


def test_no_double_when_the_opponent_owns_the_cube() -> None:
    assert decide(plain(0.9), CubeState(value=2, owner=False)).action is CubeAction.NO_CUBE


def test_the_cube_owner_may_redouble() -> None:
    assert offers(plain(0.76), CubeState(value=2, owner=True))


def test_the_crawford_game_never_doubles() -> None:
    for p in (0.3, 0.6, 0.8, 0.95):
        assert decide(plain(p), CubeState(away=(2, 1), crawford=True)).action is CubeAction.NO_CUBE


def test_after_crawford_the_trailer_doubles_at_once() -> None:
    cube = CubeState(away=(4, 1), post_crawford=True)
    assert decide(plain(0.3), cube).action is CubeAction.DOUBLE_TAKE
    assert decide(plain(0.5), cube).doubles


def test_the_post_crawford_free_drop() -> None:
    """At 2-away against 1-away after Crawford the leader passes when the trailer's chance
    beats the table's 48.8 % (a pass leaves 1-away each), else takes."""
    cube = CubeState(away=(2, 1), post_crawford=True)
    assert takes(plain(0.45), cube)
    assert not takes(plain(0.55), cube)


def test_match_play_doubles_and_takes_by_the_table() -> None:
    cube = CubeState(away=(5, 5))
    assert not offers(plain(0.6, 0.1, 0.05), cube)
    assert decide(plain(0.75, 0.1, 0.05), cube).action is CubeAction.DOUBLE_TAKE
    assert decide(plain(0.85, 0.1, 0.05), cube).action is CubeAction.DOUBLE_PASS


def test_a_one_point_match_never_doubles() -> None:
    for p in (0.5, 0.7, 0.9):
        assert not offers(plain(p, 0.2), CubeState(away=(1, 1)))


def test_the_table() -> None:
    met = kazaross_xg2()
    assert met.mwc(1, 1) == 0.5
    assert met.mwc(1, 2) == pytest.approx(0.67736)
    assert met.mwc(2, 1, post_crawford=True) == pytest.approx(0.48803)
    assert met.mwc(1, 2, post_crawford=True) == pytest.approx(1 - 0.48803)
    assert met.mwc(0, 3) == 1.0 and met.mwc(3, 0) == 0.0
    assert abs(met.mwc(26, 20) - met.mwc(25, 20)) < 0.04  # past the table: the fitted normal approximation
    assert met.mwc(40, 40) == pytest.approx(0.5)


def test_the_cube_state_of_a_match() -> None:
    match = Match(RULES, 3)
    assert cube_state(match.new_game(), match, WHITE) == CubeState(1, None, (3, 3))
    crawford = Match(RULES, 3, score={WHITE: 2, BLACK: 0})
    state = cube_state(crawford.new_game(), crawford, BLACK)
    assert state.crawford and state.away == (3, 1) and not state.post_crawford
    assert decide(plain(0.9), state).action is CubeAction.NO_CUBE
    after = Match(RULES, 3, score={WHITE: 2, BLACK: 1}, crawford_played=True)
    state = cube_state(after.new_game(), after, BLACK)
    assert state.post_crawford and not state.crawford and state.away == (2, 1)
    money = Match(RULES, 0)
    assert cube_state(money.new_game(), money, WHITE).away is None


def test_decisions_are_deterministic(engine: Engine) -> None:
    position = Position.from_counts({6: 3, 5: 3, 4: 3, 3: 3}, {6: 4, 5: 4, 4: 4}, turn=WHITE, white_off=3, black_off=3)
    first = decide(engine.evaluate(position), CubeState())
    assert all(decide(engine.evaluate(position), CubeState()) == first for _ in range(3))


def test_the_engines_cube_action_offers_then_answers(engine: Engine) -> None:
    from controller.engine.cube import cube_action

    match = Match(RULES, 0)
    game = match.new_game()
    game.throw_opening(3, 1)
    game.position = Position.from_counts({1: 4, 2: 4, 3: 4}, {6: 4, 5: 4, 4: 4}, turn=WHITE, white_off=3, black_off=3)
    assert cube_action(engine, game, match) == "double"
    game.cube(WHITE, "double")
    assert game.offered_by is WHITE
    assert cube_action(engine, game, match) == "drop"
    crawford = Match(RULES, 3, score={WHITE: 2, BLACK: 0})
    game = crawford.new_game()
    game.position = Position.from_counts({1: 4, 2: 4, 3: 4}, {6: 4, 5: 4, 4: 4}, turn=BLACK, white_off=3, black_off=3)
    assert cube_action(engine, game, crawford) == "no double"


def test_simulated_players_double_only_when_they_handle_the_cube() -> None:
    from simulator.engine_player import BuiltinPlayer
    from simulator.players import GreedyPlayer, offers_double, takes_double

    match = Match(RULES, 0)
    game = match.new_game()
    game.position = Position.from_counts({1: 4, 2: 4, 3: 4}, {6: 4, 5: 4, 4: 4}, turn=WHITE, white_off=3, black_off=3)
    assert not offers_double(GreedyPlayer(), game, match) and not offers_double(object(), game, match)
    assert offers_double(BuiltinPlayer("intermediate"), game, match)
    game.cube(WHITE, "double")
    assert takes_double(GreedyPlayer(), game, match) and takes_double(object(), game, match)
    assert not takes_double(BuiltinPlayer("intermediate"), game, match)
