"""A card's history: rules versions, changes from imports, the fingerprint, as of a day."""

from __future__ import annotations

import datetime
import json
from io import StringIO

import pytest
from django.core.management import call_command

from cards import history
from cards.market import import_market
from cards.models import Card, CardChange, RulesVersion
from cards.specs import card_spec
from cards.transfer import export_collection, import_collection
from engine.caches import clear_caches
from engine.data import RULES_VERSION, AtMost, RuleChange
from engine.types import Rarity

from .conftest import make_card

YESTERDAY = datetime.date.today() - datetime.timedelta(days=1)


@pytest.fixture
def ranked(catalogue):
    """Rank 6: Epic by the GetGems floor (Legendary needs rank ≤ 5)."""
    return make_card(7, getgems_rank=6)


def test_the_first_rules_version_is_recorded_without_changes(ranked):
    call_command("recompute", stdout=StringIO())
    assert list(RulesVersion.objects.values_list("version", flat=True)) == [RULES_VERSION]
    assert not CardChange.objects.exists()
    assert history.record_rules_version() is None


def test_a_new_rules_version_records_what_it_changed_and_why(ranked, monkeypatch):
    history.record_rules_version()
    ranked.refresh_from_db()
    assert ranked.rarity == "epic"
    monkeypatch.setattr(history, "RULES_VERSION", "9.9")
    change = RuleChange("GETGEMS_RANK_TIERS", "legendary ≤ 5", "legendary ≤ 6")
    monkeypatch.setattr(history, "RULES_CHANGELOG", (change,))
    monkeypatch.setattr(
        "engine.card.rarity.GETGEMS_RANK_TIERS",
        (AtMost(Rarity.LEGENDARY, 6), AtMost(Rarity.EPIC, 80), AtMost(Rarity.RARE, 200)),
    )
    clear_caches()  # the rank rule's results are memoised per rank
    out = StringIO()
    call_command("recompute", stdout=out)
    assert "9.9" in out.getvalue()
    assert RulesVersion.objects.get(version="9.9").changelog == [
        {"constant": "GETGEMS_RANK_TIERS", "before": "legendary ≤ 5", "after": "legendary ≤ 6"}
    ]
    rarity = CardChange.objects.get(card=ranked, field="rarity")
    assert (rarity.before, rarity.after) == ("epic", "legendary")
    assert rarity.causes == [
        {
            "kind": "rules",
            "version": "9.9",
            "constant": "GETGEMS_RANK_TIERS",
            "before": "legendary ≤ 5",
            "after": "legendary ≤ 6",
        }
    ]
    ranked.refresh_from_db()
    assert ranked.rarity == "legendary"
    monkeypatch.undo()
    clear_caches()


def _export() -> dict:
    out = StringIO()
    export_collection(out)
    return json.loads(out.getvalue())


def test_an_import_that_changes_what_a_card_equips_records_the_slot(catalogue):
    card = make_card(
        42,
        head=catalogue["crown"],
        body=catalogue["armor"],
        paw=catalogue["axe"],
        background=catalogue["sky"],
    )
    card.refresh_from_db()
    assert card.rarity == "legendary"
    data = _export()
    (row,) = data["cards"]
    row["equipped"]["paw"] = {"name": "Ring", "supply": 900, "kind": "normal"}
    row["wardrobe"] = [a for a in row["wardrobe"] if a["name"] != "Axe"]
    import_collection(json.dumps(data))
    card.refresh_from_db()
    assert card.rarity != "legendary"
    change = CardChange.objects.get(card=card, field="rarity")
    assert change.causes == [
        {"kind": "card", "what": "equipped", "slot": "paw", "before": "Axe", "after": "Ring"}
    ]
    import_collection(json.dumps(data))
    assert CardChange.objects.filter(field="rarity").count() == 1


def test_the_fingerprint_is_the_sha256_of_the_canonical_inputs(ranked):
    spec = card_spec(7)
    digest = history.fingerprint(spec)
    assert len(digest) == 64 and int(digest, 16) >= 0
    assert history.fingerprint(card_spec(7)) == digest
    Card.objects.filter(pk=ranked.pk).update(getgems_rank=7)
    assert history.fingerprint(card_spec(7)) != digest


def test_a_card_as_of_a_day_wears_that_days_market_data(ranked):
    import_market(json.dumps([{"date": YESTERDAY.isoformat(), "card": 7, "getgems_rank": 3}]))
    spec = card_spec(7)
    assert spec.getgems_rank == 3
    assert history.card_as_of(spec, YESTERDAY).getgems_rank == 3
    # Before its first record, the rank it replaced (6).
    assert history.card_as_of(spec, YESTERDAY - datetime.timedelta(days=1)).getgems_rank == 6
    import_market(
        json.dumps(
            [
                {
                    "date": (YESTERDAY - datetime.timedelta(days=5)).isoformat(),
                    "card": 7,
                    "getgems_rank": 50,
                }
            ]
        )
    )
    assert history.card_as_of(spec, YESTERDAY - datetime.timedelta(days=1)).getgems_rank == 50
    assert history.card_as_of(spec, YESTERDAY).getgems_rank == 3


def test_the_demo_market_history_gives_real_timelines(db):
    from cards.models import SupplyRecord

    call_command("generate_collection", size=120, seed=11, stdout=StringIO())
    out = StringIO()
    call_command("generate_market_history", days=30, seed=3, stdout=out)
    assert "30 days" in out.getvalue()
    days = set(SupplyRecord.objects.exclude(date__year=1970).values_list("date", flat=True))
    assert len(days) == 30 and max(days) < datetime.date.today()
    assert CardChange.objects.filter(field="rarity").exists()
    # Each change's causes are market data of its own day.
    change = CardChange.objects.filter(field="rarity").first()
    assert change.causes and all(c["kind"] == "market" for c in change.causes)


def test_an_import_that_updates_a_supply_records_it_as_the_cause(catalogue):
    card = make_card(
        43,
        head=catalogue["crown"],
        body=catalogue["armor"],
        paw=catalogue["axe"],
        background=catalogue["sky"],
    )
    data = _export()
    (row,) = data["cards"]
    for attribute in [*data["attributes"], row["equipped"]["paw"], *row["wardrobe"]]:
        if attribute["name"] == "Axe":
            attribute["supply"] = 4
    import_collection(json.dumps(data), update_attributes=True)
    change = CardChange.objects.get(card=card, field="rarity")
    assert (change.before, change.after) == ("legendary", "epic")
    assert change.causes == [
        {
            "kind": "market",
            "what": "supply",
            "slot": "paw",
            "attribute": "Axe",
            "before": 3,
            "after": 4,
        }
    ]
