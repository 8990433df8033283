"""The keyboard on the statistics page (issue 18): Tab reaches every bar of every chart
exactly once, in reading order, and each one shows a focus ring while it has focus.

Before, each chart was an SVG with role="img" holding the bars as links, and a hidden
table repeated the same links: 34 Tab stops for 17 bars, the second 17 invisible.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db(transaction=True)

MAX_TABS = 400

# What has focus after a Tab press: which bar it is (or -1), whether it can be seen, and
# the focus indicator the browser draws for it.
FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {
        bar: [...document.querySelectorAll('.bar-link')].indexOf(el),
        tag: el.tagName, text: (el.textContent || '').trim().slice(0, 40),
        visible: box.width > 1 && box.height > 1 && style.visibility !== 'hidden',
        outlineStyle: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth) || 0,
        outlineColor: style.outlineColor, boxShadow: style.boxShadow,
    };
}"""


def _ring(stop: dict) -> bool:
    """A visible focus indicator: an outline of 2px or more in a colour, or a box shadow."""
    outline = (
        stop["outlineStyle"] not in ("none", "hidden")
        and stop["outlineWidth"] >= 2
        and stop["outlineColor"] not in ("transparent", "rgba(0, 0, 0, 0)")
    )
    return outline or stop["boxShadow"] not in ("", "none")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_tab_reaches_each_statistics_bar_once_with_a_focus_ring(browser, live_server, scheme):
    call_command("generate_collection", seed=2026, size=80, replace=True, verbosity=0)
    context = browser.new_context(
        locale="en-US", color_scheme=scheme, viewport={"width": 1200, "height": 900}
    )
    context.set_default_timeout(10_000)
    tab = context.new_page()
    try:
        tab.goto(f"{live_server.url}/en/cards/stats/")
        bars = tab.locator(".bar-link").count()
        assert bars >= 10, "the statistics page should draw its charts"
        stops = []
        for _ in range(MAX_TABS):
            tab.keyboard.press("Tab")
            stop = tab.evaluate(FOCUSED)
            if stop is None or (stops and stop == stops[0]):
                break  # focus left the page, or came round again
            stops.append(stop)
    finally:
        context.close()
    reached = [stop["bar"] for stop in stops if stop["bar"] >= 0]
    assert reached == list(range(bars)), f"bars reached in this order: {reached}"
    hidden = [stop for stop in stops if not stop["visible"]]
    assert not hidden, f"Tab stops that cannot be seen: {hidden}"
    unringed = [stop for stop in stops if stop["bar"] >= 0 and not _ring(stop)]
    assert not unringed, f"bars without a focus ring: {unringed}"


# --- The match demo and the arena: after each move, focus returns to the move panel ---

# Where focus is: inside the move panel, and whether it is the panel's first enabled control.
FOCUS_IN_PANEL = """() => {
    const el = document.activeElement;
    const panel = document.querySelector('[data-move-panel]');
    if (!panel || !el || !panel.contains(el)) return {inPanel: false, tag: el && el.tagName};
    const first = panel.querySelector(
        'button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), a[href]');
    return {inPanel: true, first: el === first, text: el.textContent.trim().slice(0, 40)};
}"""
TURN = "() => (document.querySelector('#match input[name=turn]') || {}).value"
SWAPPED = """(before) => document.querySelector('.result-panel')
    || (document.querySelector('#match input[name=turn]') || {}).value !== before"""


COMMIT = "form.prepare button[value=commit]"


def _keyboard_move(tab, selector: str) -> None:
    """Play one move with the keyboard (focus the control, Enter) and wait for the swap."""
    before = tab.evaluate(TURN)
    tab.locator(selector).first.focus()
    tab.keyboard.press("Enter")
    tab.wait_for_function(SWAPPED, arg=before)
    tab.wait_for_timeout(200)  # htmx settles, then the page script moves focus


