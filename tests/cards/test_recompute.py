"""Stored derived fields equal a live derivation after every kind of change."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from cards import services
from cards.models import Card, Combo
from cards.specs import card_spec, derived_fields, stored_fields
from engine.card.derive import derive

from .conftest import attr, make_card

pytestmark = pytest.mark.django_db


def assert_fresh() -> None:
    """Every card's stored columns equal what the engine derives from it right now."""
    for card in Card.objects.all():
        assert stored_fields(card) == derived_fields(derive(spec := card_spec(card)), spec), card


@pytest.fixture
def cards(catalogue):
    c = catalogue
    return {
        "legend": make_card(1, head=c["crown"], body=c["armor"], paw=c["axe"]),
        "plain": make_card(2),
        "hooded": make_card(3, head=c["hood"], paw=c["mitten"], background=c["sky"]),
        "starter": make_card(4, starter=True, name="Starter Pup #1"),
    }


def test_creating_cards_stores_their_derivation(cards):
    assert_fresh()
    legend = Card.objects.get(token=1)
    assert (legend.rarity, legend.rarity_rank, legend.active_skill) == ("legendary", 4, "pierce")
    assert Card.objects.get(token=4).rarity == "free"
    assert Card.objects.get(token=4).wardrobe_score is None


def test_card_edits(cards, catalogue):
    plain = cards["plain"]
    plain.burned_stickers = 6
    plain.save()
    assert Card.objects.get(token=2).rarity == "legendary"
    plain.burned_stickers = 0
    plain.getgems_rank = 50
    plain.save()
    assert Card.objects.get(token=2).rarity == "epic"
    plain.getgems_rank = None
    plain.paw = catalogue["axe"]
    plain.save()
    assert Card.objects.get(token=2).rarity == "rare"  # an equipped unique-tier attribute
    plain.starter = True
    plain.save()
    assert_fresh()


def test_attribute_edits_reach_owners(cards, catalogue):
    vest = catalogue["vest"]  # equipped by cards 2, 3, 4
    vest.supply = 2
    vest.save()
    assert Card.objects.get(token=2).rarity == "rare"
    assert_fresh()
    mitten = catalogue["mitten"]
    mitten.name = "Oracle Mitten"  # an Arcane keyword now
    mitten.save()
    assert_fresh()
    sky = catalogue["sky"]
    sky.kind = "god"
    sky.save()
    assert Card.objects.get(token=3).rarity == "legendary"
    assert_fresh()


def test_unchanged_attribute_saves_recompute_nothing(cards, catalogue, django_assert_num_queries):
    # The save, the signal's look at the old row, and the "cards" version (any save is a
    # write that cached pages hear of); no recompute.
    with django_assert_num_queries(3):
        catalogue["vest"].save()


def test_wardrobe_changes(cards, catalogue):
    plain = cards["plain"]
    plain.wardrobe.add(
        catalogue["nebula"], catalogue["crown"], catalogue["armor"]
    )  # 1000 + 333 + 500
    assert Card.objects.get(token=2).wardrobe_score >= 1800
    assert_fresh()
    plain.wardrobe.remove(catalogue["nebula"])
    assert_fresh()
    catalogue["armor"].owners.add(cards["hooded"])
    assert_fresh()
    catalogue["crown"].owners.clear()  # card 1 equips it: it stays owned there
    assert Card.objects.get(token=1).wardrobe.filter(id=catalogue["crown"].id).exists()
    assert_fresh()
    plain.wardrobe.set([catalogue["cloak"]])
    assert_fresh()


def test_deleting_an_owned_attribute(cards, catalogue):
    cards["plain"].wardrobe.add(catalogue["nebula"])
    assert Card.objects.get(token=2).rarity == "rare"  # wardrobe score 1000 + three base ones
    catalogue["nebula"].delete()
    assert_fresh()


def test_combo_lifecycle(cards, catalogue):
    c = catalogue
    combo = Combo.objects.create(
        name_en="Mystic Weaver", name_ru="Мистический ткач", rarity="legendary"
    )
    combo.attributes.set([c["hood"], c["mitten"]])
    assert Card.objects.get(token=3).rarity == "legendary"
    assert_fresh()
    combo.rarity = "epic"
    combo.save()
    assert Card.objects.get(token=3).rarity == "epic"
    combo.attributes.add(c["dagger"])  # two paw attributes: the engine refuses it, it is left out
    assert_fresh()
    combo.attributes.remove(c["dagger"])
    c["cap"].combos.add(combo)  # hood and cap are both head: left out again
    assert_fresh()
    c["cap"].combos.clear()
    assert Card.objects.get(token=3).rarity == "epic"
    combo.attributes.remove(c["mitten"])
    assert_fresh()
    combo.delete()
    assert Card.objects.get(token=3).rarity == "common"  # no rule lifts it without the combo
    assert_fresh()


def test_deferred_recompute_runs_once_at_the_end(cards, catalogue, monkeypatch):
    calls = []
    real = services.recompute_cards
    monkeypatch.setattr(
        services, "recompute_cards", lambda ids=None, **kw: calls.append(ids) or real(ids, **kw)
    )
    with services.deferred_recompute():
        cards["plain"].burned_stickers = 3
        cards["plain"].save()
        cards["hooded"].wardrobe.add(catalogue["armor"])
        with services.deferred_recompute():
            catalogue["vest"].supply = 7
            catalogue["vest"].save()
        assert calls == []
    assert len(calls) == 1
    assert_fresh()


def test_recompute_command_repairs_bulk_writes(cards):
    Card.objects.update(rarity="common", rarity_rank=1, atk=0, wardrobe_score=None)
    out = StringIO()
    call_command("recompute", batch_size=2, stdout=out)
    assert "4 cards checked, 4 changed" in out.getvalue()
    assert_fresh()
    out = StringIO()
    call_command("recompute", stdout=out)
    assert "4 cards checked, 0 changed" in out.getvalue()


def test_new_attribute_saves_touch_no_card(cards, django_assert_num_queries):
    # The id allocation, the insert and the "cards" version (the what-if lists show it).
    with django_assert_num_queries(3):
        attr("head", "Brand New Hat", 40)
