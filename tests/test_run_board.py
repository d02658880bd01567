"""``trictrac run --port`` end to end: the controller on one side of a real pyserial link,
the virtual board (the firmware over simulated sensors, played by simulated players in
real time) on a pseudo-terminal on the other."""

from __future__ import annotations

import io
import json
from pathlib import Path

from controller.cli import main
from controller.notation.position_json import position_to_json
from controller.rules import get_rule_set
from simulator.virtual_device import serve


def test_run_on_the_virtual_board_records_what_the_players_made(tmp_path: Path) -> None:
    path, board = serve("trictrac", 5, players="greedy", speed=3.0, log=lambda line: None)
    journal = tmp_path / "journal.jsonl"
    out = io.StringIO()
    try:
        code = main(["run", "--port", path, "--seconds", "12", "--journal", str(journal)], out=out)
    finally:
        board.stop()
    assert code == 0, out.getvalue()
    text = out.getvalue()
    assert f"Board on {path}" in text
    entries = [json.loads(line) for line in journal.read_text().splitlines()]
    turns = [e for e in entries if e["type"] == "turn"]
    assert turns, text  # some turns were played in 12 s
    truth = board.table.truth[0]
    rules = get_rule_set("trictrac")
    made = truth.turns()
    for entry, record in zip(turns, made):
        assert entry["colour"] == record.colour.value
        assert sorted(entry["roll"]) == sorted(record.roll.dice[:2])
        assert entry["after"] == position_to_json(rules, record.after)
    assert len(made) - len(turns) <= 1  # at most the play in progress when time ran out
    assert "WARNING" not in text


def test_run_on_a_board_without_buttons_takes_typed_words() -> None:
    """No GPIO wired: the terminal stands in for the buttons and typed rolls."""
    from simulator.board import PhysicalBoard
    from simulator.virtual_device import VirtualDevice

    device = VirtualDevice(PhysicalBoard(), seed=2).start()
    out = io.StringIO()
    try:
        code = main(["run", "--port", device.path, "--typed", "--verbose", "--seconds", "3"],
                    out=out, stdin=io.StringIO("menu\n6 1\nbanana\n"))
    finally:
        device.close()
    text = out.getvalue()
    assert code == 0, text
    assert "terminal: type two dice" in text
    assert "trictrac: setup, white to play" in text  # Menu: the status
    # the typed roll, at the wrong moment: refused, or kept while no board has been read yet
    # (the empty board then refuses it: the setup lights stay)
    assert "Set up the board before rolling" in text or "kept until the board is seen set up" in text, text
    assert "'banana'?" in text


def test_run_on_the_virtual_board_with_the_web_view(tmp_path: Path) -> None:
    """``--port`` with ``--web``: the page's state follows the real link and the board's
    turns; a browser may press the board's buttons but not move its checkers."""
    import socket
    import threading
    import time

    import httpx
    from websockets.sync.client import connect

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    path, board = serve("trictrac", 7, players="greedy", speed=3.0, log=lambda line: None)
    out = io.StringIO()
    codes: list[int] = []
    runner = threading.Thread(target=lambda: codes.append(main(
        ["run", "--port", path, "--seconds", "10", "--web", str(port)], out=out)))
    runner.start()
    try:
        state: dict = {}
        deadline = time.monotonic() + 9
        while time.monotonic() < deadline and not (state.get("link") == "connected" and state.get("turns")):
            time.sleep(0.2)
            try:
                state = httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=2).json()
            except httpx.HTTPError:
                continue
        assert state.get("link") == "connected" and state["turns"], (state, out.getvalue())
        assert state["players"] == {"white": "board", "black": "board"} and state["hand"] == {"white": 0, "black": 0}
        with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5) as ws:
            assert json.loads(ws.recv(timeout=5))["can_play"] is True
            ws.send(json.dumps({"type": "lift", "zone": "6", "colour": "white"}))
            answers = [json.loads(ws.recv(timeout=5)) for _ in range(3)]
            assert {"type": "error", "message": "a real board: move its checkers by hand"} in answers, answers
    finally:
        runner.join(20)
        board.stop()
    assert codes == [0], out.getvalue()
    assert "Web view on" in out.getvalue() and "WARNING" not in out.getvalue()
