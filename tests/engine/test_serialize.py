"""engine.serialize: card JSON validation, export and Breakdown output."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from engine.caches import BREAKDOWN_TEXT, clear_caches
from engine.card.derive import derive
from engine.data import RULE_KEYS
from engine.serialize import (
    breakdown_json,
    breakdown_to_json,
    card_from_json,
    card_to_json,
    parse_card,
)
from engine.types import AttributeKind, Breakdown, CardSpec, InvalidCardError, Rarity, Slot
from tests.engine.strategies import cards

GOOD: dict[str, Any] = {
    "token": 12,
    "name": "Pup #12",
    "starter": False,
    "equipped": {
        "head": {"name": "Iron Helm", "supply": 3, "kind": "normal"},
        "body": {"name": "Cotton Vest", "supply": 40},
        "paw": {"name": "Dagger", "supply": 5, "kind": "premium"},
        "background": {"name": "Blue Sky", "supply": 700},
    },
    "wardrobe": [{"slot": "paw", "name": "Old Mitts", "supply": 2}],
    "getgems_rank": 150,
    "burned_stickers": 1,
    "combos": [{"name": "Duo", "attributes": [["head", "Iron Helm"]], "rarity": "rare"}],
}


def mutated(path: str, value: Any = ...) -> dict[str, Any]:
    """GOOD with the value at ``path`` (dots, [i] for lists) replaced, or deleted (``...``)."""
    card = copy.deepcopy(GOOD)
    keys: list[str | int] = []
    for part in path.split("."):
        while "[" in part:
            head, _, rest = part.partition("[")
            if head:
                keys.append(head)
            index, _, part = rest.partition("]")
            keys.append(int(index))
        if part:
            keys.append(part)
    target: Any = card
    for key in keys[:-1]:
        target = target[key]
    if value is ...:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return card


def test_good_card_parses() -> None:
    card = card_from_json(GOOD)
    assert card.token == 12
    assert card.attribute(Slot.PAW).kind is AttributeKind.PREMIUM
    assert card.attribute(Slot.BODY).kind is AttributeKind.NORMAL
    assert [a.name for a in card.wardrobe] == ["Old Mitts"]
    assert card.combos[0].rarity is Rarity.RARE


def test_optional_fields_default() -> None:
    card = card_from_json(
        {"token": 1, "name": "x", "equipped": GOOD["equipped"]},
    )
    assert card.wardrobe == () and card.combos == ()
    assert (card.getgems_rank, card.burned_stickers, card.starter) == (None, 0, False)


def test_round_trip() -> None:
    card = card_from_json(GOOD)
    assert card_from_json(json.loads(json.dumps(card_to_json(card)))) == card


def test_equipped_copy_in_wardrobe_is_dropped() -> None:
    data = mutated("wardrobe", [{"slot": "head", "name": "Iron Helm", "supply": 3}])
    assert card_from_json(data).wardrobe == ()


BAD = [
    # (card JSON, field, code)
    ([], "card", "object"),
    ("card", "card", "object"),
    (mutated("token", ...), "token", "missing"),
    (mutated("token", True), "token", "min_int"),
    (mutated("token", 0), "token", "min_int"),
    (mutated("token", "12"), "token", "min_int"),
    (mutated("token", 12.0), "token", "min_int"),
    (mutated("name", ...), "name", "missing"),
    (mutated("name", 5), "name", "non_empty_string"),
    (mutated("colour", "red"), "colour", "unknown_field"),
    (mutated("starter", "yes"), "starter", "boolean"),
    (mutated("starter", 1), "starter", "boolean"),
    (mutated("equipped", ...), "equipped", "missing"),
    (mutated("equipped", []), "equipped", "object"),
    (mutated("equipped.paw", ...), "equipped.paw", "missing"),
    (mutated("equipped.tail", {"name": "x", "supply": 1}), "equipped.tail", "unknown_slot"),
    (mutated("equipped.paw", "Dagger"), "equipped.paw", "object"),
    (mutated("equipped.paw.supply", 0), "equipped.paw.supply", "min_int"),
    (mutated("equipped.paw.supply", -3), "equipped.paw.supply", "min_int"),
    (mutated("equipped.paw.supply", True), "equipped.paw.supply", "min_int"),
    (mutated("equipped.paw.supply", 2.5), "equipped.paw.supply", "min_int"),
    (mutated("equipped.paw.supply", "3"), "equipped.paw.supply", "min_int"),
    (mutated("equipped.paw.supply", None), "equipped.paw.supply", "min_int"),
    (mutated("equipped.paw.supply", ...), "equipped.paw.supply", "missing"),
    (mutated("equipped.paw.kind", "legendary"), "equipped.paw.kind", "unknown_kind"),
    (mutated("equipped.paw.kind", 1), "equipped.paw.kind", "unknown_kind"),
    (mutated("equipped.paw.name", ""), "equipped.paw.name", "non_empty_string"),
    (mutated("equipped.paw.name", ...), "equipped.paw.name", "missing"),
    (mutated("equipped.paw.colour", "red"), "equipped.paw.colour", "unknown_field"),
    (mutated("equipped.paw.slot", "head"), "equipped.paw.slot", "slot_mismatch"),
    (mutated("wardrobe", {}), "wardrobe", "list"),
    (mutated("wardrobe[0]", "Old Mitts"), "wardrobe[0]", "object"),
    (mutated("wardrobe[0].slot", "tail"), "wardrobe[0].slot", "unknown_slot"),
    (mutated("wardrobe[0].slot", ...), "wardrobe[0].slot", "missing"),
    (mutated("wardrobe[0].supply", 0), "wardrobe[0].supply", "min_int"),
    (
        mutated("wardrobe", [{"slot": "head", "name": "Iron Helm", "supply": 4}]),
        "wardrobe[0]",
        "conflicting_attribute",
    ),
    (mutated("getgems_rank", 0), "getgems_rank", "min_int_or_null"),
    (mutated("getgems_rank", True), "getgems_rank", "min_int_or_null"),
    (mutated("getgems_rank", "5"), "getgems_rank", "min_int_or_null"),
    (mutated("burned_stickers", -1), "burned_stickers", "min_int"),
    (mutated("burned_stickers", False), "burned_stickers", "min_int"),
    (mutated("burned_stickers", None), "burned_stickers", "min_int"),
    (mutated("combos", {}), "combos", "list"),
    (mutated("combos[0].rarity", "free"), "combos[0].rarity", "unknown_rarity"),
    (mutated("combos[0].rarity", "mythic"), "combos[0].rarity", "unknown_rarity"),
    (mutated("combos[0].attributes", []), "combos[0].attributes", "non_empty_list"),
    (mutated("combos[0].attributes[0]", ["head"]), "combos[0].attributes[0]", "pair"),
    (
        mutated("combos[0].attributes[0]", ["hat", "x"]),
        "combos[0].attributes[0][0]",
        "unknown_slot",
    ),
    (
        mutated("combos[0].attributes", [["head", "a"], ["head", "b"]]),
        "combos[0].attributes[1]",
        "duplicate_slot",
    ),
    (mutated("combos[0].name", ...), "combos[0].name", "missing"),
]


@pytest.mark.parametrize(("data", "field", "code"), BAD)
def test_bad_input_names_the_field(data: Any, field: str, code: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        card_from_json(data)
    err = info.value
    assert (err.field, err.code) == (field, code), str(err)
    assert str(err).startswith(f"{field}: ")
    assert "\n" not in str(err)
    assert isinstance(err, ValueError)


def test_supply_message_is_the_documented_one() -> None:
    with pytest.raises(InvalidCardError, match=r"^equipped\.paw\.supply: must be an integer ≥ 1$"):
        card_from_json(mutated("equipped.paw.supply", 0))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{oops", "json"),
        ("", "json"),
        (b"\xff\xfe{}", "encoding"),
        ("[" * 100_000 + "]" * 100_000, "json_depth"),
    ],
)
def test_parse_card_rejects_text_that_is_not_json(text: str | bytes, code: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_card(text)
    assert (info.value.field, info.value.code) == ("card", code)
    assert "\n" not in str(info.value)


def test_parse_card_accepts_a_bom() -> None:
    assert parse_card(b"\xef\xbb\xbf" + json.dumps(GOOD).encode()) == card_from_json(GOOD)


def test_breakdown_json_schema() -> None:
    out = breakdown_to_json(derive(card_from_json(GOOD)))
    for key in (
        "rarity",
        "decided_by",
        "rules",
        "role",
        "skill_affinity",
        "active_skill",
        "template",
        "stats",
        "energy_cost",
        "effects",
        "next_tier",
        "trace",
    ):
        assert key in out
    assert set(out["stats"]) == {"atk", "hp", "def", "ability"}
    assert set(out["effects"]) == {"deploy", "passive", "last_breath"}
    assert set(out["rules"]) == set(RULE_KEYS)  # the spelling is checked in test_data
    assert all(set(step) == {"code", "params", "value"} for step in out["trace"])


def _walk(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return list(value) + [x for v in value.values() for x in _walk(v)]
    if isinstance(value, list):
        return [x for v in value for x in _walk(v)]
    return [value]


def test_breakdown_json_is_plain_data() -> None:
    out = breakdown_to_json(derive(card_from_json(GOOD)))
    for leaf in _walk(out):
        assert type(leaf) in (str, int, bool, type(None)), (leaf, type(leaf))
    assert json.loads(json.dumps(out)) == out


# --- the Breakdown as compact JSON text (the API's body) ---------------------------------


def _compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _fresh(b: Breakdown) -> str:
    """``b``'s text written with nothing kept from other cards."""
    clear_caches()
    return breakdown_json(b)


