"""A small demo collection shared by the explorer tests, removed again after them."""

import pytest
from django.core.management import call_command


@pytest.fixture(scope="package")
def demo_collection(django_db_setup, django_db_blocker):
    """The generator's collection at a small size: every derived field is stored.

    Built once for the explorer's tests (outside their transactions) and deleted when
    they are done, so other packages' tests start from an empty collection.
    """
    with django_db_blocker.unblock():
        call_command("generate_collection", seed=2026, size=200, replace=True, verbosity=0)
    yield
    with django_db_blocker.unblock():
        from cards.services import clear_collection

        clear_collection()


@pytest.fixture
def demo(demo_collection, db):
    return None
