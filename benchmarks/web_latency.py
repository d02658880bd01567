"""Benchmark: what the web view costs and how fast it follows the board.  Not a test.

1. A page in headless Chromium (Debian's) watches a simulated game at speed: the page's
   update latency from the controller's output to its DOM (``window.trictracLatencies``:
   ``Date.now()`` when drawn minus the state's ``output_ms``), median and p99, and the time
   to build one state from the controller; a screenshot of the page mid-game goes to
   ``docs/web-page.png``.
2. Watching browsers: N WebSocket clients (the ``websockets`` library, in a separate process
   so their memory and CPU are not the server's) watch while states are published at a
   steady rate: the delivery latency of a state to all N (median, p99, max), states a slow
   client skipped, the server's RSS growth and CPU per state.

    python benchmarks/web_latency.py [--watchers 1,10,50,200] [--rate 20] [--seconds 5]
        [--pace 20] [--no-browser] [--screenshot docs/web-page.png] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.machine import Controller, Settings  # noqa: E402 - after the path is set
from controller.rules.registry import get_rule_set  # noqa: E402
from simulator.players import Behaviour, GreedyPlayer, RandomPlayer  # noqa: E402
from simulator.table import Table  # noqa: E402
from web.hub import Hub  # noqa: E402
from web.server import WebServer  # noqa: E402
from web.session import Publisher  # noqa: E402
from web.view import StateView  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
VERSION = re.compile(r'"version":(\d+)')


def rss_mb() -> float:
    """This process's resident memory now, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def quantiles(values: list[float]) -> dict[str, float]:
    """Median, p99 and max, rounded to 0.1."""
    if not values:
        return {"median": float("nan"), "p99": float("nan"), "max": float("nan")}
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return {"median": round(statistics.median(ordered), 1), "p99": round(p99, 1), "max": round(ordered[-1], 1)}


