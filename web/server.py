"""The web server: a Starlette application served by uvicorn on its own thread and loop.

``create_app`` holds the routes (the page, its static files, the JSON API, the live feed);
``WebServer`` runs it beside the controller (the controller's thread never waits for it:
states cross through the hub).  Nothing a browser sends reaches the file system beyond one
``.mat`` file named exactly as the records folder lists it.
"""

from __future__ import annotations

import asyncio
import errno
import socket
import threading
import time
from pathlib import Path
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from .feed import Feed, play_refusal
from .hub import Hub

STATIC = Path(__file__).resolve().parent / "static"
"""The page's files, shipped in the package."""
WS_MAX_SIZE = 64 * 1024
"""Bytes of a WebSocket message uvicorn reads at all (a larger one closes the socket with
1009); messages over ``actions.MAX_MESSAGE`` below this are answered with an error."""
RECORD_TYPE = "text/plain; charset=utf-8"
NO_STORE = {"Cache-Control": "no-store"}


def record_files(records: Path | None) -> dict[str, Path]:
    """The ``.mat`` files directly in the records folder (no links, no folders), by name."""
    if records is None:
        return {}
    try:
        entries = list(records.iterdir())
    except OSError:
        return {}
    return {p.name: p for p in entries if p.suffix == ".mat" and not p.is_symlink() and p.is_file()}


def create_app(hub: Hub, *, records: Path | None, token: str | None) -> Starlette:
    """The application: ``/``, ``/static/*``, ``/api/state``, ``/api/records[/name]``,
    ``/api/health`` and the feed ``/ws`` (docs/web.md)."""

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8", headers=NO_STORE)

    async def state(request: Request) -> Response:
        return JSONResponse(hub.state(), headers=NO_STORE)

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "watchers": hub.watchers, "version": hub.state().get("version", 0)},
                            headers=NO_STORE)

    async def record_list(request: Request) -> Response:
        files = record_files(records)
        listing = []
        for name in sorted(files, reverse=True):
            try:
                listing.append({"name": name, "bytes": files[name].stat().st_size})
            except OSError:
                continue
        return JSONResponse({"records": listing}, headers=NO_STORE)

    async def record(request: Request) -> Response:
        path = record_files(records).get(request.path_params["name"])
        if path is None:
            raise HTTPException(404, "no such record")
        return FileResponse(path, media_type=RECORD_TYPE, filename=path.name,
                            headers={"X-Content-Type-Options": "nosniff", **NO_STORE})

    async def feed(websocket: WebSocket) -> None:
        headers = websocket.headers
        refusal = play_refusal(token, websocket.query_params.get("token"), headers.get("origin"), headers.get("host"))
        await Feed(websocket, hub, refusal).run()

    async def http_error(request: Request, error: Exception) -> Response:
        status = error.status_code if isinstance(error, HTTPException) else 500
        detail = error.detail if isinstance(error, HTTPException) else "internal error"
        return JSONResponse({"error": detail}, status_code=status)

    routes = [
        Route("/", index),
        Route("/api/state", state),
        Route("/api/health", health),
        Route("/api/records", record_list),
        Route("/api/records/{name}", record),
        WebSocketRoute("/ws", feed),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: http_error})


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (port 0: a free one), reusable at once after a stop;
    OSError in one line naming the address otherwise."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
    except (OSError, UnicodeError) as error:
        raise OSError(errno.EADDRNOTAVAIL, f"web view: cannot listen on {where}: {_why(error)}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise OSError(error.errno, f"web view: cannot listen on {where}: {_why(error)}") from None
    return sock


def _why(error: BaseException) -> str:
    return (error.strerror if isinstance(error, OSError) and error.strerror else str(error)) or type(error).__name__


class WebServer:
    """The application served by uvicorn on a daemon thread with its own event loop."""

    def __init__(self, hub: Hub, host: str = "127.0.0.1", port: int = 0, records: Path | None = None,
                 token: str | None = None) -> None:
        self.hub = hub
        self.host = host
        self.port = port
        self.records = records
        self.token = token
        self._socket: socket.socket | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None

    @property
    def url(self) -> str:
        """Where the page is (the host as given; an IPv6 address in brackets)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def start(self, timeout: float = 10.0) -> None:
        """Listen and serve; returns once uvicorn accepts connections (OSError if it cannot)."""
        self._socket = listening_socket(self.host, self.port)
        self.port = self._socket.getsockname()[1]
        config = uvicorn.Config(
            create_app(self.hub, records=self.records, token=self.token),
            log_level="warning", access_log=False, log_config=None, lifespan="off",
            ws="websockets-sansio", ws_max_size=WS_MAX_SIZE, ws_per_message_deflate=False,
            timeout_graceful_shutdown=2, server_header=False,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, args=(self._server, self._socket), name="web-server",
                                        daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                why = _why(self._failure) if self._failure else "it did not start in time"
                raise OSError(errno.EIO, f"web view: cannot serve on {self.url}: {why}")
            time.sleep(0.01)

    def stop(self, timeout: float = 5.0) -> None:
        """Close every connection and stop listening (the port is free again at return)."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
        if self._socket is not None:
            self._socket.close()
        self._thread = None

    def _run(self, server: uvicorn.Server, sock: socket.socket) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._serve(server, sock))
        except BaseException as error:  # reported by start() in one line
            self._failure = error
        finally:
            loop.close()

    async def _serve(self, server: uvicorn.Server, sock: socket.socket) -> None:
        self.hub.attach(asyncio.get_running_loop())
        await server.serve(sockets=[sock])
