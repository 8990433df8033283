"""What a visitor does with the site's frame: navigate, switch language, use the keyboard."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_switching_language_keeps_the_page(page):
    page.goto(f"{page.base_url}/en/cards/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.get_by_role("navigation", name="Language").get_by_role("link", name="RU").click()
    page.wait_for_url("**/ru/cards/")
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.get_by_role("link", name="Вики").first.is_visible()
    page.get_by_role("navigation", name="Язык").get_by_role("link", name="EN").click()
    page.wait_for_url("**/en/cards/")


def test_skip_link_is_the_first_stop_for_the_keyboard(page):
    page.goto(f"{page.base_url}/en/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused.strip() == "Skip to content"


def test_htmx_loads_without_csp_violations(page):
    page.goto(f"{page.base_url}/en/")
    assert page.evaluate("typeof window.htmx") == "object"


def test_pages_fit_a_phone_screen(page):
    from django.core.management import call_command

    call_command("generate_collection", seed=2026, size=60, replace=True, verbosity=0)
    call_command("load_wiki", verbosity=0)
    page.set_viewport_size({"width": 375, "height": 800})
    # The API docs: its example addresses are long words that must wrap.
    pages = ("/ru/", "/ru/wiki/rarities/", "/ru/cards/", "/ru/cards/30/", "/ru/play/", "/en/api/")
    for path in pages:
        page.goto(f"{page.base_url}{path}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 376, (path, width)


def test_the_header_search_works_without_javascript_and_on_a_phone(browser, live_server):
    from django.core.management import call_command

    call_command("generate_collection", seed=2026, size=60, replace=True, verbosity=0)
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    tab = context.new_page()
    try:
        tab.goto(f"{live_server.url}/ru/cards/")
        header = tab.get_by_role("banner")
        box = header.get_by_label("Поиск по картам и правилам")
        assert box.is_visible()
        box.fill("r:epic or r:legendary")
        box.press("Enter")
        tab.wait_for_url("**/ru/search/?q=r%3Aepic+or+r%3Alegendary")
        assert tab.locator("main h2").first.inner_text().startswith("Карты")
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390
        # The language switcher keeps the search.
        tab.get_by_role("navigation", name="Язык").get_by_role("link", name="EN").click()
        tab.wait_for_url("**/en/search/?q=r%3Aepic+or+r%3Alegendary")
        assert (
            header.get_by_label("Search cards and rules").input_value() == "r:epic or r:legendary"
        )
    finally:
        context.close()
