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
