"""The JSON API: the card (facts and links on top of the engine's breakdown), search,
the index, the bulk file, caching, and one error shape on every error path."""

import errno
import json
import subprocess
import sys
import time

import pytest
from django.conf import settings

from cards.models import Card
from cards.specs import card_spec
from core import api as apidocs
from engine.serialize import card_to_json
from explorer import api_docs

pytestmark = pytest.mark.django_db

ERROR_KEYS = {"object", "code", "status", "details"}


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert set(data) == ERROR_KEYS, data
    assert data["object"] == "error" and data["status"] == status and data["code"] == code
    assert isinstance(data["details"], str) and data["details"]
    return data


def test_a_card_has_its_facts_and_links_on_top_of_the_engines_breakdown(client, demo):
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
    # Every key of `python -m engine derive` is there, with the engine's own value.
    breakdown = json.loads(cli.stdout)
    assert {key: data[key] for key in breakdown} == breakdown
    assert data["object"] == "card" and data["name"] == card.name
    assert set(data["equipped"]) == {"head", "body", "paw", "background"}
    assert data["equipped"]["paw"]["name"] == card.paw.name
    assert data["picture_url"] == f"http://testserver/en/cards/{card.token}/picture.svg"
    assert data["page_url"] == f"http://testserver/en/cards/{card.token}/"
    assert data["rarity"] == "legendary" and data["active_skill"] == card.active_skill
    # The links lead somewhere.
    assert client.get(f"/en/cards/{card.token}/picture.svg").status_code == 200


def _old_card_body(token: int, lang: str) -> bytes:
    """The card's body as the view made it before it wrote its JSON from pieces: the
    facts and links merged with ``breakdown_to_json``, then encoded."""
    from django.utils import translation

    from cards.history import fingerprint
    from engine.card.derive import derive
    from engine.data import RULES_VERSION
    from engine.serialize import breakdown_to_json
    from explorer.selectors import combos

    with translation.override(lang):
        spec = card_spec(token, combos=combos())
        card = card_to_json(spec)
        data = {
            "object": "card",
            "token": spec.token,
            "name": spec.name,
            "starter": spec.starter,
            "equipped": card["equipped"],
            "wardrobe": card["wardrobe"],
            "getgems_rank": spec.getgems_rank,
            "burned_stickers": spec.burned_stickers,
            "picture_url": f"http://testserver/{lang}/cards/{token}/picture.svg",
            "page_url": f"http://testserver/{lang}/cards/{token}/",
            "uri": f"http://testserver/api/cards/{token}",
            "as_of": None,
            "inputs_sha256": fingerprint(spec),
            "rules_version": RULES_VERSION,
            **breakdown_to_json(derive(spec)),
        }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_cards_json_is_the_same_bytes_as_before(client, demo, lang):
    """The body is written from pieces kept between cards (``breakdown_json``) and the
    card is read with precompiled SQL: for every card of the collection, in both
    languages, the bytes are those of merging and encoding the plain data."""
    from cards.specs import card_spec, card_specs

    tokens = list(Card.objects.order_by("token").values_list("token", flat=True))
    assert len(tokens) >= 200
    # Cards with a wardrobe and one without (its one row has nulls there).
    from core import versions

    Card.wardrobe.through.objects.filter(card__token=tokens[0]).delete()
    versions.bump("cards")
    assert Card.objects.filter(wardrobe__isnull=True).exists()
    assert Card.objects.filter(wardrobe__isnull=False).exists()
    for token in tokens:
        response = client.get(f"/api/cards/{token}", headers={"Accept-Language": lang})
        assert response.content == _old_card_body(token, lang), token
        (orm,) = card_specs([token])
        assert card_spec(token) == orm


def test_a_cards_first_view_is_one_query(client, demo, django_assert_num_queries):
    """The card with its attributes and wardrobe in one query; the combos and the
    collection's version are kept between requests."""
    first, second = Card.objects.order_by("token").values_list("token", flat=True)[:2]
    assert client.get(f"/api/cards/{first}").status_code == 200
    with django_assert_num_queries(1):
        assert client.get(f"/api/cards/{second}").status_code == 200
    with django_assert_num_queries(1):
        assert client.get("/api/cards/777777").status_code == 404


def test_the_page_link_follows_the_requests_language(client, demo):
    card = Card.objects.first()
    data = client.get(f"/api/cards/{card.token}", headers={"Accept-Language": "ru"}).json()
    assert data["page_url"].endswith(f"/ru/cards/{card.token}/")


