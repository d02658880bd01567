"""Work done while no event waits (``controller.idle``): the next turn's maps, built before
the roll, serve the roll exactly as maps built at it would; the collector's young
generation is collected then, not inside an event."""

from __future__ import annotations

import gc
from types import SimpleNamespace
from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, settings

from controller import collector
from controller.idle import work_while_idle
from controller.machine import Controller, Settings
from controller.phases import Phase
from controller.rules import Roll, TurnMap, get_rule_set
from controller.rules import turn as turn_module
from controller.rules.turn import ROLLS_AHEAD, build_ahead, find_play_ahead, turn_map
from hal.interfaces import DiceEvent
from simulator.table import simulate

try:  # pytest puts tests/ on the path (rootdir without __init__.py) ...
    from strategies import cases, rolls
except ImportError:  # ... or the repository root, when tests/ is a package
    from tests.strategies import cases, rolls  # type: ignore[no-redef]

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(autouse=True)
def fresh_maps(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts with no map kept or built ahead."""
    monkeypatch.setattr(turn_module, "_recent", {})
    monkeypatch.setattr(turn_module, "_ahead", {})
    yield


def same_map(got: TurnMap, fresh: TurnMap) -> None:
    """Two maps of one turn answer alike: states, finals, plays, and moves on the way."""
    assert got.roll == fresh.roll
    assert got.states() == fresh.states()
    assert (got.dice_to_use, got.passes) == (fresh.dice_to_use, fresh.passes)
    finals = [key for key in fresh.states() if fresh.is_complete(key)]
    assert [key for key in got.states() if got.is_complete(key)] == finals
    assert got.plays() == fresh.plays()
    for key in finals[:: max(1, len(finals) // 20)]:
        play = got.play_to(key)
        assert play == fresh.play_to(key) and got.end_of(play) == key
    for key in fresh.states()[:: max(1, len(fresh.states()) // 20)]:
        assert got.next_moves(key) == fresh.next_moves(key)
        assert got.remaining_dice(key) == fresh.remaining_dice(key)


@SETTINGS
@given(cases(), rolls())
def test_a_map_for_the_dice_thrown_the_other_way_is_that_rolls_map(case, roll: Roll) -> None:
    rules, position, _ = case
    other = Roll(roll.second, roll.first)
    built = TurnMap(rules, position, roll)
    built.plays()  # its own plays found first: the copy must find its own
    same_map(built.for_roll(other), TurnMap(rules, position, other))
    assert built.for_roll(roll) is built


def test_for_roll_refuses_other_dice() -> None:
    rules = get_rule_set("trictrac")
    with pytest.raises(ValueError):
        TurnMap(rules, rules.start_position(), Roll(5, 2)).for_roll(Roll(5, 3))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_maps_built_ahead_serve_every_roll(case) -> None:
    """``build_ahead`` builds one map a call, every roll once (high die first), then says
    it is done; ``turn_map`` serves them for the dice in either order."""
    rules, position, _ = case
    calls = 0
    while build_ahead(rules, position):
        calls += 1
    assert calls == len(ROLLS_AHEAD) == 21 and not build_ahead(rules, position)
    built = turn_module._ahead[position]
    for first in range(1, 7):
        for second in range(1, 7):
            roll = Roll(first, second)
            turn_module._ahead[position] = built
            turn_module._recent.clear()
            kept = built[1][roll.high, roll.low]
            got = turn_map(rules, position, roll)
            assert got is kept if roll == kept.roll else got.roll == roll
            same_map(got, TurnMap(rules, position, roll))


def test_maps_built_ahead_serve_only_their_rules() -> None:
    rally, hitting = get_rule_set("rally"), get_rule_set("rally-hitting")
    start = rally.start_position()
    while build_ahead(rally, start):
        pass
    built = turn_module._ahead[start]
    other = turn_map(hitting, start, Roll(6, 6))
    assert other.rules is hitting and other is not built[1][6, 6]
    assert turn_module._ahead[start] is built  # still there for its own rules
    assert turn_map(rally, start, Roll(5, 2)) is built[1][5, 2]


def test_maps_built_ahead_are_kept_for_the_last_positions_only() -> None:
    rules = get_rule_set("backgammon")
    start = rules.start_position()
    opening = TurnMap(rules, start, Roll(3, 1))
    after = rules.position_after(next(k for k in opening.states() if opening.is_complete(k)), start.turn)
    positions = [start, start.with_turn(start.turn.opponent), after]
    for position in positions:
        build_ahead(rules, position)
    assert list(turn_module._ahead) == positions[-turn_module.AHEAD_POSITIONS:]


def test_the_play_shown_complete_is_found_while_idle() -> None:
    """``find_play_ahead`` finds the play to a complete board in the kept map of its turn,
    which keeps it for the roll's ``play_to``; a turn whose map is not kept is left alone."""
    rules = get_rule_set("trictrac")
    start, roll = rules.start_position(), Roll(4, 4)
    kept = turn_map(rules, start, roll)
    key = [k for k in kept.states() if kept.is_complete(k)][-1]
    find_play_ahead(rules, start, roll, key)
    assert kept._paths is not None and key in kept._paths._one
    assert kept.play_to(key) is kept._paths._one[key]
    assert kept.play_to(key) == TurnMap(rules, start, roll).play_to(key)
    find_play_ahead(rules, start, Roll(2, 1), key)
    assert (start, Roll(2, 1)) not in turn_module._recent


def test_idle_work_gives_way_to_a_waiting_event() -> None:
    """With an event waiting nothing is done; otherwise one map a time, until one comes."""
    rules = get_rule_set("backgammon")
    position = rules.start_position()
    awaiting = SimpleNamespace(phase=Phase.AWAIT_ROLL, game=SimpleNamespace(position=position),
                               settings=SimpleNamespace(rules=rules))
    work_while_idle(awaiting, lambda: True)  # type: ignore[arg-type]
    assert position not in turn_module._ahead
    answers = iter([False, False, False, True])  # idle, a map, a map, an event
    work_while_idle(awaiting, lambda: next(answers))  # type: ignore[arg-type]
    assert list(turn_module._ahead[position][1]) == [(6, 6), (5, 5)]
    work_while_idle(awaiting, lambda: False)  # type: ignore[arg-type]
    assert len(turn_module._ahead[position][1]) == len(ROLLS_AHEAD)


def test_simulated_rolls_take_the_maps_built_while_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through ``simulate(ahead=True)`` (its pump works while idle, as the runner's loop
    does), the roll events themselves build almost no map: the board showed the play before
    the roll.  Without it (the default: as fast as possible, no idle time) the rolls build
    them, and the games are the same."""
    built = {"rolls": 0, "in rolls": 0}
    inside = [False]
    make, handle = TurnMap.__init__, Controller.handle

    def counting_init(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        built["in rolls"] += inside[0]
        make(self, *args, **kwargs)

    def timed_handle(self, event):  # type: ignore[no-untyped-def]
        inside[0] = isinstance(event, DiceEvent)
        built["rolls"] += inside[0]
        try:
            return handle(self, event)
        finally:
            inside[0] = False

    monkeypatch.setattr(TurnMap, "__init__", counting_init)
    monkeypatch.setattr(Controller, "handle", timed_handle)
    report = simulate(Settings(get_rule_set("rally-hitting")), 2, seed=5, noise=0.5, illegal_rate=0.2, ahead=True)
    assert not report.mismatches
    assert built["rolls"] > 100 and built["in rolls"] <= built["rolls"] // 20
    built.update({"rolls": 0, "in rolls": 0})
    monkeypatch.setattr(turn_module, "_recent", {})
    monkeypatch.setattr(turn_module, "_ahead", {})
    plain = simulate(Settings(get_rule_set("rally-hitting")), 2, seed=5, noise=0.5, illegal_rate=0.2)
    assert built["in rolls"] > built["rolls"] // 2
    assert (plain.plays_made, plain.illegal_attempts, plain.attempts_warned, plain.wins) == (
        report.plays_made, report.illegal_attempts, report.attempts_warned, report.wins)


def test_collect_young_collects_as_the_default_threshold_would() -> None:
    """After ``settle_after_startup`` the automatic young collections wait for
    ``YOUNG_LIMIT`` new objects; ``collect_young`` collects once ``YOUNG`` are new."""
    before = gc.get_threshold()
    try:
        collector.settle_after_startup()
        assert gc.get_threshold()[0] == collector.YOUNG_LIMIT
        gc.collect()
        assert collector.collect_young() == -1  # hardly anything new
        kept = [[] for _ in range(collector.YOUNG)]
        assert collector.collect_young() in (0, 1, 2)
        assert gc.get_count()[0] < collector.YOUNG
        del kept
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
