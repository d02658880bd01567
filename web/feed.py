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

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .actions import MAX_MESSAGE, ActionError, parse_action
from .hub import Hub, Subscriber

GONE = (WebSocketDisconnect, OSError, RuntimeError)
"""What a send or receive raises once the browser has gone (it may go mid-send)."""


def may_play(token: str | None, offered: str | None) -> bool:
    """Whether a browser may act: always without a token, else only with the same token."""
    if token is None:
        return True
    return offered is not None and secrets.compare_digest(offered.encode(), token.encode())


class Feed:
    """One browser's connection: the hello, the states, and its actions into the hub."""

    def __init__(self, websocket: WebSocket, hub: Hub, can_play: bool) -> None:
        self.websocket = websocket
        self.hub = hub
        self.can_play = can_play
        self._send_lock = asyncio.Lock()

    async def run(self) -> None:
        """Serve the browser until it goes (or the server stops); never raises for a lost peer."""
        await self.websocket.accept()
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
        if not self.can_play:
            return "watching only: playing needs the token (open the page as /?token=...)"
        try:
            return self.hub.act(action)
        except Exception as error:  # a sink's failure is one line to the browser, not a lost socket
            return f"action not taken: {error}"

    async def _send(self, text: str) -> None:
        """One text frame, whole, even with the state sender and a reply sending at once."""
        async with self._send_lock:
            if self.websocket.application_state is WebSocketState.CONNECTED:
                await self.websocket.send_text(text)
