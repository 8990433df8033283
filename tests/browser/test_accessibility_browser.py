"""Accessibility as a property the suite keeps: axe-core (WCAG 2.1 AA) on every page kind,
in English and Russian, in the light and the dark colour scheme.

axe-core comes from npm (pinned in package.json as a development dependency) and is
injected by the test only — the site never serves it. A violation of impact "serious" or
"critical" fails the test; the failure lists every one, page by page.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(settings.BASE_DIR) / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
PASSWORD = "a-long-test-password-123"


def _data() -> dict[str, object]:
    """A small collection with every rarity, the wiki, and a staff account."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from cards.models import Card
    from wiki.models import Page

    call_command("generate_collection", seed=2026, size=80, replace=True, verbosity=0)
    call_command("load_wiki", verbosity=0)
    get_user_model().objects.create_superuser("axe", "axe@example.org", PASSWORD)
    cards = Card.objects.order_by("token")
    legendary = cards.filter(rarity="legendary").first()
    common = cards.filter(rarity="common").first()
    assert legendary is not None and common is not None
    rules_page = Page.objects.get(slug="rarities")
    return {"legendary": legendary.token, "common": common.token, "page_id": rules_page.pk}


def _pages(data: dict[str, object]) -> list[tuple[str, str]]:
    """(name, path without the language prefix) of every page kind."""
    legendary, common = data["legendary"], data["common"]
    return [
        ("home", "/"),
        ("wiki index", "/wiki/"),
        ("rules page", "/wiki/rarities/"),
        ("wiki search", "/wiki/search/?q=legendary"),
        ("card list", "/cards/?q=r:legendary"),
        ("legendary card", f"/cards/{legendary}/"),
        ("common card", f"/cards/{common}/"),
        ("what-if", f"/cards/{common}/?burned=6"),
        ("statistics", "/cards/stats/"),
        ("compare", f"/cards/compare/?a={legendary}&b={common}"),
        ("play", "/play/"),
    ]


def _audit(tab, axe_source: str) -> list[str]:
    tab.add_script_tag(content=axe_source)
    result = tab.evaluate(
        """async (tags) => {
            const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
            return r.violations.map(v => ({id: v.id, impact: v.impact,
                targets: v.nodes.slice(0, 3).map(n => n.target.join(' ')),
                count: v.nodes.length}));
        }""",
        WCAG_TAGS,
    )
    return [
        f"{v['id']} ({v['impact']}, {v['count']}×: {', '.join(v['targets'])})"
        for v in result
        if v["impact"] in BLOCKING
    ]


def _start_match(tab, base: str, lang: str, token: object) -> None:
    tab.goto(f"{base}/{lang}/play/?deck={token}")
    tab.locator("main form[method=post] button[type=submit]").first.click()
    tab.wait_for_url("**/play/m/**")


def _log_in(tab, base: str, lang: str) -> None:
    tab.goto(f"{base}/{lang}/admin/login/")
    tab.fill("#id_username", "axe")
    tab.fill("#id_password", PASSWORD)
    tab.locator("input[type=submit]").click()
    tab.wait_for_url(f"**/{lang}/admin/")


@pytest.mark.xfail(reason="issue 18: the fixes land once the refactor branches merge", strict=False)
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_page_kind_has_no_serious_axe_violation(browser, live_server, lang, scheme):
    if not AXE.exists():
        pytest.skip("axe-core is not installed (npm ci): accessibility test skipped.")
    data = _data()
    axe_source = AXE.read_text(encoding="utf-8")
    # bypass_csp lets the test inject axe; the site's own CSP is checked by the other tests.
    context = browser.new_context(
        locale="ru-RU" if lang == "ru" else "en-US",
        color_scheme=scheme,
        bypass_csp=True,
        viewport={"width": 1200, "height": 900},
    )
    context.set_default_timeout(15_000)
    tab = context.new_page()
    base = live_server.url
    found: dict[str, list[str]] = {}

    def check(name: str, visit: Callable[[], None]) -> None:
        visit()
        violations = _audit(tab, axe_source)
        if violations:
            found[name] = violations

    try:
        for name, path in _pages(data):
            check(name, lambda path=path: tab.goto(f"{base}/{lang}{path}"))
        check("match in progress", lambda: _start_match(tab, base, lang, data["common"]))
        check("admin login", lambda: tab.goto(f"{base}/{lang}/admin/login/"))
        _log_in(tab, base, lang)
        check(
            "wiki change page",
            lambda: tab.goto(f"{base}/{lang}/admin/wiki/page/{data['page_id']}/change/"),
        )
    finally:
        context.close()
    report = "\n".join(f"{name}: " + "; ".join(v) for name, v in found.items())
    count = sum(len(v) for v in found.values())
    assert not found, f"{count} serious/critical axe violation(s) ({lang}, {scheme}):\n{report}"
