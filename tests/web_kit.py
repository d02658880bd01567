"""Helpers for the web tests: states built by hand as docs/web.md lays them out, a real server
on a free port, WebSocket clients, and headless Chromium (Debian's) driven by Playwright."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import websockets

from hal.zones import LINES, ZONES
from web.hub import Hub
from web.server import WebServer

CHROMIUM = os.environ.get("TRICTRAC_CHROMIUM", "/usr/bin/chromium")
"""Debian's chromium; the browser tests fail (never skip) without it."""
WAIT = 15.0
"""Seconds a test waits for what normally takes milliseconds (a loaded CI box)."""

START = {"I": (2, 0), "VI": (0, 5), "VIII": (0, 3), "XII": (5, 0), "1": (0, 2), "6": (5, 0), "8": (3, 0), "12": (0, 5)}
"""Trictrac's start on the physical board (White's checkers, Black's) by line."""


def own_points() -> dict[str, dict[str, int]]:
    """Each line's own-point number per colour in trictrac (White's 24 is line I)."""
    white = {**{str(n): n for n in range(1, 13)}, **{r: 24 - i for i, r in enumerate(LINES[12:])}}
    black = {**{str(n): 25 - n for n in range(1, 13)}, **{r: i + 1 for i, r in enumerate(LINES[12:])}}
    return {"white": white, "black": black}


def sample_state(**changes: Any) -> dict[str, Any]:
    """A docs/web.md state of trictrac's start, White to play 6-5, with ``changes`` applied."""
    zones = [list(START.get(zone, (0, 0))) for zone in ZONES]
    state: dict[str, Any] = {
        "rules": "trictrac",
        "position": {"rules": "trictrac", "turn": "white",
                     "white": {"points": {"24": 2, "13": 5, "8": 3, "6": 5}, "bar": 0, "off": 0},
                     "black": {"points": {"24": 2, "13": 5, "8": 3, "6": 5}, "bar": 0, "off": 0}},
        "zones": zones,
        "zone_names": list(ZONES),
        "own_points": own_points(),
        "lights": [None] * len(ZONES),
        "dice": [6, 5],
        "phase": "moving",
        "turn": "white",
        "message": "White to play 6-5",
        "warning": None,
        "pips": {"white": 167, "black": 167},
        "turns": [],
        "score": {"white": 0, "black": 0, "match_length": 3, "game": 1},
        "cube": {"value": 1, "owner": None, "offered_by": None},
        "xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:65:0:0:0:3:10",
        "position_id": "4HPwATDgc/ABMA",
        "link": "simulated",
        "hand": {"white": 0, "black": 0},
        "players": {"white": "web", "black": "greedy"},
    }
    state.update(changes)
    return state


def zone(name: str) -> int:
    """A zone's hal index by name."""
    return ZONES.index(name)


@contextmanager
def serving(hub: Hub | None = None, *, records: Path | None = None, token: str | None = None,
            host: str = "127.0.0.1", port: int = 0) -> Iterator[WebServer]:
    """A real server on a real socket for the block; stopped after it."""
    server = WebServer(hub or Hub(), host, port, records, token)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def ws_url(server: WebServer, token: str | None = None) -> str:
    """The feed's address, with a token when given."""
    return server.url.replace("http://", "ws://") + "ws" + (f"?token={token}" if token is not None else "")


class Recorder:
    """A sink that keeps every action it takes (or refuses them all with ``refusal``)."""

    def __init__(self, refusal: str | None = None) -> None:
        self.actions: list[Any] = []
        self.refusal = refusal

    def __call__(self, action: Any) -> str | None:
        self.actions.append(action)
        return self.refusal


async def receive(ws: Any, kind: str, timeout: float = WAIT) -> dict[str, Any]:
    """The next message of type ``kind`` on a client socket (others skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {kind!r} message within {timeout} s")
        message = json.loads(await asyncio.wait_for(ws.recv(), left))
        if message["type"] == kind:
            return message


async def connect(server: WebServer, token: str | None = None) -> Any:
    """A WebSocket client on the feed, its hello read; returns (client, hello)."""
    client = await websockets.connect(ws_url(server, token), max_size=2**22)
    hello = await receive(client, "hello")
    return client, hello


def wait_until(check: Callable[[], Any], timeout: float = WAIT, what: str = "the condition") -> Any:
    """Poll ``check`` until it returns something true; AssertionError naming ``what`` otherwise."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def chromium_path() -> str:
    """Debian's chromium, or the test fails saying how to install it (never skipped)."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does)",
                    pytrace=False)
    return CHROMIUM


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium for the module's tests."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    with sync_playwright() as p:
        chrome = p.chromium.launch(executable_path=path, headless=True,
                                   args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield chrome
        finally:
            chrome.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page (its own context) for one test."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def dom_zones(page: Any) -> list[list[int] | None]:
    """What the page draws per zone: [white, black] or None (unreadable), by hal index."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('[data-zone]'))
        .sort((a, b) => a.dataset.zone - b.dataset.zone)
        .map(z => z.dataset.unreadable ? null : [Number(z.dataset.white), Number(z.dataset.black)])""")


def dom_lights(page: Any) -> list[dict[str, str] | None]:
    """The lamps the page draws by hal index, as the state's ``lights`` writes them."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('[data-light]'))
        .sort((a, b) => a.dataset.light - b.dataset.light)
        .map(l => l.dataset.colour === 'off' ? null : {colour: l.dataset.colour, mode: l.dataset.mode})""")


def drawn_version(page: Any) -> int:
    """The version of the state the page drew last."""
    return int(page.evaluate("document.body.dataset.version") or 0)
