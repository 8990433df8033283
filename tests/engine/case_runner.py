"""What the match and arena case files share: play a case's actions, compare the log.

A case file lists actions and what to expect; both games answer an action with a new
state and its events, refuse an illegal one with an ``IllegalActionError`` that has a
``code``, and log events with a ``code`` and ``params``.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest


def event_matches(event, want: dict[str, Any]) -> bool:
    """True when ``event`` has the wanted code and every wanted param."""
    if event.code != want["code"]:
        return False
    return all(event.params.get(k, object()) == v for k, v in want.get("params", {}).items())


def play(state, log: list[Any], actions: list[Any], apply: Callable, refused: type[Exception]):
    """Apply ``actions`` in turn, extending ``log``; only the last one may be refused.

    Returns the last accepted state and the refusal (None when all were accepted)."""
    error = None
    for i, action in enumerate(actions):
        try:
            new_state, events = apply(state, action)
        except refused as exc:
            assert i == len(actions) - 1, f"unexpected {exc.code} at action {i}: {exc}"
            error = exc
            break
        state = new_state
        log.extend(events)
    return state, error


def dump(log: list[Any], to_json: Callable) -> str:
    """The event log, one JSON object a line, for a failure's message."""
    return "\n".join(json.dumps(to_json(e), ensure_ascii=False) for e in log)


def check_refusal(state, actions, error, expect, apply, refused, text: str) -> None:
    """The refusal is the one expected (and applying it again is still refused), or
    there is none when none is expected."""
    if "error" in expect:
        assert error is not None, f"expected {expect['error']}, the action was accepted\n{text}"
        assert error.code == expect["error"], f"{error.code}: {error}\n{text}"
        for key, value in expect.get("error_params", {}).items():
            assert error.params.get(key) == value, (key, error.params)
        # The state is a frozen value: applying the refused action again still raises.
        with pytest.raises(refused):
            apply(state, actions[-1])
    else:
        assert error is None, f"{error.code}: {error}\n{text}"


def check_events(log: list[Any], expect: dict[str, Any], problems: list[str]) -> None:
    """Absent codes and events are absent; expected events form an ordered subsequence."""
    codes = [e.code for e in log]
    for code in expect.get("absent", []):
        if code in codes:
            problems.append(f"event {code} should not occur")
    for want in expect.get("absent_events", []):
        if any(event_matches(e, want) for e in log):
            problems.append(f"no event should match {want}")
    position = 0
    for want in expect.get("events", []):
        while position < len(log) and not event_matches(log[position], want):
            position += 1
        if position == len(log):
            problems.append(f"missing (in this order) event {want}")
            break
        position += 1


def accepted(state, tried: list[Any], apply: Callable, refused: type[Exception]) -> set:
    """The actions of ``tried`` that ``apply`` takes in ``state`` (the legality oracle)."""
    out = set()
    for action in tried:
        try:
            apply(state, action)
        except refused:
            continue
        out.add(action)
    return out


def parse_actions(items: list[Any], sides: Sequence[str], verbs: Mapping[str, Callable]) -> list:
    """A case's actions as engine actions: ``"a attack bite"`` is ``verbs["attack"](0,
    "bite")``; ``{repeat = 3, actions = [...]}`` repeats a list."""
    out = []
    for item in items:
        if isinstance(item, dict):
            for _ in range(item["repeat"]):
                out.extend(parse_actions(item["actions"], sides, verbs))
            continue
        side, verb, *words = item.split()
        if verb not in verbs:  # pragma: no cover - a typo in a case file
            raise AssertionError(f"unknown action {item!r}")
        out.append(verbs[verb](sides.index(side), *words))
    return out


class Problems(list):
    """What a case found wrong, one line each."""

    def same(self, label: str, got: Any, want: Any) -> None:
        if got != want:
            self.append(f"{label}: got {got!r}, expected {want!r}")


def load_cases(files: Iterable[Path], shared: str) -> list[Any]:
    """One pytest param per case of the TOML ``files``: (the file's ``shared`` table, the
    case), named by the file and the case."""
    params = []
    for path in sorted(files):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for case in data["case"]:
            case_id = f"{path.stem}: {case['name']}"
            params.append(pytest.param(data.get(shared, {}), case, id=case_id))
    return params
