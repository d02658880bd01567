"""The one event queue, safe to post onto from gpiozero's and the serial link's threads."""

from __future__ import annotations

import queue

from .interfaces import Event


class ThreadSafeQueue:
    """An ``EventQueue`` over ``queue.Queue``: any thread posts, the runner takes in order."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Event] = queue.Queue()

    def put(self, event: Event) -> None:
        """Post an event; never blocks (the queue is unbounded)."""
        self._queue.put(event)

    def get(self, timeout: float | None = None) -> Event | None:
        """The next event, or None after ``timeout`` seconds (None: wait for ever; <= 0: don't wait)."""
        try:
            if timeout is not None and timeout <= 0:
                return self._queue.get_nowait()
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[Event]:
        """Every event waiting now, oldest first, without blocking."""
        events: list[Event] = []
        while (event := self.get(0)) is not None:
            events.append(event)
        return events
