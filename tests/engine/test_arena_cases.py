"""The arena match scenario table: tests/engine/arena_cases/match_*.toml, one file per rule
of docs/rules.md §8 (and its settled part).

Each file defines slabs in its [slabs] table (``grade``, ``year``, ``value``; an ``id``
when the element matters — without one a slab gets the next free Sun asset ID, so two
such slabs never get an element bonus against each other). A case names both teams (slab
keys, team order: the first starts on the field), a ``seed`` (1: side a moves first, 0:
side b), its actions ("a pass", "b attack basic", "a attack power", "a swap 2",
"b replace 1", "a timeout", "b surrender", or {repeat = N, actions = [...]}) and a
hand-computed expectation. Only the last action may be refused. A failure prints the
whole event log.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from engine.arena.match import (
    SIDES,
    ArenaState,
    Attack,
    Pass,
    Replace,
    Surrender,
    Swap,
    Timeout,
    apply,
    new_match,
    opening_events,
)
from engine.arena.slabs import Element, InvalidTeamError, Slab, SlabMove, element_of, slab_stats
from engine.errors import IllegalArenaActionError
from tests.engine.case_runner import (
    Problems,
    check_events,
    check_refusal,
    dump,
    load_cases,
    parse_actions,
    play,
)

CASES_DIR = Path(__file__).parent / "arena_cases"
SUN_IDS = [f"sun-{i}" for i in range(200) if element_of(f"sun-{i}") is Element.SUN]


def _load_cases() -> list[Any]:
    return load_cases(CASES_DIR.glob("match_*.toml"), "slabs")


def _teams(slabs: dict[str, Any], case: dict[str, Any]) -> tuple[list, list]:
    free = iter(SUN_IDS)
    teams = []
    for side in SIDES:
        team = []
        for key in case[side]:
            raw = slabs[key]
            asset_id = raw.get("id") or next(free)
            slab = Slab(asset_id, raw.get("name", key), Decimal(str(raw["grade"])), raw["year"])
            team.append(slab_stats(slab, Decimal(raw["value"])))
        teams.append(team)
    return teams[0], teams[1]


_VERBS = {
    "pass": Pass,
    "attack": lambda side, move: Attack(side, SlabMove(move)),
    "swap": lambda side, slab: Swap(side, int(slab)),
    "replace": lambda side, slab: Replace(side, int(slab)),
    "timeout": Timeout,
    "surrender": Surrender,
}


def _check(state: ArenaState, log: list[Any], expect: dict[str, Any]) -> list[str]:
    problems = Problems()
    sides = state.sides

    same = problems.same

    for key, attr in (("energy", "energy"), ("points", "points"), ("timeouts", "timeouts")):
        if key in expect:
            same(key, [getattr(sides[0], attr), getattr(sides[1], attr)], expect[key])
    for side, want in expect.get("hp", {}).items():
        same(f"hp.{side}", list(sides[SIDES.index(side)].hp), want)
    for side, want in expect.get("active", {}).items():
        active = sides[SIDES.index(side)].active
        same(f"active.{side}", -1 if active is None else active, want)
    if "turn" in expect:
        same("turn", state.turn, expect["turn"])
    if "to_move" in expect:
        same("to_move", SIDES[state.to_move], expect["to_move"])
    if "first" in expect:
        same("first", SIDES[state.first], expect["first"])
    if "over" in expect:
        same("over", state.over, expect["over"])
    if "result" in expect:
        same("result", state.result, expect["result"])
    if "reason" in expect:
        same("reason", None if state.end is None else str(state.end), expect["reason"])
    check_events(log, expect, problems)
    return problems


@pytest.mark.parametrize(("slabs", "case"), _load_cases())
def test_arena_case(slabs, case):
    expect = case.get("expect", {})
    team_a, team_b = _teams(slabs, case)
    if "team_error" in expect:
        with pytest.raises(InvalidTeamError) as info:
            new_match(team_a, team_b, case.get("seed", 1), bracket=case.get("bracket"))
        assert info.value.code == expect["team_error"], str(info.value)
        return
    state = new_match(team_a, team_b, case.get("seed", 1), bracket=case.get("bracket"))
    log = list(opening_events(state))
    actions = parse_actions(case.get("actions", []), SIDES, _VERBS)
    state, error = play(state, log, actions, apply, IllegalArenaActionError)
    text = dump(log, lambda e: e.to_json())
    check_refusal(state, actions, error, expect, apply, IllegalArenaActionError, text)
    problems = _check(state, log, expect)
    assert not problems, "\n".join(problems) + "\n--- event log ---\n" + text
