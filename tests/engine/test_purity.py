"""The engine is pure: no Django anywhere in engine/, stdlib only, no I/O in the rules."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))

# Modules that hold rules (as opposed to the command line): no file or console I/O.
RULE_MODULES = tuple(
    path.relative_to(ENGINE).with_suffix("").as_posix()
    for path in MODULES
    if path.parts[len(ENGINE.parts)] != "cli" and path.name != "__main__.py"
)
IO_CALLS = {"open", "print", "input", "breakpoint"}


def imported_modules(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_engine_modules_found() -> None:
    assert set(RULE_MODULES) >= {"data", "card/derive", "card/rarity", "match/__init__", "types"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_no_django_import(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = [m for m in imported_modules(tree) if m == "django" or m.startswith("django.")]
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_standard_library_only(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    allowed = set(sys.stdlib_module_names) | {"engine", "__future__"}
    bad = [m for m in imported_modules(tree) if m.split(".")[0] not in allowed]
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("name", RULE_MODULES)
def test_no_io_in_the_rules(name: str) -> None:
    path = ENGINE / f"{name}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    calls = [
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    ]
    assert not IO_CALLS & set(calls), f"{name}.py calls {sorted(IO_CALLS & set(calls))}"
    assert "sys" not in imported_modules(tree) and "os" not in imported_modules(tree)


def test_importing_the_engine_does_not_import_django() -> None:
    code = "import sys, engine, engine.cli; print('django' in sys.modules)"
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ENGINE.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "False"
