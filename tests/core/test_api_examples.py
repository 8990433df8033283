"""The API documentation's examples are the real answers: each example request, sent to
the demo collection (``generate_collection``'s default seed and size, what ``make
install`` loads), answers with every value its example shows, and every list of the API
lists under the same key (``results``) with items in the same shape as the single object.

(``/api/cards/1`` was documented as a rare "Pixel #1" — a real starter — and
``r:legendary or is:combo`` as 166 cards against 147.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command

from core import api as apidocs

pytestmark = pytest.mark.django_db

# "key": a number, true, false, null or a string with no "…" (those are abridged).
_SHOWN = re.compile(r'"(\w+)": (-?[0-9]+(?:\.[0-9]+)?|true|false|null|"[^"…]*")(?=[,}\]])')


@pytest.fixture(scope="module")
def demo_collection(django_db_setup, django_db_blocker) -> Iterator[None]:
    with django_db_blocker.unblock():
        call_command("generate_collection", replace=True, verbosity=0)
    yield
    with django_db_blocker.unblock():
        from cards.services import clear_collection

        clear_collection()


def pairs(value: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, scalar value) anywhere in a JSON answer."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(item, dict | list):
                yield key, item
            yield from pairs(item)
    elif isinstance(value, list):
        for item in value:
            yield from pairs(item)


CARD_ENDPOINTS = [e for _app, e in apidocs.endpoints() if e.path.startswith("/api/cards")]
CARD_ENDPOINTS += [e for _app, e in apidocs.endpoints() if e.key in ("api-index", "oembed")]


@pytest.mark.parametrize("endpoint", CARD_ENDPOINTS, ids=lambda e: e.key)
def test_every_value_an_example_shows_is_in_the_real_answer(client, demo_collection, endpoint):
    response = client.get(endpoint.example_at("http://testserver"))
    assert response.status_code == 200
    real = response.json()
    found = {(key, json.dumps(value, ensure_ascii=False)) for key, value in pairs(real)}
    shown = _SHOWN.findall(endpoint.example_response)
    assert shown, endpoint.example_response
    wrong = [f'"{key}": {value}' for key, value in shown if (key, value) not in found]
    assert not wrong, f"{endpoint.example} answers otherwise than documented: {wrong}"
    documented = {f.name for f in endpoint.fields if "." not in f.name}
    assert documented <= set(real), documented - set(real)


def test_every_list_lists_under_results(client, demo_collection):
    for path in ("/api/", "/api/cards?page_size=2", "/api/packs/", "/api/slabs"):
        answer = client.get(path).json()
        assert answer["object"] == "list", path
        assert isinstance(answer["results"], list) and "data" not in answer, path


def test_a_listed_card_gives_equipped_as_the_card_does(client, demo_collection):
    listed = client.get("/api/cards", {"q": "#26"}).json()["results"][0]
    card = client.get("/api/cards/26").json()
    assert listed["equipped"] == card["equipped"]
    assert set(listed["equipped"]["head"]) == {"name", "supply", "kind"}
