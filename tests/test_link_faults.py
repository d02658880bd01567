"""Fault injection on the serial path (``simulator/faults.py``): every fault class of the
catalogue at least once, both directions, in lock-step on the virtual clock over the four
rule sets, and one short real-time game with a few faults (``simulator/live_faults.py``).
Each run must finish its match with every play recorded as made, every illegal attempt the
board could see warned and no false warning.  Deterministic by seed; nothing asserts on time.

The full campaign with figures is ``benchmarks/link_faults.py``.
"""

from __future__ import annotations

import random

import pytest

from simulator.faults import RULES, FRAME_KINDS, Fault, catalogue, copy_fault, run_lockstep, spread

GROUPS = 8
"""The catalogue is dealt over this many matches (about ten faults each)."""


def _groups() -> list[list[Fault]]:
    faults = catalogue()
    random.Random(7).shuffle(faults)
    return [faults[i::GROUPS] for i in range(GROUPS)]


def test_the_groups_cover_every_class_both_ways_and_every_message_type():
    dealt = [fault for group in _groups() for fault in group]
    assert sorted(f.name for f in dealt) == sorted(f.name for f in catalogue())
    frame = [f for f in dealt if f.kind in FRAME_KINDS]
    assert {f.direction for f in frame} == {"up", "down"}
    assert {"DICE", "LAST_SNAPSHOT", "SNAPSHOT", "HEARTBEAT", "ACK", "HELLO", "DICE_ACK", "LEDS",
            "SNAPSHOT_REQUEST", "HELLO_REQUEST"} <= {f.target for f in frame}
    kinds = {f.kind for f in dealt}
    assert {"garbage", "stall", "cut", "unplug", "reboot", "power"} <= kinds
    assert {f.seconds for f in dealt if f.kind == "stall"} == {1.0, 8.0, 30.0}


@pytest.mark.parametrize("group", range(GROUPS))
def test_lock_step_survives_every_fault(group: int):
    faults = _groups()[group]
    rules = RULES[group % len(RULES)]
    seed = 40 + group
    outcome = run_lockstep(rules, seed, spread(faults, random.Random(seed), first=15.0, gap=22.0))
    fired = [f for f in outcome.faults if f.fired]
    assert len(fired) >= len(faults) - 1, [f.describe() for f in outcome.faults if not f.fired]
    assert outcome.survived, f"{outcome.reproduce()}: {outcome.problems}"
    report = outcome.report
    assert report is not None and report.plays_made > 20


def test_a_throw_the_device_saw_is_never_covered_by_a_second_throw():
    """Every transmission of three throws dropped: the device repeats each until it is
    acknowledged, so the players never throw again and every play is recorded."""
    faults = [Fault("drop", 20.0 + 40 * i, "up", "DICE", count=3) for i in range(3)]
    outcome = run_lockstep("backgammon", 5, faults)
    assert all(f.done for f in outcome.faults)
    assert outcome.survived, outcome.problems
    assert outcome.rethrows == 0 and outcome.link["throw_repeats"] == 0


def test_a_reboot_that_forgets_a_throw_makes_the_player_throw_again():
    """A device that reboots while its throw is unacknowledged (every DICE dropped before)
    forgets it: the board says "roll" and the player throws again; nothing is lost."""
    faults = [Fault("drop-reboot", 30.0, "up", "DICE", count=2), Fault("drop-reboot", 90.0, "up", "DICE", count=2)]
    outcome = run_lockstep("trictrac", 3, faults)
    assert all(f.done for f in outcome.faults)
    assert outcome.survived, outcome.problems
    assert outcome.rethrows == 2


def test_real_time_survives_a_few_faults():
    from simulator.live_faults import run_realtime

    by_name = {f.name: f for f in catalogue()}
    names = ["garbage up 50 B with 0x00", "drop up DICE", "stall 1 s", "reboot"]
    faults = [copy_fault(by_name[name], 4.0 + 6.0 * i) for i, name in enumerate(names)]
    outcome = run_realtime("backgammon", 3, faults, speed=12.0)
    assert all(f.fired for f in faults), [f.describe() for f in faults if not f.fired]
    assert outcome.survived, f"{outcome.reproduce()}: {outcome.problems}"


def test_the_last_snapshot_of_a_turn_lost_just_before_the_next_throw():
    """The snapshot that completes Black's play (after an illegal attempt put right) is dropped;
    White's throw comes 0.7 s later, before the device's heartbeat would show the gap."""
    outcome = run_lockstep("backgammon", 2077, [Fault("drop", 128.35, "up", "LAST_SNAPSHOT")])
    assert outcome.faults[0].fired
    assert outcome.survived, outcome.problems


def test_no_warning_on_a_stale_board_while_the_cable_is_out():
    outcome = run_lockstep("rally", 1006, [Fault("power", 70.14, seconds=8.0)])
    assert outcome.faults[0].fired
    assert outcome.survived, outcome.problems
