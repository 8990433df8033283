"""The engine's public API shows itself with ``>>>`` examples, and the suite runs them."""

from __future__ import annotations

import doctest
import importlib
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = sorted(
    p.parent.relative_to(ROOT).as_posix().replace("/", ".")
    for p in (ROOT / "engine").rglob("__init__.py")
    if "cli" not in p.parts
)


def test_the_suite_runs_the_engines_doctests() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in options["addopts"].split()
    assert "engine" in options["testpaths"]


@pytest.mark.parametrize("name", PACKAGES)
def test_each_package_opens_with_an_example(name: str) -> None:
    module = importlib.import_module(name)
    examples = doctest.DocTestFinder(recurse=False).find(module)
    assert examples and examples[0].examples, f"{name} has no >>> example in its docstring"
