"""Dependencies point one way: the controller talks to hal interfaces, never to a driver or
the simulator (the CLI, the composition root, is the one exception); the rules engine is
pure; hal knows nothing of the game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DRIVERS = ("hal.gpio", "hal.serial", "hal.queue", "hal.clock", "gpiozero", "serial")


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names: set[str] = set()
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                names.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                names.add(node.module)
    return names


def modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", modules("controller"), ids=lambda p: str(p.relative_to(ROOT)))
def test_controller_uses_no_driver_and_no_simulator(path: Path) -> None:
    if path.name == "cli.py":
        return
    bad = {
        name for name in imports(path)
        if any(name == d or name.startswith(d + ".") for d in DRIVERS) or name.split(".")[0] == "simulator"
    }
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", modules("controller/rules"), ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_engine_is_pure(path: Path) -> None:
    impure = {"os", "io", "time", "random", "secrets", "socket", "pathlib", "hal", "datetime"}
    bad = {name for name in imports(path) if name.split(".")[0] in impure}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", modules("hal"), ids=lambda p: str(p.relative_to(ROOT)))
def test_hal_knows_nothing_of_the_game(path: Path) -> None:
    bad = {name for name in imports(path) if name.startswith(("controller", "simulator"))}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
