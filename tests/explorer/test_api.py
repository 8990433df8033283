"""The JSON API: the breakdown in the engine's schema, search, caching and errors."""

import json
import subprocess
import sys

import pytest
from django.conf import settings

from cards.models import Card
from cards.specs import card_spec
from engine.serialize import card_to_json

pytestmark = pytest.mark.django_db


def test_breakdown_matches_the_engine_cli(client, demo):
    card = Card.objects.filter(rarity="legendary").first()
    response = client.get(f"/api/cards/{card.token}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = response.json()
    cli = subprocess.run(
        [sys.executable, "-m", "engine", "derive", "-"],
        input=json.dumps(card_to_json(card_spec(card.token))),
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        check=True,
    )
    assert data == json.loads(cli.stdout)
    for key in (
        "rarity",
        "decided_by",
        "rules",
        "role",
        "skill_affinity",
        "active_skill",
        "template",
        "stats",
        "energy_cost",
        "effects",
        "next_tier",
        "trace",
    ):
        assert key in data
    assert data["rarity"] == "legendary" and data["active_skill"] == card.active_skill


def test_etag_and_cache_control(client, demo):
    card = Card.objects.first()
    first = client.get(f"/api/cards/{card.token}")
    assert first["Cache-Control"] == "public, max-age=60"
    etag = first["ETag"]
    again = client.get(f"/api/cards/{card.token}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""


@pytest.mark.parametrize(
    ("lang", "text"), [("en", "There is no card #777777."), ("ru", "Карты №777777 нет.")]
)
def test_unknown_card_is_a_json_404(client, demo, lang, text):
    response = client.get("/api/cards/777777", headers={"Accept-Language": lang})
    assert response.status_code == 404
    assert response.json() == {"error": {"code": "not_found", "message": text}}


def test_search_is_paginated_with_links(client, demo):
    response = client.get("/api/cards", {"q": "r>=rare sort:token", "page_size": "5"})
    data = response.json()
    expected = Card.objects.filter(rarity_rank__gte=2, starter=False).count()
    assert data["count"] == expected
    assert len(data["results"]) == 5
    assert data["results"][0]["token"] < data["results"][1]["token"]
    assert data["next"].endswith("?q=r%3E%3Drare+sort%3Atoken&page=2&page_size=5")
    assert data["previous"] is None
    assert data["results"][0]["url"].startswith("http://testserver/api/cards/")


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"q": "rarty:legendary"}, "unknown_field"),
        ({"page": "0"}, "bad_page"),
        ({"page_size": "100000"}, "bad_page_size"),
        ({"page": "x"}, "bad_page"),
    ],
)
def test_search_errors_are_json_400(client, demo, params, code):
    response = client.get("/api/cards", params)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code


def test_search_page_past_the_end_is_404(client, demo):
    assert client.get("/api/cards", {"page": "9999"}).status_code == 404
