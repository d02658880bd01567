"""The simulator's event queue: FIFO, and ``get`` never blocks since virtual time never waits."""

from __future__ import annotations

from collections import deque

from hal.interfaces import Event


class SimEventQueue:
    """A ``hal.interfaces.EventQueue`` for virtual time: an empty queue answers None at once."""

    def __init__(self) -> None:
        self._events: deque[Event] = deque()

    def __len__(self) -> int:
        """How many events wait."""
        return len(self._events)

    def put(self, event: Event) -> None:
        """Post an event at the back."""
        self._events.append(event)

    def get(self, timeout: float | None = None) -> Event | None:
        """The oldest event, or None at once when empty (``timeout`` is ignored: the scheduler moves time)."""
        return self._events.popleft() if self._events else None

    def peek(self) -> Event | None:
        """The oldest event without taking it."""
        return self._events[0] if self._events else None

    def drain(self) -> list[Event]:
        """Take every waiting event, oldest first."""
        events = list(self._events)
        self._events.clear()
        return events
