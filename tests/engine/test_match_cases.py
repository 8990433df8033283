"""The match scenario table: tests/engine/match_cases/*.toml, one file per rule of docs/rules.md §6.

Each case names two decks (cards defined in the file's [cards] table), a list of actions
("a pick 0", "b boost switch 1", "a commit", "b surrender", or {repeat = N, actions = [...]})
and a hand-computed expectation. A failure prints the whole event log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.match import (
    SIDES,
    Boost,
    Commit,
    IllegalActionError,
    InvalidDeckError,
    MatchState,
    Pick,
    Surrender,
    apply,
    new_match,
    opening_events,
)
from engine.serialize import event_to_json, match_card_from_json
from tests.engine.case_runner import (
    Problems,
    check_events,
    check_refusal,
    dump,
    load_cases,
    parse_actions,
    play,
)

CASES_DIR = Path(__file__).parent / "match_cases"


def _load_cases() -> list[Any]:
    return load_cases(CASES_DIR.glob("*.toml"), "cards")


def _card(cards: dict[str, Any], key: str):
    raw = dict(cards[key])
    raw.setdefault("id", key)
    raw.setdefault("name", key.replace("_", " ").title())
    return match_card_from_json(raw)


_VERBS = {
    "pick": lambda side, card: Pick(side, int(card)),
    "boost": lambda side, key, card=None: Boost(side, key, None if card is None else int(card)),
    "commit": Commit,
    "surrender": Surrender,
}


def _check(state: MatchState, log: list[Any], expect: dict[str, Any]) -> list[str]:
    problems = Problems()
    p = state.players

    same = problems.same

    if "hero" in expect:
        same("hero", [p[0].hero_hp, p[1].hero_hp], expect["hero"])
    if "nrg" in expect:
        same("nrg", [p[0].nrg, p[1].nrg], expect["nrg"])
    if "round" in expect:
        same("round", state.round, expect["round"])
    if "initiative" in expect:
        same("initiative", SIDES[state.initiative], expect["initiative"])
    if "result" in expect:
        same("result", state.result, expect["result"])
    if "reason" in expect:
        same("reason", state.end_reason, expect["reason"])
    if "over" in expect:
        same("over", state.over, expect["over"])
    for key, attr in (("card_hp", "card_hp"), ("card_def", "card_def")):
        for side, want in expect.get(key, {}).items():
            same(f"{key}.{side}", list(getattr(p[SIDES.index(side)], attr)), want)
    for side, want in expect.get("field", {}).items():
        dep = p[SIDES.index(side)].field
        same(f"field.{side}", -1 if dep is None else dep.card, want)
    check_events(log, expect, problems)
    return problems


@pytest.mark.parametrize(("cards", "case"), _load_cases())
def test_match_case(cards, case):
    expect = case.get("expect", {})
    deck_a = [_card(cards, k) for k in case["a"]]
    deck_b = [_card(cards, k) for k in case["b"]]
    if "deck_error" in expect:
        with pytest.raises(InvalidDeckError) as info:
            new_match(deck_a, deck_b)
        assert info.value.code == expect["deck_error"], str(info.value)
        return
    state = new_match(deck_a, deck_b, seed=0)
    log = list(opening_events(state))
    actions = parse_actions(case.get("actions", []), SIDES, _VERBS)
    state, error = play(state, log, actions, apply, IllegalActionError)
    text = dump(log, event_to_json)
    check_refusal(state, actions, error, expect, apply, IllegalActionError, text)
    problems = _check(state, log, expect)
    assert not problems, "\n".join(problems) + "\n--- event log ---\n" + text
