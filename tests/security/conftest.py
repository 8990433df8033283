"""Fixtures for the security tests: a small populated site, loaded once per module."""

import pytest

from tests.security.sitedata import populated_for_module


@pytest.fixture(scope="module")
def module_site(django_db_setup, django_db_blocker):
    with populated_for_module(django_db_blocker) as loaded:
        yield loaded


@pytest.fixture
def site(module_site, db) -> list[str]:
    """A small collection, the wiki pages, the pools and the arena in the test database
    (loaded once for the module; each test's changes are rolled back after it)."""
    return module_site
