"""Project-wide test fixtures."""

import pytest


@pytest.fixture(autouse=True)
def _english_by_default(settings):
    """Requests without a language prefix negotiate from Accept-Language; keep it stable."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache: cached pages must not leak between databases."""
    from django.core.cache import caches

    for alias in caches:
        caches[alias].clear()


def pytest_collection_modifyitems(config, items):
    """Run the real-browser tests last: they are the slowest and set async-unsafe mode."""
    items.sort(key=lambda item: "tests/browser/" in str(item.path).replace("\\", "/"))
