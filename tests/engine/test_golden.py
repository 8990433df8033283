"""Golden cases: card JSON in, expected Breakdown JSON (a subset) out.

Each file in ``cases/`` holds ``{"description", "cases": [...]}``; a case is
``{"id", "note"?, "card", "expect", "trace_includes"?}``. ``expect`` is matched
against ``breakdown_to_json(derive(card))``: mappings by the keys they name,
lists element by element (same length). Each ``trace_includes`` item must
match at least one trace step the same way. A failure prints the whole trace.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.card.derive import derive
from engine.serialize import breakdown_to_json, card_from_json

CASES_DIR = Path(__file__).parent / "cases"


def _load() -> list[Any]:
    params = []
    for path in sorted(CASES_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            params.append(pytest.param(case, id=f"{path.stem}:{case['id']}"))
    return params


CASES = _load()


def mismatches(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where ``actual`` differs from ``expected`` (mappings compared by expected keys)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '.'}: expected an object, got {actual!r}"]
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key}: missing")
            else:
                problems += mismatches(value, actual[key], f"{path}.{key}")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        problems = []
        for i, (exp, act) in enumerate(zip(expected, actual, strict=True)):
            problems += mismatches(exp, act, f"{path}[{i}]")
        return problems
    if type(expected) is not type(actual) or expected != actual:
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


def format_trace(trace: list[dict[str, Any]]) -> str:
    """The trace, one step a line: code, params, → value."""
    return "\n".join(
        f"  {i:2d} {s['code']} {json.dumps(s['params'], ensure_ascii=False)} → "
        f"{json.dumps(s['value'], ensure_ascii=False)}"
        for i, s in enumerate(trace)
    )


def test_enough_cases() -> None:
    assert len(CASES) >= 60


def test_case_ids_are_unique() -> None:
    ids = [p.id for p in CASES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("case", CASES)
def test_golden(case: dict[str, Any]) -> None:
    out = breakdown_to_json(derive(card_from_json(case["card"])))
    problems = mismatches(case["expect"], out)
    for wanted in case.get("trace_includes", []):
        if not any(not mismatches(wanted, step) for step in out["trace"]):
            problems.append(f"trace: no step matches {json.dumps(wanted, ensure_ascii=False)}")
    assert not problems, (
        f"{case['id']}: {case.get('note', '')}\n"
        + "\n".join(problems)
        + "\ntrace:\n"
        + format_trace(out["trace"])
    )
