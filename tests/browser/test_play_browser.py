"""Playing a match in a real browser: build a deck, play to the end with htmx, replay it;
and the same forms without JavaScript."""

from __future__ import annotations

import pytest

from tests.play.conftest import build_collection

pytestmark = pytest.mark.django_db(transaction=True)


def _turn(page) -> str | None:
    field = page.locator('#match input[name="turn"]')
    return field.get_attribute("value") if field.count() else None


def test_play_a_match_to_the_end_and_replay_it(page):
    build_collection()
    page.goto(f"{page.base_url}/en/play/")
    # Build a deck with htmx: the builder swaps in place and the URL follows.
    page.get_by_role("link", name="Add Swift Legend").click()
    page.wait_for_url("**deck=10**")
    page.get_by_role("link", name="Add Crowned").click()
    page.wait_for_url("**deck=10%2C9**")
    assert page.get_by_role("heading", name="Your deck (2 of 4)").is_visible()
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url("**/play/m/**")
    assert page.get_by_role("heading", name="Match against the bot").is_visible()
    match_url = page.url

    for _ in range(400):
        if page.locator(".result-panel").count():
            break
        before = _turn(page)
        choice = page.locator("button.choice")
        picked = page.locator("button.choice-picked")
        if choice.count() and not picked.count():
            choice.first.click()
        else:
            page.get_by_role("button", name="Commit").click()
        page.wait_for_function(
            """(before) => {
                const field = document.querySelector('#match input[name="turn"]');
                return document.querySelector('.result-panel') || (field && field.value !== before);
            }""",
            arg=before,
        )
        assert page.url == match_url  # htmx swaps the board; no navigation
    else:
        pytest.fail("the match did not end")

    result = page.locator(".result-panel h2").inner_text()
    assert result in ("You win!", "The bot wins.", "A draw.")
    assert page.locator(".log-end").count() >= 1
    # The log's last line is a sentence (it once read "b hero_defeated Hero HP: …").
    last_line = page.locator(".log-end").last.inner_text()
    assert last_line.startswith(result) and "_" not in last_line, last_line
    assert page.get_by_role("button", name="Commit").count() == 0

    page.get_by_role("link", name="Replay the match").click()
    page.wait_for_url("**/replay/")
    last = page.locator('.step-nav [aria-current="step"]').inner_text()
    page.get_by_role("navigation", name="Replay steps").get_by_role("link", name="Previous").click()
    page.wait_for_url("**step=**")
    assert page.locator('.step-nav [aria-current="step"]').inner_text() != last
    page.get_by_role("navigation", name="All steps").get_by_role("link", name="Start").click()
    page.wait_for_url("**step=0")
    assert page.get_by_role("heading", name="The board at the start").is_visible()


def test_the_forms_work_without_javascript(browser, live_server):
    build_collection()
    context = browser.new_context(
        locale="en-US", java_script_enabled=False, viewport={"width": 390, "height": 844}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/en/play/")
        page.get_by_role("button", name="Play with the suggested deck").click()
        page.wait_for_url("**/play/m/**")
        page.locator("button.choice").first.click()
        page.wait_for_load_state()
        assert page.locator("button.choice-picked").count() == 1  # the page came back
        page.get_by_role("button", name="Commit").click()
        page.wait_for_load_state()
        assert page.get_by_text("Round 2", exact=True).count() >= 1
        # A page left open in another tab goes stale when this one moves: its submit is
        # refused with a message and changes nothing.
        other = context.new_page()
        other.goto(page.url)
        page.locator("form.prepare button:enabled").first.click()
        page.wait_for_load_state()
        other.locator("form.prepare button:enabled").first.click()
        other.wait_for_load_state()
        assert other.get_by_text("out of date", exact=False).count() >= 1
        other.close()
        # Russian, too; a surrender ends the match with a sentence, not codes.
        ru = page.url.replace("/en/", "/ru/")
        page.goto(ru)
        assert page.get_by_role("heading", name="Матч против бота").is_visible()
        page.get_by_role("button", name="Сдаться").click()
        page.wait_for_load_state()
        last_line = page.locator(".log-end").last.inner_text()
        assert last_line.startswith("Победил бот. Сдача. Hero HP:"), last_line
    finally:
        context.close()
