"""The simulator's hardware stand-ins: clock, scheduler, queue, physical board, sensor model and devices."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hal.interfaces import (
    BoardSensor,
    BoardSnapshot,
    Button,
    ButtonEvent,
    Clock,
    DiceEvent,
    DiceKind,
    DiceSource,
    Event,
    EventQueue,
    Light,
    LightColour,
    LightFrame,
    PointLights,
    SnapshotEvent,
    Sound,
    Sounder,
    TickEvent,
    TurnIndicator,
    ZoneReading,
)
from hal.zones import BLACK, WHITE, ZONES, Checker
from simulator.board import PhysicalBoard, facing, neighbours
from simulator.clock import VirtualClock
from simulator.devices import SimDice
from simulator.hardware import SimulatedHardware
from simulator.queue import SimEventQueue
from simulator.scheduler import Scheduler
from simulator.sensors import NoiseModel, SimulatedSensor

START = {"1": (15, 0), "I": (0, 15)}
"""A set-up: all White's checkers on 1, all Black's on I."""


def snapshots(sim: SimulatedHardware) -> list[SnapshotEvent]:
    """Take the snapshot events waiting on the queue."""
    events = sim.queue.drain()
    assert all(isinstance(e, SnapshotEvent) for e in events)
    return [e for e in events if isinstance(e, SnapshotEvent)]


def truth(board: PhysicalBoard) -> BoardSnapshot:
    """The board's true position as a snapshot (no hand, no noise)."""
    return BoardSnapshot(board.as_tuple())


def set_up(seed: int = 0, noise: NoiseModel | None = None, until: float = 0.5) -> SimulatedHardware:
    """A simulated board with START set up at time 0 and its first snapshot taken off the queue."""
    sim = SimulatedHardware(seed, noise)
    sim.board.set_zones(START)
    sim.run_until(until)
    first = snapshots(sim)
    assert [e.snapshot for e in first][-1:] == [truth(sim.board)]
    return sim


def at(sim: SimulatedHardware, time: float, action: Callable[[], None]) -> None:
    """Schedule a hand action."""
    sim.scheduler.at(time, action)


# -- clock, scheduler, queue -----------------------------------------------------------------------


def test_clock_runs_forward_only() -> None:
    clock = VirtualClock(2.0)
    assert isinstance(clock, Clock) and clock.now() == 2.0
    clock.advance_to(3.5)
    clock.advance(0.5)
    assert clock.now() == 4.0
    clock.advance_to(4.0)
    with pytest.raises(ValueError, match="only runs forward"):
        clock.advance_to(3.9)
    with pytest.raises(ValueError, match="negative"):
        clock.advance(-1)


def test_scheduler_runs_in_time_then_insertion_order() -> None:
    clock = VirtualClock()
    scheduler = Scheduler(clock)
    log: list[tuple[str, float]] = []

    def note(name: str) -> Callable[[], None]:
        return lambda: log.append((name, clock.now()))

    scheduler.at(2.0, note("b1"))
    scheduler.at(1.0, note("a"))
    scheduler.at(2.0, note("b2"))
    dropped = scheduler.after(1.5, note("cancelled"))
    def spawn() -> None:
        scheduler.after(0.0, note("a-child"))  # same time, scheduled while running

    scheduler.at(1.0, spawn)
    scheduler.at(5.0, note("late"))
    dropped.cancel()
    assert dropped.cancelled and not dropped.pending
    assert len(scheduler) == 5 and scheduler.next_time() == 1.0
    assert scheduler.run_until(3.0) == 5
    assert log == [("a", 1.0), ("a-child", 1.0), ("b1", 2.0), ("b2", 2.0)]
    assert clock.now() == 3.0 and scheduler.next_time() == 5.0
    assert scheduler.run_next() and log[-1] == ("late", 5.0)
    assert not scheduler.run_next() and scheduler.next_time() is None and len(scheduler) == 0


def test_scheduler_refuses_the_past() -> None:
    clock = VirtualClock(1.0)
    scheduler = Scheduler(clock)
    with pytest.raises(ValueError, match="already reads"):
        scheduler.at(0.5, lambda: None)
    with pytest.raises(ValueError, match="past"):
        scheduler.after(-0.1, lambda: None)
    with pytest.raises(ValueError, match="already reads"):
        scheduler.run_until(0.0)
    scheduler.run_for(0.25)
    assert clock.now() == 1.25


