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
    for path in ("/ru/", "/ru/wiki/rarities/", "/ru/cards/", "/ru/cards/30/", "/ru/play/"):
        page.goto(f"{page.base_url}{path}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 376, (path, width)
