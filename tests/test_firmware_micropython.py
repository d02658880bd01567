"""The firmware's pure modules, and hw.py over the fake machine, under the real MicroPython
(the WebAssembly port, v1.27.0, run by Node): the same files the Pico runs.

Needs ``node``; the npm package is installed on first use (see ``micropython_node``).
"""

from __future__ import annotations

from micropython_node import run_micropython


def test_firmware_passes_its_checks_under_micropython():
    run = run_micropython("run_firmware.mjs", timeout=120)
    output = run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    assert run.returncode == 0, output
    assert lines and lines[-1] == "firmware-micropython: 3 passed, 0 failed", output
    assert any(line.startswith("ok selfcheck") for line in lines), output
