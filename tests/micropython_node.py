"""Running firmware under the real MicroPython: the WebAssembly port from the npm registry,
installed into ``firmware/mpy-test`` on first use (so the README's one test command is
enough on a fresh machine), run by Node.js."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MPY_TEST = ROOT / "firmware" / "mpy-test"
PACKAGE = MPY_TEST / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"


def node_with_micropython() -> str:
    """The ``node`` executable, with the MicroPython package installed; skips the test
    (saying why) only where Node.js or npm is missing or the registry refuses."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: MicroPython (WebAssembly) cannot run")
    if not PACKAGE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed: cannot fetch MicroPython's npm package")
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--prefix", str(MPY_TEST)],
                              capture_output=True, text=True, timeout=300, check=False)
        if done.returncode != 0 or not PACKAGE.exists():
            pytest.skip(f"npm ci --prefix firmware/mpy-test failed: {(done.stderr or done.stdout)[-300:]}")
    return node


def run_micropython(runner: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run one of ``firmware/mpy-test``'s runner scripts under Node."""
    node = node_with_micropython()
    return subprocess.run([node, str(MPY_TEST / runner)], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
