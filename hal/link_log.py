"""Log lines a device can provoke: rate-limited per kind, and device text escaped, so a
noisy or hostile board can neither flood the log nor forge lines in it."""

from __future__ import annotations

from collections.abc import Callable

BURST = 5
"""Lines of one kind let through at once."""
PER_SECOND = 1.0
"""Lines of one kind let through per second after the burst."""
MAX_KINDS = 64
"""Kinds remembered at most (the oldest are forgotten), so the limiter itself stays small."""
MAX_TEXT = 200
"""Characters of device text shown at most."""


def printable(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` with control characters, escapes and line breaks written as ``\\xNN``/``\\uNNNN``,
    cut to ``limit`` characters: safe to put in one log line."""
    out = []
    for char in text[:limit]:
        code = ord(char)
        if char == "\\":
            out.append("\\\\")
        elif char.isprintable():
            out.append(char)
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    if len(text) > limit:
        out.append("...")
    return "".join(out)


class RateLimitedLog:
    """A token bucket per kind of line: BURST at once, then PER_SECOND; what it holds back is
    counted and named in the next line of that kind that gets through."""

    def __init__(self, log: Callable[[str], None], burst: int = BURST, per_second: float = PER_SECOND) -> None:
        self._log = log
        self.burst = burst
        self.per_second = per_second
        self._buckets: dict[str, tuple[float, float, int]] = {}
        self.suppressed = 0

    def admit(self, now: float, kind: str, line: str) -> str | None:
        """``line`` (naming how many like it were held back) if its kind is within its rate, else None."""
        tokens, last, held = self._buckets.pop(kind, (float(self.burst), now, 0))
        tokens = min(float(self.burst), tokens + max(0.0, now - last) * self.per_second)
        if tokens < 1.0:
            self._buckets[kind] = (tokens, now, held + 1)
            self.suppressed += 1
            self._trim()
            return None
        if held:
            line += f" ({held} more like it held back)"
        self._buckets[kind] = (tokens - 1.0, now, 0)
        self._trim()
        return line

    def say(self, now: float, kind: str, line: str) -> bool:
        """Log ``line`` unless its kind is over its rate; True if it was logged."""
        admitted = self.admit(now, kind, line)
        if admitted is None:
            return False
        try:
            self._log(admitted)
        except Exception:  # noqa: BLE001 - the link outlives a broken logger
            pass
        return True

    def _trim(self) -> None:
        while len(self._buckets) > MAX_KINDS:
            del self._buckets[next(iter(self._buckets))]