def test_etag_and_cache_control(client, demo):
    card = Card.objects.first()
    first = client.get(f"/api/cards/{card.token}")
    assert first["Cache-Control"] == "public, max-age=60, s-maxage=86400"
    etag = first["ETag"]
    again = client.get(f"/api/cards/{card.token}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""


def test_search_is_paginated_with_links_and_card_objects(client, demo):
    response = client.get("/api/cards", {"q": "r>=rare sort:token", "page_size": "5"})
    data = response.json()
    expected = Card.objects.filter(rarity_rank__gte=2, starter=False).count()
    assert data["object"] == "list"
    assert data["count"] == expected
    assert len(data["results"]) == 5
    assert data["results"][0]["token"] < data["results"][1]["token"]
    assert data["next"].endswith("?q=r%3E%3Drare+sort%3Atoken&page=2&page_size=5")
    assert data["previous"] is None
    first = data["results"][0]
    assert first["object"] == "card"
    assert first["uri"].startswith("http://testserver/api/cards/")
    assert first["page_url"] == f"http://testserver/en/cards/{first['token']}/"
    assert first["picture_url"].endswith(f"/cards/{first['token']}/picture.svg")
    card = Card.objects.select_related("head").get(token=first["token"])
    assert first["equipped"]["head"] == {
        "name": card.head.name,
        "supply": card.head.supply,
        "kind": card.head.kind,
    }
    assert data["described"] == ["Rarity is at least Rare"]


def _old_search(params: dict) -> dict:
    """The search's JSON as the view made it before (Django's Paginator: a count, one
    page of ids, then those cards' rows), to compare with."""
    from django.core.paginator import Paginator

    from cards.query import describe
    from cards.search import search_cards
    from explorer.forms import ApiSearchForm
    from explorer.selectors import ROW_FIELDS

    form = ApiSearchForm(params)
    assert form.is_valid()
    query, size, number = form.cleaned_data["q"], form.size, form.number
    paginator = Paginator(search_cards(query).values_list("pk", flat=True), size)
    if number > paginator.num_pages:
        return {"code": "no_page"}
    page = paginator.page(number)
    ids = list(page.object_list)
    rows = {r["pk"]: r for r in Card.objects.filter(pk__in=ids).values(*ROW_FIELDS)}
    results = []
    for pk in ids:
        row = rows[pk]
        token = row["token"]
        results.append(
            {
                "object": "card",
                "token": token,
                "name": row["name"],
                "starter": row["starter"],
                "equipped": {
                    s: {k: row[f"{s}__{k}"] for k in ("name", "supply", "kind")}
                    for s in ("head", "body", "paw", "background")
                },
                **{k: row[k] for k in ("rarity", "role", "skill_affinity", "active_skill")},
                "energy_cost": row["energy_cost"],
                "atk": row["atk"],
                "hp": row["hp"],
                "def": row["defense"],
                "ability": row["ability"],
                "getgems_rank": row["getgems_rank"],
                "burned_stickers": row["burned_stickers"],
                "wardrobe_score": None
                if row["wardrobe_score"] is None
                else str(row["wardrobe_score"]),
                "picture_url": f"http://testserver/en/cards/{token}/picture.svg",
                "page_url": f"http://testserver/en/cards/{token}/",
                "uri": f"http://testserver/api/cards/{token}",
            }
        )
    return {
        "count": paginator.count,
        "pages": paginator.num_pages,
        "has_next": page.has_next(),
        "has_previous": page.has_previous(),
        "described": describe(query),
        "results": results,
    }


@pytest.mark.parametrize(
    "q",
    [
        "",
        "r>=rare sort:token",
        "r:legendary or r:epic sort:-atk",
        "atk>=9 hp>=20 sort:hp",
        "-r:common sort:-token",
        "is:starter",
        "sort:-score",
        "sort:rank",
        "r:legendary atk>=99",
    ],
)
def test_search_pages_are_what_the_paginator_made(client, demo, q):
    """One query gives the page and the count (a window over the search): every page of
    these searches, the last one and one past it, are what Django's Paginator gave."""
    for size in (7, 50):
        pages = client.get("/api/cards", {"q": q, "page_size": str(size)}).json()["pages"]
        for number in sorted({1, 2, 3, pages, pages + 1}):
            params = {"q": q, "page": str(number), "page_size": str(size)}
            expected = _old_search(params)
            response = client.get("/api/cards", params)
            if expected == {"code": "no_page"}:
                assert number > pages
                assert_error(response, 404, "no_page")
                continue
            data = response.json()
            assert data["count"] == expected["count"] and data["pages"] == expected["pages"]
            assert (data["next"] is not None) == expected["has_next"]
            assert (data["previous"] is not None) == expected["has_previous"]
            assert data["described"] == expected["described"]
            assert data["results"] == expected["results"], (q, size, number)


def test_a_searchs_first_view_is_three_queries_at_most(client, demo, django_assert_num_queries):
    """A page of ids, the count (not when the page is the last one, nor when the search
    was counted before), then those cards' rows; past the end, one."""
    assert client.get("/api/cards", {"q": "r>=rare"}).status_code == 200
    with django_assert_num_queries(3):
        assert client.get("/api/cards", {"q": "r>=common", "page_size": "5"}).status_code == 200
    with django_assert_num_queries(2):  # another page and sort of it: the count is kept
        params = {"q": "r>=common sort:-atk", "page_size": "5", "page": "2"}
        assert client.get("/api/cards", params).status_code == 200
    with django_assert_num_queries(2):  # one page holds them all: counted from the page
        data = client.get("/api/cards", {"q": "r>=epic", "page_size": "200"}).json()
    assert data["count"] == len(data["results"]) > 0
    with django_assert_num_queries(1):
        assert client.get("/api/cards", {"q": "r>=epic", "page": "999"}).status_code == 404
    with django_assert_num_queries(1):
        data = client.get("/api/cards", {"q": "atk>=999"}).json()
    assert data["count"] == 0 and data["pages"] == 1 and data["results"] == []


def test_search_speaks_the_boolean_language(client, demo):
    data = client.get("/api/cards", {"q": "r:legendary or r:epic", "page_size": "200"}).json()
    expected = Card.objects.filter(rarity__in=["legendary", "epic"], starter=False).count()
    assert data["count"] == expected > 0


def test_the_index_lists_every_endpoint_and_the_docs(client):
    data = client.get("/api/").json()
    assert data["object"] == "list"
    assert data["docs_url"] == "http://testserver/en/api/"
    paths = {entry["path"] for entry in data["results"]}
    assert {"/api/", "/api/cards", "/api/cards/<token>", "/api/bulk/cards.json"} <= paths
    assert {e.key for _app, e in apidocs.endpoints()} == {entry["key"] for entry in data["results"]}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_documentation_page_lists_every_endpoint_parameter_and_field(client, lang):
    html = client.get(f"/{lang}/api/").content.decode()
    for _app, endpoint in apidocs.endpoints():
        assert f'id="{endpoint.key}"' in html
        for param in endpoint.params:
            assert f"<code>{param.name}</code>" in html
        for field in endpoint.fields:
            assert f"<code>{field.name}</code>" in html
    assert "<code>details</code>" in html
    footer = html[html.index('<footer class="site-footer">') :]
    assert f'href="/{lang}/api/"' in footer


def test_every_example_of_the_documentation_answers(client, demo):
    # The packs' and the arena's examples are tried with their own data, in their tests.
    for endpoint in api_docs.ENDPOINTS:
        response = client.get(endpoint.example)
        assert response.status_code == 200, (endpoint.example, response.content[:200])


# --- one error shape everywhere ------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "text"), [("en", "There is no card #777777."), ("ru", "Карты №777777 нет.")]
)
def test_an_unknown_card_is_a_json_404_in_the_requests_language(client, demo, lang, text):
    response = client.get("/api/cards/777777", headers={"Accept-Language": lang})
    assert assert_error(response, 404, "not_found")["details"] == text


