"""Opening a booster pack in a real browser: the pool page, the card-by-card reveal, the
verification, and the cards in the binder — with JavaScript (htmx swaps) and without."""

from __future__ import annotations

import re

import pytest

from packs.models import Opening, Pool

pytestmark = pytest.mark.django_db(transaction=True)


def _pool() -> Pool:
    """A small pool of the play tests' collection (every tier)."""
    from tests.play.conftest import build_collection

    cards = build_collection()
    pool = Pool.objects.create(
        slug="browser-pool", name_en="Browser pool", name_ru="Пул для браузера", pack_size=3
    )
    pool.cards.set([c for c in cards.values() if not c.starter])
    return pool


def _open_and_reveal(page, base: str, lang: str, js: bool) -> Opening:
    page.goto(f"{base}/{lang}/packs/browser-pool/")
    assert page.locator("h1").inner_text() == (
        "Browser pool" if lang == "en" else "Пул для браузера"
    )
    open_url = f"/{lang}/packs/browser-pool/open/"
    if js:
        # The page is shared by every visitor; htmx loads the open form (the visitor's own
        # CSRF token) into it, and the browser fills a random client seed there.
        seed = page.locator("#open-form form[data-open-pack] #id_client_seed")
        page.wait_for_function(
            "() => /^[0-9a-f]{24}$/.test(document.querySelector('#id_client_seed')?.value)"
        )
        assert page.locator("#open-form a.button").count() == 0  # the link gave way
        seed.press("Enter")  # the keyboard sends it
    else:  # no script: a plain link, keyboard and all, to the form's page, which proposes one
        assert page.locator("#id_client_seed").count() == 0
        page.locator(f'#open-form a[href="{open_url}"]').press("Enter")
        page.wait_for_url(f"**{open_url}")
        assert re.fullmatch(r"[0-9a-f]{16}", page.locator("#id_client_seed").input_value())
        page.locator("form[data-open-pack] button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/packs/openings/[0-9a-f-]+/\?shown=0$"))
    opening = Opening.objects.get()
    assert len(opening.client_seed) in (16, 24) and opening.nonce == 1
    assert page.locator(".card-back").count() == 3
    for shown in (1, 2, 3):
        page.locator(".reveal-controls a.button").first.click()
        if js:
            page.wait_for_function(
                "(n) => document.querySelectorAll('#reveal .card-back').length === 3 - n",
                arg=shown,
            )
        # htmx swaps the reveal in place and keeps the address in step, as a plain link does.
        page.wait_for_url(f"**?shown={shown}")
        assert page.locator("#reveal .pack-card").count() == shown
    assert page.locator(".reveal-controls").count() == 0
    names = page.locator("#reveal .pack-card-name").all_inner_texts()
    assert len(names) == 3
    assert page.locator(".verified").is_visible()
    return opening


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_open_a_pack_see_the_reveal_and_find_it_in_the_binder(page, lang):
    _pool()
    opening = _open_and_reveal(page, page.base_url, lang, js=True)
    page.get_by_role("link", name="Your binder" if lang == "en" else "Ваш альбом").last.click()
    page.wait_for_url(f"**/{lang}/packs/binder/")
    for token in opening.picks:
        assert page.locator(f'#binder-cards a[href="/{lang}/cards/{token}/"]').count() >= 1
    assert page.locator(".progress-table").is_visible()
    page.locator(".opening-list a").first.click()
    page.wait_for_url(f"**/packs/openings/{opening.public_id}/")
    assert page.locator(".card-back").count() == 0  # the permalink shows every card


def test_turned_over_cards_are_kept_on_reload_and_language_switch(page):
    """With JavaScript the address said ?shown=0 whatever was turned over, so a reload or
    the language switch laid every card face down again."""
    _pool()
    page.goto(f"{page.base_url}/en/packs/browser-pool/")
    page.locator("form[data-open-pack] button[type=submit]").click()
    page.wait_for_url("**?shown=0")
    for shown in (1, 2):
        page.get_by_role("link", name=f"Turn over card {shown} of 3").click()
        page.wait_for_url(f"**?shown={shown}")
    page.reload()
    assert page.locator("#reveal .pack-card").count() == 2
    assert page.locator("#reveal .card-back").count() == 1
    page.locator(".lang-switch a[hreflang=ru]").click()
    page.wait_for_url("**/ru/packs/openings/**?shown=2")
    assert page.locator("#reveal .pack-card").count() == 2
    page.get_by_role("link", name="Показать все").click()
    page.wait_for_function("() => !location.search.includes('shown')")
    page.reload()
    assert page.locator("#reveal .card-back").count() == 0


