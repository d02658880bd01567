"""Flash the firmware onto the board's Pico with mpremote (``pip install mpremote``).

    python -m firmware.deploy [--port /dev/ttyACM0] [--dry-run]

Copies the ``firmware`` package to ``/firmware`` on the Pico and a two-line ``/main.py``
that starts it, then resets the Pico.  The calibration (``/calibration.json``) is left as
it is; ``trictrac calibrate`` writes it.  Modules only the host uses (tests, the synthetic
sensor model, this script) are not copied.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent
HOST_ONLY = {"deploy.py", "synthetic.py", "selfcheck.py"}
BOOT = "import firmware.main\nfirmware.main.run()\n"


def modules_needed(entry: str = "main.py") -> list[str]:
    """The package's module files ``entry`` imports, directly or not (relative imports)."""
    needed: list[str] = []
    todo = [entry, "__init__.py"]
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed.append(name)
        tree = ast.parse((FIRMWARE / name).read_text(), name)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    todo.append(node.module.split(".")[0] + ".py")
                else:
                    todo.extend(alias.name + ".py" for alias in node.names)
    return sorted(needed)


def commands(port: str | None, staging: Path) -> list[list[str]]:
    """The mpremote commands that flash the board."""
    connect = ["mpremote", "connect", port or "auto"]
    out = [connect + ["mkdir", ":firmware"]]  # fails harmlessly when it exists (see run)
    for name in modules_needed():
        out.append(connect + ["fs", "cp", str(FIRMWARE / name), f":firmware/{name}"])
    out.append(connect + ["fs", "cp", str(staging / "main.py"), ":main.py"])
    out.append(connect + ["reset"])
    return out


def main(argv: list[str] | None = None) -> int:
    """Run (or with --dry-run print) the flashing commands."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", help="serial device of the Pico (default: mpremote's auto)")
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")
    args = parser.parse_args(argv)
    missing = sorted(HOST_ONLY & set(modules_needed()))
    if missing:
        print(f"deploy: host-only modules are imported by the firmware: {missing}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        staging = Path(folder)
        (staging / "main.py").write_text(BOOT)
        steps = commands(args.port, staging)
        if args.dry_run:
            for step in steps:
                print(" ".join(step))
            return 0
        if shutil.which("mpremote") is None:
            print("deploy: mpremote is not installed: pip install mpremote", file=sys.stderr)
            return 2
        for index, step in enumerate(steps):
            done = subprocess.run(step, check=False)
            if done.returncode != 0 and index > 0:
                print(f"deploy: failed: {' '.join(step)}", file=sys.stderr)
                return 1
    print("deploy: firmware copied; the Pico restarts. Next: trictrac doctor, then trictrac calibrate.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
