"""/api/oembed: a card or slab page as a linked picture; every bad address a JSON error."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def oembed(client, url: str, **params):
    return client.get("/api/oembed", {"url": url, **params})


def test_a_card_page_embeds_as_its_preview(client, shared_site):
    response = oembed(client, "http://testserver/ru/cards/7/", format="json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["version"] == "1.0" and body["type"] == "rich"
    assert body["url"] == "http://testserver/ru/cards/7/"
    assert body["thumbnail_url"] == "http://testserver/ru/cards/7/preview.png"
    assert (body["thumbnail_width"], body["thumbnail_height"]) == (1200, 630)
    assert '<a href="http://testserver/ru/cards/7/"><img src=' in body["html"]
    assert "<iframe" not in body["html"] and "<script" not in body["html"]
    assert "Изображение карты" in body["html"]  # the page's language, from its address
    assert body["provider_url"] == "http://testserver/"


def test_a_slab_page_embeds_and_sizes_are_kept_within_the_asked(client, shared_site):
    body = oembed(client, "http://testserver/en/arena/slabs/cc-7/", maxwidth="300").json()
    assert body["thumbnail_url"] == "http://testserver/en/arena/slabs/cc-7/preview.png"
    assert body["width"] <= 300 and body["height"] <= 300 * 630 // 1200 + 1
    assert "Sun Pup" in body["title"]


def test_the_card_and_slab_pages_name_their_oembed(client, shared_site):
    page = client.get("/en/cards/7/").content.decode()
    assert (
        '<link rel="alternate" type="application/json+oembed" '
        'href="http://testserver/api/oembed?url=http%3A%2F%2Ftestserver%2Fen%2Fcards%2F7%2F'
        '&amp;format=json"'
    ) in page
    slab = client.get("/en/arena/slabs/cc-7/").content.decode()
    assert 'type="application/json+oembed"' in slab
    assert 'type="application/json+oembed"' not in client.get("/en/wiki/rarities/").content.decode()


@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        ("", 400, "missing_url"),
        ("not a url", 400, "malformed_url"),
        ("http://[::1", 400, "malformed_url"),
        ("http://testserver:99999/en/cards/7/", 400, "malformed_url"),
        ("javascript:alert(1)", 400, "malformed_url"),
        ("http://testserver/" + "a" * 3000, 400, "malformed_url"),
        ("https://evil.example/en/cards/7/", 404, "foreign_url"),
        ("http://testserver.evil.example/en/cards/7/", 404, "foreign_url"),
        ("http://testserver/en/cards/99999/", 404, "not_found"),
        ("http://testserver/en/cards/99999999999999999999/", 404, "not_found"),
        ("http://testserver/en/arena/slabs/nope/", 404, "not_found"),
        ("http://testserver/en/wiki/rarities/", 404, "not_found"),
        ("http://testserver/de/cards/7/", 404, "not_found"),
        ("http://testserver/nowhere", 404, "not_found"),
    ],
)
def test_bad_addresses_are_json_errors(client, shared_site, url, status, code):
    response = oembed(client, url)
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "object": "error",
        "code": code,
        "status": status,
        "details": response.json()["details"],
    }


def test_xml_is_not_implemented_and_bad_sizes_are_refused(client, shared_site):
    response = oembed(client, "http://testserver/en/cards/7/", format="xml")
    assert response.status_code == 501
    assert response.json()["code"] == "format_not_implemented"
    for fmt in ("html", "JSON!", "json " * 100):
        response = oembed(client, "http://testserver/en/cards/7/", format=fmt)
        assert response.status_code == 400 and response.json()["code"] == "bad_format"
    assert oembed(client, "http://testserver/en/cards/7/", format="").status_code == 200
    posted = client.post("/api/oembed?url=http://testserver/en/cards/7/")
    assert posted.status_code == 405 and posted.json()["code"] == "method_not_allowed"
    for bad in ("-1", "0", "x", "1e9", "99999999999", "٣", "４", "²"):
        for size in ("maxwidth", "maxheight"):
            response = oembed(client, "http://testserver/en/cards/7/", **{size: bad})
            assert response.status_code == 400, bad  # "٣" was read as 3
            assert response.json()["code"] == "bad_size"


def test_oembed_is_in_the_api_index_and_documented_with_a_working_example(client, shared_site):
    listed = {e["key"]: e for e in client.get("/api/").json()["results"]}
    example = listed["oembed"]["example"]
    assert example == "http://testserver/api/oembed?url=http://testserver/en/cards/26/&format=json"
    docs = client.get("/ru/api/").content.decode()
    assert 'id="oembed"' in docs
    assert 'href="/api/oembed?url=http://testserver/en/cards/26/&amp;format=json"' in docs
    for param in ("url", "format", "maxwidth", "maxheight"):
        assert f"<code>{param}</code>" in docs