@pytest.mark.parametrize(
    "path",
    [
        "/api/cards/abc",
        "/api/cards/",
        "/api/cards/12/",
        "/api/nothing-here",
        "/api/cards/99999999999",
        "/api/bulk/",
        "/api/bulk/cards.csv",
        "/api/%C2%B2",
    ],
)
def test_unknown_paths_under_the_api_are_json_404s(client, demo, path):
    assert_error(client.get(path), 404, "not_found")


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"q": "rarty:legendary"}, "unknown_field"),
        ({"q": "r:epic or or r:rare"}, "dangling_or"),
        ({"q": "(r:epic"}, "unclosed_paren"),
        ({"q": " ".join(["a"] * 300)}, "too_long"),
        ({"q": "a b c d e f g h i"}, "too_many_words"),
        ({"q": "rank<=²"}, "bad_number"),
        ({"page": "0"}, "bad_page"),
        ({"page_size": "100000"}, "bad_page_size"),
        ({"page": "x"}, "bad_page"),
        ({"page": "²"}, "bad_page"),
    ],
)
def test_search_errors_are_json_400s(client, demo, params, code):
    data = assert_error(client.get("/api/cards", params), 400, code)
    if code == "dangling_or":
        assert "at character 8" in data["details"]


@pytest.mark.parametrize("param", ["page", "page_size"])
@pytest.mark.parametrize("value", ["١", "４", "²"])
def test_digits_of_other_scripts_in_the_apis_numbers_are_a_json_400(client, demo, param, value):
    assert_error(client.get("/api/cards", {param: value}), 400, f"bad_{param}")