def test_queue_is_fifo_and_never_blocks() -> None:
    queue = SimEventQueue()
    assert isinstance(queue, EventQueue)
    assert queue.get() is None and queue.get(timeout=10.0) is None and len(queue) == 0
    events: list[Event] = [TickEvent(1.0), ButtonEvent(1.0, Button.ROLL), TickEvent(2.0)]
    for event in events:
        queue.put(event)
    assert len(queue) == 3 and queue.peek() == events[0]
    assert queue.get() == events[0]
    assert queue.drain() == events[1:] and queue.get(timeout=1.0) is None


# -- the physical board -------------------------------------------------------------------------------


def test_board_hand_actions_and_listener() -> None:
    board = PhysicalBoard(START)
    calls: list[int] = []
    board.add_listener(lambda: calls.append(board.version))
    board.lift("1", WHITE)
    board.lift("I", BLACK)
    assert board.hand == {WHITE: 1, BLACK: 1}
    board.place("5", WHITE)
    board.place("5", BLACK)  # two colours on a point: physically possible, the controller must report it
    assert board.reading("5") == ZoneReading(1, 1) and board.reading("1") == ZoneReading(14, 0)
    board.move("5", "6", WHITE)
    assert board.reading("6") == ZoneReading(1, 0) and board.hand == {WHITE: 0, BLACK: 0}
    board.hover(["2", "3"])
    board.hover(["3", "2"])  # same zones: no change
    board.unhover()
    assert calls == [2, 3, 4, 5, 6, 7, 8, 9] and board.version == 9  # the set-up was change 1
    assert board.total(WHITE) == board.total(BLACK) == 15
    assert board.readings()["I"] == ZoneReading(0, 14) and len(board.readings()) == 28


def test_board_refuses_impossible_actions() -> None:
    board = PhysicalBoard(START)
    with pytest.raises(ValueError, match=r"cannot lift a black checker from 1: it holds none \(15 white, 0 black\)"):
        board.lift("1", BLACK)
    with pytest.raises(ValueError, match="cannot lift a white checker from 7: it holds none"):
        board.lift("7", WHITE)
    with pytest.raises(ValueError, match="cannot place a white checker on 3: the hand holds no white checker"):
        board.place("3", WHITE)
    with pytest.raises(ValueError, match="no zone called '25'"):
        board.lift("25", WHITE)
    with pytest.raises(ValueError, match="no zone called 'bar'"):
        board.hover(["1", "bar"])
    with pytest.raises(TypeError, match="not a checker colour"):
        board.lift("1", "white")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="only a stack on a point"):
        board.knock_over("off-white", random.Random(0))
    with pytest.raises(ValueError, match="cannot knock over 5: it holds no checker"):
        board.knock_over("5", random.Random(0))
    with pytest.raises(ValueError, match="at most 30"):
        board.set_zones({"1": (20, 11)})
    full = PhysicalBoard({"1": (30, 0), "2": (1, 0)})
    full.lift("2", WHITE)
    with pytest.raises(ValueError, match="already holds 30"):
        full.place("1", WHITE)
    full.place("2", WHITE)
    with pytest.raises(ValueError, match="already holds 30"):
        full.move("2", "1", WHITE)
    assert full.reading("2") == ZoneReading(1, 0) and full.hand == {WHITE: 0, BLACK: 0}  # the failed move undone
    assert board.version == 1 and board.readings() == PhysicalBoard(START).readings()  # refused: nothing changed


def test_neighbours_follow_the_rows() -> None:
    assert neighbours("1") == ("2",) and neighbours("7") == ("6", "8") and neighbours("12") == ("11",)
    assert neighbours("I") == ("II",) and neighbours("XII") == ("XI",) and neighbours("wait-white") == ()
    assert facing("1") == "I" and facing("XII") == "12" and facing("off-black") is None


@given(st.integers(0, 2**32), st.sampled_from(["1", "6", "12", "I", "VII", "XII"]), st.integers(1, 15), st.integers(0, 3))
def test_knock_over_conserves_checkers(seed: int, zone: str, whites: int, blacks: int) -> None:
    board = PhysicalBoard({zone: (whites, blacks), **{z: (0, 2) for z in neighbours(zone)}})
    before = {colour: board.total(colour) for colour in (WHITE, BLACK)}
    spilled = board.knock_over(zone, random.Random(seed))
    assert 1 <= len(spilled) <= whites + blacks
    assert {colour: board.total(colour) for colour in (WHITE, BLACK)} == before
    assert all(target in neighbours(zone) for _, target in spilled)
    moved = {c: sum(1 for colour, _ in spilled if colour is c) for c in (WHITE, BLACK)}
    assert board.reading(zone) == ZoneReading(whites - moved[WHITE], blacks - moved[BLACK])
    again = PhysicalBoard({zone: (whites, blacks), **{z: (0, 2) for z in neighbours(zone)}})
    assert again.knock_over(zone, random.Random(seed)) == spilled  # seeded


