"""The firmware's pure modules, and hw.py over the fake machine, under the real MicroPython
(the WebAssembly port, v1.27.0, run by Node): the same files the Pico runs.

Needs ``node`` and the npm package: ``npm ci --prefix firmware/mpy-test``; skipped otherwise.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "firmware" / "mpy-test" / "run_firmware.mjs"
PACKAGE = ROOT / "firmware" / "mpy-test" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def test_firmware_passes_its_checks_under_micropython():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: MicroPython (WebAssembly) cannot run")
    if not (PACKAGE / "micropython.mjs").exists():
        pytest.skip("MicroPython's npm package is missing: run `npm ci --prefix firmware/mpy-test`")
    run = subprocess.run([node, str(RUNNER)], check=False, cwd=ROOT, capture_output=True, text=True, timeout=120)
    output = run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    assert run.returncode == 0, output
    assert lines and lines[-1] == "firmware-micropython: 3 passed, 0 failed", output
    assert any(line.startswith("ok selfcheck") for line in lines), output
