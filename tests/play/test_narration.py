"""play.narration: every code the match engine can emit has a sentence in English and
Russian, with its numbers and without a raw code in it."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from django.utils import translation

from engine.match import (
    DECK_ERROR_CODES,
    EVENT_CODES,
    ILLEGAL_CODES,
    Event,
    MatchCard,
)
from engine.match.simulate import play_match
from engine.types import BoostKind, EndReason, Rarity, Role
from play.narration import (
    DECK_ERRORS,
    EVENTS,
    REFUSALS,
    SITE_DECK_ERRORS,
    SITE_REFUSALS,
    deck_error,
    narrate,
    narrate_all,
    refusal,
)

SAMPLE = {
    "side": "a", "card": 0, "name": "Pup", "to": 1, "to_name": "Fang", "hp": 12, "def": 2,
    "amount": 3, "nrg": 2, "cost": 4, "paid": 3, "atk": 9, "deficit": 1, "cut_percent": 25,
    "effect_minus": 1, "halved": False, "bonus": 1, "slot": "deploy", "kind": "damage_card",
    "target": "b", "target_card": 0, "target_name": "Fang", "to_def": 1, "to_hp": 2,
    "rage": 2, "wounded_rage": 3, "threshold": 15, "first_strike": True, "pierce": True,
    "mode": "first_strike", "first": "b", "round": 3, "initiative": "b", "reason": "lower_hp",
    "hp_a": 20, "hp_b": 0, "result": "a", "base": 30, "tanks": 1, "supports": 1,
    "ceiling": False, "cap": 4, "round_limit": 200,
}  # fmt: skip

# Parameters with more than one kind of value: every combination is rendered.
VARIANTS: dict[str, dict[str, list[Any]]] = {
    "match.end": {"result": ["a", "b", "draw"], "reason": list(EndReason)},
    "strike.order": {"mode": ["first_strike", "speed_initiative", "simultaneous"]},
    "round.start": {"reason": ["lower_hp", "tie"]},
    "deploy.undercharged": {"halved": [False, True]},
    "surrender": {"side": ["a", "b"]},
    "effect.heal_hero": {"slot": ["deploy", "last_breath"]},
    "boost.switch": {"rage": [0, 2]},
}
NAMES = {"name", "to_name", "target_name"}  # proper names: they appear as they are


def samples(code: str) -> Iterator[dict[str, Any]]:
    base = {k: SAMPLE[k] for k in EVENT_CODES[code]}
    variants = VARIANTS.get(code, {})
    for values in itertools.product(*variants.values()):
        yield {**base, **dict(zip(variants, values, strict=True))}


def raw_codes(params: Mapping[str, Any]) -> set[str]:
    """The parameter values that are codes (sides, reasons, modes…), never words."""
    return {str(v) for k, v in params.items() if isinstance(v, str) and k not in NAMES}


def assert_worded(en: str, ru: str, params: Mapping[str, Any], what: str) -> None:
    for text in (en, ru):
        assert text and "%(" not in text and "{" not in text, (what, text)
    assert en != ru, what
    for raw in raw_codes(params):
        word = rf"(?<![\w.]){re.escape(raw)}(?![\w.])"
        # Russian sentences hold no raw code at all; English ones no code that could not
        # be a word ("hero_defeated", a side "b"; "a" and "draw" are English words too).
        assert not re.search(word, ru), (what, raw, ru)
        if "_" in raw or "." in raw or raw == "b":
            assert not re.search(word, en), (what, raw, en)


def both(render) -> tuple[str, str]:
    with translation.override("en"):
        en = render()
    with translation.override("ru"):
        ru = render()
    return en, ru


def test_every_code_the_engine_can_emit_is_registered_once():
    for registry in (EVENTS, REFUSALS, DECK_ERRORS):
        assert registry.missing() == [] and registry.unknown() == [], registry.name
    assert EVENTS.codes == set(EVENT_CODES)
    assert REFUSALS.codes == {*ILLEGAL_CODES, *SITE_REFUSALS}
    assert DECK_ERRORS.codes == {*DECK_ERROR_CODES, *SITE_DECK_ERRORS}


@pytest.mark.parametrize("code", sorted(EVENT_CODES))
def test_every_event_code_is_worded_in_both_languages(code):
    for params in samples(code):
        event = Event(code, params)
        en, ru = both(lambda event=event: narrate(event, show_bot_picks=True).text)
        assert_worded(en, ru, params, f"{code} {params}")


def test_the_last_line_of_a_match_reads_as_a_sentence():
    # The end of a match once read "b hero_defeated Hero HP: …" (raw codes): each result
    # with each reason is a sentence in both languages.
    params = {**next(samples("match.end")), "result": "b", "reason": EndReason.HERO_DEFEATED}
    en, ru = both(lambda: narrate(Event("match.end", params)).text)
    assert en == "The bot wins. A Hero fell to 0 HP. Hero HP: you 20, the bot 0."
    assert ru.startswith("Победил бот.") and "hero_defeated" not in ru
    params = {**params, "reason": EndReason.ROUND_LIMIT, "round_limit": 7}
    en, _ = both(lambda: narrate(Event("match.end", params)).text)
    assert "Round 7 reached" in en  # the engine's number, not one typed on the site


def test_the_bots_pick_stays_hidden_during_play():
    event = Event("prepare.pick", {"side": "b", "card": 0, "name": "Fang"})
    assert narrate(event) is None
    assert narrate(event, show_bot_picks=True) is not None


def test_numbers_reach_the_sentence():
    with translation.override("en"):
        line = narrate(Event("strike.card", next(samples("strike.card"))))
    assert line.text == (
        "Pup strikes Fang for 9 (first strike; Rage +2; Wounded Rage +3; Pierce: DEF skipped): "
        "1 into DEF, 2 into HP (DEF 2, HP 12 left)."
    )
    assert line.kind == "strike" and line.side == "a"
    with translation.override("ru"):
        line = narrate(Event("deploy.undercharged", next(samples("deploy.undercharged"))))
    assert "Undercharged" in line.text and "25%" in line.text and "−1" in line.text


REFUSAL_PARAMS = {"boost": BoostKind.RAGE, "limit": 2, "cap": 4, "card": 1, "side": "c"}


@pytest.mark.parametrize("code", sorted({*ILLEGAL_CODES, *SITE_REFUSALS}))
def test_every_refusal_is_worded(code):
    en, ru = both(lambda: refusal(code, REFUSAL_PARAMS))
    assert_worded(en, ru, {}, code)


def test_refusals_show_the_engines_numbers():
    with translation.override("en"):
        assert refusal("boost_limit", {"limit": 3}) == "You may use at most 3 boosts per round."
        assert refusal("hero_hp_full", {"cap": 77}) == "Your Hero is already at 77 HP."
        assert refusal("boost_used", {"boost": "hero_patch"}) == (
            "You have already used Hero Patch in this match."
        )
        assert refusal("no such code") == "That is not an action of this game."


DECK_PARAMS = {"minimum": 1, "maximum": 4, "count": 5, "card": "7", "number": 2}


@pytest.mark.parametrize("code", sorted({*DECK_ERROR_CODES, *SITE_DECK_ERRORS}))
def test_every_deck_error_is_worded(code):
    en, ru = both(lambda: deck_error(code, DECK_PARAMS))
    assert_worded(en, ru, {}, code)


def test_deck_errors_show_the_engines_numbers():
    with translation.override("en"):
        assert deck_error("too_many", {"maximum": 6}) == "A deck holds at most 6 cards."
        assert deck_error("empty", {"minimum": 2}) == "Pick at least 2 cards for your deck."


def test_whole_matches_narrate_in_russian():
    pup = MatchCard("1", "Pup", Rarity.LEGENDARY, Role.TANK, atk=9, hp=20, def_=2)
    fang = MatchCard("2", "Fang", Rarity.RARE, Role.STRIKER, atk=12, hp=13)
    reasons = set()
    with translation.override("ru"):
        for seed in range(20):
            record = play_match((pup, fang), (fang, pup), ("random", "random"), seed, log=True)
            lines = narrate_all(record.log, show_bot_picks=True)
            assert len(lines) == len(record.log)
            last = record.log[-1]
            assert_worded("-", lines[-1].text, last.params, "match.end")
            reasons.add(last.params["reason"])
    assert reasons
