"""Staff pages: lists filter and search, the card page shows a live breakdown, saves re-derive."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from cards.models import Attribute, Card, Combo

from .conftest import make_card
from .test_recompute import assert_fresh

pytestmark = pytest.mark.django_db


@pytest.fixture
def cards(catalogue):
    c = catalogue
    return [
        make_card(1, head=c["crown"], body=c["armor"], paw=c["axe"]),
        make_card(2, paw=c["mitten"]),
        make_card(3, starter=True, name="Starter Pup #3"),
    ]


def _card_form(card: Card, **changes) -> dict:
    data = {
        "name": card.name,
        "starter": "on" if card.starter else "",
        "head": card.head_id,
        "body": card.body_id,
        "paw": card.paw_id,
        "background": card.background_id,
        "wardrobe": list(card.wardrobe.values_list("id", flat=True)),
        "getgems_rank": card.getgems_rank or "",
        "burned_stickers": card.burned_stickers,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v != ""}


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?rarity__exact=legendary",
        "?role__exact=tank&skill_affinity__exact=pierce",
        "?active_skill__isnull=True",
        "?starter__exact=1",
        "?q=2",
        "?q=%232",
        "?q=Pup",
        "?q=not-a-number",
        "?o=3",
    ],
)
def test_card_list_filters_and_searches(admin_client, cards, query):
    response = admin_client.get(reverse("admin:cards_card_changelist") + query)
    assert response.status_code == 200


def test_card_list_searches_tokens(admin_client, cards):
    response = admin_client.get(reverse("admin:cards_card_changelist") + "?q=3")
    assert list(response.context["cl"].result_list) == [cards[2]]
    response = admin_client.get(reverse("admin:cards_card_changelist") + "?q=%233")
    assert list(response.context["cl"].result_list) == [cards[2]]


@pytest.mark.parametrize("term", ["²", "①", "99999999999999999999999"])
def test_card_search_with_digits_int_refuses_is_a_name_search(admin_client, cards, term):
    # "²".isdigit() is True and int("²") raised: the search answered 500.
    response = admin_client.get(reverse("admin:cards_card_changelist"), {"q": term})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == []


@pytest.mark.parametrize(
    "query",
    [
        "",
        "?slot__exact=paw",
        "?kind__exact=god",
        "?supply_range=one",
        "?supply_range=le3",
        "?supply_range=unique",
        "?supply_range=rare",
        "?supply_range=base",
        "?q=Mitten",
    ],
)
def test_attribute_list_filters(admin_client, catalogue, query):
    response = admin_client.get(reverse("admin:cards_attribute_changelist") + query)
    assert response.status_code == 200


def test_supply_ranges_follow_the_tiers(admin_client, catalogue):
    url = reverse("admin:cards_attribute_changelist")
    names = lambda q: {a.name for a in admin_client.get(url + q).context["cl"].result_list}  # noqa: E731
    assert names("?supply_range=one") == {"Oracle Nebula"}
    assert names("?supply_range=rare") == {"Hexed Hood", "Qx Mitten"}
    assert "Chain Armor" in names("?supply_range=unique") and "Sky" in names("?supply_range=base")


def test_card_page_shows_the_live_breakdown(admin_client, cards):
    response = admin_client.get(reverse("admin:cards_card_change", args=[cards[0].pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Legendary" in html and "decided by" in html and "Supply count" in html
    assert "ATK" in html and "NRG" in html
    add = admin_client.get(reverse("admin:cards_card_add"))
    assert add.status_code == 200


def test_saving_a_card_re_derives_it(admin_client, cards, catalogue):
    card = cards[1]
    assert card.rarity != "legendary"
    url = reverse("admin:cards_card_change", args=[card.pk])
    response = admin_client.post(url, _card_form(card, burned_stickers=6), follow=True)
    assert response.status_code == 200
    card.refresh_from_db()
    assert card.rarity == "legendary" and card.burned_stickers == 6
    assert "Legendary" in response.content.decode()  # the message and the list say so
    # A new equipped attribute from the right slot, and the rank.
    response = admin_client.post(
        url, _card_form(card, burned_stickers=0, paw=catalogue["axe"].pk, getgems_rank=70)
    )
    assert response.status_code == 302
    card.refresh_from_db()
    assert (card.paw_id, card.getgems_rank, card.rarity) == (catalogue["axe"].pk, 70, "epic")
    assert card.wardrobe.filter(pk=catalogue["axe"].pk).exists()
    assert_fresh()


def test_an_attribute_of_another_slot_is_refused(admin_client, cards, catalogue):
    card = cards[1]
    url = reverse("admin:cards_card_change", args=[card.pk])
    response = admin_client.post(url, _card_form(card, paw=catalogue["crown"].pk))
    assert response.status_code == 200  # the form again, with the error
    assert response.context["adminform"].form.errors["paw"]
    card.refresh_from_db()
    assert card.paw_id == catalogue["mitten"].pk


def test_attribute_pickers_offer_only_their_slot(admin_client, cards):
    url = reverse("admin:autocomplete")
    response = admin_client.get(
        url, {"app_label": "cards", "model_name": "card", "field_name": "paw", "term": ""}
    )
    assert response.status_code == 200
    ids = {int(r["id"]) for r in response.json()["results"]}
    assert ids and {a.slot for a in Attribute.objects.filter(id__in=ids)} == {"paw"}


def test_adding_a_card(admin_client, catalogue):
    c = catalogue
    data = {
        "token": 77,
        "name": "Newcomer",
        "head": c["crown"].pk,
        "body": c["armor"].pk,
        "paw": c["axe"].pk,
        "background": c["sky"].pk,
        "wardrobe": [c["hood"].pk],
        "burned_stickers": 0,
    }
    response = admin_client.post(reverse("admin:cards_card_add"), data)
    assert response.status_code == 302
    card = Card.objects.get(token=77)
    assert card.rarity == "legendary"
    assert card.wardrobe.count() == 5  # the hood and the equipped four
    assert_fresh()


def test_attribute_edit_re_derives_its_owners(admin_client, cards, catalogue):
    mitten = catalogue["mitten"]
    url = reverse("admin:cards_attribute_change", args=[mitten.pk])
    page = admin_client.get(url)
    assert page.status_code == 200 and 'name="slot"' not in page.content.decode()
    response = admin_client.post(url, {"name": mitten.name, "supply": 1, "kind": "normal"})
    assert response.status_code == 302
    assert Attribute.objects.get(pk=mitten.pk).supply == 1
    assert Card.objects.get(token=2).rarity == "rare"  # an equipped unique-tier attribute
    assert_fresh()


def test_combo_admin(admin_client, cards, catalogue):
    c = catalogue
    add = reverse("admin:cards_combo_add")
    page = admin_client.get(add)
    assert page.status_code == 200
    assert "googleapis" not in page.content.decode()  # the CSP allows only our scripts
    two_heads = {
        "name_en": "Two hats",
        "name_ru": "Две шляпы",
        "rarity": "epic",
        "attributes": [c["crown"].pk, c["hood"].pk],
    }
    response = admin_client.post(add, two_heads)
    assert response.status_code == 200 and not Combo.objects.exists()
    good = {
        "name_en": "Mitten Mage",
        "name_ru": "Маг в варежках",
        "rarity": "legendary",
        "attributes": [c["mitten"].pk, c["vest"].pk],
    }
    response = admin_client.post(add, good)
    assert response.status_code == 302
    assert Card.objects.get(token=2).rarity == "legendary"
    assert_fresh()
    listing = admin_client.get(reverse("admin:cards_combo_changelist"))
    assert listing.status_code == 200 and "Mitten Mage" in listing.content.decode()
    combo = Combo.objects.get()
    change = admin_client.get(reverse("admin:cards_combo_change", args=[combo.pk]))
    assert change.status_code == 200


def test_card_list_queries_do_not_grow_with_the_page(
    admin_client, catalogue, django_assert_max_num_queries
):
    for token in range(1, 41):
        make_card(token)
    with django_assert_max_num_queries(12):
        admin_client.get(reverse("admin:cards_card_changelist"))


def test_adding_an_attribute_allocates_a_slot_key(admin_client, db):
    assert admin_client.get(reverse("admin:cards_attribute_add")).status_code == 200
    response = admin_client.post(
        reverse("admin:cards_attribute_add"),
        {"slot": "background", "name": "Rune Canyon", "supply": 4, "kind": "normal"},
    )
    assert response.status_code == 302
    attribute = Attribute.objects.get(name="Rune Canyon")
    assert attribute.id % 4 == 3  # background
    page = admin_client.get(reverse("admin:cards_attribute_change", args=[attribute.pk]))
    assert "unique" in page.content.decode()  # its tier, from the engine's bands


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_card_change_page_links_to_the_card_on_the_site(admin_client, cards, lang):
    card = cards[0]
    with translation.override(lang):
        change = reverse("admin:cards_card_change", args=[card.pk])
    html = admin_client.get(change).content.decode()
    link = re.search(r'<a href="([^"]+)" class="viewsitelink">', html)
    assert link, "no View on site link"
    response = admin_client.get(link.group(1))
    assert response.status_code == 302
    assert response["Location"].endswith(f"/{lang}/cards/{card.token}/")