def test_breakdown_text_is_the_same_from_a_warm_memo_for_every_demo_card() -> None:
    """``breakdown_json`` writes shared pieces from its memo: across the demo collection
    (1,000 cards, their trace steps shared between cards) a warm memo gives the same bytes
    as writing each breakdown afresh, and the text reads back as ``breakdown_to_json``."""
    from cards.generator import generate

    breakdowns = [derive(card) for card in generate(size=1000).cards]
    fresh = [_fresh(b) for b in breakdowns]
    for _pass in ("cold", "warm"):
        for b, text in zip(breakdowns, fresh, strict=True):
            assert breakdown_json(b) == text, b.token
    assert json.loads(fresh[0]) == breakdown_to_json(breakdowns[0])


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(card=cards())
def test_breakdown_text_is_plain_json_of_the_breakdown(card: CardSpec) -> None:
    b = derive(card)
    text = _fresh(b)
    data = breakdown_to_json(b)
    assert text == _compact(data) and breakdown_json(b) == text
    assert data["token"] == b.token and data["rarity"] == b.rarity.value
    assert [step["code"] for step in data["trace"]] == [step.code for step in b.trace]


def test_breakdown_text_survives_a_small_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo smaller than one breakdown's pieces keeps turning over: the text stays right."""
    from cards.generator import generate

    breakdowns = [derive(card) for card in generate(size=200).cards]
    fresh = [_fresh(b) for b in breakdowns]
    monkeypatch.setattr(BREAKDOWN_TEXT, "size", 7)
    clear_caches()
    for b, text in zip(breakdowns, fresh, strict=True):
        assert breakdown_json(b) == text
    assert len(BREAKDOWN_TEXT.young) <= 7 and len(BREAKDOWN_TEXT.old) <= 7
    clear_caches()


def test_breakdown_text_puts_the_head_first_and_its_keys_once() -> None:
    b = derive(card_from_json(GOOD))
    head = {"object": "card", "token": 12, "name": "Pup #12 «ё»", "equipped": {"head": None}}
    text = breakdown_json(b, head=head)
    rest = {k: v for k, v in breakdown_to_json(b).items() if k not in head}
    assert text == _compact({**head, **rest})
    assert list(json.loads(text))[:5] == ["object", "token", "name", "equipped", "rarity"]
    assert "«ё»" in text  # UTF-8 text stays as it is
    assert breakdown_json(b, head={}) == _compact(breakdown_to_json(b))
