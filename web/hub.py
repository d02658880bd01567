"""The bridge between the controller's thread and the web server's event loop.

The controller's loop is the only thread that touches the controller or the simulator: it
``publish``es each new state (a plain JSON-ready dict) and the hub hands the encoded text to
every connected browser on the server's loop.  Browsers' actions go the other way through
``sink``, which the composition root sets: onto the controller's event queue (a real board's
buttons) or into the simulated table's inbox (hand actions), both safe from any thread.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable
from typing import Any

from .actions import Action

Sink = Callable[[Action], str | None]
"""Takes an action from a browser; returns None when taken, else why not (one line)."""


def refuse(action: Action) -> str | None:
    """The sink of a board nobody may play from a browser."""
    return "this board is not played from the browser"


class Subscriber:
    """One browser's feed: only the newest state waits to be sent (a slow page skips states)."""

    def __init__(self) -> None:
        self._ready = asyncio.Event()
        self._text: str | None = None

    def offer(self, text: str) -> None:
        """On the server's loop: replace whatever waits with ``text``."""
        self._text = text
        self._ready.set()

    async def next(self) -> str:
        """The newest state not yet sent, waiting for one."""
        await self._ready.wait()
        self._ready.clear()
        text, self._text = self._text, None
        return text or ""


class Hub:
    """Latest state, its watchers, and where browsers' actions go."""

    def __init__(self, sink: Sink = refuse, web_sides: tuple[str, ...] = ()) -> None:
        self.sink = sink
        self.web_sides = web_sides
        """The colours a browser plays (``--players web``); empty: watching only."""
        self._lock = threading.Lock()
        self._state: dict[str, Any] = {}
        self._text = "{}"
        self._version = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subscribers: set[Subscriber] = set()
        self.published = 0

    # -- the controller's thread ----------------------------------------------------------------
    def publish(self, state: dict[str, Any]) -> None:
        """Make ``state`` the newest (stamped with a version and the time) and send it out."""
        with self._lock:
            self._version += 1
            state = dict(state, version=self._version, output_ms=time.time() * 1000.0)
            self._state = state
            self._text = text = json.dumps({"type": "state", "state": state}, separators=(",", ":"))
            loop = self._loop
        self.published += 1
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._fan_out, text)
            except RuntimeError:  # the server's loop stopped meanwhile
                pass

    # -- the server's loop --------------------------------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's event loop, where subscribers live (called from that loop at start)."""
        with self._lock:
            self._loop = loop

    def state(self) -> dict[str, Any]:
        """The newest state (for ``GET /api/state``)."""
        with self._lock:
            return self._state

    def subscribe(self) -> Subscriber:
        """A new feed, primed with the newest state."""
        subscriber = Subscriber()
        with self._lock:
            text = self._text if self._version else None
        if text is not None:
            subscriber.offer(text)
        self._subscribers.add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """A browser went away."""
        self._subscribers.discard(subscriber)

    @property
    def watchers(self) -> int:
        """Browsers connected now."""
        return len(self._subscribers)

    def _fan_out(self, text: str) -> None:
        for subscriber in tuple(self._subscribers):
            subscriber.offer(text)

    def act(self, action: Action) -> str | None:
        """A browser's action, passed to the sink; None when taken, else why not."""
        return self.sink(action)