# -- the sensor: settling ------------------------------------------------------------------------------------


def test_first_snapshot_settles_after_three_scans() -> None:
    sim = SimulatedHardware()
    sim.board.set_zones(START)
    sim.run_until(1.0)
    events = snapshots(sim)
    assert [e.time for e in events] == [pytest.approx(0.06)] and events[0].snapshot == truth(sim.board)


@pytest.mark.parametrize(
    ("change", "posted"),
    [(0.5, 0.56), (0.505, 0.56), (0.5199, 0.56), (0.52, 0.58)],  # a change at t is first seen by scan floor(t/0.02)+1
)
def test_a_change_is_posted_once_when_it_settles(change: float, posted: float) -> None:
    sim = set_up()
    at(sim, change, lambda: sim.board.lift("1", WHITE))
    sim.run_until(posted - 0.001)
    assert snapshots(sim) == []
    sim.run_until(2.0)
    events = snapshots(sim)
    assert [e.time for e in events] == [pytest.approx(posted)]
    assert events[0].snapshot.reading("1") == ZoneReading(14, 0) == sim.board.reading("1")


def test_a_reading_seen_by_no_scan_is_never_posted() -> None:
    sim = set_up()
    at(sim, 0.501, lambda: sim.board.lift("1", WHITE))
    at(sim, 0.502, lambda: sim.board.place("1", WHITE))  # back before scan 26 at 0.52
    at(sim, 0.6, lambda: sim.board.lift("1", WHITE))
    at(sim, 0.63, lambda: sim.board.place("5", WHITE))  # the lift is seen by scan 31 (0.62) only
    sim.run_until(2.0)
    events = snapshots(sim)
    assert [e.time for e in events] == [pytest.approx(0.68)] and events[0].snapshot == truth(sim.board)  # scans 32-34
    assert sim.sensor.stats().reading_changes == 5  # the set-up and four hand actions


def test_a_blip_within_one_scan_interval_does_not_restart_settling() -> None:
    sim = set_up()
    at(sim, 0.505, lambda: sim.board.lift("1", WHITE))  # scans 26, 27, 28 read it: posted at 0.56
    at(sim, 0.525, lambda: sim.board.lift("1", WHITE))
    at(sim, 0.53, lambda: sim.board.place("1", WHITE))  # undone before scan 27 (0.54) could see it
    sim.run_until(2.0)
    events = snapshots(sim)
    assert [e.time for e in events] == [pytest.approx(0.56)] and events[0].snapshot == truth(sim.board)


def test_settle_scans_and_period_are_configurable() -> None:
    sim = SimulatedHardware(scan_period=0.05, settle_scans=5)
    sim.board.set_zones(START)
    sim.run_until(1.0)
    assert [e.time for e in snapshots(sim)] == [pytest.approx(0.25)]
    with pytest.raises(ValueError, match="settle_scans"):
        SimulatedHardware(settle_scans=0)
    with pytest.raises(ValueError, match="scan_period"):
        SimulatedHardware(scan_period=0.0)


# -- the sensor: noise and hands ----------------------------------------------------------------------------


def test_a_one_scan_miscount_is_never_posted() -> None:
    sim = set_up()
    at(sim, 1.001, lambda: sim.sensor.inject_miscount("1", WHITE, -1))
    at(sim, 1.3, lambda: sim.sensor.inject_miscount("5", BLACK, +1))
    sim.run_until(1.002)
    assert sim.sensor.current_reading().reading("1") == ZoneReading(14, 0)
    sim.run_until(3.0)
    assert snapshots(sim) == [] and sim.sensor.current_reading() == truth(sim.board)
    assert sim.sensor.stats().noise == {"miscount": 2, "unreadable": 0, "stuck": 0}