def _check_focus_and_news(tab) -> None:
    where = tab.evaluate(FOCUS_IN_PANEL)
    assert where.get("inPanel") and where.get("first"), f"focus after the swap: {where}"
    news = tab.locator("#move-news")
    assert news.get_attribute("aria-live") == "polite"
    tab.wait_for_function("() => document.getElementById('move-news').textContent.trim()")


def test_the_match_demo_keeps_keyboard_focus_on_the_move_panel(browser, live_server):
    from tests.play.conftest import build_collection

    build_collection()
    context = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    try:
        tab.goto(f"{live_server.url}/en/play/")
        tab.get_by_role("button", name="Play with the suggested deck").click()
        tab.wait_for_url("**/play/m/**")
        for _ in range(3):
            if tab.locator(".result-panel").count():
                break
            picked = tab.locator("button.choice-picked").count()
            choices = tab.locator("form.prepare button.choice").count()
            pick = choices and not picked
            _keyboard_move(tab, "form.prepare button.choice" if pick else COMMIT)
            if tab.locator("[data-move-panel]").count():
                _check_focus_and_news(tab)
    finally:
        context.close()


def test_the_arena_keeps_keyboard_focus_on_the_move_panel(browser, live_server):
    from tests.arena.conftest import make_slabs

    make_slabs()
    context = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    try:
        tab.goto(f"{live_server.url}/en/arena/team/?slab=cc-7&slab=cc-2&slab=0x5f3a&slab=cc-3")
        tab.get_by_role("button", name="Use this team").click()
        tab.get_by_role("button", name="Play the match").click()
        tab.wait_for_url("**/arena/m/**")
        for _ in range(3):
            if not tab.locator("form.moves").count():
                break
            _keyboard_move(tab, "form.moves button:not([disabled])")
            if tab.locator("[data-move-panel]").count():
                _check_focus_and_news(tab)
    finally:
        context.close()


# --- On a phone, the move buttons are on the screen without scrolling ---------------

# The first move button (the bar scrolls inside itself when it holds more than fits).
MOVE_ON_SCREEN = """(selector) => {
    const button = document.querySelector(selector);
    const box = button.getBoundingClientRect();
    return {top: box.top, bottom: box.bottom, height: window.innerHeight,
            scrolled: window.scrollY,
            page: document.documentElement.scrollHeight};
}"""


@pytest.mark.parametrize("where", ["arena", "play"])
def test_on_a_phone_the_move_buttons_are_on_the_screen(browser, live_server, where):
    context = browser.new_context(locale="en-US", viewport={"width": 375, "height": 667})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    try:
        if where == "arena":
            from tests.arena.conftest import make_slabs

            make_slabs()
            tab.goto(f"{live_server.url}/en/arena/team/?slab=cc-7&slab=cc-2&slab=0x5f3a&slab=cc-3")
            tab.get_by_role("button", name="Use this team").click()
            tab.get_by_role("button", name="Play the match").click()
            tab.wait_for_url("**/arena/m/**")
            selector, sticky = "form.moves button", ".scoreboard"
        else:
            from tests.play.conftest import build_collection

            build_collection()
            tab.goto(f"{live_server.url}/en/play/")
            tab.get_by_role("button", name="Play with the suggested deck").click()
            tab.wait_for_url("**/play/m/**")
            selector, sticky = "form.prepare button.choice", ".round-info"
        tab.evaluate("() => window.scrollTo(0, 0)")
        box = tab.evaluate(MOVE_ON_SCREEN, selector)
        assert box["page"] > box["height"], box  # the page is longer than the screen…
        assert box["top"] >= 0 and box["bottom"] <= box["height"], box  # …yet the move shows
        # Half-way down the board, the clock (or round) is still at the top of the screen.
        tab.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight / 3)")
        top = tab.evaluate(f"() => document.querySelector('{sticky}').getBoundingClientRect().top")
        assert -1 <= top <= 1, top
        box = tab.evaluate(MOVE_ON_SCREEN, selector)
        assert box["top"] >= 0 and box["bottom"] <= box["height"], box
        assert tab.evaluate("document.documentElement.scrollWidth") <= 375
    finally:
        context.close()
