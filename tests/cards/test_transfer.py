"""Import and export: all-or-nothing, every problem reported at once, idempotent, round trip."""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from cards.models import Attribute, Card, Combo
from cards.services import clear_collection
from cards.specs import DERIVED_FIELDS
from cards.transfer import ImportFailed, export_collection, import_collection

from .test_recompute import assert_fresh

pytestmark = pytest.mark.django_db


def export_text() -> str:
    out = StringIO()
    export_collection(out)
    return out.getvalue()


def snapshot() -> tuple[str, list]:
    """Everything an import could change: the export plus the stored derived fields."""
    return export_text(), list(Card.objects.order_by("token").values_list("token", *DERIVED_FIELDS))


@pytest.fixture
def collection(db):
    call_command("generate_collection", size=60, seed=11, stdout=StringIO())
    return json.loads(export_text())


def test_export_is_the_engine_schema_wrapped(collection):
    assert set(collection) == {"attributes", "cards", "combos"}
    card = collection["cards"][0]
    assert set(card) == {
        "token",
        "name",
        "starter",
        "equipped",
        "wardrobe",
        "getgems_rank",
        "burned_stickers",
    }
    assert set(card["equipped"]) == {"head", "body", "paw", "background"}
    assert set(collection["attributes"][0]) == {"slot", "name", "supply", "kind"}
    combo = collection["combos"][0]
    assert set(combo["name"]) == {"en", "ru"} and combo["name"]["ru"]
    out = StringIO()
    call_command("export_collection", stdout=out)
    assert json.loads(out.getvalue()) == collection


def test_round_trip_through_an_empty_database(collection):
    before = snapshot()
    text = before[0]
    clear_collection()
    assert not Card.objects.exists() and not Attribute.objects.exists()
    result = import_collection(text)
    assert result.cards == {"created": 60, "updated": 0, "unchanged": 0}
    assert result.combos["created"] == len(collection["combos"])
    assert snapshot() == before
    assert_fresh()


def test_importing_twice_changes_nothing(collection, django_assert_max_num_queries):
    text = export_text()
    before = snapshot()
    result = import_collection(text)
    assert not result.changed and result.recomputed == 0
    assert result.cards == {"created": 0, "updated": 0, "unchanged": 60}
    assert result.attributes["unchanged"] == len(collection["attributes"])
    with django_assert_max_num_queries(12):  # reads only: nothing to write
        import_collection(text)
    assert snapshot() == before


def test_import_updates_what_differs_and_rederives(collection):
    data = copy.deepcopy(collection)
    plain = next(c for c in data["cards"] if not c["starter"] and c["burned_stickers"] == 0)
    plain["burned_stickers"] = 6
    data["cards"].append(
        {**copy.deepcopy(plain), "token": 500, "name": "Newcomer #500", "getgems_rank": None}
    )
    out = StringIO()
    call_command("import_collection", _file(data), stdout=out)
    assert "Cards: 1 created, 1 updated, 59 unchanged." in out.getvalue()
    assert Card.objects.get(token=plain["token"]).rarity == "legendary"
    assert Card.objects.get(token=500).rarity == "legendary"
    assert_fresh()


def test_attribute_changes_need_the_flag_and_reach_every_owner(collection):
    data = copy.deepcopy(collection)
    entry = next(a for a in data["attributes"] if a["supply"] > 30)
    entry["supply"] = 1
    for card in data["cards"]:  # the cards that mention it must agree with the catalogue
        for slot, attr in card["equipped"].items():
            if (slot, attr["name"]) == (entry["slot"], entry["name"]):
                attr["supply"] = 1
        for attr in card["wardrobe"]:
            if (attr["slot"], attr["name"]) == (entry["slot"], entry["name"]):
                attr["supply"] = 1
    text = json.dumps(data)
    before = snapshot()
    with pytest.raises(ImportFailed) as failure:
        import_collection(text)
    assert any("--update-attributes" in p.message for p in failure.value.problems)
    assert snapshot() == before
    result = import_collection(text, update_attributes=True)
    assert result.attributes["updated"] == 1
    assert Attribute.objects.get(slot=entry["slot"], name=entry["name"]).supply == 1
    assert_fresh()


def _file(data, tmp_path=None) -> str:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as handle:
        handle.write(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False))
    return handle.name