class TimedPublisher(Publisher):
    """A publisher that keeps how long each state took to build and hand over, in ms."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.build_ms: list[float] = []

    def __call__(self, output: Any = None) -> None:
        started = time.perf_counter()
        super().__call__(output)
        self.build_ms.append((time.perf_counter() - started) * 1000)


def simulated_game(pace: float, seed: int) -> tuple[Controller, Hub, TimedPublisher, Table]:
    """A trictrac game between simulated players (some illegal attempts), publishing to a hub."""
    controller = Controller(Settings(get_rule_set("trictrac"), match_length=1))
    hub = Hub()
    holder: dict[str, Table] = {}
    publish = TimedPublisher(hub, StateView(controller, {"white": "greedy", "black": "random"}),
                             hand=lambda: holder["t"].sim.board.hand)
    table = holder["t"] = Table(controller.settings, seed=seed, players=(GreedyPlayer(), RandomPlayer()),
                                behaviour=Behaviour(illegal_rate=0.15), controller=controller, observer=publish, pace=pace)
    publish()
    return controller, hub, publish, table


def page_latency(pace: float, screenshot: Path | None, seed: int) -> dict[str, Any]:
    """A game at ``pace`` watched by one Chromium page: its update latencies; a screenshot."""
    from playwright.sync_api import sync_playwright

    controller, hub, publish, table = simulated_game(pace, seed)
    server = WebServer(hub, "127.0.0.1", 0)
    server.start()
    shot_taken = False
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                        args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
            page = browser.new_page(viewport={"width": 1280, "height": 820})
            page.goto(server.url)
            page.wait_for_function("Number(document.body.dataset.version) > 0")
            game = threading.Thread(target=table.play_match, daemon=True)
            started = time.monotonic()
            game.start()
            while game.is_alive():
                game.join(0.1)
                state = hub.state()
                if screenshot is not None and not shot_taken and len(state.get("turns", [])) >= 14 \
                        and state.get("phase") == "moving" and any(state.get("lights", [])):
                    page.wait_for_function(f"Number(document.body.dataset.version) >= {state['version']}")
                    screenshot.parent.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(screenshot), full_page=True)
                    shot_taken = True
            elapsed = time.monotonic() - started
            page.wait_for_function(f"Number(document.body.dataset.version) >= {hub.state()['version']}")
            latencies = page.evaluate("window.trictracLatencies")[1:]  # the first: the state waiting at connect
            drawn = len(latencies) + 1
            browser.close()
    finally:
        server.stop()
    return {"pace": pace, "states_published": hub.published, "states_drawn": drawn, "game_seconds": round(elapsed, 1),
            "turns": len(controller.match.games[0].turns()), "latency_ms": quantiles(latencies),
            "slowest_ms": [round(x, 1) for x in sorted(latencies)[-5:]],
            "state_build_ms": quantiles(publish.build_ms), "screenshot": str(screenshot) if shot_taken else None}


def watchers_run(hub: Hub, server: WebServer, state: dict[str, Any], n: int, rate: float, seconds: float) -> dict[str, Any]:
    """``n`` watchers in a child process; states published at ``rate`` a second for ``seconds``."""
    url = server.url.replace("http://", "ws://") + "ws"
    child = subprocess.Popen([sys.executable, __file__, "--clients", str(n), "--url", url],
                             stdout=subprocess.PIPE, stdin=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while hub.watchers < n:
        if time.monotonic() > deadline or child.poll() is not None:
            child.kill()
            raise SystemExit(f"only {hub.watchers} of {n} watchers connected")
        time.sleep(0.05)
    time.sleep(0.3)
    rss_connected = rss_mb()
    cpu_before = time.process_time()
    published: dict[int, float] = {}
    count = int(rate * seconds)
    next_at = time.monotonic()
    for _ in range(count):
        hub.publish(state)
        version = hub.state()["version"]
        published[version] = hub.state()["output_ms"]
        next_at += 1 / rate
        time.sleep(max(0.0, next_at - time.monotonic()))
    time.sleep(1.0)
    cpu = time.process_time() - cpu_before
    rss_after = rss_mb()
    out, _ = child.communicate("stop\n", timeout=120)
    received: list[dict[str, float]] = json.loads(out)
    to_all, skipped = [], 0
    for version, sent in published.items():
        times = [got.get(str(version)) for got in received]
        if any(t is None for t in times):
            skipped += sum(t is None for t in times)
            continue
        to_all.append(max(times) - sent)  # type: ignore[type-var]
    return {"watchers": n, "states": count, "state_bytes": len(json.dumps({"type": "state", "state": state}, separators=(",", ":"))), "delivery_to_all_ms": quantiles(to_all),
            "skipped": skipped, "rss_connected_mb": round(rss_connected, 1), "rss_after_mb": round(rss_after, 1),
            "server_cpu_ms_per_state": round(cpu * 1000 / count, 2)}


async def clients(n: int, url: str) -> list[dict[str, float]]:
    """``n`` watchers; each keeps the wall-clock ms its states arrived, by version, until stdin says stop."""
    import websockets

    got: list[dict[str, float]] = [{} for _ in range(n)]
    gate = asyncio.Semaphore(20)

    async def one(i: int) -> None:
        async with gate:
            ws = await websockets.connect(url, max_size=2**22, compression=None, open_timeout=60)
        try:
            async for message in ws:
                now = time.time() * 1000
                found = VERSION.search(message if isinstance(message, str) else message.decode())
                if found:
                    got[i][int(found.group(1))] = now
        except websockets.ConnectionClosed:
            pass

    tasks = [asyncio.create_task(one(i)) for i in range(n)]
    await asyncio.to_thread(sys.stdin.readline)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return [{str(k): v for k, v in g.items()} for g in got]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", default="1,10,50,200")
    parser.add_argument("--rate", type=float, default=20.0, help="states a second while the watchers watch")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--pace", type=float, default=20.0, help="virtual seconds per second of the watched game")
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--screenshot", type=Path, default=ROOT / "docs" / "web-page.png")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--clients", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.clients:
        print(json.dumps(asyncio.run(clients(args.clients, args.url))))
        return 0
    report: dict[str, Any] = {"cores": os.cpu_count()}
    if not args.no_browser:
        if not os.access(CHROMIUM, os.X_OK):
            print(f"web_latency: {CHROMIUM} is missing (apt-get install -y chromium)", file=sys.stderr)
            return 2
        report["page"] = page_latency(args.pace, args.screenshot, args.seed)
    _controller, hub, _publish, table = simulated_game(0.0, args.seed)
    table.play_match()  # a finished game: the state with the longest list of turns
    state = {k: v for k, v in hub.state().items() if k not in ("version", "output_ms")}
    rss_idle = rss_mb()
    server = WebServer(hub, "127.0.0.1", 0)
    server.start()
    time.sleep(0.2)
    report["rss_server_idle_mb"] = round(rss_mb(), 1)
    report["rss_before_server_mb"] = round(rss_idle, 1)
    runs = []
    try:
        for n in (int(x) for x in args.watchers.split(",") if x.strip()):
            runs.append(watchers_run(hub, server, state, n, args.rate, args.seconds))
            deadline = time.monotonic() + 30
            while hub.watchers and time.monotonic() < deadline:
                time.sleep(0.05)
    finally:
        server.stop()
    report["watchers"] = runs
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    page = report.get("page")
    if page:
        lat, build = page["latency_ms"], page["state_build_ms"]
        print(f"page: a game at pace {page['pace']}: {page['states_published']} states published, {page['states_drawn']} "
              f"drawn in {page['game_seconds']} s; controller output -> page DOM: median {lat['median']} ms, "
              f"p99 {lat['p99']} ms, max {lat['max']} ms; building a state: median {build['median']} ms, "
              f"p99 {build['p99']} ms; slowest {page['slowest_ms']}")
        if page["screenshot"]:
            print(f"screenshot: {page['screenshot']}")
    print(f"server RSS: {report['rss_before_server_mb']} MB before the server, {report['rss_server_idle_mb']} MB "
          f"serving nobody")
    for run in runs:
        d = run["delivery_to_all_ms"]
        print(f"{run['watchers']:4d} watchers, {run['states']} states of {run['state_bytes']} bytes at {args.rate:g}/s: "
              f"to all: median {d['median']} ms, p99 {d['p99']} ms, max {d['max']} ms; skipped {run['skipped']}; "
              f"RSS {run['rss_connected_mb']} -> {run['rss_after_mb']} MB; server CPU {run['server_cpu_ms_per_state']} "
              f"ms a state")
    return 0


if __name__ == "__main__":
    sys.exit(main())
