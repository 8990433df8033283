"""Fixtures for the security tests: a small populated site."""

import pytest

from tests.security.sitedata import populate


@pytest.fixture
def site(db) -> list[str]:
    """A small collection and the wiki pages in the test database (rolled back after)."""
    return populate()
