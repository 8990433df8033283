"""Arrows only run down (docs: ARCHITECTURE "The shape").

    config  →  codex_site, sharing  →  explorer, play, packs, arena, wiki  →  cards  →  core  →  engine

Every module of the project's packages is parsed (``ast``, imports inside functions
included, relative imports resolved) and each import of another project package is
checked against its floor: a package imports only the floors below it, and the feature
apps never import each other. The one plug-in point between feature apps is the wiki's
macro registry: an app registers its live wiki tables by importing ``wiki.macros``.
The failure lists every offending import with its file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Each package → the project packages it may import (besides itself).
FEATURE_APPS = ("explorer", "play", "packs", "arena", "wiki")
MAY_IMPORT: dict[str, frozenset[str]] = {
    "engine": frozenset(),
    "core": frozenset({"engine"}),
    "cards": frozenset({"engine", "core"}),
    **{app: frozenset({"engine", "core", "cards"}) for app in FEATURE_APPS},
    "codex_site": frozenset({"engine", "core", "cards", *FEATURE_APPS}),
    "sharing": frozenset({"engine", "core", "cards", *FEATURE_APPS}),
    "config": frozenset({"engine", "core", "cards", *FEATURE_APPS, "codex_site", "sharing"}),
}

#: The one sideways arrow allowed: a feature app registering its wiki tables.
PLUG_IN_POINTS = ("wiki.macros",)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every import of ``path``: its line, the module (absolute) and, for ``from m import
    a, b``, the submodules it may name (``m.a``, ``m.b``)."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.append((node.lineno, name, tuple(f"{name}.{a.name}" for a in node.names)))
    return found


def _allowed(source: str, target: str) -> bool:
    top = target.split(".")[0]
    if top == source or top not in MAY_IMPORT:
        return True  # itself, the standard library, Django, third-party packages
    if top in MAY_IMPORT[source]:
        return True
    return source in FEATURE_APPS and any(
        target == point or target.startswith(point + ".") for point in PLUG_IN_POINTS
    )


def offending_imports() -> list[str]:
    bad = []
    for package in MAY_IMPORT:
        for path in sorted((ROOT / package).rglob("*.py")):
            for line, target, names in imports_of(path):
                if _allowed(package, target) or (
                    names and all(_allowed(package, name) for name in names)
                ):  # ``from wiki import macros`` imports the plug-in point itself
                    continue
                bad.append(f"{path.relative_to(ROOT)}:{line}: {package} imports {target}")
    return bad


def test_arrows_only_run_down():
    bad = offending_imports()
    assert not bad, "Imports running up or sideways:\n" + "\n".join(bad)


def test_every_project_package_has_a_floor():
    """A new top-level package must be placed on a floor here before its imports count."""
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages - {"tests", "bench"} == set(MAY_IMPORT)


def test_the_check_sees_an_upward_and_a_sideways_import(tmp_path, monkeypatch):
    """The guard itself: it catches each kind of arrow it exists for."""
    import tests.test_architecture as guard

    for package in ("core", "play"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "core" / "views.py").write_text("from explorer import presenters\n")
    (tmp_path / "play" / "selectors.py").write_text(
        "from cards.search import search_cards\n"
        "from wiki.macros import register_macro\n"
        "def f():\n    from packs.selectors import binder_tokens\n"
    )
    monkeypatch.setattr(guard, "ROOT", tmp_path)
    assert guard.offending_imports() == [
        "core/views.py:1: core imports explorer",
        "play/selectors.py:4: play imports packs.selectors",
    ]
