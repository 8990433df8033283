"""What a collector does in a real browser: search, open a card, ask what-if (with and
without JavaScript), switch language, and go back after htmx navigation."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode

import pytest
from django.core.management import call_command

from cards.models import Attribute, Card

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


def test_the_language_switch_follows_an_htmx_whatif_and_search(page, collection):
    card = Card.objects.filter(starter=False).order_by("token").first()
    page.goto(f"{page.base_url}/en/cards/{card.token}/")
    page.get_by_text("What if…?").click()
    page.get_by_label("Burned stickers").fill("7")
    page.get_by_role("button", name="Recompute").click()
    page.wait_for_url(re.compile(r".*burned=7.*"))
    page.get_by_role("navigation", name="Language").get_by_role("link", name="RU").click()
    page.wait_for_url(re.compile(rf".*/ru/cards/{card.token}/\?.*burned=7.*"))
    assert page.get_by_label("Сожжённые стикеры").input_value() == "7"
    # The same for a search typed into the list (htmx pushes its address).
    page.goto(f"{page.base_url}/ru/cards/")
    page.locator("#q").fill("r:common")
    page.locator("#q").press("Enter")
    page.wait_for_url(re.compile(r".*q=r%3Acommon.*"))
    page.get_by_role("navigation", name="Язык").get_by_role("link", name="EN").click()
    page.wait_for_url(re.compile(r".*/en/cards/\?q=r%3Acommon.*"))


def test_recompute_keeps_the_page_where_it_was(page, collection):
    card = Card.objects.filter(starter=False).order_by("token").first()
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{page.base_url}/en/cards/{card.token}/")
    page.get_by_text("What if…?").click()
    page.get_by_label("Burned stickers").fill("3")
    page.get_by_role("button", name="Recompute").scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    page.get_by_role("button", name="Recompute").click()
    page.wait_for_url(re.compile(r".*burned=3.*"))
    page.locator(".whatif-banner").wait_for()
    assert abs(page.evaluate("window.scrollY") - before) < 50
    assert page.get_by_role("button", name="Recompute").is_visible()


def test_the_next_page_of_results_starts_at_its_top(page, collection):
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{page.base_url}/en/cards/?q=sort%3Atoken")
    link = page.locator(".pagination").get_by_role("link", name="2")
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_url(re.compile(r".*page=2.*"))
    page.wait_for_timeout(300)
    top = page.evaluate("document.getElementById('results').getBoundingClientRect().top")
    assert -2 < top < 100


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


def _whatif_card():
    """A Common card and a god paw attribute it does not own (equipping it: Legendary)."""
    card = Card.objects.filter(rarity="common", starter=False).order_by("token").first()
    god = Attribute.objects.filter(kind="god").exclude(owners=card).order_by("slot", "name")
    return card, god.first()


def _shown(page) -> dict[str, str]:
    """What the card page shows of the card: picture, Equipped panel, breakdown."""
    return {
        "picture": page.locator("svg.card-art").inner_html(),
        "equipped": page.locator(".equipped").inner_text(),
        "answer": page.locator(".answer-line").inner_text(),
        "rules": page.locator("table.rules").inner_text(),
    }


def test_a_whatif_permalink_fills_the_form_and_recompute_keeps_its_choices(page, collection):
    card, god = _whatif_card()
    permalink = (
        f"{page.base_url}/en/cards/{card.token}/?{urlencode({god.slot: god.name, 'rank': '900'})}"
    )
    page.goto(permalink)
    # The form shows what the address says: the permalink's attribute, and its rank.
    assert page.locator("details.whatif").get_attribute("open") is not None
    assert page.locator(f"#wi-{god.slot}").input_value() == god.name
    assert page.get_by_label("GetGems rank").input_value() == "900"
    assert god.name in page.locator(".equipped").inner_text()
    before = _shown(page)
    # Change only the rank: the attribute choice survives the Recompute.
    page.get_by_label("GetGems rank").fill("4")
    page.get_by_role("button", name="Recompute").click()
    page.wait_for_url(re.compile(r".*rank=4.*"))
    page.locator(".whatif-banner").wait_for()
    assert page.locator(f"#wi-{god.slot}").input_value() == god.name
    assert page.get_by_label("GetGems rank").input_value() == "4"
    after = _shown(page)
    assert f"{god.slot}=" in page.url
    assert god.name in after["equipped"] and "#4" in page.locator(".card-facts-small").inner_text()
    assert after["rules"] != before["rules"]  # the rank floor now reads #4
    # Picture, Equipped panel and breakdown are all those of the new what-if: the same as
    # a fresh load of its permalink.
    page.goto(page.url)
    assert _shown(page) == after


def test_try_it_updates_the_form_too(page, collection):
    card = Card.objects.filter(rarity="common", starter=False).order_by("token").first()
    page.goto(f"{page.base_url}/en/cards/{card.token}/")
    page.locator("#card-paths").scroll_into_view_if_needed()  # the ways up load in view
    page.locator("#next-title ~ ul .button").first.click()
    page.locator(".whatif-banner").wait_for()
    query = page.url.split("?", 1)[1]
    for name, value in parse_qsl(query, keep_blank_values=True):
        field = page.get_by_label("GetGems rank") if name == "rank" else page.locator(f"#wi-{name}")
        assert field.input_value() == value, (name, value)


def test_whatif_without_javascript(browser, live_server, collection):
    card, god = _whatif_card()
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    tab = context.new_page()
    try:
        tab.goto(f"{live_server.url}/en/cards/{card.token}/?{god.slot}={god.name}&rank=900")
        assert tab.locator(f"#wi-{god.slot}").input_value() == god.name
        tab.get_by_label("GetGems rank").fill("4")
        tab.get_by_role("button", name="Recompute").click()
        tab.wait_for_url(re.compile(r".*rank=4.*"))
        assert tab.locator(f"#wi-{god.slot}").input_value() == god.name
        assert god.name in tab.locator(".equipped").inner_text()
        # A refused value is a 400 page with the reason, the other choices kept.
        tab.goto(f"{live_server.url}/en/cards/{card.token}/?{god.slot}={god.name}&burned=%C2%B2")
        assert "Burned stickers is a whole number" in tab.get_by_role("alert").inner_text()
        assert tab.locator(f"#wi-{god.slot}").input_value() == god.name
    finally:
        context.close()


def test_the_ways_up_arrive_as_they_scroll_into_view_and_try_it_recomputes(page, collection):
    card = Card.objects.filter(rarity="common", starter=False).order_by("token").first()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{page.base_url}/ru/cards/{card.token}/")
    section = page.locator("#card-paths")
    section.scroll_into_view_if_needed()
    try_it = section.get_by_role("link", name="Попробовать").first
    try_it.wait_for()  # htmx brought the checked what-ifs in place of the link to them
    assert "Что сделает её Rare?" in section.inner_text()
    assert section.get_by_text("Изменения, которые сделают её").count() == 0
    try_it.click()
    page.locator(".whatif-banner").wait_for()
    assert "ничего не сохранено" in page.locator(".whatif-banner").inner_text()
    assert re.search(rf"/ru/cards/{card.token}/\?.+", page.url)
    assert page.locator("header.site-header").count() == 1


def test_a_keyboard_user_on_the_ways_up_link_keeps_their_place(page, collection):
    card = Card.objects.filter(rarity="common", starter=False).order_by("token").first()
    page.set_viewport_size({"width": 1200, "height": 500})
    page.goto(f"{page.base_url}/en/cards/{card.token}/")
    page.locator("#card-paths-focus").focus()  # scrolls it into view: the answer loads
    page.locator("#card-paths .paths li").first.wait_for()
    assert page.evaluate("document.activeElement.id") == "card-paths-focus"
    assert page.evaluate("document.activeElement.tagName") == "SECTION"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Try it"


def test_the_ways_up_without_javascript_are_a_page_of_their_own(browser, live_server, collection):
    card = Card.objects.filter(rarity="common", starter=False).order_by("token").first()
    context = browser.new_context(java_script_enabled=False)
    tab = context.new_page()
    try:
        tab.goto(f"{live_server.url}/en/cards/{card.token}/")
        tab.get_by_role("link", name="The changes that would make it Rare").click()
        tab.wait_for_url(f"**/en/cards/{card.token}/paths/")
        tab.get_by_role("link", name="Try it").first.click()
        tab.wait_for_url(re.compile(rf".*/en/cards/{card.token}/\?.+"))
        assert "with these changes it would be" in tab.locator(".whatif-banner").inner_text()
    finally:
        context.close()


def test_a_whatif_error_under_htmx_stays_in_its_place(page, collection):
    card = Card.objects.filter(starter=False).order_by("token").first()
    page.goto(f"{page.base_url}/en/cards/{card.token}/")
    page.get_by_text("What if…?").click()
    rank = page.get_by_label("GetGems rank")
    # The browser's own check would refuse 0 before sending; send it as the page would.
    rank.evaluate("input => { input.min = ''; input.value = '0'; }")
    page.get_by_role("button", name="Recompute").click()
    page.get_by_role("alert").wait_for()
    assert "A GetGems rank is a whole number" in page.get_by_role("alert").inner_text()
    assert page.locator("header.site-header").count() == 1  # no page inside the page
    assert page.locator("h1").count() == 1


# --- browsing: the query language, displays, sort controls, the advanced form ------------


def test_a_boolean_query_then_the_display_and_the_sort_controls(page, collection):
    page.goto(f"{page.base_url}/en/cards/")
    page.get_by_label("Search the collection").fill("r:legendary or r:epic")
    page.wait_for_url(re.compile(r".*q=r%3Alegendary(\+|%20)or(\+|%20)r%3Aepic.*"))
    expected = Card.objects.filter(rarity__in=["legendary", "epic"], starter=False).count()
    summary = page.locator(".query-summary").inner_text()
    assert f"{expected} cards found" in summary
    assert "Rarity is Legendary or Rarity is Epic" in summary
    # Each tile shows the card's picture, and the legend says what ★ means.
    first_art = page.locator(".card-tile-art").first
    first_art.wait_for()
    assert page.evaluate("img => img.complete && img.naturalWidth > 0", first_art.element_handle())
    assert "★ marks an active skill" in page.locator(".legend").inner_text()
    # The sort controls write the query into the address (and the box).
    page.get_by_label("Sort by").select_option("atk")
    page.wait_for_url(re.compile(r".*sort%3A-atk.*"))
    atks = [
        int(re.search(r"ATK (\d+)", t).group(1))
        for t in page.locator(".card-tile-meta:has-text('ATK')").all_inner_texts()
    ]
    assert atks == sorted(atks, reverse=True)
    page.get_by_label("Direction").select_option("asc")
    page.wait_for_url(re.compile(r".*sort%3Aatk(&|$).*"))
    # The checklist display keeps the search and the order.
    page.get_by_role("navigation", name="Display").get_by_role("link", name="Checklist").click()
    page.wait_for_url(re.compile(r".*display=checklist.*"))
    page.locator("table.checklist").wait_for()
    assert "sort%3Aatk" in page.url
    page.reload()
    assert page.locator("table.checklist tbody tr").count() > 0


def test_the_sort_controls_without_javascript(browser, live_server, collection):
    context = browser.new_context(java_script_enabled=False)
    tab = context.new_page()
    try:
        tab.goto(f"{live_server.url}/en/cards/?q=r%3Aepic")
        tab.get_by_label("Sort by").select_option("hp")
        tab.get_by_role("button", name="Sort").click()
        tab.wait_for_url(re.compile(r".*q=r%3Aepic(\+|%20)sort%3A-hp$"))
        assert tab.get_by_label("Search the collection").input_value() == "r:epic sort:-hp"
    finally:
        context.close()


def test_a_refused_query_points_at_the_mistake(page, collection):
    page.goto(f"{page.base_url}/en/cards/")
    page.get_by_label("Search the collection").fill("(r:epic or s:arcane")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "is never closed" in alert.inner_text()
    assert page.locator(".query-echo mark").inner_text() == "("


def test_the_advanced_form_builds_the_query(page, collection):
    page.goto(f"{page.base_url}/en/cards/advanced/")
    page.get_by_label("Epic").check()
    page.get_by_label("Legendary").check()
    page.get_by_label("Wears a complete combo").select_option("no")
    page.get_by_label("ATK: from").fill("8")
    page.get_by_label("Sort by").select_option("hp")
    page.get_by_role("main").get_by_role("button", name="Search").click()
    page.wait_for_url(re.compile(r".*/en/cards/\?q=.*"))
    box = page.get_by_label("Search the collection").input_value()
    assert box == "(r:epic or r:legendary) atk>=8 not:combo sort:-hp"
    summary = page.locator(".query-summary").inner_text()
    assert "cards found" in summary or "card found" in summary


def test_the_header_search_groups_cards_and_wiki_pages(page, collection):
    call_command("load_wiki", verbosity=0)
    page.goto(f"{page.base_url}/en/wiki/")
    header = page.get_by_role("banner")
    header.get_by_label("Search cards and rules").fill("r:legendary")
    header.get_by_role("button", name="Search").click()
    page.wait_for_url(re.compile(r".*/en/search/\?q=r%3Alegendary$"))
    headings = page.locator("main h2").all_inner_texts()
    assert headings[0].startswith("Cards") and headings[1].startswith("Wiki pages")
    assert page.locator(".search-group-cards .card-tile").count() > 0
    # Plain words: the rules first.
    header.get_by_label("Search cards and rules").fill("energy")
    header.get_by_label("Search cards and rules").press("Enter")
    page.wait_for_url(re.compile(r".*q=energy$"))
    headings = page.locator("main h2").all_inner_texts()
    assert headings[0].startswith("Wiki pages")
    page.locator(".wiki-hits a").first.click()
    page.wait_for_url(re.compile(r".*/en/wiki/[\w-]+/$"))


def test_a_random_card_and_the_neighbours(page, collection):
    page.goto(f"{page.base_url}/en/")
    page.get_by_role("link", name="Show me a random card").click()
    page.wait_for_url(re.compile(r".*/en/cards/\d+/$"))
    token = int(page.url.rstrip("/").split("/")[-1])
    nav = page.get_by_role("navigation", name="More cards")
    following = Card.objects.filter(token__gt=token).order_by("token").first()
    if following is not None:
        nav.get_by_role("link", name=re.compile(r"^Next")).click()
        page.wait_for_url(f"**/en/cards/{following.token}/")


# --- a phone: 390 px ----------------------------------------------------------------------


def test_on_a_phone_rules_stack_charts_read_and_compare_fits(browser, live_server, collection):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU")
    tab = context.new_page()
    try:
        card = Card.objects.filter(rarity="epic", starter=False).order_by("token").first()
        tab.goto(f"{live_server.url}/ru/cards/{card.token}/")
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390
        # The rule table: one block per rule, every cell as wide as the block, none cut.
        rows = tab.locator("table.rules tbody tr")
        assert rows.count() == 7
        box = rows.first.bounding_box()
        for cell in rows.first.locator("td").all():
            cell_box = cell.bounding_box()
            assert cell_box["width"] >= box["width"] - 4
            assert tab.evaluate("c => c.scrollWidth <= c.clientWidth + 1", cell.element_handle())
        assert "Основание" in rows.first.locator("td").nth(1).evaluate(
            "c => getComputedStyle(c, '::before').content"
        )
        # Chart labels stay at least 12 px.
        tab.goto(f"{live_server.url}/ru/cards/stats/")
        sizes = tab.eval_on_selector_all(
            ".bar-label, .bar-value",
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))",
        )
        assert sizes and min(sizes) >= 12
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390
        # Compare: the two cards side by side in one table that fits.
        a, b = Card.objects.filter(starter=False).order_by("token")[:2]
        tab.goto(f"{live_server.url}/ru/cards/compare/?a={a.token}&b={b.token}")
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390
        heads = tab.locator(".compare-table thead th").all()
        first, second = heads[0].bounding_box(), heads[1].bounding_box()
        assert abs(first["y"] - second["y"]) < 2 and second["x"] > first["x"]
        assert tab.locator("tr.differs").count() > 0
    finally:
        context.close()
