"""``trictrac run --web``: the web server started beside the simulated board (watched, or
played from the browser) or beside a real board; the command line calls these."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.collector import settle_after_startup
from controller.listen import Listen
from controller.machine import Controller, Output
from controller.rules.values import Colour
from hal.interfaces import Clock, EventQueue

from .hub import Hub, refuse
from .session import Publisher, board_sink, live_sink, token_for
from .view import StateView

Say = Callable[[str], None]


def start_server(listen: Listen, hub: Hub, records: Path | None, configured_token: str | None, say: Say) -> Any:
    """The web server, listening; says where (and the token to play, off this machine)."""
    from .server import WebServer

    token = token_for(listen, configured_token)
    server = WebServer(hub, listen.host, listen.port, records, token)
    server.start()
    say(f"Web view on {server.url}" + (f"  (to play: {server.url}?token={token})" if token else ""))
    return server


def until_stopped(stop: threading.Event) -> None:
    """Wait for Ctrl-C or SIGTERM (the page stays up after the match, until then)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass


def run_simulated_web(controller: Controller, begin: Output | None, make_table: Callable[..., Any],
                      players: dict[Colour, str], listen: Listen, records: Path | None, token: str | None,
                      say: Say, report: Callable[[Output], None], speed: float, stay: bool) -> Any:
    """The simulated board with the web view: watched when no side is ``web``, else a live
    table whose ``web`` colours a browser plays.  Returns the table (its match played, or
    left when stopped)."""
    from simulator.live_table import LiveTable

    people = frozenset(c for c, name in players.items() if name == "web")
    hub = Hub(refuse, tuple(sorted(c.value for c in people)))
    view = StateView(controller, {c.value: name for c, name in players.items()})
    holder: dict[str, Any] = {}
    publish = Publisher(hub, view, hand=lambda: holder["table"].sim.board.hand)

    def observe(output: Output) -> None:
        report(output)
        publish(output)

    table = holder["table"] = make_table(observe, 0.0 if people else speed)
    if begin is not None:
        table.apply(begin)
    publish(begin)
    stop = threading.Event()
    server = start_server(listen, hub, records, token, say)
    try:
        if people:
            live = LiveTable(table, people, speed=speed, on_error=lambda line: say(f"  {line}"))
            hub.sink = live_sink(live)
            settle_after_startup()
            if threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGTERM, lambda *_: live.stop())
            try:
                live.run(until=(lambda: controller.match.winner() is not None) if not stay else None)
            except KeyboardInterrupt:
                pass
            return table
        settle_after_startup()
        table.play_match()
        if stay:
            say("The match is over; the page stays up until Ctrl-C")
            until_stopped(stop)
        return table
    finally:
        server.stop()


def board_hub(events: EventQueue, clock: Clock) -> Hub:
    """The hub of a real board: browsers press its buttons; checkers move by hand."""
    return Hub(board_sink(events, clock), ())
