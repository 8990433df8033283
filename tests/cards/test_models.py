"""What the database itself refuses, whatever code (or raw SQL) tries."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import translation
from django.utils.text import capfirst

from cards.models import RARITY_RANK, Attribute, Card, Combo
from core.labels import label
from engine import types as engine_types

from .conftest import attr, make_card

pytestmark = pytest.mark.django_db


def _raw(sql: str, params: list | tuple = ()) -> None:
    """Run raw SQL, then check deferred foreign keys too (as a commit would)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        connection.check_constraints()


@pytest.mark.parametrize(
    ("model", "field", "enum_cls"),
    [
        (Attribute, "slot", engine_types.Slot),
        (Attribute, "kind", engine_types.AttributeKind),
        (Card, "rarity", engine_types.Rarity),
        (Card, "role", engine_types.Role),
        (Card, "skill_affinity", engine_types.Skill),
        (Card, "active_skill", engine_types.Skill),
    ],
)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_choices_speak_the_one_vocabulary(model, field, enum_cls, lang):
    """What the admin's lists and filters show is what the pages show, in both languages."""
    with translation.override(lang):
        shown = [(value, str(name)) for value, name in model._meta.get_field(field).choices]
        assert shown == [(m.value, capfirst(label(m))) for m in enum_cls]


def test_a_combo_gives_a_catalogue_rarity():
    values = [value for value, _name in Combo._meta.get_field("rarity").choices]
    assert values == ["common", "rare", "epic", "legendary"]
    assert RARITY_RANK == {"free": 0, "common": 1, "rare": 2, "epic": 3, "legendary": 4}


def test_attribute_ids_encode_their_slot():
    slots = ("paw", "head", "background", "body", "paw")
    made = [attr(slot, f"Thing {i}") for i, slot in enumerate(slots)]
    assert [a.id % 4 for a in made] == [2, 0, 3, 1, 2]
    bulk = Attribute.objects.bulk_create(
        [
            Attribute(slot="body", name="Bulk Vest", supply=5),
            Attribute(slot="head", name="Bulk Cap", supply=5),
        ]
    )
    assert [a.id % 4 for a in bulk] == [1, 0]
    assert len({a.id for a in made + bulk}) == 7


def test_unique_token(catalogue):
    make_card(1)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_card(1)


@pytest.mark.parametrize(
    ("sql", "params"),
    [
        ("UPDATE cards_card SET token = 0", ()),
        ("UPDATE cards_card SET getgems_rank = 0", ()),
        ("UPDATE cards_card SET burned_stickers = -1", ()),
        ("UPDATE cards_card SET rarity = 'legendary', rarity_rank = 1", ()),
        ("UPDATE cards_card SET role = 'healer'", ()),
        ("UPDATE cards_card SET active_skill = 'fly'", ()),
    ],
)
def test_card_columns_are_checked(catalogue, sql, params):
    make_card(1)
    with pytest.raises(IntegrityError):
        _raw(sql, params)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE cards_attribute SET supply = 0",
        "UPDATE cards_attribute SET kind = 'legendary'",
        "UPDATE cards_attribute SET slot = 'tail'",
        "UPDATE cards_attribute SET name = ''",
    ],
)
def test_attribute_columns_are_checked(sql):
    attr("paw", "Qx Mitten", 12)
    with pytest.raises(IntegrityError):
        _raw(sql)


def test_supply_below_one_through_the_orm():
    with pytest.raises(IntegrityError), transaction.atomic():
        Attribute.objects.create(slot="paw", name="Nothing", supply=0)


def test_unique_slot_and_name():
    attr("paw", "Qx Mitten", 12)
    attr("head", "Qx Mitten", 12)  # another slot: another attribute
    with pytest.raises(IntegrityError), transaction.atomic():
        attr("paw", "Qx Mitten", 3)


@pytest.mark.parametrize("slot", ["head", "body", "paw", "background"])
def test_an_equipped_attribute_must_be_of_its_slot_raw_update(catalogue, slot):
    card = make_card(1)
    wrong = {"head": "armor", "body": "axe", "paw": "sky", "background": "crown"}[slot]
    with pytest.raises(IntegrityError):
        _raw(f"UPDATE cards_card SET {slot}_id = %s WHERE id = %s", [catalogue[wrong].id, card.id])
    card.refresh_from_db()
    assert getattr(card, f"{slot}_id") != catalogue[wrong].id


