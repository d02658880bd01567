"""Deployment: what mpremote copies to the Pico is exactly what the firmware imports, and
the Pi's service files are sound."""

from __future__ import annotations

import configparser
from pathlib import Path

from firmware import deploy

ROOT = Path(__file__).resolve().parent.parent


def test_deploy_copies_every_module_the_main_loop_imports() -> None:
    needed = deploy.modules_needed()
    assert {"main.py", "device.py", "protocol.py", "board_logic.py", "hw.py", "__init__.py"} <= set(needed)
    assert not deploy.HOST_ONLY & set(needed)
    for name in needed:
        assert (deploy.FIRMWARE / name).exists()


def test_dry_run_prints_the_mpremote_commands(capsys) -> None:  # type: ignore[no-untyped-def]
    assert deploy.main(["--dry-run", "--port", "/dev/ttyACM0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(line.startswith("mpremote connect /dev/ttyACM0 ") for line in lines)
    assert any(line.endswith(":firmware/protocol.py") for line in lines)
    assert any(line.endswith(":main.py") for line in lines) and lines[-1].endswith(" reset")


def test_systemd_unit_runs_the_configured_board() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string((ROOT / "deploy" / "trictrac.service").read_text())
    assert unit["Service"]["ExecStart"].endswith("trictrac run --config /etc/trictrac/board.toml")
    assert unit["Service"]["Restart"] == "on-failure"
    assert "dialout" in unit["Service"]["SupplementaryGroups"]


def test_pi_configuration_loads() -> None:
    from controller.config import load_config

    config = load_config(ROOT / "deploy" / "board.pi.toml")
    assert config.rules.name == "trictrac" and config.gpio is not None
