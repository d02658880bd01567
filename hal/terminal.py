"""The terminal as a device: typed rolls and the buttons as words, for a board without
the GPIO parts wired (or with ``dice.mode = "typed"``).

A reader thread turns each line into an event on the queue: two dice (``5 1``, ``51``,
``5-1``) are a typed roll; ``done``, ``takeback``, ``menu`` (or their first letter) press
that button.  Anything else is answered with what it understands, and nothing is posted.
"""

from __future__ import annotations

import threading
from typing import Callable, TextIO

from .interfaces import Button, ButtonEvent, Clock, DiceEvent, DiceKind, EventQueue

WORDS = {"done": Button.DONE, "d": Button.DONE, "takeback": Button.TAKEBACK, "t": Button.TAKEBACK,
         "menu": Button.MENU, "m": Button.MENU}
HELP = "type two dice (5 1), or done / takeback / menu"


def read_line(line: str, clock: Clock) -> DiceEvent | ButtonEvent | None:
    """The event a typed line stands for, or None when it stands for nothing."""
    text = line.strip().lower()
    if text in WORDS:
        return ButtonEvent(clock.now(), WORDS[text])
    digits = [c for c in text if c not in " -:,"]
    if len(digits) == 2 and all(c in "123456" for c in digits):
        return DiceEvent(clock.now(), (int(digits[0]), int(digits[1])), DiceKind.TYPED)
    return None


class TerminalInput:
    """Typed rolls and buttons from a text stream (standard input), posted as events."""

    kind = DiceKind.TYPED

    def __init__(self, stream: TextIO, events: EventQueue, clock: Clock, say: Callable[[str], None]) -> None:
        self._stream = stream
        self._events = events
        self._clock = clock
        self._say = say
        self._thread = threading.Thread(target=self._run, name="terminal-input", daemon=True)

    def start(self) -> TerminalInput:
        """Start reading lines."""
        self._say(f"terminal: {HELP}")
        self._thread.start()
        return self

    def join(self, timeout: float | None = None) -> None:
        """Wait for the stream to end (tests)."""
        self._thread.join(timeout)

    def _run(self) -> None:
        for line in self._stream:
            if not line.strip():
                continue
            event = read_line(line, self._clock)
            if event is None:
                self._say(f"terminal: {line.strip()!r}? {HELP}")
            else:
                self._events.put(event)