def test_a_miscount_during_settling_restarts_the_run() -> None:
    sim = set_up()
    at(sim, 0.505, lambda: sim.board.lift("1", WHITE))  # first seen by scan 26 (0.52)
    at(sim, 0.525, lambda: sim.sensor.inject_miscount("1", WHITE, +1))  # scan 27 (0.54) reads 15 again
    sim.run_until(2.0)
    events = snapshots(sim)
    assert [e.time for e in events] == [pytest.approx(0.60)]  # scans 28, 29, 30
    assert events[0].snapshot == truth(sim.board)


def test_a_hovering_hand_is_posted_only_when_it_stays_long_enough() -> None:
    sim = set_up()
    at(sim, 1.001, lambda: sim.board.hover(["1", "2"]))
    at(sim, 1.031, sim.board.unhover)  # seen by scan 51 only
    sim.run_until(1.5)
    assert snapshots(sim) == []
    at(sim, 2.001, lambda: sim.board.hover(["1", "2"]))
    at(sim, 2.2, sim.board.unhover)  # on scan 110's instant: first seen by scan 111
    sim.run_until(3.0)
    events = snapshots(sim)
    assert [e.time for e in events] == [pytest.approx(2.06), pytest.approx(2.26)]
    assert events[0].snapshot.unreadable() == ("1", "2") and events[0].snapshot.reading("I") == ZoneReading(0, 15)
    assert events[1].snapshot == truth(sim.board)


def test_an_unreadable_zone_settles_only_when_it_lasts_settle_scans() -> None:
    sim = set_up()
    at(sim, 1.001, lambda: sim.sensor.inject_unreadable("I", scans=2))
    sim.run_until(1.5)
    assert snapshots(sim) == []
    at(sim, 2.001, lambda: sim.sensor.inject_unreadable("I", scans=3))  # scans 101-103
    sim.run_until(3.0)
    events = snapshots(sim)
    assert [e.time for e in events] == [pytest.approx(2.06), pytest.approx(2.12)]  # truth again from scan 104
    assert events[0].snapshot.unreadable() == ("I",) and events[1].snapshot == truth(sim.board)


def test_a_stuck_sensor_delays_the_change_then_the_truth_arrives() -> None:
    sim = set_up()
    at(sim, 1.0, lambda: sim.sensor.inject_stuck("1", 0.3))
    at(sim, 1.05, lambda: sim.board.lift("1", WHITE))
    at(sim, 1.1, lambda: sim.board.place("2", WHITE))
    sim.run_until(1.29)
    early = snapshots(sim)  # zone 2 changed and settled; zone 1 still reads 15
    assert [e.time for e in early] == [pytest.approx(1.16)]
    assert early[0].snapshot.reading("1") == ZoneReading(15, 0) and early[0].snapshot.reading("2") == ZoneReading(1, 0)
    sim.run_until(2.0)
    late = snapshots(sim)  # the stuck sensor recovers at 1.3: first seen by scan 66
    assert [e.time for e in late] == [pytest.approx(1.36)] and late[0].snapshot == truth(sim.board)


def test_request_snapshot_posts_the_settled_one_again_once_the_board_has_settled() -> None:
    """As the firmware does: a request is answered at once by the board standing as last
    posted, else by the next settled snapshot (never by a board still settling)."""
    sim = SimulatedHardware()
    sim.board.set_zones(START)
    sim.sensor.request_snapshot()  # nothing settled yet: the first settled one answers
    assert len(sim.queue) == 0
    sim.run_until(0.5)
    [first] = snapshots(sim)
    assert first.snapshot == truth(sim.board)
    sim.sensor.request_snapshot()  # standing as posted: answered now
    [again] = snapshots(sim)
    assert again.time == 0.5 and again.snapshot == first.snapshot
    sim.board.hover(["5"])  # not settled yet: the answer waits for it
    sim.sensor.request_snapshot()
    assert snapshots(sim) == []
    sim.run_until(0.6)
    [hovered] = snapshots(sim)
    assert hovered.snapshot.reading("5") is None and hovered.time > 0.5
    sim.board.hover([])
    sim.run_until(0.6001)
    sim.sensor.request_snapshot()  # back to what was posted before, not yet standing
    sim.run_until(0.7)
    [back] = snapshots(sim)
    assert back.snapshot == truth(sim.board) and sim.sensor.last_snapshot == back.snapshot
    assert sim.sensor.stats().requested == 1 and sim.sensor.stats().snapshots == 3