def test_a_page_past_the_end_is_a_json_404(client, demo):
    assert_error(client.get("/api/cards", {"page": "9999"}), 404, "no_page")


@pytest.mark.parametrize(
    "path", ["/api/", "/api/cards", "/api/cards/1", "/api/bulk/cards.json", "/api/nope"]
)
@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
def test_writing_methods_are_json_405s(client, demo, path, method):
    response = getattr(client, method)(path)
    if path == "/api/nope":  # no such endpoint, whatever the method
        assert_error(response, 404, "not_found")
        return
    assert_error(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET, HEAD"


@pytest.mark.parametrize("path", ["/api/", "/api/cards", "/api/bulk/cards.json", "/api/nope"])
def test_a_post_without_a_csrf_token_is_refused_in_the_api_shape(path):
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post(path, {"x": "1"})
    assert_error(response, 403, "forbidden")


def test_api_errors_are_not_cached(client, demo):
    response = client.get("/api/cards/777777")
    assert response["Cache-Control"] == "no-store"


def test_every_api_pattern_resolves_to_its_own_view():
    """The catch-all is the last pattern: every named API route is reached before it (an
    app adding API routes after ``include("codex_site.api_urls")`` would be swallowed)."""
    import re

    from django.urls import resolve

    from tests.security.sitedata import url_patterns

    samples = {"int": "1", "uuid": "00000000-0000-0000-0000-000000000000", "slug": "x"}
    for pattern in url_patterns():
        if not pattern.route.startswith("/api/") or "not_found" in (pattern.name or ""):
            continue
        if pattern.name == "api-site:not-found":
            continue
        route = (
            re.sub(r"<(\w+):\w+>", lambda m: samples.get(m.group(1), "x"), pattern.route)
            .replace("<", "")
            .replace(">", "")
        )
        assert resolve(route).view_name == pattern.name, pattern


# --- bulk data ---------------------------------------------------------------------------


@pytest.fixture
def bulk_dir(tmp_path, settings):
    settings.BULK_DATA_DIR = str(tmp_path)
    return tmp_path


def test_bulk_is_the_whole_collection_in_the_import_schema(client, demo, bulk_dir):
    from cards.transfer import import_collection

    response = client.get("/api/bulk/cards.json")
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "application/json"
    body = b"".join(response.streaming_content)
    assert int(response["Content-Length"]) == len(body)
    data = json.loads(body)
    assert {"attributes", "cards", "combos"} <= set(data)
    assert len(data["cards"]) == Card.objects.count()
    assert response["ETag"] and response["Last-Modified"]
    # It imports back as it is: nothing to change.
    result = import_collection(body)
    assert not result.changed


def test_bulk_answers_304_until_the_collection_changes(client, demo, bulk_dir):
    from core import versions

    first = client.get("/api/bulk/cards.json")
    etag = first["ETag"]
    b"".join(first.streaming_content)
    same = client.get("/api/bulk/cards.json", headers={"If-None-Match": etag})
    assert same.status_code == 304
    assert client.head("/api/bulk/cards.json")["ETag"] == etag
    card = Card.objects.order_by("token").first()
    card.name = "Renamed For The Bulk File"
    card.save()
    versions.bump("cards")
    changed = client.get("/api/bulk/cards.json", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert b"Renamed For The Bulk File" in b"".join(changed.streaming_content)
    assert len(list(bulk_dir.glob("*.json"))) <= 2  # old versions are pruned


def test_a_file_the_database_does_not_know_is_never_served(client, demo, bulk_dir):
    from core import versions

    version = versions.current("cards").replace(":", "-")
    stray = bulk_dir / f"cards-{version}-000000000000.json"
    stray.write_text('{"left": "by another database"}')
    response = client.get("/api/bulk/cards.json")
    body = b"".join(response.streaming_content)
    assert b"another database" not in body and json.loads(body)["cards"]
    assert not stray.exists()  # pruned


def test_a_reset_database_gets_a_new_file_and_etag(client, demo, bulk_dir):
    from explorer.models import BulkFile

    first = client.get("/api/bulk/cards.json")
    b"".join(first.streaming_content)
    BulkFile.objects.all().delete()  # as after a restore: same version number, no record
    again = client.get("/api/bulk/cards.json", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200 and again["ETag"] != first["ETag"]


# A writer that dies or hangs, a disk that refuses (issue 26): never a stall, never a 500.

HOLD_LOCK = (
    "import fcntl, os, sys, time\n"
    "fd = os.open(sys.argv[1], os.O_CREAT | os.O_RDWR)\n"
    "fcntl.flock(fd, fcntl.LOCK_EX)\n"
    "print('locked', flush=True)\n"
    "time.sleep(120)\n"
)


@pytest.fixture
def lock_holder(bulk_dir):
    """Another process, writing the bulk file (it holds the lock) until it is killed."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(bulk_dir / "writing.lock")],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline().strip() == "locked"
    yield process
    process.kill()
    process.wait(timeout=10)


def test_a_dead_writers_lock_is_no_wait(client, demo, bulk_dir, lock_holder, monkeypatch):
    from explorer import bulk

    monkeypatch.setattr(bulk, "WAIT_SECONDS", 2.0)
    lock_holder.kill()  # killed while writing: its lock file stays behind
    lock_holder.wait(timeout=10)
    assert (bulk_dir / "writing.lock").exists()
    started = time.monotonic()
    response = client.get("/api/bulk/cards.json")
    assert response.status_code == 200
    assert time.monotonic() - started < 1.5  # no waiting for the dead
    assert json.loads(b"".join(response.streaming_content))["cards"]


def test_a_live_writer_gets_others_a_json_503_not_a_stall(
    client, demo, bulk_dir, lock_holder, monkeypatch
):
    from explorer import bulk

    monkeypatch.setattr(bulk, "WAIT_SECONDS", 0.5)
    started = time.monotonic()
    response = client.get("/api/bulk/cards.json", HTTP_ACCEPT_LANGUAGE="en")
    assert time.monotonic() - started < 3
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/json")
    assert response["Retry-After"] == str(bulk.RETRY_AFTER_SECONDS)
    error = response.json()
    assert error["code"] == "bulk_unavailable" and "being written" in error["details"]
    assert not list(bulk_dir.glob("cards-*.json"))  # it did not write a second copy
    lock_holder.kill()
    lock_holder.wait(timeout=10)
    assert client.get("/api/bulk/cards.json").status_code == 200


def test_a_bulk_directory_that_is_a_file_is_a_json_503(client, demo, tmp_path, settings):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    settings.BULK_DATA_DIR = str(blocker / "bulk")  # mkdir: NotADirectoryError
    for method in ("get", "head"):
        response = getattr(client, method)("/api/bulk/cards.json")
        assert response.status_code == 503
        assert response["Content-Type"].startswith("application/json")
    error = client.get("/api/bulk/cards.json").json()
    assert error["code"] == "bulk_unavailable" and "full or read-only" in error["details"]


def test_a_full_disk_is_a_json_503_and_leaves_no_partial_file(client, demo, bulk_dir, monkeypatch):
    from explorer import bulk

    def full(out):
        out.write("{")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(bulk, "export_collection", full)
    response = client.get("/api/bulk/cards.json")
    assert response.status_code == 503 and response.json()["code"] == "bulk_unavailable"
    assert sorted(p.name for p in bulk_dir.iterdir()) == ["writing.lock"]


def test_the_bulk_503_is_in_the_requests_language(client, demo, bulk_dir, lock_holder, monkeypatch):
    from explorer import bulk

    monkeypatch.setattr(bulk, "WAIT_SECONDS", 0.2)
    response = client.get("/api/bulk/cards.json", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 503
    assert "записывается" in response.json()["details"]
