"""Benchmark: what a hostile or broken board costs the Pi.  Not a test.

A real ``BoardLink`` (on a real pseudo-terminal, with its reader thread) and the real
bounded event queue take a flood from the "device": ERROR frames with forged log lines, then
SNAPSHOT frames, while nobody takes events from the queue (a stuck controller, the worst
case).  It prints the process's peak memory growth, the log lines written, the events left
queued and the events dropped.  Before protocol v2 the same floods grew the Pi from 18 to
199 MB (10^6 ERRORs) and from 19 to 429 MB (40 s of SNAPSHOTs).

    python benchmarks/link_flood.py [--errors N] [--snapshots N] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware import protocol as p  # noqa: E402 - after the path is set
from hal.clock import MonotonicClock  # noqa: E402
from hal.queue import ThreadSafeQueue  # noqa: E402
from hal.serial_link import BoardLink, LinkState  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from serial_kit import PtyPeer  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def hello_answer(data: bytes) -> bytes:
    """The device's answer to the Pi's frames: a HELLO to every HELLO_REQUEST."""
    out = bytearray()
    for msg_type, seq, _payload in p.Decoder().feed(data):
        if msg_type == p.HELLO_REQUEST:
            out += p.encode(p.HELLO, seq, p.hello_payload("flood", p.CAP_ALL, b"\x00" * 8))
    return bytes(out)


def flood(peer: PtyPeer, frames: list[bytes], total: int, link: BoardLink) -> float:
    """Write ``total`` frames (cycling through ``frames``) and wait until the link has read them."""
    chunk = b"".join(frames)
    _connection, _sent, start = link.traffic()
    started = time.perf_counter()
    written = 0
    for _ in range(0, total, len(frames)):
        peer.inject(chunk)  # blocks while the pty is full: the link reads at its own pace
        written += len(chunk)
    link.wait_until(lambda: link.traffic()[2] - start >= written, 300)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", type=int, default=1_000_000)
    parser.add_argument("--snapshots", type=int, default=300_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    logs: list[str] = []
    events = ThreadSafeQueue()
    peer = PtyPeer(hello_answer)
    link = BoardLink(peer.path, events, MonotonicClock(), logs.append).start()
    link.wait_connected(10)
    assert link.state is LinkState.CONNECTED
    before = peak_mb()

    errors = [p.encode(p.ERROR, n, p.error_payload(p.SENSOR_FAULT, "zone %d\nboard link: FORGED \x1b[2J" % n))
              for n in range(256)]
    error_seconds = flood(peer, errors, args.errors, link)
    after_errors = peak_mb()
    error_logs = len(logs)

    zones = [(n % 16, 0) for n in range(p.ZONE_COUNT)]
    snaps = [p.encode(p.SNAPSHOT, n, p.snapshot_payload(n * 7 & 0xFFFF, zones)) for n in range(256)]
    snapshot_seconds = flood(peer, snaps, args.snapshots, link)
    after_snapshots = peak_mb()
    link.close()
    peer.close()

    report = {
        "errors": args.errors,
        "error_flood_seconds": round(error_seconds, 1),
        "snapshots": args.snapshots,
        "snapshot_flood_seconds": round(snapshot_seconds, 1),
        "peak_mb_connected": round(before, 1),
        "peak_mb_after_errors": round(after_errors, 1),
        "peak_mb_after_snapshots": round(after_snapshots, 1),
        "log_lines": len(logs),
        "log_lines_during_errors": error_logs,
        "forged_lines": sum(1 for line in logs if "\n" in line or "\x1b" in line),
        "events_queued": len(events),
        "events_dropped": dict(events.dropped),
        "device_errors_kept": len(link.protocol.errors),
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for key, value in report.items():
            print(f"{key:26} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
