"""Dependencies point one way: the controller talks to hal interfaces, never to a driver or
the simulator (the CLI, the composition root, is the one exception); the rules engine is
pure; hal knows nothing of the game."""

from __future__ import annotations

import ast
import sys
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


@pytest.mark.parametrize("path", modules("controller") + modules("hal") + modules("simulator") + modules("firmware"),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_only_the_composition_root_knows_the_web_face(path: Path) -> None:
    """The web view is a shell around the controller: the CLI starts it, nothing else imports it."""
    if path.name == "cli.py" and path.parent.name == "controller":
        return
    bad = {name for name in imports(path) if name == "web" or name.startswith("web.")}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", modules("controller"), ids=lambda p: str(p.relative_to(ROOT)))
def test_only_the_composition_root_knows_the_outside_engines(path: Path) -> None:
    """The outside engines (gnubg) are optional players: the CLI and the simulator use them."""
    if path.name == "cli.py" and path.parent.name == "controller":
        return
    bad = {name for name in imports(path) if name.split(".")[0] == "engines"}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("path", modules("engines"), ids=lambda p: str(p.relative_to(ROOT)))
def test_outside_engines_use_only_the_game(path: Path) -> None:
    """An outside engine knows the rules, positions and their notation, nothing of the board."""
    bad = {name for name in imports(path)
           if name.split(".")[0] in ("hal", "simulator", "web", "firmware")
           or (name.startswith("controller.") and name.split(".")[1] not in ("rules", "engine", "notation"))}
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


CYCLE_FREE = ("controller", "controller/rules", "hal", "simulator", "web", "engines")
"""Packages whose modules import one another without a circle (add a package here)."""


def module_name(path: Path) -> str:
    """The dotted module name of a source file (a package's ``__init__`` is the package)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_imports(path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``path`` imports anywhere: at the top, in a function or
    under ``if TYPE_CHECKING:`` (a circle hidden there is still a circle of design)."""
    tree = ast.parse(path.read_text(), str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in known:  # from . import state: the module state
                    found.add(f"{source}.{alias.name}")
                elif source in known:
                    found.add(source)
    return found


def import_cycles(folder: str) -> list[list[str]]:
    """Every circle of imports among the modules under ``folder`` (strongly connected groups
    of two or more, or a module importing itself), each sorted, found by Tarjan's method."""
    paths = {module_name(path): path for path in modules(folder)}
    known = set(paths)
    graph = {name: sorted(module_imports(path, known)) for name, path in paths.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for other in graph[name]:
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in on_stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == name:
                    break
            if len(group) > 1 or name in graph[name]:
                cycles.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return cycles


@pytest.mark.parametrize("folder", CYCLE_FREE)
def test_no_import_cycles(folder: str) -> None:
    cycles = import_cycles(folder)
    assert not cycles, f"import circles in {folder}: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_import_cycles_are_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The finder sees a circle closed only by a TYPE_CHECKING import or a function-local one."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n")
    (package / "b.py").write_text("def f():\n    from . import a\n")
    (package / "c.py").write_text("import pkg.a\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert import_cycles("pkg") == [["pkg.a", "pkg.b"]]
