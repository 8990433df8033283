"""Real-browser tests: Playwright driving Debian's Chromium against pytest-django's live server.

Playwright cannot download its own browser here, so we launch the system `chromium`.
Without it these tests skip, naming what is missing; `make test` installs it as root.
"""

import contextlib
import os
import shutil
from collections.abc import Iterator

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]


def _chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


# One browser per test module, not per session: while Playwright's loop runs, Django's
# async-safety check must be switched off (below), and per module the switch is back on
# for every other test the same process runs after.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a test dependency
        pytest.skip("The playwright Python package is not installed.")
    executable = _chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (apt-get install chromium); browser tests skipped.")
    # Playwright's sync API runs an event loop in this thread; Django's ORM checks refuse
    # that unless told otherwise. Only these tests set it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            instance = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            yield instance
            instance.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


def _is_failure(message) -> bool:
    """A console error that means a broken page (a script error, a CSP violation).

    The browser also logs every 4xx response it receives; a page that shows a 400 or
    404 on purpose (a bad search, an unknown card) is working, not broken.
    """
    if message.type != "error":
        return False
    return not message.text.startswith(
        "Failed to load resource: the server responded with a status of 4"
    )


@pytest.fixture
def page(browser, live_server) -> Iterator[object]:
    from playwright.sync_api import Error as PlaywrightError

    context = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.on("console", lambda msg: errors.append(msg.text) if _is_failure(msg) else None)
    tab.base_url = live_server.url  # type: ignore[attr-defined]
    yield tab
    # Let what the last page still loads (its lazy card pictures) finish before the test's
    # database is flushed: a request reading a table while the flush empties it fails the
    # teardown with "database table is locked" (seen once, under the parallel suite).
    with contextlib.suppress(PlaywrightError):  # a page that never idles: the test's business
        tab.wait_for_load_state("networkidle", timeout=5_000)
    context.close()
    # A Content Security Policy violation or a script error is a failure of the page.
    assert not errors, errors
