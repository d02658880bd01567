"""The wire protocol codec under the real MicroPython (the WebAssembly port run by Node):
the same file the Pico runs must give the shared vectors' exact bytes.

Needs ``node``; the npm package is installed on first use (see ``micropython_node``).
"""

from __future__ import annotations

from micropython_node import run_micropython


def test_codec_passes_its_checks_under_micropython():
    run = run_micropython("run.mjs", timeout=60)
    output = run.stdout + run.stderr
    last = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    assert run.returncode == 0, output
    assert last.startswith("micropython: ") and last.endswith(" passed, 0 failed"), output
    assert int(last.split()[1]) > 100, output
