"""The live feed at ``/ws``: one browser's WebSocket, fed every new state and read for actions.

On connect the browser gets a ``hello`` (whether it may play, which colours the browser
plays) and the newest state; after that every state the hub publishes (a slow page skips to
the newest).  Sending and reading run side by side, so a browser that never speaks still
sees the game and one that floods its messages does not delay the states.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any
from urllib.parse import urlsplit

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .actions import MAX_MESSAGE, ActionError, parse_action
from .hub import Hub, Subscriber

GONE = (WebSocketDisconnect, OSError, RuntimeError)
"""What a send or receive raises once the browser has gone (it may go mid-send)."""


def play_refusal(token: str | None, offered: str | None, origin: str | None = None, host: str | None = None) -> str | None:
    """Why a browser may only watch, or None when it may act: it needs the token when there is
    one, and must come from the board's own page (a browser always sends its page's
    ``Origin``; another site's page opening this socket, WebSockets knowing no same-origin
    rule, may watch but not play)."""
    if origin is not None and urlsplit(origin).netloc.lower() != (host or "").lower():
        return f"watching only: a page from {origin} does not play this board"
    if token is not None and (offered is None or not secrets.compare_digest(offered.encode(), token.encode())):
        return "watching only: playing needs the token (open the page as /?token=...)"
    return None


class Feed:
    """One browser's connection: the hello, the states, and its actions into the hub."""

    def __init__(self, websocket: WebSocket, hub: Hub, refusal: str | None) -> None:
        self.websocket = websocket
        self.hub = hub
        self.refusal = refusal
        """Why this browser only watches; None when it may act."""
        self.can_play = refusal is None
        self._send_lock = asyncio.Lock()

    async def run(self) -> None:
        """Serve the browser until it goes (or the server stops); never raises for a lost peer."""
        try:
            await self.websocket.accept()
        except GONE:
            return
        subscriber = self.hub.subscribe()
        sender: asyncio.Task[None] | None = None
        try:
            await self._send(json.dumps({"type": "hello", "can_play": self.can_play,
                                         "web_sides": list(self.hub.web_sides)}))
            sender = asyncio.create_task(self._states(subscriber))
            await self._actions()
        except GONE:
            pass
        finally:
            self.hub.unsubscribe(subscriber)
            if sender is not None:
                sender.cancel()
                await asyncio.gather(sender, return_exceptions=True)

    async def _states(self, subscriber: Subscriber) -> None:
        """Send every state the hub offers, newest first whenever the browser lags."""
        try:
            while True:
                await self._send(await subscriber.next())
        except GONE:
            pass

    async def _actions(self) -> None:
        """Read the browser's messages, each answered only when refused."""
        while True:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            data: Any = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            refusal = self._refusal(data)
            if refusal is not None:
                await self._send(json.dumps({"type": "error", "message": refusal}))

    def _refusal(self, data: str | bytes) -> str | None:
        """Why one message is not taken, or None once the hub took it."""
        size = len(data.encode("utf-8", "replace")) if isinstance(data, str) else len(data)
        if size > MAX_MESSAGE:
            return f"message of {size} bytes refused: at most {MAX_MESSAGE}"
        try:
            action = parse_action(data)
        except ActionError as error:
            return str(error)
        if self.refusal is not None:
            return self.refusal
        try:
            return self.hub.act(action)
        except Exception as error:  # a sink's failure is one line to the browser, not a lost socket
            return f"action not taken: {error}"

    async def _send(self, text: str) -> None:
        """One text frame, whole, even with the state sender and a reply sending at once."""
        async with self._send_lock:
            if self.websocket.application_state is WebSocketState.CONNECTED:
                await self.websocket.send_text(text)
