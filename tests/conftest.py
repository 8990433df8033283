"""Project-wide test fixtures."""

import pytest


@pytest.fixture(autouse=True)
def _english_by_default(settings):
    """Requests without a language prefix negotiate from Accept-Language; keep it stable."""
    settings.LANGUAGE_CODE = "en"
