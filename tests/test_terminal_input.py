"""Typed rolls and buttons from the terminal, for a board without GPIO buttons."""

from __future__ import annotations

import io

from hal.clock import MonotonicClock
from hal.interfaces import Button, ButtonEvent, DiceEvent, DiceKind
from hal.queue import ThreadSafeQueue
from hal.terminal import TerminalInput


def test_lines_become_rolls_and_button_presses() -> None:
    events = ThreadSafeQueue()
    said: list[str] = []
    reader = TerminalInput(io.StringIO("5 1\n\n64\ndone\nt\nbanana\n7 1\nmenu\n"), events, MonotonicClock(), said.append)
    reader.start().join(5)
    got = events.drain()
    assert [type(e) for e in got] == [DiceEvent, DiceEvent, ButtonEvent, ButtonEvent, ButtonEvent]
    assert got[0].dice == (5, 1) and got[1].dice == (6, 4) and got[0].kind is DiceKind.TYPED
    assert [e.button for e in got[2:]] == [Button.DONE, Button.TAKEBACK, Button.MENU]
    assert sum("banana" in line for line in said) == 1 and sum("'7 1'" in line for line in said) == 1
