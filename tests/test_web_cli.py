"""``trictrac run --web``: the real command in its own process, reached as a browser does
(HTTP and the WebSocket feed), a whole game played through it, and the token off this machine."""

from __future__ import annotations

import json
import os
import random
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from controller.rules.registry import get_rule_set
from controller.rules.geometry import trictrac_geometry
from controller.rules.values import Colour
from web_person import choose_play, hand_steps

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(*argv: str, cwd: Path) -> tuple[subprocess.Popen[str], str]:
    """``trictrac run`` with ``argv`` in a process; returns it and its first lines up to the web URL."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", *argv], cwd=cwd, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    deadline = time.monotonic() + 30
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "Web view on" in line:
            return process, "".join(lines)
    process.kill()
    raise AssertionError("no web view started: " + "".join(lines))


def stop(process: subprocess.Popen[str]) -> str:
    process.terminate()
    try:
        out, _ = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
    return out


def test_a_whole_game_in_the_browser_through_the_command(tmp_path: Path) -> None:
    """White plays over the WebSocket (lift, place, throw, Done), Black is greedy; the match
    ends, its record is served by the API, and it holds the game the states showed."""
    port = free_port()
    process, head = start("--web", str(port), "--players", "web,greedy", "--speed", "20",
                          "--records", str(tmp_path / "records"), "--journal", str(tmp_path / "journal.jsonl"),
                          cwd=tmp_path)
    geometry = trictrac_geometry()
    rng = random.Random(3)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
            hello = json.loads(ws.recv(timeout=10))
            assert hello["type"] == "hello" and hello["can_play"] and hello["web_sides"] == ["white"]
            state: dict[str, Any] = {}
            done: tuple[Any, ...] | None = None
            end = time.monotonic() + 240
            while time.monotonic() < end and process.poll() is None:
                try:
                    message = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    message = None
                if message is not None:
                    assert message["type"] == "state", message
                    state = message["state"]
                if not state or (state["turn"] not in ("white", None)):
                    continue
                key = (state["phase"], state["turn"], tuple(state["dice"]), len(state["turns"]))
                if state["phase"] == "opening":
                    ws.send(json.dumps({"type": "throw"}))
                    time.sleep(0.2)
                elif key == done:
                    continue
                elif state["phase"] == "await roll":
                    done = key
                    ws.send(json.dumps({"type": "throw"}))
                elif state["phase"] == "moving":
                    done = key
                    chosen = choose_play(state, rng)
                    for move in (chosen[1] if chosen else ()):
                        for kind, zone, checker in hand_steps(geometry, Colour.WHITE, move):
                            ws.send(json.dumps({"type": kind, "zone": zone, "colour": checker.value}))
                            time.sleep(0.01)
                    time.sleep(0.2)
                    ws.send(json.dumps({"type": "press", "button": "done"}))
                elif state["phase"] == "game over":
                    break
            assert state.get("phase") == "game over", state.get("message")
            assert state["warning"] is None
            listed = httpx.get(f"http://127.0.0.1:{port}/api/records", timeout=10).json()["records"]
            assert len(listed) == 1
            record = httpx.get(f"http://127.0.0.1:{port}/api/records/{listed[0]['name']}", timeout=10).text
            assert "Variation \"trictrac\"" in record
            moves = re.findall(r"^\s*\d+\)", record, flags=re.M)
            assert len(moves) >= len(state["turns"]) // 2
    finally:
        out = stop(process)
    assert "Traceback" not in out, out
    assert "wins" in out and process.returncode == 0, (process.returncode, out)


def test_off_this_machine_playing_needs_the_printed_token(tmp_path: Path) -> None:
    port = free_port()
    process, head = start("--web", f"0.0.0.0:{port}", "--players", "web", cwd=tmp_path)
    try:
        token = re.search(r"\?token=([A-Za-z0-9_-]+)", head)
        assert token, head
        with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["can_play"] is False
            ws.send(json.dumps({"type": "throw"}))
            answers = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
            assert any(a["type"] == "error" for a in answers), answers
        with connect(f"ws://127.0.0.1:{port}/ws?token={token.group(1)}", open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["can_play"] is True
        state = httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=10).json()
        assert state["players"] == {"white": "web", "black": "web"} and get_rule_set(state["rules"])
    finally:
        out = stop(process)
    assert "Traceback" not in out, out
