"""cards.specs: rows → engine inputs in a small, fixed number of queries."""

from __future__ import annotations

import pytest

from cards.models import Attribute, Card, Combo
from cards.specs import card_spec, card_specs, combo_specs, derived_fields, iter_card_specs
from engine.card.derive import derive
from engine.types import AttributeKind, Rarity, Slot

from .conftest import attr, make_card

pytestmark = pytest.mark.django_db


def _give_wardrobe(card: Card, size: int, prefix: str) -> None:
    made = Attribute.objects.bulk_create(
        Attribute(
            slot=("head", "body", "paw", "background")[i % 4], name=f"{prefix} {i}", supply=10 + i
        )
        for i in range(size)
    )
    card.wardrobe.add(*made)


def test_card_spec_mirrors_the_rows(catalogue):
    c = catalogue
    card = make_card(5, head=c["crown"], background=c["nebula"], getgems_rank=70, burned_stickers=2)
    card.wardrobe.add(c["hood"], c["dagger"])
    combo = Combo.objects.create(name_en="Seer", name_ru="Провидец", rarity="epic")
    combo.attributes.set([c["crown"], c["nebula"]])
    spec = card_spec(card)
    assert spec.token == 5 and spec.name == "Pup #5"
    assert spec.attribute(Slot.HEAD).name == "Iron Crown" and spec.attribute(Slot.HEAD).supply == 3
    assert spec.attribute(Slot.BACKGROUND).kind is AttributeKind.GOD
    assert {a.name for a in spec.wardrobe} == {
        "Hexed Hood",
        "Dagger",
    }  # the equipped four are not repeated
    assert (spec.getgems_rank, spec.burned_stickers, spec.starter) == (70, 2, False)
    assert [(k.name, k.rarity) for k in spec.combos] == [("Seer", Rarity.EPIC)]
    assert card_spec(5) == spec
    with pytest.raises(Card.DoesNotExist):
        card_spec(999)


@pytest.mark.parametrize("wardrobe", [0, 40])
def test_query_counts_do_not_grow_with_the_wardrobe(catalogue, wardrobe, django_assert_num_queries):
    cards = [make_card(t) for t in range(1, 6)]
    for card in cards:
        _give_wardrobe(card, wardrobe, f"Extra {card.token}")
    Combo.objects.create(name_en="Seer", rarity="epic").attributes.set([catalogue["crown"]])
    with django_assert_num_queries(3):
        specs = card_specs(Card.objects.all())
    assert [s.token for s in specs] == [1, 2, 3, 4, 5]
    assert all(len(s.wardrobe) == wardrobe for s in specs)
    with django_assert_num_queries(2):  # the combos, then the card with its wardrobe
        card_spec(cards[0])
    combos = combo_specs()
    with django_assert_num_queries(2):
        card_specs([5, 3, 1], combos=combos)
    with django_assert_num_queries(1):
        card_spec(3, combos=combos)
    with django_assert_num_queries(1 + 1 + 2 * 3):  # ids, combos, then two per batch of two
        batches = list(iter_card_specs(batch_size=2))
    assert [len(b) for b in batches] == [2, 2, 1]


def test_one_card_by_its_precompiled_queries_equals_the_orm_read(catalogue):
    c = catalogue
    make_card(1, starter=True)
    make_card(2, head=c["crown"], getgems_rank=3, burned_stickers=9).wardrobe.add(c["hood"])
    _give_wardrobe(make_card(3, background=c["nebula"]), 12, "Extra")
    for token in (1, 2, 3):
        (orm,) = card_specs(Card.objects.filter(token=token))
        assert card_spec(token) == orm
        assert type(card_spec(token).starter) is bool
    assert card_spec(1).starter is True and card_spec(2).starter is False


def test_card_specs_by_tokens_keeps_token_order(catalogue):
    for token in (9, 3, 7):
        make_card(token)
    assert [s.token for s in card_specs([7, 9, 3, 42])] == [3, 7, 9]
    assert card_specs([]) == []


def test_derived_fields_of_a_breakdown(catalogue):
    card = make_card(1, head=catalogue["crown"], body=catalogue["armor"], paw=catalogue["axe"])
    spec = card_spec(card)
    fields = derived_fields(derive(spec), spec)
    assert fields["rarity"] == "legendary" and fields["rarity_rank"] == 4
    assert fields["active_skill"] == "pierce" and fields["energy_cost"] == 4
    assert str(fields["wardrobe_score"]) == "1167.7"  # 333.3… + 500 + 333.3… + 1.1…, rounded down


def test_an_invalid_combo_is_left_out(catalogue, caplog):
    combo = Combo.objects.create(name_en="Two hats", rarity="legendary")
    combo.attributes.set([catalogue["crown"], catalogue["hood"]])
    assert combo_specs() == ()
    assert "Two hats" in caplog.text


def test_attribute_factory_allocates_ids(db):
    assert attr("paw", "Qx Mitten", 12).id % 4 == 2
