"""The bounded event queue: a flood from a device cannot exhaust memory, and what it drops is
only state that a newer state supersedes, never a roll or a button out of order."""

from __future__ import annotations

import threading

from hypothesis import given
from hypothesis import strategies as st

from hal.interfaces import BoardSnapshot, Button, ButtonEvent, DiceEvent, DiceKind, SnapshotEvent, TickEvent, ZoneReading
from hal.queue import ThreadSafeQueue
from hal.zones import ZONES


def snapshot(time: float, white: int = 0) -> SnapshotEvent:
    readings = [ZoneReading(0, 0)] * len(ZONES)
    readings[0] = ZoneReading(white % 31, 0)
    return SnapshotEvent(time, BoardSnapshot(tuple(readings)))


events = st.one_of(
    st.builds(snapshot, st.floats(0, 100), st.integers(0, 30)),
    st.builds(DiceEvent, st.floats(0, 100), st.tuples(st.integers(1, 6), st.integers(1, 6)), st.just(DiceKind.TRAY)),
    st.builds(ButtonEvent, st.floats(0, 100), st.sampled_from(list(Button))),
    st.builds(TickEvent, st.floats(0, 100)),
)


def test_a_snapshot_flood_stays_bounded_and_keeps_the_newest_board():
    queue = ThreadSafeQueue(limit=64)
    queue.put(DiceEvent(0.0, (6, 3), DiceKind.TRAY))
    for n in range(100_000):
        queue.put(snapshot(n, n))
    assert len(queue) <= 64
    waiting = queue.drain()
    assert waiting[0] == DiceEvent(0.0, (6, 3), DiceKind.TRAY), "the roll is kept, in its place"
    assert waiting[-1] == snapshot(99_999, 99_999), "the newest board is kept"
    assert queue.dropped["snapshot"] == 100_001 - len(waiting)


@given(st.lists(events, max_size=200), st.integers(2, 40))
def test_dropping_keeps_every_roll_and_button_in_order_while_snapshots_can_make_room(posted, limit):
    queue = ThreadSafeQueue(limit=limit)
    for event in posted:
        queue.put(event)
    waiting = queue.drain()
    assert len(waiting) <= limit
    keep = [e for e in posted if isinstance(e, (DiceEvent, ButtonEvent))]
    kept = [e for e in waiting if isinstance(e, (DiceEvent, ButtonEvent))]
    if sum(queue.dropped.get(kind, 0) for kind in ("other",)) == 0:
        assert kept == keep, "nothing but superseded snapshots and ticks was dropped"
    else:  # only when rolls and buttons alone overflow the queue: the oldest go first
        assert kept == keep[len(keep) - len(kept):]
    assert sum(queue.dropped.values()) == len(posted) - len(waiting)
    if posted and isinstance(posted[-1], SnapshotEvent):
        assert waiting[-1] == posted[-1], "the last board posted is never dropped"


def test_threads_post_while_the_runner_takes():
    queue = ThreadSafeQueue(limit=16)
    taken: list[object] = []

    def post(base: int) -> None:
        for n in range(500):
            queue.put(ButtonEvent(base + n, Button.DONE))

    threads = [threading.Thread(target=post, args=(base,)) for base in (0, 1000)]
    for thread in threads:
        thread.start()
    while any(t.is_alive() for t in threads) or len(queue):
        event = queue.get(0.01)
        if event is not None:
            taken.append(event)
    for thread in threads:
        thread.join()
    assert len(taken) + queue.dropped.get("other", 0) == 1000
