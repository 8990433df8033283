"""The slab arena in a real browser: build a team from the explorer (htmx), play a match to
the end, replay it; the countdown runs; surrender asks first; and the same without
JavaScript, on a phone-sized screen."""

from __future__ import annotations

import re

import pytest

from tests.arena.conftest import make_slabs

pytestmark = pytest.mark.django_db(transaction=True)

TEAM = ("Sun Pup", "Star Cub", "Old Sun", "Moon Pup")


def _turn(page) -> str | None:
    field = page.locator('#match input[name="turn"]')
    return field.get_attribute("value") if field.count() else None


def _play_one(page) -> None:
    """One move: bring a slab on, else the power move, else the basic attack, else pass."""
    for selector in (
        "form.moves button[value^='replace']:not([disabled])",
        "form.moves button[value='attack:power']:not([disabled])",
        "form.moves button[value='attack:basic']:not([disabled])",
        "form.moves button[value='pass']",
    ):
        button = page.locator(selector)
        if button.count():
            button.first.click()
            return
    raise AssertionError("no move to play")


def test_build_a_team_and_play_a_match_to_the_end(page):
    make_slabs()
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(f"{page.base_url}/en/arena/")
    assert page.get_by_role("heading", name="Your first battle").is_visible()
    page.get_by_role("link", name=re.compile("Browse .* slabs")).click()
    page.wait_for_url("**/arena/slabs/")
    for name in TEAM:
        card = page.locator("li.slab-card", has=page.get_by_role("link", name=name))
        card.get_by_role("button", name="Add to team").click()
        card.get_by_text("In your team").wait_for()  # htmx swapped the button in place
    assert page.locator("#team-bar").inner_text() == "Your team (4 of 4)"
    assert page.url.endswith("/arena/slabs/")  # no navigation
    # The filters swap the results with htmx and keep a real address.
    page.get_by_label("Rare").check()
    page.get_by_role("button", name="Show slabs").click()
    page.wait_for_url("**tier=rare**")
    assert page.locator("li.slab-card").count() == 2
    page.locator("#team-bar").click()
    page.wait_for_url("**/arena/team/")
    assert page.locator(".check-fail").count() == 0
    assert page.get_by_role("heading", name="Total value: $54.90").is_visible()
    page.get_by_label("Opponent").select_option("greedy")
    page.get_by_role("button", name="Play the match").click()
    page.wait_for_url("**/arena/m/**")
    match_url = page.url
    assert page.locator("[data-countdown] .clock-text").inner_text().endswith("s left")
    for _ in range(120):
        if page.locator(".result-panel").count():
            break
        before = _turn(page)
        _play_one(page)
        page.wait_for_function(
            """(before) => {
                const field = document.querySelector('#match input[name="turn"]');
                return document.querySelector('.result-panel') || (field && field.value !== before);
            }""",
            arg=before,
        )
        assert page.url == match_url  # htmx swaps the board
    else:
        pytest.fail("the match did not end")
    title = page.locator(".result-panel h2").inner_text()
    assert title in ("You win!", "The bot wins.", "A draw.")
    assert page.locator(".log-end").count() >= 1
    page.get_by_role("link", name="Replay the match").click()
    # It opens at the start (it opened at the end), with the turn in the address.
    page.wait_for_url("**/replay/?turn=0")
    assert page.get_by_role("heading", name="The board at the start").is_visible()
    page.get_by_role("navigation", name="Replay steps").get_by_role("link", name="Next").click()
    page.wait_for_url("**turn=1")
    page.get_by_role("navigation", name="Replay steps").get_by_role("link", name="Previous").click()
    page.wait_for_url("**turn=0")
    assert page.get_by_role("heading", name="The board at the start").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_surrender_asks_first_and_rematch(page):
    make_slabs()
    page.goto(f"{page.base_url}/en/arena/team/?slab=cc-7&slab=cc-2&slab=0x5f3a&slab=cc-3")
    page.get_by_role("button", name="Use this team").click()
    page.get_by_role("button", name="Play the match").click()
    page.wait_for_url("**/arena/m/**")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Surrender…").click()
    page.wait_for_timeout(300)
    assert page.locator(".result-panel").count() == 0  # dismissed: nothing happened
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Surrender…").click()
    page.wait_for_selector(".result-panel")
    assert page.locator(".result-panel h2").inner_text() == "The bot wins."
    page.get_by_role("button", name="Rematch: same teams").click()
    page.wait_for_selector("form.moves")
    assert page.locator(".result-panel").count() == 0


def test_the_arena_without_javascript_in_russian(browser, live_server):
    make_slabs()
    context = browser.new_context(locale="ru-RU", java_script_enabled=False,
                                  viewport={"width": 390, "height": 900})  # fmt: skip
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/ru/arena/")
        page.get_by_role("button", name="Собрать мне случайную команду rookie").click()
        page.wait_for_url("**/ru/arena/team/")
        assert page.locator(".check-fail").count() == 0
        page.get_by_role("button", name="Начать матч").click()
        page.wait_for_url("**/ru/arena/m/**")
        assert page.get_by_text("осталось").first.is_visible()  # the clock, as text
        for _ in range(3):
            _play_one(page)
            page.wait_for_load_state()
        page.get_by_role("button", name="Сдаться…").click()
        page.wait_for_url("**/surrender/")
        assert page.get_by_role("heading", name="Сдаться в этом матче?").is_visible()
        page.get_by_role("button", name="Да, сдаться").click()
        page.wait_for_url("**/ru/arena/m/**")
        assert page.locator(".result-panel h2").inner_text() == "Победил бот."
        page.goto(f"{live_server.url}/ru/arena/slabs/a/?date=2026-13-45")
        assert page.get_by_text("ГГГГ-ММ-ДД").first.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
