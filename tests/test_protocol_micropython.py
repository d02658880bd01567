"""The wire protocol codec under the real MicroPython (the WebAssembly port run by Node):
the same file the Pico runs must give the shared vectors' exact bytes.

Needs ``node`` and the npm package: ``npm ci --prefix firmware/mpy-test``; skipped otherwise.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "firmware" / "mpy-test" / "run.mjs"
PACKAGE = ROOT / "firmware" / "mpy-test" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def test_codec_passes_its_checks_under_micropython():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: MicroPython (WebAssembly) cannot run")
    if not (PACKAGE / "micropython.mjs").exists():
        pytest.skip("MicroPython's npm package is missing: run `npm ci --prefix firmware/mpy-test`")
    run = subprocess.run([node, str(RUNNER)], check=False, cwd=ROOT, capture_output=True, text=True, timeout=60)
    output = run.stdout + run.stderr
    last = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    assert run.returncode == 0, output
    assert last.startswith("micropython: ") and last.endswith(" passed, 0 failed"), output
    assert int(last.split()[1]) > 100, output
