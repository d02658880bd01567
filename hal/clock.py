"""The real clock, for the board; the simulator has a virtual one."""

from __future__ import annotations

import time


class MonotonicClock:
    """A ``Clock`` over ``time.monotonic``: seconds that never go back, whatever the wall clock does."""

    def now(self) -> float:
        """Seconds since an arbitrary fixed point."""
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        """Let ``seconds`` pass (a ``hal.board_client.WaitClock``)."""
        time.sleep(seconds)
