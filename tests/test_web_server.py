"""The web server over a real socket: the JSON API, the records folder and nothing beyond it,
the live feed (hello, states, refused actions answered, the socket kept), the token."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from pathlib import Path

import httpx
import pytest
import websockets

from web.actions import Lift, Press, Throw
from web.hub import Hub
from web.server import WebServer
from web_kit import Recorder, connect, receive, sample_state, serving, wait_until


def get(server: WebServer, path: str) -> httpx.Response:
    return httpx.get(server.url.rstrip("/") + path, timeout=10)


def test_the_page_its_files_and_the_state_are_served() -> None:
    hub = Hub()
    hub.publish(sample_state())
    with serving(hub) as server:
        page = get(server, "/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert '/static/board.js' in page.text and "cdn" not in page.text.lower()
        assert get(server, "/static/board.js").status_code == 200
        assert get(server, "/static/board.css").headers["content-type"].startswith("text/css")
        state = get(server, "/api/state")
        assert state.json() == hub.state() and state.json()["version"] == 1
        hub.publish(sample_state(dice=[3, 1]))
        assert get(server, "/api/state").json() == hub.state()
        assert get(server, "/api/health").json()["version"] == 2
        missing = get(server, "/no/such/page")
        assert missing.status_code == 404 and missing.json() == {"error": "Not Found"}
        assert get(server, "/static/nothing.js").status_code == 404


@pytest.fixture
def records(tmp_path: Path) -> Path:
    """A records folder with two records, a text file, a subfolder and a link out; a secret
    ``.mat`` beside the folder."""
    folder = tmp_path / "records"
    (folder / "sub").mkdir(parents=True)
    (folder / "2026-11-30-001-trictrac.mat").write_text(" 3 point match\n\n Game 1\n", encoding="utf-8")
    (folder / "2026-11-30-002-rally.mat").write_text(" 0 point match\n", encoding="utf-8")
    (folder / "notes.txt").write_text("not a record", encoding="utf-8")
    (folder / "sub" / "inner.mat").write_text("inner", encoding="utf-8")
    (tmp_path / "secret.mat").write_text("secret", encoding="utf-8")
    os.symlink(tmp_path / "secret.mat", folder / "link.mat")
    return folder


def test_records_are_listed_and_downloaded(records: Path) -> None:
    with serving(records=records) as server:
        listing = get(server, "/api/records").json()
        assert listing == {"records": [{"name": "2026-11-30-002-rally.mat", "bytes": 15},
                                       {"name": "2026-11-30-001-trictrac.mat", "bytes": 24}]}
        answer = get(server, "/api/records/2026-11-30-001-trictrac.mat")
        assert answer.status_code == 200
        assert answer.text == (records / "2026-11-30-001-trictrac.mat").read_text()
        assert answer.headers["content-type"] == "text/plain; charset=utf-8"
        assert answer.headers["content-disposition"].startswith("attachment")
    with serving(records=None) as server:
        assert get(server, "/api/records").json() == {"records": []}
        assert get(server, "/api/records/2026-11-30-001-trictrac.mat").status_code == 404


@pytest.mark.parametrize("name", [
    "..%2Fsecret.mat", "..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "%2F..%2Fsecret.mat", "..", "%2E%2E%2Fsecret.mat",
    "notes.txt", "sub%2Finner.mat", "sub/inner.mat", "link.mat", "missing.mat", "2026-11-30-001-TRICTRAC.MAT",
    "2026-11-30-001-trictrac.mat%00.txt", "..\\secret.mat", "/etc/passwd", "//etc/passwd",
])
def test_nothing_beyond_the_records_folder_is_served(records: Path, name: str) -> None:
    with serving(records=records) as server:
        answer = get(server, "/api/records/" + name)
        assert answer.status_code == 404, answer.text
        assert "secret" not in answer.text and "inner" not in answer.text


def test_a_state_published_reaches_every_socket_and_newcomers_get_the_newest() -> None:
    hub = Hub(web_sides=("white",))
    hub.publish(sample_state())

    async def scene(server: WebServer) -> None:
        first, hello = await connect(server)
        assert hello == {"type": "hello", "can_play": True, "web_sides": ["white"]}
        assert (await receive(first, "state"))["state"] == hub.state()
        hub.publish(sample_state(dice=[2, 2]))
        second, _ = await connect(server)
        for client in (first, second):
            state = (await receive(client, "state"))["state"]
            assert state["version"] == 2 and state["dice"] == [2, 2]
        await first.close()
        await second.close()

    with serving(hub) as server:
        asyncio.run(scene(server))


def test_bad_messages_are_answered_and_the_socket_goes_on() -> None:
    sink = Recorder()
    hub = Hub(sink, ("white",))

    async def scene(server: WebServer) -> None:
        client, _ = await connect(server)
        bad = ["x" * 2000, json.dumps({"type": "lift", "zone": "13" * 600, "colour": "white"}), "not json", "[]",
               '{"type": "lift"}', '{"type": "fly"}', '{"type": "lift", "zone": "25", "colour": "white"}',
               '{"type": "press", "button": "reset"}', '{"type": "throw", "extra": 1}', b"\xff\xfe binary"]
        for message in bad:
            await client.send(message)
            error = await receive(client, "error")
            assert error["message"] and "\n" not in error["message"]
        await client.send('{"type": "lift", "zone": "XII", "colour": "white"}')
        await client.send('{"type": "throw"}')
        await client.send('{"type": "press", "button": "done"}')
        wait_until(lambda: len(sink.actions) == 3, what="three actions taken")
        hub.publish(sample_state())
        assert (await receive(client, "state"))["state"]["version"] == hub.state()["version"]
        await client.close()

    with serving(hub) as server:
        asyncio.run(scene(server))
    assert sink.actions[0] == Lift("XII", sink.actions[0].colour) and sink.actions[0].colour.value == "white"
    assert sink.actions[1:] == [Throw(), Press(sink.actions[2].button)] and sink.actions[2].button.value == "done"


def test_the_sinks_refusal_is_the_browsers_error() -> None:
    hub = Hub(Recorder("a real board: throw the dice in its tray"))

    async def scene(server: WebServer) -> None:
        client, _ = await connect(server)
        await client.send('{"type": "throw"}')
        assert (await receive(client, "error"))["message"] == "a real board: throw the dice in its tray"
        await client.close()

    with serving(hub) as server:
        asyncio.run(scene(server))


def test_a_huge_message_closes_only_its_own_socket(caplog: pytest.LogCaptureFixture) -> None:
    hub = Hub(Recorder())

    async def scene(server: WebServer) -> None:
        client, _ = await connect(server)
        await client.send("x" * 200_000)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(client.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        other, hello = await connect(server)
        assert hello["can_play"]
        await other.close()

    with caplog.at_level(logging.WARNING), serving(hub) as server:
        asyncio.run(scene(server))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.parametrize("offered, plays", [(None, False), ("wrong", False), ("", False), ("s3cret-token", True)])
def test_the_token_is_needed_to_play_and_watching_stays_open(offered: str | None, plays: bool) -> None:
    sink = Recorder()
    hub = Hub(sink, ("white", "black"))
    hub.publish(sample_state())

    async def scene(server: WebServer) -> None:
        client, hello = await connect(server, offered)
        assert hello["can_play"] is plays
        assert (await receive(client, "state"))["state"]["version"] == 1
        await client.send('{"type": "throw"}')
        if not plays:
            assert "token" in (await receive(client, "error"))["message"]
        hub.publish(sample_state(dice=[4, 4]))
        assert (await receive(client, "state"))["state"]["dice"] == [4, 4]
        await client.close()

    with serving(hub, token="s3cret-token", host="127.0.0.1") as server:
        asyncio.run(scene(server))
    assert sink.actions == ([Throw()] if plays else [])


def test_without_a_token_anyone_plays() -> None:
    sink = Recorder()

    async def scene(server: WebServer) -> None:
        client, hello = await connect(server, "anything")
        assert hello["can_play"]
        await client.send('{"type": "throw"}')
        wait_until(lambda: sink.actions, what="the throw")
        await client.close()

    with serving(Hub(sink, ("white",)), token=None) as server:
        asyncio.run(scene(server))


def test_watchers_are_counted() -> None:
    hub = Hub()

    async def scene(server: WebServer) -> None:
        clients = [(await connect(server))[0] for _ in range(3)]
        assert await asyncio.to_thread(wait_until, lambda: hub.watchers == 3, what="three watchers")
        assert (await asyncio.to_thread(get, server, "/api/health")).json()["watchers"] == 3
        await clients.pop().close()
        await asyncio.to_thread(wait_until, lambda: hub.watchers == 2, what="two watchers")
        for client in clients:
            await client.close()
        await asyncio.to_thread(wait_until, lambda: hub.watchers == 0, what="no watcher")

    with serving(hub) as server:
        asyncio.run(scene(server))


def test_clients_that_vanish_mid_send_leave_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    hub = Hub()
    big = sample_state(message="m" * 50_000)

    async def scene(server: WebServer) -> None:
        for _ in range(5):
            client, _ = await connect(server)
            for _ in range(20):
                hub.publish(big)
            client.transport.abort()  # gone without a close frame, states still on the way
        await asyncio.to_thread(wait_until, lambda: hub.watchers == 0, what="the vanished clients dropped")
        survivor, _ = await connect(server)
        hub.publish(sample_state())
        newest = hub.state()["version"]
        while (await receive(survivor, "state"))["state"]["version"] != newest:
            pass  # the state waiting at connect may come first
        await survivor.close()

    with caplog.at_level(logging.DEBUG, logger="uvicorn"), caplog.at_level(logging.WARNING), serving(hub) as server:
        asyncio.run(scene(server))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def test_a_stopped_server_frees_its_port_and_a_busy_port_is_one_line() -> None:
    hub = Hub()
    with serving(hub) as server:
        port = server.port
        with pytest.raises(OSError) as busy:
            WebServer(hub, "127.0.0.1", port).start()
        assert f"cannot listen on 127.0.0.1:{port}" in str(busy.value.strerror) and "\n" not in busy.value.strerror
    with serving(hub, port=port) as again:
        assert again.port == port and get(again, "/api/health").json()["ok"]
    with pytest.raises(OSError, match="cannot listen on no-such-host.invalid"):
        WebServer(hub, "no-such-host.invalid", 0).start()


@pytest.mark.parametrize("origin, plays", [(None, True), ("http://evil.example", False), ("null", False), ("same", True)])
def test_another_sites_page_may_watch_but_not_play(origin: str | None, plays: bool) -> None:
    sink = Recorder()
    hub = Hub(sink, ("white",))
    hub.publish(sample_state())

    async def scene(server: WebServer) -> None:
        sent = f"http://127.0.0.1:{server.port}" if origin == "same" else origin
        client = await websockets.connect(server.url.replace("http://", "ws://") + "ws", origin=sent)
        hello = await receive(client, "hello")
        assert hello["can_play"] is plays
        assert (await receive(client, "state"))["state"]["version"] == 1
        await client.send('{"type": "throw"}')
        if not plays:
            assert "does not play this board" in (await receive(client, "error"))["message"]
        await client.close()

    with serving(hub) as server:
        asyncio.run(scene(server))
    assert sink.actions == ([Throw()] if plays else [])