def test_random_noise_follows_its_rates() -> None:
    sim = set_up(seed=3, noise=NoiseModel.scaled(1.0))
    sim.run_until(100.5)
    stats = sim.sensor.stats()
    assert 140 < stats.noise["miscount"] < 260 and 25 < stats.noise["unreadable"] < 80 and 8 < stats.noise["stuck"] < 35
    assert stats.scans == 5025
    posted = snapshots(sim)
    assert all(e.snapshot != posted[i].snapshot for i, e in enumerate(posted[1:]))  # never the same one twice running
    sim.sensor.set_noise(NoiseModel())
    sim.run_until(102.0)
    assert sim.scheduler.next_time() is None  # noise stopped and ran out: nothing left to do
    assert sim.sensor.last_snapshot == truth(sim.board)


def test_noise_model_knob_and_checks() -> None:
    assert NoiseModel().clean and NoiseModel.scaled(0).clean and not NoiseModel.scaled(0.5).clean
    assert NoiseModel.scaled(2.0).miscount_rate == 2 * NoiseModel.scaled(1.0).miscount_rate
    with pytest.raises(ValueError, match="rate per second"):
        NoiseModel(stuck_rate=-1)
    with pytest.raises(ValueError, match="unreadable_scans"):
        NoiseModel(unreadable_scans=(0, 2))
    with pytest.raises(ValueError, match="noise level"):
        NoiseModel.scaled(-0.5)


# -- determinism -----------------------------------------------------------------------------------------------------


def play_randomly(sim: SimulatedHardware, moves: int) -> list[Event]:
    """A seeded stand-in for players: dice, lifts, hovers and places with random gaps; every event posted."""
    rng = sim.rng("player")
    sim.board.set_zones(START)
    events: list[Event] = []
    t = 0.5
    for _ in range(moves):
        t += rng.uniform(0.2, 1.0)
        sim.run_until(t)
        sim.roll_dice(cocked_chance=0.1)
        colour = rng.choice((WHITE, BLACK))
        source = rng.choice([z for z in ZONES if sim.board.reading(z).count(colour)])
        target = rng.choice(ZONES)
        sim.run_until(t + rng.uniform(0.05, 0.5))
        sim.board.hover([source])
        sim.board.lift(source, colour)
        sim.run_until(sim.clock.now() + rng.uniform(0.01, 0.3))
        sim.board.hover([target])
        sim.run_until(sim.clock.now() + rng.uniform(0.01, 0.2))
        sim.board.place(target, colour)
        sim.board.unhover()
        sim.buttons.press(Button.DONE)
        t = sim.clock.now()
        events.extend(sim.queue.drain())
    sim.run_for(2.0)
    return events + sim.queue.drain()


def test_the_same_seed_gives_the_same_events() -> None:
    noise = NoiseModel.scaled(3.0)
    first = play_randomly(SimulatedHardware(11, noise), 40)
    second = play_randomly(SimulatedHardware(11, noise), 40)
    other = play_randomly(SimulatedHardware(12, noise), 40)
    assert first == second and first != other
    kinds = {type(e) for e in first}
    assert kinds == {SnapshotEvent, DiceEvent, ButtonEvent}
    assert any(isinstance(e, DiceEvent) and e.dice is None for e in first)
    assert [e.time for e in first] == sorted(e.time for e in first)


# -- the event-driven model equals scanning every grid point --------------------------------------------------------

LATTICE = 0.0001
OFFSET = 0.00003  # action times never fall on the scan grid, so "just before a scan" is unambiguous


class GridScanner:
    """The brute-force reference: samples what the sensor reads just before every grid scan and applies the settle rule."""

    def __init__(self, sim: SimulatedHardware, until: float) -> None:
        self.sim, self.until = sim, until
        self.posted: list[tuple[int, BoardSnapshot]] = []
        self._run: tuple[BoardSnapshot, int] | None = None
        self._last: BoardSnapshot | None = None
        self._schedule(1)

    def _schedule(self, k: int) -> None:
        t = self.sim.sensor.scan_time(k) - 1e-10
        if t <= self.until:
            self.sim.scheduler.at(t, lambda: self._scan(k))

    def _scan(self, k: int) -> None:
        reading = self.sim.sensor.current_reading()
        count = self._run[1] + 1 if self._run and self._run[0] == reading else 1
        self._run = (reading, count)
        if count == self.sim.sensor.settle_scans and reading != self._last:
            self._last = reading
            self.posted.append((k, reading))
        self._schedule(k + 1)


