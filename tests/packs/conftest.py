"""A small generated collection with the demo pools and a small power measurement, built
once for the booster tests (outside their transactions) and removed after them."""

from __future__ import annotations

import pytest
from django.core.management import call_command

SIZE = 80


@pytest.fixture(scope="package")
def packs_site(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        call_command("generate_collection", seed=2026, size=SIZE, replace=True, verbosity=0)
        from packs.demo import load_demo_pools
        from packs.services import compute_power

        load_demo_pools()
        compute_power(per_tier=2)
    yield
    with django_db_blocker.unblock():
        from cards.services import clear_collection
        from packs.models import Opening, Pool, PowerRun

        Opening.objects.all().delete()
        PowerRun.objects.all().delete()
        Pool.objects.all().delete()
        clear_collection()


@pytest.fixture
def site(packs_site, db):
    return None