def _break(collection, kind, i=3):
    """The collection with one kind of problem (in card ``i`` for card problems);
    returns (file data, the expected (where, field))."""
    data = copy.deepcopy(collection)
    cards, attrs, combos = data["cards"], data["attributes"], data["combos"]
    token = cards[i]["token"]
    where = f"cards[{i}] (token {token})"
    match kind:
        case "supply":
            cards[i]["equipped"]["paw"]["supply"] = 0
            return data, (where, "equipped.paw.supply")
        case "missing_slot":
            del cards[i]["equipped"]["head"]
            return data, (where, "equipped.head")
        case "unknown_slot":
            cards[i]["wardrobe"] = [{"slot": "tail", "name": "Fluff", "supply": 3}]
            return data, (where, "wardrobe[0].slot")
        case "unknown_kind":
            cards[i]["equipped"]["body"]["kind"] = "mythic"
            return data, (where, "equipped.body.kind")
        case "wrong_type":
            cards[i]["burned_stickers"] = "three"
            return data, (where, "burned_stickers")
        case "duplicate_token":
            cards[i + 1]["token"] = token
            return data, (f"cards[{i + 1}] (token {token})", "token")
        case "card_combos":
            cards[i]["combos"] = []
            return data, (where, "combos")
        case "inconsistent_attribute":
            cards[i]["equipped"]["background"]["supply"] += 1
            return data, (where, "equipped.background")
        case "catalogue_entry":
            attrs[2]["supply"] = -4
            return data, ("attributes[2]", "supply")
        case "combo_attribute":
            combos[0]["attributes"].append(["background", "Nowhere Land"])
            return data, (f"combos[0] ({combos[0]['name']['en']})", "attributes[2]")
        case "combo_rarity":
            combos[1]["rarity"] = "free"
            return data, (f"combos[1] ({combos[1]['name']['en']})", "rarity")
        case "unknown_top_level":
            data["decks"] = []
            return data, ("file", "decks")
        case "not_json":
            return '{"cards": [', ("file", "")
    raise AssertionError(kind)


KINDS = [
    "supply",
    "missing_slot",
    "unknown_slot",
    "unknown_kind",
    "wrong_type",
    "duplicate_token",
    "card_combos",
    "inconsistent_attribute",
    "catalogue_entry",
    "combo_attribute",
    "combo_rarity",
    "unknown_top_level",
    "not_json",
]


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_error_leaves_the_database_as_it_was(collection, kind):
    data, (where, field) = _break(collection, kind)
    before = snapshot()
    err = StringIO()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("import_collection", _file(data), stdout=StringIO(), stderr=err)
    assert snapshot() == before
    with pytest.raises(ImportFailed) as failure:
        import_collection(data if isinstance(data, str) else json.dumps(data))
    found = [(p.where, p.field) for p in failure.value.problems]
    assert (where, field) in found, found
    assert where in err.getvalue()


def test_every_problem_is_reported_in_one_run(collection):
    data = copy.deepcopy(collection)
    expected = []
    for n, kind in enumerate(KINDS[:-1]):  # every kind that can share one file, a card each
        data, place = _break(data, kind, i=2 + 3 * n)
        expected.append(place)
    before = snapshot()
    with pytest.raises(ImportFailed) as failure:
        import_collection(json.dumps(data))
    found = [(p.where, p.field) for p in failure.value.problems]
    assert sorted(found) == sorted(expected)
    assert snapshot() == before


def test_problems_are_translated(collection):
    from django.utils import translation

    data, _place = _break(collection, "supply")
    with translation.override("ru"), pytest.raises(ImportFailed) as failure:
        import_collection(json.dumps(data))
    assert failure.value.problems[0].message == "должно быть целым числом ≥ 1"


def test_a_database_error_rolls_everything_back(collection, monkeypatch):
    from cards import transfer

    data = copy.deepcopy(collection)
    data["cards"][0]["name"] = "Renamed"
    data["attributes"].append(
        {"slot": "paw", "name": "Brand New Paw", "supply": 9, "kind": "normal"}
    )
    before = snapshot()

    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(transfer.services, "recompute_cards", fail)
    with pytest.raises(RuntimeError):
        import_collection(json.dumps(data))
    assert snapshot() == before
    assert not Combo.objects.filter(name_en="Brand New Paw").exists()
    assert not Attribute.objects.filter(name="Brand New Paw").exists()
