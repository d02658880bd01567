"""A virtual clock: simulated seconds that move only when the scheduler moves them."""

from __future__ import annotations


class VirtualClock:
    """Monotonic virtual time (a ``hal.interfaces.Clock``), so a game runs as fast as the CPU allows."""

    __slots__ = ("_now",)

    def __init__(self, start: float = 0.0) -> None:
        self._now = float(start)

    def __repr__(self) -> str:
        return f"VirtualClock({self._now!r})"

    def now(self) -> float:
        """The current virtual time in seconds."""
        return self._now

    def advance_to(self, t: float) -> None:
        """Move time forward to ``t``; ValueError if ``t`` lies in the past."""
        if t < self._now:
            raise ValueError(f"virtual time only runs forward: cannot go back from {self._now!r} to {t!r}")
        self._now = float(t)

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds`` (not negative)."""
        if seconds < 0:
            raise ValueError(f"cannot advance the clock by a negative time ({seconds!r} s)")
        self._now += seconds
