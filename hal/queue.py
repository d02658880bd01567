"""The one event queue, safe to post onto from gpiozero's and the serial link's threads.

It is bounded, because a device can post faster than the controller takes: past ``limit``
events a snapshot that a newer snapshot follows directly is dropped first (the board's state
is the newer one; no roll, button or message is reordered around it), then the oldest tick,
and only then the oldest event of any kind.  What was dropped is counted, never silent.
"""

from __future__ import annotations

import threading
from collections import deque

from .interfaces import Event, SnapshotEvent, TickEvent

LIMIT = 1024
"""Events waiting at most: far more than a board makes between two controller steps."""


class ThreadSafeQueue:
    """An ``EventQueue``: any thread posts, the runner takes in order; bounded as above."""

    def __init__(self, limit: int = LIMIT) -> None:
        if limit < 2:
            raise ValueError(f"a queue limit of {limit} cannot hold an event and its successor")
        self.limit = limit
        self._events: deque[Event] = deque()
        self._ready = threading.Condition(threading.Lock())
        self.dropped: dict[str, int] = {}
        """Events dropped because the queue was full, by kind (``snapshot``, ``tick``, ``other``)."""

    def put(self, event: Event) -> None:
        """Post an event; never blocks (when full, the least needed event makes room)."""
        with self._ready:
            if len(self._events) >= self.limit:
                if isinstance(event, SnapshotEvent) and isinstance(self._events[-1], SnapshotEvent):
                    self._events.pop()  # the newest board replaces the one it directly follows
                    self._count("snapshot")
                else:
                    self._make_room()
            self._events.append(event)
            self._ready.notify()

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event, or None after ``timeout`` seconds (None: wait for ever; <= 0: don't wait)."""
        with self._ready:
            if not self._events:
                if timeout is not None and timeout <= 0:
                    return None
                self._ready.wait_for(lambda: bool(self._events), timeout)
                if not self._events:
                    return None
            return self._events.popleft()

    def drain(self) -> list[Event]:
        """Every event waiting now, oldest first, without blocking."""
        with self._ready:
            events = list(self._events)
            self._events.clear()
            return events

    def __len__(self) -> int:
        with self._ready:
            return len(self._events)

    def _make_room(self) -> None:
        """Drop one event (lock held): a superseded snapshot, else a tick, else the oldest."""
        events = self._events
        previous: Event | None = None
        for index, event in enumerate(events):
            if isinstance(previous, SnapshotEvent) and isinstance(event, SnapshotEvent):
                del events[index - 1]
                self._count("snapshot")
                return
            previous = event
        for index, event in enumerate(events):
            if isinstance(event, TickEvent):
                del events[index]
                self._count("tick")
                return
        events.popleft()
        self._count("other")

    def _count(self, kind: str) -> None:
        self.dropped[kind] = self.dropped.get(kind, 0) + 1
