"""Why this result, in a real browser: a result's "Why?" opens its explanation in the
results page's panel (htmx), the box asks it of any card, and without JavaScript both
are pages of their own."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from cards.models import Card

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def collection():
    call_command("generate_collection", seed=2026, size=120, replace=True, verbosity=0)


def test_a_results_why_opens_in_the_panel_and_the_box_asks_of_any_card(page, collection):
    page.goto(f"{page.base_url}/en/cards/?q=r%3Alegendary")
    address = page.url
    page.locator(".why-link").first.click()
    panel = page.locator("#why-panel")
    panel.get_by_text("This search finds this card.").wait_for()
    assert "✓" in panel.inner_text() and "r:legendary" in panel.inner_text()
    assert page.url == address  # the explanation opens in place
    epic = Card.objects.filter(rarity="epic", starter=False).order_by("token").first()
    page.get_by_label("Why not that card? Its token or name:").fill(str(epic.token))
    page.get_by_role("button", name="Explain").click()
    panel.get_by_text("This search does not find this card.").wait_for()
    assert "✗" in panel.inner_text() and "rarity Epic" in panel.inner_text()


def test_without_javascript_why_is_a_page_of_its_own(browser, live_server, collection):
    context = browser.new_context(java_script_enabled=False)
    try:
        tab = context.new_page()
        tab.goto(f"{live_server.url}/en/cards/?q=r%3Alegendary")
        tab.locator(".why-link").first.click()
        tab.wait_for_url(re.compile(r".*/en/cards/why/\?q=r%3Alegendary&card=\d+$"))
        assert "This search finds this card." in tab.locator("#why-answer").inner_text()
    finally:
        context.close()
