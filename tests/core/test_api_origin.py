"""The JSON APIs' absolute links use the configured site origin, never the Host header's
port: a cached response is served to everyone (issue 26)."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache

pytestmark = pytest.mark.django_db


@pytest.fixture
def collection(db):
    from arena.models import Slab
    from packs.models import Pool
    from tests.arena.conftest import make_slabs
    from tests.play.conftest import build_collection

    cards = build_collection()
    pool = Pool.objects.create(slug="p", name_en="P", name_ru="П", pack_size=1)
    pool.cards.set([c for c in cards.values() if not c.starter])
    make_slabs()
    assert Slab.objects.exists()


ORIGIN = "https://cards.example"


def links(value) -> list[str]:
    found = []
    if isinstance(value, dict):
        for item in value.values():
            found += links(item)
    elif isinstance(value, list):
        for item in value:
            found += links(item)
    elif isinstance(value, str) and value.startswith(("http://", "https://")):
        found.append(value)
    return found


@pytest.mark.parametrize(
    "path", ["/api/cards?q=&per_page=2", "/api/cards/1", "/api/packs/", "/api/slabs"]
)
def test_api_links_are_on_the_site_origin(client, settings, collection, path):
    settings.SITE_ORIGIN = ORIGIN
    cache.clear()
    evil = client.get(path, HTTP_HOST="testserver:6666")
    assert evil.status_code == 200, evil.content[:300]
    found = links(json.loads(evil.content))
    assert found and all(url.startswith(ORIGIN + "/") for url in found), found
    again = client.get(path)  # the cached answer another visitor gets
    assert ":6666" not in again.content.decode()
