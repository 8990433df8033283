"""Every route under /api/, whatever its app, answers through the API kit (core.api):
JSON for a method it does not take (405, with Allow), for an address it does not know
(404) and for parameters it refuses (400); every route is documented and every
documented endpoint is routed."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from core import api

pytestmark = pytest.mark.django_db

SAMPLES = {
    "int": "1",
    "uuid": "00000000-0000-0000-0000-000000000000",
    "slug": "x",
    "str": "x",
    "path": "x",
}
CATCH_ALLS = {"api-site:not-found", "api-packs:None"}


def api_routes() -> list[tuple[str, str, object]]:
    """(name, a path it answers, view) of every pattern under /api/."""
    found = []

    def walk(patterns, route: str, namespace: str) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route + str(entry.pattern), entry.namespace or namespace)
            elif isinstance(entry, URLPattern):
                found.append(
                    (f"{namespace}:{entry.name}", route + str(entry.pattern), entry.callback)
                )

    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and str(entry.pattern).startswith("api/"):
            walk(entry.url_patterns, "/" + str(entry.pattern), entry.namespace or "")
    return [
        (name, re.sub(r"<(\w+):\w+>", lambda m: SAMPLES[m.group(1)], path), view)
        for name, path, view in found
    ]


ENDPOINT_ROUTES = [(n, p, v) for n, p, v in api_routes() if n not in CATCH_ALLS]


def assert_json_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    assert {"object", "code", "status", "details"} <= set(data) <= {*data, "params"}
    assert data["object"] == "error" and data["status"] == status and data["code"] == code
    assert data["details"]
    assert "Accept-Language" in response["Vary"]
    return data


def test_the_routes_are_found():
    names = {name for name, _path, _view in ENDPOINT_ROUTES}
    assert {
        "api-site:index",
        "api:card-search",
        "api-packs:pool",
        "api_arena:slab",
        "api-sharing:oembed",
    } <= names


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options"])
@pytest.mark.parametrize(("name", "path"), [(n, p) for n, p, _v in ENDPOINT_ROUTES])
def test_every_route_answers_an_unsupported_method_with_a_json_405(client, name, path, method):
    response = getattr(client, method)(path)
    assert_json_error(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET, HEAD"


@pytest.mark.parametrize(
    "path",
    [
        "/api/nope",
        "/api/cards/",
        "/api/cards/x/y",
        "/api/bulk/",
        "/api/packs/night-sky/extra",
        "/api/packs/openings/not-a-uuid",
        "/api/slabs/a/b",
    ],
)
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_an_unknown_address_is_a_json_404_whatever_the_method(client, path, method):
    assert_json_error(getattr(client, method)(path), 404, "not_found")


#: A value each documented parameter refuses, and the error code it answers with.
BAD_PARAMS: dict[tuple[str, str], tuple[str, str]] = {
    ("card-search", "q"): ("rarty:epic", "unknown_field"),
    ("card-search", "page"): ("0", "bad_page"),
    ("card-search", "page_size"): ("100000", "bad_page_size"),
    ("card-search", "explain"): ("maybe", "invalid_choice"),
    ("card-explain", "q"): ("rarty:epic", "unknown_field"),
    ("card-search", "cursor"): ("tampered", "bad_cursor"),
    **{
        ("slab-search", name): (value, "invalid_parameter")
        for name, value in {
            "tier": "legendary",
            "element": "water",
            "grade_min": "x",
            "grade_max": "x",
            "year_min": "x",
            "year_max": "x",
            "value_min": "x",
            "value_max": "x",
            "bracket": "nope",
            "sort": "nope",
            "page": "²",
            "page_size": "1000",
            "date": "2026-13-45",
        }.items()
    },
    ("slab", "date"): ("yesterday", "invalid_parameter"),
    ("card", "as"): ("2026-02-30", "bad_date"),
    ("oembed", "url"): ("not a url", "malformed_url"),
    ("oembed", "format"): ("yaml", "bad_format"),
    ("oembed", "maxwidth"): ("٣", "bad_size"),
    ("oembed", "maxheight"): ("0", "bad_size"),
}
#: Parameters that take any text (a name to look for).
FREE_TEXT = {("slab-search", "q")}


def test_every_documented_parameter_has_a_refused_value_here():
    documented = {(e.key, p.name) for _app, e in api.endpoints() for p in e.params}
    assert documented == set(BAD_PARAMS) | FREE_TEXT


@pytest.mark.parametrize(("key", "param"), sorted(BAD_PARAMS))
def test_a_refused_parameter_is_a_json_400(client, key, param):
    endpoint = next(e for _app, e in api.endpoints() if e.key == key)
    path = endpoint.path.replace("<asset id>", "cc-0").replace("<token>", "1")
    value, code = BAD_PARAMS[(key, param)]
    assert_json_error(client.get(path, {param: value}), 400, code)


def test_every_route_is_an_api_view_of_a_documented_endpoint_and_every_endpoint_is_routed():
    documented = {e.key for _app, e in api.endpoints()}
    routed = {}
    for name, _path, view in ENDPOINT_ROUTES:
        key = getattr(view, "api_endpoint", None)
        assert key in documented, f"{name} is not an api_view(key=…) of a documented endpoint"
        routed[key] = name
    assert set(routed) == documented


def test_a_nul_byte_under_the_api_is_a_json_400(client):
    assert_json_error(client.get("/api/cards", {"q": "a\x00"}), 400, "bad_request")


def test_an_http404_raised_by_an_endpoint_is_json(client, rf, settings):
    from codex_site.views import page_not_found

    response = page_not_found(rf.get("/api/cards/1"), Exception("gone"))
    assert_json_error(response, 404, "not_found")
    html = page_not_found(rf.get("/en/cards/1/"), Exception("gone"))
    assert html["Content-Type"].startswith("text/html")


def test_the_server_error_handler_answers_json_under_the_api(rf):
    from core.middleware import server_error

    assert_json_error(server_error(rf.get("/api/cards")), 500, "server_error")


def test_conditional_get_on_every_app(client):
    """A 200 carries an ETag and the same request with it is a 304 (Django's
    conditional_page: packs no longer writes its own)."""
    for path in ("/api/", "/api/packs/"):
        first = client.get(path)
        assert first.status_code == 200 and first["ETag"], path
        again = client.get(path, headers={"If-None-Match": first["ETag"]})
        assert again.status_code == 304, path
