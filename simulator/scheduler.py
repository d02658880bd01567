"""A small deterministic discrete-event scheduler over a ``VirtualClock``.

Callbacks run in (time, insertion order); the clock jumps straight from one to the next,
so nothing is simulated while nothing happens.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from itertools import count

from .clock import VirtualClock

Callback = Callable[[], None]


class ScheduledCall:
    """A handle on one scheduled callback: its time, and ``cancel()`` while it is pending."""

    __slots__ = ("_cancelled", "_done", "callback", "time")

    def __init__(self, time: float, callback: Callback) -> None:
        self.time = time
        self.callback = callback
        self._cancelled = False
        self._done = False

    def __repr__(self) -> str:
        state = "cancelled" if self._cancelled else "done" if self._done else "pending"
        return f"<ScheduledCall at {self.time!r} {state}>"

    def cancel(self) -> None:
        """Do not run it (no effect once it has run)."""
        if not self._done:
            self._cancelled = True

    def run(self) -> None:
        """Run the callback now, once (the scheduler calls it at the call's time)."""
        self._done = True
        self.callback()

    @property
    def cancelled(self) -> bool:
        """Cancelled before it ran."""
        return self._cancelled

    @property
    def pending(self) -> bool:
        """Still to run."""
        return not self._cancelled and not self._done


class Scheduler:
    """Runs callbacks at virtual times, in (time, insertion order), advancing the clock."""

    def __init__(self, clock: VirtualClock) -> None:
        self.clock = clock
        self._heap: list[tuple[float, int, ScheduledCall]] = []
        self._seq = count()

    def __len__(self) -> int:
        """How many callbacks are still pending."""
        return sum(1 for _, _, call in self._heap if call.pending)

    def at(self, time: float, callback: Callback) -> ScheduledCall:
        """Run ``callback`` at virtual ``time`` (not in the past)."""
        if time < self.clock.now():
            raise ValueError(f"cannot schedule at {time!r}: the virtual clock already reads {self.clock.now()!r}")
        call = ScheduledCall(float(time), callback)
        heapq.heappush(self._heap, (call.time, next(self._seq), call))
        return call

    def after(self, delay: float, callback: Callback) -> ScheduledCall:
        """Run ``callback`` ``delay`` seconds from now (not negative)."""
        if delay < 0:
            raise ValueError(f"cannot schedule {delay!r} s in the past")
        return self.at(self.clock.now() + delay, callback)

    def next_time(self) -> float | None:
        """When the next pending callback is due; None when nothing is pending."""
        heap = self._heap
        while heap and not heap[0][2].pending:
            heapq.heappop(heap)
        return heap[0][0] if heap else None

    def run_next(self) -> bool:
        """Advance to the next pending callback and run it; False when nothing is pending."""
        when = self.next_time()
        if when is None:
            return False
        _, _, call = heapq.heappop(self._heap)
        self._run(call)
        return True

    def run_until(self, t: float) -> int:
        """Run every callback due up to ``t`` (including ones they schedule), then set the clock to ``t``; returns how many ran."""
        if t < self.clock.now():
            raise ValueError(f"cannot run until {t!r}: the virtual clock already reads {self.clock.now()!r}")
        heap = self._heap
        ran = 0
        while heap and heap[0][0] <= t:
            _, _, call = heapq.heappop(heap)
            if call.pending:
                self._run(call)
                ran += 1
        self.clock.advance_to(t)
        return ran

    def run_for(self, seconds: float) -> int:
        """``run_until(now + seconds)``."""
        return self.run_until(self.clock.now() + seconds)

    def _run(self, call: ScheduledCall) -> None:
        """Advance the clock to the call's time and run it."""
        self.clock.advance_to(call.time)
        call.run()
