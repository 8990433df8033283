"""play.narration: every event code and refusal code has EN and RU words."""

from __future__ import annotations

import pytest
from django.utils import translation

from engine.match import EVENT_CODES, ILLEGAL_CODES, Event, MatchCard
from engine.simulate import play_match
from engine.types import Rarity, Role
from play.narration import error_message, narrate, narrate_all

SAMPLE = {
    "side": "a", "card": 0, "name": "Pup", "to": 1, "to_name": "Fang", "hp": 12, "def": 2,
    "amount": 3, "nrg": 2, "cost": 4, "paid": 3, "atk": 9, "deficit": 1, "cut_percent": 25,
    "effect_minus": 1, "halved": False, "bonus": 1, "slot": "deploy", "kind": "damage_card",
    "target": "b", "target_card": 0, "target_name": "Fang", "to_def": 1, "to_hp": 2,
    "rage": 2, "wounded_rage": 3, "first_strike": True, "pierce": True, "mode": "first_strike",
    "first": "b", "round": 3, "initiative": "b", "reason": "lower_hp", "hp_a": 20, "hp_b": 0,
    "result": "a", "base": 30, "tanks": 1, "supports": 1, "ceiling": False,
}  # fmt: skip


def sample(code: str) -> Event:
    params = {k: SAMPLE[k] for k in EVENT_CODES[code]}
    if code == "match.end":
        params["reason"] = "hero_defeated"
    return Event(code, params)


@pytest.mark.parametrize("code", sorted(EVENT_CODES))
def test_every_event_code_is_worded_in_both_languages(code):
    with translation.override("en"):
        en = narrate(sample(code), show_bot_picks=True)
    with translation.override("ru"):
        ru = narrate(sample(code), show_bot_picks=True)
    assert en is not None and ru is not None
    assert en.kind != "unknown"
    for text in (en.text, ru.text):
        assert "%(" not in text and "{" not in text
    if code not in ("round.end",):
        assert en.text != ru.text, code


def test_the_bots_pick_stays_hidden_during_play():
    event = Event("prepare.pick", {"side": "b", "card": 0, "name": "Fang"})
    assert narrate(event) is None
    assert narrate(event, show_bot_picks=True) is not None


def test_numbers_reach_the_sentence():
    with translation.override("en"):
        line = narrate(sample("strike.card"))
    assert line.text == (
        "Pup strikes Fang for 9 (first strike; Rage +2; Wounded Rage +3; Pierce: DEF skipped): "
        "1 into DEF, 2 into HP (DEF 2, HP 12 left)."
    )
    with translation.override("ru"):
        line = narrate(sample("deploy.undercharged"))
    assert "Undercharged" in line.text and "25%" in line.text and "−1" in line.text


@pytest.mark.parametrize("code", [*ILLEGAL_CODES, "stale"])
def test_every_refusal_is_worded(code):
    params = {"boost": "rage", "limit": 2, "cap": 4, "card": 1, "side": "c"}
    with translation.override("en"):
        en = error_message(code, params)
    with translation.override("ru"):
        ru = error_message(code, params)
    assert en and ru and en != ru


def test_whole_matches_narrate_in_russian():
    pup = MatchCard("1", "Pup", Rarity.LEGENDARY, Role.TANK, atk=9, hp=20, def_=2)
    fang = MatchCard("2", "Fang", Rarity.RARE, Role.STRIKER, atk=12, hp=13)
    with translation.override("ru"):
        for seed in range(20):
            record = play_match((pup, fang), (fang, pup), ("random", "random"), seed, log=True)
            lines = narrate_all(record.events, show_bot_picks=True)
            assert all(line.kind != "unknown" for line in lines)
