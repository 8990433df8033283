"""A collector follows a card's history in a real browser: from the card page to its
timeline, back in time with ?as=, and the site's changes, in English and Russian."""

from __future__ import annotations

import datetime
import json
import re

import pytest

from cards.market import import_market
from cards.models import Attribute, Card

pytestmark = pytest.mark.django_db(transaction=True)

DAY = datetime.date.today() - datetime.timedelta(days=4)


@pytest.fixture
def legend():
    def attr(slot: str, name: str, supply: int) -> Attribute:
        return Attribute.objects.create(slot=slot, name=name, supply=supply)

    Card.objects.create(
        token=42,
        name="Pup #42",
        head=attr("head", "Iron Crown", 3),
        body=attr("body", "Chain Armor", 2),
        paw=attr("paw", "Axe", 3),
        background=attr("background", "Sky", 800),
    )
    rows = [{"date": DAY.isoformat(), "slot": "paw", "attribute": "Axe", "supply": 4}]
    import_market(json.dumps(rows))


def test_from_the_card_to_its_history_and_back_in_time(page, legend):
    page.goto(f"{page.base_url}/en/cards/42/")
    assert page.locator(".answer-line").inner_text().startswith("Epic")
    assert re.search(r"[0-9a-f]{64}", page.locator(".fingerprint").inner_text())
    page.get_by_role("link", name="Its history").first.click()
    page.wait_for_url(re.compile(r".*/en/cards/42/history/$"))
    assert page.get_by_role("heading", level=1).inner_text() == "History of Pup #42"
    row = page.locator("tr.tier-change").first
    assert "Legendary" in row.inner_text() and "Epic" in row.inner_text()
    assert "Market: supply of Axe (paw) 3 → 4" in row.inner_text()
    before = (DAY - datetime.timedelta(days=1)).isoformat()
    page.goto(f"{page.base_url}/en/cards/42/?as={before}")
    assert page.locator(".as-of-banner").is_visible()
    assert page.locator(".answer-line").inner_text().startswith("Legendary")
    page.get_by_role("link", name="The card today").click()
    page.wait_for_url(re.compile(r".*/en/cards/42/$"))
    assert page.locator(".as-of-banner").count() == 0


def test_the_changes_page_in_russian(page, legend):
    page.goto(f"{page.base_url}/ru/changes/")
    assert page.get_by_role("heading", level=1).inner_text() == "Изменения карт"
    assert "Рынок: тираж Axe" in page.locator("table.changes").inner_text()
    page.goto(f"{page.base_url}/ru/cards/42/?as=2999-01-01")
    assert "в будущем" in page.get_by_role("alert").inner_text()
