"""A small site for the sharing tests: 40 cards, the wiki, the demo pools and a few slabs."""

from __future__ import annotations

import pytest
from django.core.management import call_command


def build_site() -> None:
    from packs.demo import load_demo_pools
    from tests.arena.conftest import make_slabs

    call_command("generate_collection", seed=2026, size=40, replace=True, verbosity=0)
    call_command("load_wiki", verbosity=0)
    load_demo_pools()
    make_slabs()


@pytest.fixture
def shared_site(db) -> None:
    build_site()
