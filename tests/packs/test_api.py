"""The booster JSON API: pools, a pool's exact odds, openings and their verification."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.packs import offer_odds
from packs import selectors, services
from packs.models import Opening, Pool

pytestmark = pytest.mark.django_db


def get(client, path: str, **headers):
    response = client.get(path, headers=headers)
    assert response["Content-Type"] == "application/json"
    return response, response.json()


def is_exact(value: dict) -> bool:
    return (
        set(value) == {"fraction", "float"} and float(Fraction(value["fraction"])) == value["float"]
    )


def test_the_pool_list(client, site) -> None:
    response, data = get(client, "/api/packs/")
    assert response.status_code == 200 and response["ETag"]
    assert data["object"] == "list" and data["count"] == Pool.objects.count()
    first = data["results"][0]
    assert set(first) >= {
        "slug",
        "name",
        "description",
        "pack_size",
        "card_count",
        "url",
        "page_url",
    }
    assert first["url"].endswith("/api/packs/whole-collection")
    assert first["page_url"].endswith("/en/packs/whole-collection/")


def test_a_pool_with_its_exact_odds(client, site) -> None:
    pool = Pool.objects.get(slug="night-sky")
    response, data = get(client, "/api/packs/night-sky")
    assert response.status_code == 200
    odds = offer_odds(selectors.candidates(pool), pool.pack_size)
    assert data["object"] == "pool" and data["picks"] == odds.picks
    assert list(data["tiers"]) == ["common", "rare", "epic", "legendary"]
    for tier in odds.tiers:
        row = data["tiers"][tier.rarity.value]
        assert row["cards"] == tier.cards
        assert row["at_least_one"]["fraction"] == str(tier.at_least_one)
        assert all(is_exact(row[k]) for k in ("expected", "at_least_one", "per_card"))
    assert [c["token"] for c in data["cards"]] == [c.card_id for c in odds.cards]
    assert all(is_exact(c["chance"]) and c["name"] for c in data["cards"])
    power = data["power"]
    assert power["kept"] in (True, False) and power["step_limit_points"] == 10
    assert set(power["cards"]) == {str(c["token"]) for c in data["cards"]}


def test_names_follow_accept_language(client, site) -> None:
    _, data = get(client, "/api/packs/night-sky", **{"Accept-Language": "ru"})
    assert data["name"] == "Ночное небо"


def test_an_opening_and_its_verification(client, site) -> None:
    opening = services.open_pack(Pool.objects.get(slug="night-sky"), "s", "t", "my-seed").opening
    response, data = get(client, f"/api/packs/openings/{opening.public_id}")
    assert response.status_code == 200
    assert data["object"] == "opening" and data["seed"] == str(opening.seed)
    assert data["picks"] == opening.picks
    assert data["candidates"][0] == {
        "token": opening.candidates[0][0],
        "rarity": opening.candidates[0][1],
    }
    assert data["verification"] == {"verified": True, "replayed_picks": opening.picks}
    assert "session" not in str(data) and "request_key" not in data
    Opening.objects.filter(pk=opening.pk).update(seed=opening.seed + 1)
    _, data = get(client, f"/api/packs/openings/{opening.public_id}")
    assert data["verification"]["verified"] is False


@pytest.mark.parametrize(
    "path",
    [
        "/api/packs/no-such-pool",
        "/api/packs/openings/462ef3f0-f6f3-45ba-863f-d39426d9f0f1",  # no such opening
        "/api/packs/openings/not-a-uuid",
        "/api/packs/night-sky/extra",
        "/api/packs/%C2%B2",
    ],
)
def test_errors_have_one_shape(client, site, path) -> None:
    response, data = get(client, path, **{"Accept-Language": "ru"})
    assert response.status_code == 404
    assert set(data) == {"object", "code", "status", "details"}
    assert data["object"] == "error" and data["code"] == "not_found" and data["status"] == 404
    assert data["details"] and "ETag" not in response


def test_etag_revalidation(client, site) -> None:
    response, _ = get(client, "/api/packs/night-sky")
    again = client.get("/api/packs/night-sky", headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304


def test_the_documented_examples_answer(client, site) -> None:
    from packs.api_docs import ENDPOINTS

    assert {e.path for e in ENDPOINTS} >= {"/api/packs/", "/api/packs/<slug>"}
    for endpoint in ENDPOINTS:
        if endpoint.example:
            assert client.get(endpoint.example).status_code == 200, endpoint.example
    index = {entry["key"]: entry for entry in client.get("/api/").json()["results"]}
    assert index["opening"]["example"] is None and index["pool"]["app"] == "Booster packs"