KINDS = ["lift", "place", "blip", "hover", "unhover", "miscount", "dropout", "stuck"]
actions = st.lists(
    st.tuples(st.one_of(st.integers(1, 300), st.integers(1, 2500)), st.sampled_from(KINDS), st.integers(0, 10_000)),
    min_size=1,
    max_size=40,
)


def schedule_actions(sim: SimulatedHardware, script: list[tuple[int, str, int]], noise_injections: bool) -> float:
    """Schedule each drawn action at its time (as a valid action picked when it runs); returns the last time."""
    board, sensor = sim.board, sim.sensor
    t = 0.0

    def put_back(zone: str, colour: Checker) -> None:
        if board.hand[colour]:  # unless a drawn "place" put it down first
            board.place(zone, colour)

    def act(kind: str, pick: int) -> None:
        if kind in ("lift", "blip"):
            stacks = [(z, c) for z in ZONES for c in (WHITE, BLACK) if board.reading(z).count(c)]
            if stacks:
                zone, colour = stacks[pick % len(stacks)]
                board.lift(zone, colour)
                if kind == "blip":  # put back soon: within the same scan interval or across a scan
                    sim.scheduler.after((1 + pick % 300) * LATTICE, lambda: put_back(zone, colour))
        elif kind == "place":
            held = [c for c in (WHITE, BLACK) if board.hand[c]]
            if held:
                board.place(ZONES[pick % len(ZONES)], held[pick % len(held)])
        elif kind == "hover":
            zone = ZONES[pick % len(ZONES)]
            board.hover((zone, *neighbours(zone)))
        elif kind == "unhover":
            board.unhover()
        elif noise_injections and kind == "miscount":
            sensor.inject_miscount(ZONES[pick % len(ZONES)], (WHITE, BLACK)[pick % 2], (-1, 1)[pick // 2 % 2])
        elif noise_injections and kind == "dropout":
            sensor.inject_unreadable(ZONES[pick % len(ZONES)], 1 + pick % 4)
        elif noise_injections and kind == "stuck":
            sensor.inject_stuck(ZONES[pick % len(ZONES)], 0.1 + (pick % 5) * 0.1)

    for gap, kind, pick in script:
        t += gap * LATTICE
        sim.scheduler.at(t + OFFSET, partial(act, kind, pick))
    return t + OFFSET


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions, st.integers(0, 2**16), st.sampled_from([0.0, 2.0, 20.0]))
def test_event_driven_sensor_equals_scanning_every_grid_point(script: list[tuple[int, str, int]], seed: int, level: float) -> None:
    sim = SimulatedHardware(seed, NoiseModel.scaled(level))
    sim.board.set_zones({"1": (2, 0), "3": (1, 0), "I": (0, 2), "IV": (0, 1)})
    end = schedule_actions(sim, script, noise_injections=True) + 1.0
    reference = GridScanner(sim, end)
    sim.run_until(end)
    posted = snapshots(sim)
    assert [(round(e.time / sim.sensor.scan_period), e.snapshot) for e in posted] == reference.posted
    assert all(e.time == pytest.approx(sim.sensor.scan_time(k)) for e, (k, _) in zip(posted, reference.posted))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_event_driven_sensor_equals_scanning_over_long_noisy_scripts(seed: int) -> None:
    rng = random.Random(seed)
    script = [(rng.choice([rng.randint(1, 300), rng.randint(1, 2500)]), rng.choice(KINDS), rng.randint(0, 10_000)) for _ in range(250)]
    sim = SimulatedHardware(seed, NoiseModel.scaled(10.0))
    sim.board.set_zones(START)
    end = schedule_actions(sim, script, noise_injections=True) + 1.0
    reference = GridScanner(sim, end)
    sim.run_until(end)
    posted = snapshots(sim)
    assert len(posted) > 30  # a substantial history
    assert [(round(e.time / sim.sensor.scan_period), e.snapshot) for e in posted] == reference.posted


@settings(max_examples=60, deadline=None)
@given(actions, st.integers(0, 2**16), st.floats(0.0, 10.0))
def test_a_still_board_is_eventually_posted_as_it_is(script: list[tuple[int, str, int]], seed: int, level: float) -> None:
    sim = SimulatedHardware(seed, NoiseModel.scaled(level))
    sim.board.set_zones(START)
    end = schedule_actions(sim, script, noise_injections=False)
    sim.scheduler.at(end, sim.board.unhover)
    sim.scheduler.at(end, lambda: sim.sensor.set_noise(NoiseModel()))
    sim.run_until(end + 0.5 + 0.1)  # the longest stuck sensor, a dropout and settling
    assert sim.sensor.last_snapshot == truth(sim.board)
    assert sim.board.total(WHITE) == sim.board.total(BLACK) == 15


# -- the other devices and the bundle -------------------------------------------------------------------------------


def test_dice() -> None:
    clock, queue = VirtualClock(1.5), SimEventQueue()
    tray, typed = SimDice(clock, queue, DiceKind.TRAY), SimDice(clock, queue, DiceKind.TYPED)
    assert isinstance(tray, DiceSource)
    tray.throw(6, 1)
    tray.throw_cocked()
    assert typed.roll(random.Random(5)) == SimDice(clock, SimEventQueue(), DiceKind.TYPED).roll(random.Random(5))
    assert queue.get() == DiceEvent(1.5, (6, 1), DiceKind.TRAY, late=0.0)  # read as they land
    assert queue.get() == DiceEvent(1.5, None, DiceKind.TRAY, late=0.0)
    rolled = queue.get()
    assert isinstance(rolled, DiceEvent) and rolled.kind is DiceKind.TYPED and rolled.dice is not None
    assert rolled.late is None  # typed after the dice were thrown: by how long, nobody knows
    assert all(1 <= d <= 6 for d in rolled.dice) and len(tray.thrown) == 2
    with pytest.raises(ValueError, match="only tray dice can land cocked"):
        typed.throw_cocked()
    with pytest.raises(ValueError, match="1 to 6, not 7"):
        tray.throw(7, 1)
    rng = random.Random(0)
    rolls = [tray.roll(rng, cocked_chance=0.5) for _ in range(50)]
    assert None in rolls and any(r is not None for r in rolls)


def test_lights_sounder_turn_indicator_and_buttons() -> None:
    sim = SimulatedHardware()
    lights, sounder, turn = sim.lights, sim.sounder, sim.turn_indicator
    assert isinstance(lights, PointLights) and isinstance(sounder, Sounder) and isinstance(turn, TurnIndicator)
    assert lights.current == LightFrame() and lights.frames == []
    frame = LightFrame.of({"1": Light(LightColour.SOURCE)}, "White to move")
    lights.show(frame)
    sim.run_until(1.0)
    lights.show(LightFrame())
    sounder.play(Sound.TURN)
    turn.show_turn(WHITE)
    turn.show_turn(None)
    sim.buttons.press(Button.ROLL)
    assert lights.history() == [(0.0, frame), (1.0, LightFrame())] and lights.frames == [frame, LightFrame()]
    assert lights.current == LightFrame() and sounder.played == [(1.0, Sound.TURN)] and sounder.sounds == [Sound.TURN]
    assert turn.current is None and turn.history == [(1.0, WHITE), (1.0, None)]
    assert [e for e in sim.queue.drain() if isinstance(e, ButtonEvent)] == [ButtonEvent(1.0, Button.ROLL)]
    with pytest.raises(TypeError, match="not a button"):
        sim.buttons.press("roll")  # type: ignore[arg-type]


def test_simulated_hardware_bundle() -> None:
    sim = SimulatedHardware(5, NoiseModel.scaled(1.0), dice_kind=DiceKind.ELECTRONIC)
    hw = sim.hardware
    assert hw is sim.hardware and hw.clock is sim.clock and hw.events is sim.queue and hw.sensor is sim.sensor
    assert hw.lights is sim.lights and hw.sounder is sim.sounder and hw.turn_indicator is sim.turn_indicator
    assert hw.dice == [sim.dice] and sim.dice.kind is DiceKind.ELECTRONIC
    assert isinstance(hw.sensor, BoardSensor) and isinstance(hw.clock, Clock) and isinstance(hw.events, EventQueue)
    assert sim.rng("player") is sim.rng("player") and sim.rng("a").random() != sim.rng("b").random()
    assert SimulatedHardware(5).rng("x").random() == SimulatedHardware(5).rng("x").random()
    assert isinstance(sim.sensor, SimulatedSensor)


def test_checker_colours_are_the_hal_ones() -> None:
    board = PhysicalBoard({"wait-white": (1, 0)})
    board.lift("wait-white", Checker.WHITE)
    assert board.hand[Checker.WHITE] == 1