def test_the_same_without_javascript_on_a_phone(browser, live_server):
    _pool()
    context = browser.new_context(
        locale="ru-RU", java_script_enabled=False, viewport={"width": 390, "height": 844}
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        opening = _open_and_reveal(page, live_server.url, "ru", js=False)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.goto(f"{live_server.url}/ru/packs/binder/")
        for token in opening.picks:
            assert page.locator(f'#binder-cards a[href="/ru/cards/{token}/"]').count() >= 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # Another visitor sees the permalink, but not in their binder.
        other = browser.new_context(java_script_enabled=False).new_page()
        other.goto(f"{live_server.url}/en/packs/openings/{opening.public_id}/")
        assert "Opened by another visitor" in other.content()
        other.goto(f"{live_server.url}/en/packs/binder/")
        assert other.locator(".empty-state").is_visible()
        other.context.close()
    finally:
        context.close()


def test_check_the_odds_with_htmx(page):
    _pool()
    page.goto(f"{page.base_url}/en/packs/browser-pool/check/")
    page.get_by_label("Packs to open").fill("²")
    page.get_by_role("button", name="Draw and compare").click()
    page.wait_for_selector("#n-error")
    assert "Enter a whole number." in page.locator("#n-error").inner_text()
    page.get_by_label("Packs to open").fill("400")
    page.get_by_label("Seed (optional)").fill("12")
    page.get_by_role("button", name="Draw and compare").click()
    page.wait_for_selector(".p-value")
    page.wait_for_url("**check/?n=400&seed=12")
    assert page.locator(".p-value").count() == 2


def test_the_verifier_checks_a_ledger_and_an_opening_in_the_browser(page):
    """The verifier page recomputes hashes (SubtleCrypto), HMAC seeds and draws in the
    browser's own JavaScript, and finds a tampered entry."""
    import datetime as dt

    from packs import selectors, services

    pool = _pool()
    yesterday = services.day_seed(selectors.utc_today() - dt.timedelta(days=1))
    openings = [
        services.open_pack(pool, "s", f"t{i}", f"клиент-{i}", day=yesterday).opening
        for i in range(4)
    ]
    source = f"/api/packs/ledger/{yesterday.day.isoformat()}"
    page.goto(f"{page.base_url}/en/packs/verify/?ledger={source}")
    page.get_by_role("button", name="Load it from this site").click()
    page.wait_for_function("() => document.querySelector('#verify-input').value.length > 100")
    page.get_by_role("button", name="Check", exact=True).click()
    page.wait_for_selector("#verify-result[data-state]")
    assert page.locator("#verify-result").get_attribute("data-state") == "ok"
    assert "Entries checked: 4." in page.locator("#verify-result").inner_text()
    # One entry's client seed changed: its hash no longer fits, nor its cards.
    text = page.locator("#verify-input").input_value().replace("клиент-2", "клиент-9")
    page.locator("#verify-input").fill(text)
    page.get_by_role("button", name="Check", exact=True).click()
    page.wait_for_function(
        "() => document.querySelector('#verify-result').dataset.state === 'fail'"
    )
    result = page.locator("#verify-result").inner_text()
    assert "Opening 3 was altered" in result and "Opening 3: drawing again" in result
    # One opening's JSON, from its page's link, in Russian.
    page.goto(f"{page.base_url}/ru/packs/openings/{openings[1].public_id}/")
    page.get_by_role("link", name="Проверить в своём браузере").click()
    page.get_by_role("button", name="Загрузить с этого сайта").click()
    page.wait_for_function("() => document.querySelector('#verify-input').value.length > 100")
    page.get_by_role("button", name="Проверить", exact=True).click()
    page.wait_for_selector("#verify-result[data-state]")
    assert page.locator("#verify-result").get_attribute("data-state") == "ok"
    assert "Проверено: всё сходится." in page.locator("#verify-result").inner_text()
