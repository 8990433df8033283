"""Hypothesis properties of ``derive`` over random cards."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.card.derive import derive
from engine.card.rarity import wardrobe_score
from engine.card.trace import CODES, DYNAMIC, NEEDS
from engine.data import RULE_KEYS
from engine.serialize import breakdown_to_json, card_from_json, card_to_json
from engine.types import AttributeKind, AttributeSpec, CardSpec, Rarity, Requirement, Slot
from tests.engine.strategies import attributes, cards

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(cards())
def test_rarity_is_the_max_of_the_rules(card: CardSpec) -> None:
    b = derive(card)
    results = [r.rarity for r in b.rules]
    assert b.rarity == max(results)
    assert b.decided_by == tuple(r.key for r in b.rules if r.rarity == b.rarity)
    if card.starter:
        assert b.rarity is Rarity.FREE and b.decided_by == ("starter",)
    else:
        assert tuple(r.key for r in b.rules) == RULE_KEYS
        assert b.rarity >= Rarity.COMMON


@SETTINGS
@given(cards(starter=False), attributes())
def test_owning_one_more_attribute_never_lowers_score_or_rarity(
    card: CardSpec, extra: AttributeSpec
) -> None:
    if any(a.key == extra.key for a in card.owned):
        return
    more = dataclasses.replace(card, wardrobe=(*card.wardrobe, extra))
    before, after = derive(card), derive(more)
    assert after.wardrobe_score is not None and before.wardrobe_score is not None
    assert after.wardrobe_score > before.wardrobe_score
    assert after.rule("wardrobe_score").rarity >= before.rule("wardrobe_score").rarity
    assert after.rule("supply_count").rarity >= before.rule("supply_count").rarity
    assert after.rarity >= before.rarity


@SETTINGS
@given(cards())
def test_wardrobe_score_is_the_exact_sum(card: CardSpec) -> None:
    b = derive(card)
    if card.starter:
        assert b.wardrobe_score is None
        return
    exact = sum((Fraction(1000, a.supply) for a in card.owned), Fraction(0))
    assert b.wardrobe_score == exact == wardrobe_score(card.owned)


@SETTINGS
@given(cards())
def test_no_stat_is_negative(card: CardSpec) -> None:
    b = derive(card)
    assert min(b.stats.atk, b.stats.hp, b.stats.def_, b.stats.ability) >= 0
    assert b.stats.hp > 0
    for layer in b.stat_layers:
        assert min(layer.atk, layer.hp, layer.def_, layer.ability) >= 0
    assert all(e.value >= 0 and e.base >= 0 and e.bonus >= 0 for e in b.effects)
    for row in b.undercharge:
        assert min(row.atk, row.def_) >= 0
        assert all(v >= 0 for _, v in row.effects)
        assert row.atk <= b.stats.atk and row.def_ <= b.stats.def_
    assert b.energy_cost >= 1
    assert len(b.undercharge) == b.energy_cost


@SETTINGS
@given(cards())
def test_same_input_same_output(card: CardSpec) -> None:
    first = derive(card)
    again = derive(card_from_json(json.loads(json.dumps(card_to_json(card)))))
    assert first == again
    one = json.dumps(breakdown_to_json(first), sort_keys=True)
    assert one == json.dumps(breakdown_to_json(again), sort_keys=True)


@SETTINGS
@given(cards())
def test_trace_follows_the_documented_codes(card: CardSpec) -> None:
    b = derive(card)
    for step in b.trace:
        assert step.code in CODES, step.code
        spec = CODES[step.code]
        if spec.params != (DYNAMIC,):
            assert tuple(step.params) == spec.params, step
    for rule in b.rules:
        if rule.next_tier is not None:
            _check_requirement(rule.next_tier)
    if b.next_tier is not None:
        for req in b.next_tier.paths:
            _check_requirement(req)
            assert req.target >= b.next_tier.target


def _check_requirement(req: Requirement) -> None:
    rule, params = NEEDS[req.need]
    assert req.rule == rule
    assert tuple(req.params) == params


@SETTINGS
@given(cards(starter=False), st.data())
def test_each_next_tier_path_reaches_its_target(card: CardSpec, data: st.DataObject) -> None:
    """Making the change a path names lifts the card to at least the next tier."""
    b = derive(card)
    if b.next_tier is None:
        assert b.rarity is Rarity.LEGENDARY
        return
    assert b.next_tier.paths, "below Legendary there is always a way up"
    for req in b.next_tier.paths:
        changed = _apply(card, req)
        assert derive(changed).rarity >= b.next_tier.target, req


def _equip(card: CardSpec, slot: Slot, **changes: object) -> CardSpec:
    old = card.attribute(slot)
    new = dataclasses.replace(old, **changes)  # type: ignore[arg-type]
    equipped = tuple(new if a.slot is slot else a for a in card.equipped)
    wardrobe = tuple(a for a in card.wardrobe if a.key != new.key)
    return dataclasses.replace(card, equipped=equipped, wardrobe=wardrobe)


def _apply(card: CardSpec, req: Requirement) -> CardSpec:
    p = req.params
    if req.need == "slots_at_most":
        for slot in p["candidate_slots"][: p["slots_needed"]]:
            card = _equip(card, slot, name=f"What-if {slot}", supply=p["max_supply"])
        return card
    if req.need == "score":
        supply = p["one_attribute_max_supply"]
        if supply is None:  # one attribute is not enough: several of supply 1
            gap = Fraction(p["threshold"]) - card_score(card)
            extra = [
                AttributeSpec(Slot.HEAD, f"What-if {i}", 1) for i in range(int(gap / 1000) + 1)
            ]
        else:
            extra = [AttributeSpec(Slot.HEAD, "What-if", supply)]
        return dataclasses.replace(card, wardrobe=(*card.wardrobe, *extra))
    if req.need == "tier_equipped":
        return _equip(card, Slot.BACKGROUND, name="What-if", supply=p["max_supply"])
    if req.need == "burned":
        return dataclasses.replace(card, burned_stickers=p["threshold"])
    if req.need == "kind_equipped":
        return _equip(card, Slot.BACKGROUND, kind=AttributeKind(p["kind"]))
    if req.need == "combo":
        for slot, name in p["missing"]:
            card = _equip(card, slot, name=name)
        return card
    if req.need == "rank":
        return dataclasses.replace(card, getgems_rank=p["rank_at_most"])
    raise AssertionError(req)


def card_score(card: CardSpec) -> Fraction:
    return wardrobe_score(card.owned)


@SETTINGS
@given(cards(starter=False))
def test_scalar_paths_are_minimal(card: CardSpec) -> None:
    """One sticker fewer, or one rank worse, than a path asks would not be enough."""
    b = derive(card)
    if b.next_tier is None:
        return
    for req in b.next_tier.paths:
        if req.need == "burned":
            short = dataclasses.replace(card, burned_stickers=req.params["threshold"] - 1)
            assert derive(short).rule("burned_stickers").rarity < req.target
        if req.need == "rank":
            worse = dataclasses.replace(card, getgems_rank=req.params["rank_at_most"] + 1)
            assert derive(worse).rule("getgems_rank").rarity < req.target
