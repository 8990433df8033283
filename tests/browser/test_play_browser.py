"""Playing a match in a real browser: build a deck, play to the end with htmx, replay it;
and the same forms without JavaScript. Then the flows of issue 14: surrender asks first
(a dialog with JavaScript, a page without), finishing a match once the last card is gone,
the deck builder's query language, and a rematch."""

from __future__ import annotations

import re

import pytest

from engine.match import MatchCard
from engine.types import Rarity, Role
from play import services
from play.models import Match, MatchStatus
from tests.play.conftest import build_collection

pytestmark = pytest.mark.django_db(transaction=True)


def _turn(page) -> str | None:
    field = page.locator('#match form.prepare input[name="turn"]')
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
    # It opens at the start (it opened at the last step), with the step in the address.
    page.wait_for_url("**/replay/?step=0")
    assert page.get_by_role("heading", name="The board at the start").is_visible()
    steps = page.get_by_role("navigation", name="Replay steps")
    steps.get_by_role("link", name="Next").click()
    page.wait_for_url("**/replay/?step=1")
    assert page.locator('.step-nav [aria-current="step"]').inner_text().startswith("Round 1")
    page.reload()  # the address holds the step: a reload stays there
    assert page.locator('.step-nav [aria-current="step"]').inner_text().startswith("Round 1")
    page.get_by_role("navigation", name="Replay steps").get_by_role("link", name="Previous").click()
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
        page.wait_for_url("**/surrender/**")  # without JavaScript: a page asks first
        page.get_by_role("button", name="Да, сдаться").click()
        page.wait_for_url("**/play/m/*/")
        last_line = page.locator(".log-end").last.inner_text()
        assert last_line.startswith("Победил бот. Сдача. Hero HP:"), last_line
    finally:
        context.close()


def _no_js(browser, width: int = 390):
    context = browser.new_context(
        locale="en-US", java_script_enabled=False, viewport={"width": width, "height": 844}
    )
    context.set_default_timeout(10_000)
    return context


def _start(page, base: str, deck: str = "1,2") -> Match:
    page.goto(f"{base}/en/play/?deck={deck}")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url("**/play/m/**")
    return Match.objects.get(public_id=page.url.rstrip("/").rsplit("/", 1)[-1])


