"""The pool admin: the card picker, its refusals, the live odds preview; read-only records."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from cards.models import Card
from core import versions
from packs.models import Opening, Pool

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, site):
    user = User.objects.create_superuser("editor", "editor@example.org", "pw")
    client.force_login(user)
    return client


def form_data(**overrides):
    data = {
        "name_en": "Test pool",
        "name_ru": "Тестовый пул",
        "slug": "test-pool",
        "description_en": "",
        "description_ru": "",
        "position": "5",
        "pack_size": "3",
        "cards": [],
    }
    data.update(overrides)
    return data


def catalogue(n: int) -> list[Card]:
    return list(Card.objects.filter(starter=False).order_by("token")[:n])


def test_the_change_form_has_the_picker_and_the_preview(staff) -> None:
    pool = Pool.objects.get(slug="night-sky")
    html = staff.get(reverse("admin:packs_pool_change", args=[pool.pk])).content.decode()
    assert "admin-autocomplete" in html  # the autocomplete card picker
    assert 'id="pool-odds-preview"' in html and "js/packs_admin.js" in html
    assert "At least one" in html and "Legendary" in html


def test_saving_a_pool_bumps_the_packs_version(staff) -> None:
    before = versions.current("packs")
    cards = catalogue(4)
    response = staff.post(reverse("admin:packs_pool_add"), form_data(cards=[c.pk for c in cards]))
    assert response.status_code == 302, response.content.decode()[:2000]
    pool = Pool.objects.get(slug="test-pool")
    assert set(pool.cards.all()) == set(cards) and pool.pack_size == 3
    assert versions.current("packs") != before


def test_a_free_card_is_refused_by_name(staff) -> None:
    free = Card.objects.filter(starter=True).first()
    assert free is not None
    data = form_data(cards=[catalogue(1)[0].pk, free.pk])
    html = staff.post(reverse("admin:packs_pool_add"), data).content.decode()
    assert "Free cards never enter a pool" in html and str(free) in html
    assert not Pool.objects.filter(slug="test-pool").exists()


def test_a_card_listed_twice_is_refused(staff) -> None:
    card = catalogue(1)[0]
    html = staff.post(reverse("admin:packs_pool_add"), form_data(cards=[card.pk, card.pk])).content
    assert "Each card enters a pool once" in html.decode() and str(card) in html.decode()
    assert not Pool.objects.filter(slug="test-pool").exists()


@pytest.mark.parametrize("size", ["0", "11", "²"])
def test_the_pack_size_is_bounded(staff, size) -> None:
    staff.post(reverse("admin:packs_pool_add"), form_data(pack_size=size))
    assert not Pool.objects.filter(slug="test-pool").exists()


@pytest.mark.parametrize("slug", ["binder", "openings"])
def test_reserved_addresses_are_refused(staff, slug) -> None:
    html = staff.post(reverse("admin:packs_pool_add"), form_data(slug=slug)).content.decode()
    assert "address of another booster page" in html
    assert not Pool.objects.filter(slug=slug).exists()


def test_the_live_preview(staff) -> None:
    preview = reverse("admin:packs_pool_odds_preview")
    cards = catalogue(3)
    html = staff.post(preview, {"cards": [c.pk for c in cards], "pack_size": "5"}).content.decode()
    assert "the pool is smaller than the pack, so a pack gives all 3" in html
    assert re.search(r"100%", html)
    free = Card.objects.filter(starter=True).first()
    html = staff.post(preview, {"cards": [cards[0].pk, free.pk], "pack_size": "2"}).content.decode()
    assert "Free cards never enter a pool" in html
    bad = staff.post(preview, {"cards": ["x"], "pack_size": "²"})
    assert bad.status_code == 400
    assert staff.get(preview).status_code == 405


def test_the_preview_is_for_staff_only(client, site) -> None:
    response = client.post(reverse("admin:packs_pool_odds_preview"), {"pack_size": "5"})
    assert response.status_code == 302 and "login" in response["Location"]


def test_openings_are_read_only(staff) -> None:
    assert staff.get(reverse("admin:packs_opening_changelist")).status_code == 200
    assert staff.get(reverse("admin:packs_opening_add")).status_code == 403
    assert not Opening.objects.exists()
    assert staff.get(reverse("admin:packs_powerrun_changelist")).status_code == 200


@pytest.mark.parametrize("big", ["99999999999999999999", "-99999999999999999999"])
def test_a_twenty_digit_card_id_is_not_a_valid_choice(staff, big) -> None:
    """Issue 26: on SQLite the id overflowed in ``pk__in`` (a 500)."""
    response = staff.post(
        reverse("admin:packs_pool_add"), form_data(cards=[catalogue(1)[0].pk, big])
    )
    assert response.status_code == 200
    assert "is not one of the choices offered here" in response.content.decode()
    assert not Pool.objects.filter(slug="test-pool").exists()


@pytest.mark.parametrize("huge", ["7" * 3000, "x" * 3000])
def test_a_huge_card_value_is_refused_shortened(staff, huge) -> None:
    """Django's "Select a valid choice. … is not one of the available choices." (or its
    "“…” is not a valid value." for what is no id) repeated all 3,000 characters: the pool
    form and the live preview say core.forms' sentence with the value cut to 80."""
    shown = huge[:79] + "…"
    response = staff.post(reverse("admin:packs_pool_add"), form_data(cards=[huge]))
    html = response.content.decode()
    assert response.status_code == 200 and not Pool.objects.filter(slug="test-pool").exists()
    assert shown in html and huge[:100] not in html
    assert "Select a valid choice" not in html
    preview = staff.post(
        reverse("admin:packs_pool_odds_preview"), {"cards": [huge], "pack_size": "5"}
    )
    assert preview.status_code == 400
    html = preview.content.decode()
    assert shown in html and huge[:100] not in html
