"""Deployment: what mpremote copies to the Pico is exactly what the firmware imports, and
the Pi's service files are sound."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

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


UNIT = ROOT / "deploy" / "trictrac.service"
INSTALL = ROOT / "deploy" / "install-pi.sh"


def unit_settings(section: str = "Service") -> dict[str, list[str]]:
    """Every ``Key=value`` of a section of the unit, repeated keys kept in order."""
    settings: dict[str, list[str]] = {}
    current = None
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = line.strip("[]")
            continue
        if current == section:
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def test_systemd_unit_runs_the_configured_board() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string(UNIT.read_text())
    assert unit["Service"]["ExecStart"].endswith("trictrac run --config /etc/trictrac/board.toml")
    assert unit["Service"]["Restart"] == "on-failure"
    assert "dialout" in unit["Service"]["SupplementaryGroups"]


def test_systemd_unit_is_hardened() -> None:
    service = unit_settings()
    one = {key: values[-1] for key, values in service.items()}
    for key, value in {
        "User": "trictrac", "NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
        "PrivateTmp": "yes", "StateDirectory": "trictrac", "StateDirectoryMode": "0700", "UMask": "0077",
        "DevicePolicy": "closed", "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6", "IPAddressDeny": "any",
        "CapabilityBoundingSet": "", "AmbientCapabilities": "", "SystemCallArchitectures": "native",
        "LockPersonality": "yes", "MemoryDenyWriteExecute": "yes", "RestrictNamespaces": "yes",
        "RestrictRealtime": "yes", "RestrictSUIDSGID": "yes", "RemoveIPC": "yes", "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes", "ProtectKernelLogs": "yes", "ProtectControlGroups": "yes",
        "ProtectClock": "yes", "ProtectHostname": "yes",
    }.items():
        assert one.get(key) == value, f"{key}={one.get(key)!r}, expected {value!r}"
    assert "PrivateDevices" not in one  # it would hide the serial port: DeviceAllow instead
    assert sorted(service["DeviceAllow"]) == sorted(
        ["char-ttyACM rw", "char-ttyAMA rw", "char-gpiochip rw", "/dev/gpiomem rw"])
    assert service["SystemCallFilter"] == ["@system-service", "~@privileged @resources"]
    # the journal and records live in the state directory, the only place it may write
    from controller.config import load_config

    config = load_config(ROOT / "deploy" / "board.pi.toml")
    assert config.journal is not None and config.records is not None
    for path in (config.journal, config.records):
        assert str(path).startswith("/var/lib/trictrac/")
    assert "ReadWritePaths" not in one
    # the web view: this machine and private networks only
    allowed = one["IPAddressAllow"].split()
    assert "localhost" in allowed and "192.168.0.0/16" in allowed and "any" not in allowed
    assert config.web is not None and config.web.port == 8080


def _analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        pytest.skip("systemd-analyze is not installed here")
    return found


def test_systemd_analyze_security_exposure_is_below_3(tmp_path: Path) -> None:
    analyze = _analyze()
    unit = tmp_path / "trictrac.service"
    shutil.copy(UNIT, unit)
    done = subprocess.run([analyze, "security", "--offline=true", "--no-pager", str(unit)],
                          capture_output=True, text=True, timeout=60, check=False)
    match = re.search(r"Overall exposure level for trictrac\.service: ([0-9.]+)", done.stdout)
    assert match, done.stdout + done.stderr
    assert float(match.group(1)) < 3.0, done.stdout


def test_systemd_analyze_verify_finds_nothing(tmp_path: Path) -> None:
    """Every key known and every value valid (systemd 252 verifies offline in a fake root
    holding the system's own units and a stand-in for the ExecStart program)."""
    analyze = _analyze()
    units = Path("/lib/systemd/system")
    if not (units / "sysinit.target").exists():
        pytest.skip("no system units to verify against")
    root = tmp_path / "root"
    shutil.copytree(units, root / "usr" / "lib" / "systemd" / "system", symlinks=True)
    (root / "etc" / "systemd" / "system").mkdir(parents=True)
    shutil.copy(UNIT, root / "etc" / "systemd" / "system" / "trictrac.service")
    program = root / "opt" / "trictrac" / ".venv" / "bin" / "trictrac"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    done = subprocess.run([analyze, "verify", "--man=no", "--generators=no", f"--root={root}", "trictrac.service"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


def test_the_controller_runs_with_memory_deny_write_execute() -> None:
    """MemoryDenyWriteExecute= is the kernel's MDWE: the serial path runs under it (prctl)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 1

    def deny() -> None:
        if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_MDWE)")

    probe = subprocess.run([sys.executable, "-c", "pass"], preexec_fn=deny, capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip("this kernel has no PR_SET_MDWE (Linux 6.3 and later)")
    refused = subprocess.run(
        [sys.executable, "-c", "import mmap; mmap.mmap(-1, 4096, prot=7)"], preexec_fn=deny,
        capture_output=True, check=False)
    assert refused.returncode != 0  # the protection is on
    done = subprocess.run(
        [sys.executable, "-c", "import gpiozero, serial.tools.list_ports; serial.tools.list_ports.comports(); "
         "from controller.cli import main; raise SystemExit(main(['simulate', '--games', '1', '--link', 'serial']))"],
        preexec_fn=deny, capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def _install_script() -> str:
    return INSTALL.read_text()


def test_install_script_is_valid_bash() -> None:
    done = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed here (apt-get install shellcheck)")
    done = subprocess.run([shellcheck, str(INSTALL)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


def _commands(script: str) -> list[str]:
    """The script's commands, continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", script)
    return [line.strip() for line in joined.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_install_script_keeps_the_code_root_owned() -> None:
    commands = _commands(_install_script())
    rsyncs = [c for c in commands if c.startswith("rsync ")]
    assert len(rsyncs) == 1
    rsync = rsyncs[0].split()
    # never -a (it keeps the checkout's owner, group and group-write bits)
    assert not any(re.fullmatch(r"-[a-zA-Z]*a[a-zA-Z]*", flag) for flag in rsync)
    assert "-rlpt" in rsync and "--chown=root:root" in rsync
    chmod = next(flag for flag in rsync if flag.startswith("--chmod="))
    assert "Dgo=rx" in chmod and "Fgo=rX" in chmod and "w" not in chmod.split("go=")[-1]
    assert "chown -R root:root /opt/trictrac" in commands
    assert "chmod -R u+rwX,go+rX,go-w /opt/trictrac" in commands
    assert "install -d -o root -g root -m 0755 /opt/trictrac" in commands
    assert "umask 022" in commands
    # the service user never owns anything under /opt or /etc
    for command in commands:
        if "/opt/trictrac" in command or "/etc/trictrac" in command:
            assert "-o trictrac" not in command and "trictrac:" not in command, command
    # the configuration: root's, readable by the service group
    assert "install -d -o root -g trictrac -m 0750 /etc/trictrac" in commands
    assert "install -o root -g trictrac -m 0640 /opt/trictrac/deploy/board.pi.toml /etc/trictrac/board.toml" in commands
    assert "chmod 0640 /etc/trictrac/board.toml" in commands
    # the state directory is systemd's (StateDirectory=), not made here with other modes
    assert not any(c.startswith("install -d") and "/var/lib/trictrac" in c for c in commands)
    assert "chmod 0700 /var/lib/trictrac" in commands
    # the venv is made and filled by root (the script refuses to run as anyone else)
    assert 'if [ "$(id -u)" -ne 0 ]; then' in commands
    assert not any(c.startswith(("sudo -u", "runuser")) and ("pip install" in c or "-m venv" in c) for c in commands)


def test_the_install_copy_is_root_owned_and_not_group_writable(tmp_path: Path) -> None:
    """The script's own rsync line, run on a checkout owned by someone else with group-write bits."""
    rsync = shutil.which("rsync")
    if rsync is None or os.geteuid() != 0:
        pytest.skip("needs rsync and root (to hand the checkout to another owner)")
    line = next(c for c in _commands(_install_script()) if c.startswith("rsync "))
    source, target = tmp_path / "checkout", tmp_path / "opt"
    (source / "controller").mkdir(parents=True)
    (source / "controller" / "cli.py").write_text("print('hi')\n")
    (source / "deploy").mkdir()
    (source / "deploy" / "install-pi.sh").write_text("#!/bin/sh\n")
    (source / ".git").mkdir()
    for path, mode in [(source / "controller", 0o775), (source / "controller" / "cli.py", 0o664),
                       (source / "deploy" / "install-pi.sh", 0o775)]:
        path.chmod(mode)
    for path in [source, *source.rglob("*")]:
        os.chown(path, 65534, 65534)
    target.mkdir()
    (target / "controller").mkdir()
    (target / "controller" / "cli.py").write_text("old\n")  # an earlier install, loosely owned
    (target / "controller" / "cli.py").chmod(0o666)
    os.chown(target / "controller" / "cli.py", 65534, 65534)
    command = line.replace('"$here"/', f"{source}/").replace("/opt/trictrac/", f"{target}/")
    subprocess.run(command, shell=True, check=True, capture_output=True, timeout=60)
    assert not (target / ".git").exists()
    for path in [target, *target.rglob("*")]:
        info = path.lstat()
        assert (info.st_uid, info.st_gid) == (0, 0), path
        assert not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH), (path, oct(info.st_mode))
    assert (target / "controller" / "cli.py").read_text() == "print('hi')\n"
    assert os.access(target / "deploy" / "install-pi.sh", os.X_OK)


def test_pi_configuration_loads() -> None:
    from controller.config import load_config

    config = load_config(ROOT / "deploy" / "board.pi.toml")
    assert config.rules.name == "trictrac" and config.gpio is not None
