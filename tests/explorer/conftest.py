"""A small demo collection shared by the explorer tests (generated once per test database)."""

import pytest
from django.core.management import call_command


@pytest.fixture(scope="session")
def demo_collection(django_db_setup, django_db_blocker):
    """The generator's collection at a small size: every derived field is stored."""
    with django_db_blocker.unblock():
        call_command("generate_collection", seed=2026, size=200, replace=True, verbosity=0)
    yield


@pytest.fixture
def demo(demo_collection, db):
    return None
