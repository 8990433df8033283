"""What a collector does in a real browser: search, open a card, ask what-if, switch
language, and go back after htmx navigation."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from cards.models import Card

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def collection():
    call_command("generate_collection", seed=2026, size=120, replace=True, verbosity=0)


def test_search_with_the_query_language_then_open_a_card(page, collection):
    page.goto(f"{page.base_url}/en/cards/")
    box = page.get_by_label("Search the collection")
    box.fill("r:legendary s:arcane")
    # Live results through htmx, and the address follows the search.
    page.wait_for_url(re.compile(r".*q=r%3Alegendary(\+|%20)s%3Aarcane.*"))
    summary = page.locator(".query-summary")
    expected = Card.objects.filter(
        rarity="legendary", skill_affinity="arcane", starter=False
    ).count()
    assert f"{expected} card" in summary.inner_text()
    assert "Skill affinity is Arcane" in summary.inner_text()
    first = page.locator(".card-tile-link").first
    name = first.inner_text()
    first.click()
    page.wait_for_url(re.compile(r".*/en/cards/\d+/$"))
    assert page.get_by_role("heading", level=1).inner_text() == name
    assert page.locator(".answer-line").inner_text().startswith("Legendary")


def test_a_typo_is_explained(page, collection):
    page.goto(f"{page.base_url}/en/cards/")
    page.get_by_label("Search the collection").fill("rarty:epic")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "did you mean “rarity”" in alert.inner_text()


def test_whatif_changes_the_rarity_and_has_a_permalink(page, collection):
    card = Card.objects.filter(rarity="common", starter=False).order_by("token").first()
    page.goto(f"{page.base_url}/en/cards/{card.token}/")
    assert page.locator(".answer-line").inner_text().startswith("Common")
    page.get_by_text("What if…?").click()
    page.get_by_label("GetGems rank").fill("4")
    page.get_by_role("button", name="Recompute").click()
    page.locator(".whatif-banner").wait_for()
    assert "with these changes it would be Legendary" in page.locator(".whatif-banner").inner_text()
    assert page.locator(".answer-line").inner_text().startswith("Legendary")
    assert "rank=4" in page.url
    # The permalink reproduces the what-if on a fresh load.
    page.goto(page.url)
    assert page.locator(".answer-line").inner_text().startswith("Legendary")
    card.refresh_from_db()
    assert card.rarity == "common"


def test_switch_to_russian_on_a_card_page_and_stay(page, collection):
    card = Card.objects.filter(starter=False).order_by("token").first()
    page.goto(f"{page.base_url}/en/cards/{card.token}/?burned=6")
    page.get_by_role("navigation", name="Language").get_by_role("link", name="RU").click()
    page.wait_for_url(f"**/ru/cards/{card.token}/?burned=6")
    assert page.locator("html").get_attribute("lang") == "ru"
    assert "ничего не сохранено" in page.locator(".whatif-banner").inner_text()


def test_back_button_after_htmx_navigation(page, collection):
    page.goto(f"{page.base_url}/en/cards/?q=sort%3Atoken")
    first_page = page.locator(".card-tile-link").first.inner_text()
    page.locator(".pagination").get_by_role("link", name="2").click()
    page.wait_for_url("**page=2**")
    assert page.locator(".card-tile-link").first.inner_text() != first_page
    page.go_back()
    page.wait_for_url(re.compile(r".*q=sort%3Atoken$"))
    page.locator(".card-tile-link").first.wait_for()
    assert page.locator(".card-tile-link").first.inner_text() == first_page
