"""/api/slabs and /api/slabs/<asset id>: the stats, the trace codes, the values; money as
decimal strings; every error in one shape {"object": "error", "code", "status", "details"}."""

from __future__ import annotations

import datetime as dt

import pytest

from arena import selectors
from engine.arena.slabs import SLAB_CODES

pytestmark = pytest.mark.django_db


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert (
        {"object", "code", "status", "details"}
        <= set(data)
        <= {"object", "code", "status", "details", "params"}
    )
    assert data["object"] == "error" and data["code"] == code and data["status"] == status
    assert data["details"]
    return data


def test_the_list(client, slabs) -> None:
    data = client.get("/api/slabs").json()
    assert data["object"] == "list" and data["count"] == len(slabs)
    assert data["date"] == selectors.match_day().isoformat()
    first = data["results"][0]
    assert first["asset_id"] == "pricey" and first["value"] == "2500.00"
    assert first["tier"] == "epic" and first["hp"] == 140 and first["brackets"] == ["open"]
    assert (
        first["url"].endswith("/api/slabs/pricey")
        and "/en/arena/slabs/pricey/" in first["page_url"]
    )
    paged = client.get("/api/slabs", {"page_size": 3, "page": 2}).json()
    assert paged["pages"] == 4 and len(paged["results"]) == 3
    assert (
        "page=3" in paged["next"]
        and "page_size=3" in paged["next"]
        and "page=1" in paged["previous"]
    )
    rare = client.get("/api/slabs", {"tier": "rare", "sort": "name"}).json()
    assert [r["asset_id"] for r in rare["results"]] == ["mid", "cc-1"]
    old = client.get(
        "/api/slabs", {"date": (selectors.match_day() - dt.timedelta(days=3)).isoformat()}
    ).json()
    late = next(r for r in old["results"] if r["asset_id"] == "late")
    assert late["value"] is None and late["tier"] is None


def test_a_slab(client, slabs) -> None:
    data = client.get("/api/slabs/a").json()
    assert data["object"] == "slab" and data["value"] == "62.60" and data["tier"] == "uncommon"
    assert data["grade"] == "9.5" and data["power"] == {"bonus": 20, "cost": 2}
    assert [s["code"] for s in data["trace"]] == list(SLAB_CODES)
    nxt = next(s for s in data["trace"] if s["code"] == "slab.next_band")
    assert nxt["params"]["missing"] == "12.40"
    assert [v["date"] for v in data["values"]] == sorted(v["date"] for v in data["values"])
    assert data["values"][-1]["value"] == "62.60"
    day = (selectors.match_day() - dt.timedelta(days=2)).isoformat()
    older = client.get("/api/slabs/a", {"date": day}).json()
    assert older["tier"] == "rare" and older["value"] == "75.00" and older["date"] == day


def test_errors_share_one_shape(client, slabs) -> None:
    error_of(client.get("/api/slabs/nope"), 404, "not_found")
    error_of(client.get("/api/slabs/" + "x" * 200), 404, "not_found")
    early = (selectors.match_day() - dt.timedelta(days=3)).isoformat()
    data = error_of(client.get("/api/slabs/late", {"date": early}), 404, "no_value")
    assert data["params"]["first_value_date"] is not None
    for bad in ("²", "2026-13-45", "yesterday"):
        data = error_of(client.get("/api/slabs/a", {"date": bad}), 400, "invalid_parameter")
        assert "date" in data["params"]["fields"]
    error_of(client.get("/api/slabs", {"page": "²"}), 400, "invalid_parameter")
    error_of(client.get("/api/slabs", {"page_size": "1000"}), 400, "invalid_parameter")
    error_of(client.get("/api/slabs", {"tier": "legendary"}), 400, "invalid_parameter")
    error_of(client.get("/api/slabs", {"page": "99"}), 404, "no_page")
    error_of(client.post("/api/slabs"), 405, "method_not_allowed")
    error_of(client.delete("/api/slabs/a"), 405, "method_not_allowed")


@pytest.mark.parametrize("param", ["page", "page_size", "year_min"])
def test_digits_of_other_scripts_are_refused(client, slabs, param) -> None:
    error_of(client.get("/api/slabs", {param: "٣"}), 400, "invalid_parameter")


def test_error_messages_follow_accept_language(client, slabs) -> None:
    data = client.get("/api/slabs/nope", headers={"Accept-Language": "ru"}).json()
    assert "Слаба" in data["details"]


def test_the_documented_examples_answer(client, slabs) -> None:
    from arena.api_docs import ENDPOINTS

    listing, detail = ENDPOINTS
    assert client.get(listing.example).status_code == 200
    # The detail's example names a slab of the demo arena; the same request for one of these.
    assert detail.example.startswith("/api/slabs/cc-") and "?" not in detail.example
    assert client.get("/api/slabs/pricey").status_code == 200
    names = {p.name for p in listing.params}
    from arena.api import ApiQueryForm

    assert names == set(ApiQueryForm.base_fields)