def test_an_equipped_attribute_must_be_of_its_slot_raw_insert(catalogue):
    c = catalogue
    columns = (
        "token, name, starter, burned_stickers, rarity, rarity_rank, role, skill_affinity, "
        "template, energy_cost, atk, hp, defense, ability, head_id, body_id, paw_id, background_id"
    )
    sql = f"INSERT INTO cards_card ({columns}) VALUES (%s, 'X', %s, 0, 'common', 1, 'tank', 'pierce', '', 1, 0, 0, 0, 0, %s, %s, %s, %s)"
    good = [c["cap"].id, c["vest"].id, c["ring"].id, c["sky"].id]
    _raw(sql, [7, False, *good])  # the right slots go in
    with pytest.raises(IntegrityError):  # head and body swapped
        _raw(sql, [8, False, c["vest"].id, c["cap"].id, c["ring"].id, c["sky"].id])


def test_an_equipped_attribute_cannot_change_slot(catalogue):
    make_card(1, head=catalogue["crown"])
    with pytest.raises(IntegrityError):
        _raw("UPDATE cards_attribute SET slot = 'body' WHERE id = %s", [catalogue["crown"].id])
    with pytest.raises(IntegrityError):  # nor be given a body-slot key
        _raw(
            "UPDATE cards_attribute SET slot = 'body', id = id + 1 WHERE id = %s",
            [catalogue["crown"].id],
        )


def test_an_attribute_key_must_match_its_slot():
    with pytest.raises(IntegrityError):
        _raw(
            "INSERT INTO cards_attribute (id, slot, name, supply, kind) VALUES (5, 'head', 'Cap', 3, 'normal')"
        )
    _raw(
        "INSERT INTO cards_attribute (id, slot, name, supply, kind) VALUES (4, 'head', 'Cap', 3, 'normal')"
    )


def test_the_orm_refuses_a_wrong_slot_too(catalogue):
    card = make_card(1)
    card.head = catalogue["armor"]
    with pytest.raises(IntegrityError), transaction.atomic():
        card.save()


def test_combo_rarity_and_name_are_checked(catalogue):
    Combo.objects.create(name_en="Pirate", name_ru="Пират", rarity="epic")
    with pytest.raises(IntegrityError), transaction.atomic():
        Combo.objects.create(name_en="Pirate", name_ru="Другой", rarity="rare")
    with pytest.raises(IntegrityError):
        _raw("UPDATE cards_combo SET rarity = 'free'")


def test_equipped_attributes_are_protected_from_deletion(catalogue):
    from django.db.models import ProtectedError

    make_card(1, paw=catalogue["axe"])
    with pytest.raises(ProtectedError):
        catalogue["axe"].delete()


def test_the_wardrobe_always_holds_the_equipped_four(catalogue):
    card = make_card(1, head=catalogue["crown"])
    assert set(card.wardrobe.values_list("id", flat=True)) == set(card.equipped_ids().values())
    card.wardrobe.remove(catalogue["crown"])  # equipped: put back
    card.wardrobe.clear()
    assert set(card.wardrobe.values_list("id", flat=True)) == set(card.equipped_ids().values())
    catalogue["crown"].owners.clear()
    assert card.wardrobe.filter(id=catalogue["crown"].id).exists()
    card.head = catalogue["hood"]
    card.save()
    owned = set(card.wardrobe.values_list("name", flat=True))
    assert {"Hexed Hood", "Iron Crown"} <= owned  # the old one is still owned


@pytest.mark.django_db
def test_collectible_cards_leave_the_starters_out():
    starter = make_card(1, starter=True, name="Starter Pup #1")
    first, second = make_card(2), make_card(3)
    assert set(Card.objects.collectible()) == {first, second}
    assert list(Card.objects.filter(token__gt=2).collectible()) == [second]
    assert starter in Card.objects.all()


def test_a_card_is_titled_by_its_name_and_token_once():
    assert str(Card(token=23, name="Sprocket")) == "Sprocket #23"
    assert str(Card(token=7, name="Pup #7")) == "Pup #7"