def test_surrender_asks_first_with_javascript(page):
    build_collection()
    match = _start(page, page.base_url)
    asked = []

    def dismiss(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.get_by_role("button", name="Surrender").click()
    page.wait_for_timeout(300)
    assert asked and asked[0].startswith("Surrender this match?")
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE  # dismissed: nothing sent
    assert page.get_by_role("button", name="Commit").is_visible()

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Surrender").click()
    page.locator(".result-panel").wait_for()
    assert page.locator(".result-panel h2").inner_text() == "The bot wins."
    assert "/surrender/" not in page.url  # htmx swapped the board in place
    match.refresh_from_db()
    assert match.status == MatchStatus.LOST


def test_surrender_asks_first_without_javascript(browser, live_server):
    build_collection()
    context = _no_js(browser)
    page = context.new_page()
    try:
        match = _start(page, live_server.url)
        page.get_by_role("button", name="Surrender").click()
        page.wait_for_url("**/surrender/**")
        assert page.get_by_role("heading", name="Surrender this match?").is_visible()
        page.get_by_role("link", name="No, back to the match").click()
        page.wait_for_url(f"**/play/m/{match.public_id}/")
        match.refresh_from_db()
        assert match.status == MatchStatus.ACTIVE
        page.get_by_role("button", name="Surrender").click()
        page.get_by_role("button", name="Yes, surrender").click()
        page.wait_for_url(f"**/play/m/{match.public_id}/")
        assert page.locator(".result-panel h2").inner_text() == "The bot wins."
        match.refresh_from_db()
        assert match.status == MatchStatus.LOST
    finally:
        context.close()


WISP = MatchCard("1", "Wisp", Rarity.COMMON, Role.SUPPORT, atk=1, hp=3)
FANG = MatchCard("bot-2", "Fang", Rarity.EPIC, Role.STRIKER, atk=14, hp=40)


def _hopeless_match(page, base: str) -> Match:
    """A match in this browser's session whose only card dies in round 1."""
    first = _start(page, base)
    made = services._create(first.owner_session_key, (WISP,), (FANG,), 5, "greedy").match
    page.goto(f"{base}/en/play/m/{made.public_id}/")
    page.get_by_role("button", name="Wisp").click()
    page.get_by_role("button", name="Commit").click()
    page.get_by_role("heading", name="Nothing more can be done").wait_for()
    return made


def test_finish_the_match_at_once_when_nothing_more_can_be_done(page):
    build_collection()
    match = _hopeless_match(page, page.base_url)
    assert page.get_by_role("button", name="Commit").is_visible()  # still allowed
    page.get_by_role("button", name="Finish the match now").click()
    page.locator(".result-panel").wait_for()
    assert page.locator(".result-panel h2").inner_text() == "The bot wins."
    match.refresh_from_db()
    assert match.status == MatchStatus.LOST and match.rounds > 2
    page.get_by_role("link", name="The whole log").first.click()
    page.wait_for_url("**/log/")
    assert page.get_by_role("heading", name=f"Round {match.rounds}").is_visible()
    # Each line links to itself: following it lands on it.
    line = page.locator("ol.log-full li").nth(3)
    line_id = line.get_attribute("id")
    line.locator("a.permalink").click()
    page.wait_for_url(f"**#{line_id}")


def test_finish_now_without_javascript_on_a_phone(browser, live_server):
    build_collection()
    context = _no_js(browser)
    page = context.new_page()
    try:
        match = _hopeless_match(page, live_server.url)
        page.get_by_role("button", name="Finish the match now").click()
        page.wait_for_url(f"**/play/m/{match.public_id}/")
        assert page.locator(".result-panel h2").inner_text() == "The bot wins."
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width  # nothing wider than the phone
    finally:
        context.close()


def test_the_deck_builder_takes_a_query(page):
    build_collection()
    page.goto(f"{page.base_url}/en/play/")
    page.get_by_label("Find cards").fill("r:epic")
    page.wait_for_url("**q=r%3Aepic**")  # htmx searched as the visitor typed
    results = page.locator(".results-panel .card-link")
    names = [n.strip() for n in results.all_inner_texts()]
    assert names and all(n.startswith("Epic ") for n in names), names
    page.get_by_role("link", name="Add Epic Hood").click()
    page.wait_for_url("**deck=7**")
    assert page.get_by_role("heading", name="Energy curve").is_visible()
    page.get_by_label("Find cards").fill("rarty:epic")
    page.locator("#deck-search").get_by_role("button", name="Search").click()
    page.get_by_text("Unknown field").wait_for()
    assert page.get_by_role("heading", name="Your deck (1 of 4)").is_visible()
    # A card's name opens its breakdown in the explorer.
    page.locator(".deck-panel .card-link").first.click()
    page.wait_for_url("**/cards/7/")


def test_a_rematch_replays_the_same_decks(page):
    build_collection()
    page.goto(f"{page.base_url}/en/play/?deck=1,2")
    page.get_by_role("link", name=re.compile("^Random")).click()
    page.wait_for_url("**bot=random**")
    page.get_by_role("button", name="Start the match against the Random bot").click()
    page.wait_for_url("**/play/m/**")
    first = page.url
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Surrender").click()
    page.get_by_role("button", name=re.compile("^Rematch")).click()
    page.wait_for_url(lambda url: "/play/m/" in url and url != first)
    assert page.get_by_text("Bot: Random").is_visible()
    old, new = Match.objects.order_by("created_at")
    assert new.deck_a == old.deck_a and new.deck_b == old.deck_b and new.bot == "random"
