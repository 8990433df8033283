"""/sitemap.xml: an index of every app's sections, each URL in every language with its
alternates, lastmod from the content, a million cards in ranges that never read each other."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.contrib.sitemaps import Sitemap

from cards.models import Card
from core import versions
from core.sitemaps import LazyPairs
from explorer import sitemaps as explorer_sitemaps

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
W3C_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$")


def index_locations(client) -> list[str]:
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/xml")
    root = ET.fromstring(response.content)
    assert root.tag == f"{{{NS['s']}}}sitemapindex"
    assert root.findall("s:url", NS) == []  # an index holds sitemaps only
    for lastmod in root.findall("s:sitemap/s:lastmod", NS):
        assert W3C_DATE.match(lastmod.text), lastmod.text
    return [loc.text for loc in root.findall("s:sitemap/s:loc", NS)]


def urlset(client, location: str) -> ET.Element:
    path = location.removeprefix("http://testserver")
    response = client.get(path)
    assert response.status_code == 200, path
    root = ET.fromstring(response.content)
    assert root.tag == f"{{{NS['s']}}}urlset"
    return root


@pytest.mark.django_db
def test_the_index_lists_every_section_and_each_follows_the_protocol(client, shared_site):
    locations = index_locations(client)
    assert {loc.rsplit("/", 1)[1] for loc in locations} >= {
        "sitemap-home.xml",
        "sitemap-wiki.xml",
        "sitemap-cards-pages.xml",
        "sitemap-cards-0.xml",
        "sitemap-pools.xml",
        "sitemap-slabs.xml",
    }
    seen = set()
    for location in locations:
        assert location.startswith("http://testserver/sitemap-")
        root = urlset(client, location)
        urls = root.findall("s:url", NS)
        assert 0 < len(urls) <= 50_000
        for url in urls:
            loc = url.findtext("s:loc", namespaces=NS)
            assert loc.startswith("http://testserver/"), loc
            lastmod = url.findtext("s:lastmod", namespaces=NS)
            assert lastmod is None or W3C_DATE.match(lastmod), lastmod  # optional, then W3C
            alternates = {
                link.get("hreflang"): link.get("href") for link in url.findall("x:link", NS)
            }
            assert set(alternates) == {"en", "ru", "x-default"}
            assert loc in alternates.values()
            seen.add(loc)
    assert "http://testserver/ru/cards/7/" in seen
    assert "http://testserver/en/wiki/rarities/" in seen
    assert "http://testserver/en/arena/slabs/cc-7/" in seen


@pytest.mark.django_db
def test_cards_are_split_in_token_ranges(client, shared_site, monkeypatch):
    monkeypatch.setattr(explorer_sitemaps, "CARDS_PER_FILE", 16)
    Card.objects.filter(token__in=range(16, 32)).delete()  # an empty range has no file
    locations = [loc for loc in index_locations(client) if "sitemap-cards-" in loc]
    names = [loc.rsplit("/", 1)[1] for loc in locations]
    assert names == ["sitemap-cards-pages.xml", "sitemap-cards-0.xml", "sitemap-cards-2.xml"]
    tokens = set()
    for location in locations[1:]:
        for loc in urlset(client, location).findall("s:url/s:loc", NS):
            tokens.add(int(loc.text.rstrip("/").rsplit("/", 1)[1]))
    assert tokens == set(Card.objects.values_list("token", flat=True))


@pytest.mark.django_db
def test_a_section_reads_its_own_rows_only(client, shared_site, django_assert_max_num_queries):
    client.get("/sitemap.xml")
    with django_assert_max_num_queries(4):  # versions, the token range (count, then rows)
        assert client.get("/sitemap-cards-0.xml").status_code == 200


def test_lazy_pairs_slice_like_djangos_list():
    class Plain(Sitemap):
        i18n = True

        def items(self):
            return list(range(7))

    expected = Plain()._items()
    lazy = LazyPairs(list(range(7)), ["en", "ru"])
    assert len(lazy) == len(expected) == 14
    for start in range(15):
        for stop in range(start, 15):
            assert lazy[start:stop] == expected[start:stop], (start, stop)


@pytest.mark.django_db
def test_later_pages_and_unknown_sections(client, shared_site, monkeypatch):
    from core.sitemaps import VersionedSitemap

    monkeypatch.setattr(VersionedSitemap, "limit", 30)
    locations = index_locations(client)
    assert "http://testserver/sitemap-cards-0.xml?p=2" in locations
    assert client.get("/sitemap-cards-0.xml?p=2").status_code == 200
    assert client.get("/sitemap-cards-0.xml?p=99").status_code == 404
    assert client.get("/sitemap-cards-0.xml?p=x").status_code == 404
    assert client.get("/sitemap-nothing.xml").status_code == 404


@pytest.mark.django_db
def test_cached_per_content_version(client, shared_site):
    first = client.get("/sitemap.xml")
    assert first["Cache-Control"].startswith("public")
    again = client.get("/sitemap.xml", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    Card.objects.filter(token=7).delete()
    versions.bump("cards")
    assert client.get("/sitemap.xml", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    assert b"/cards/7/" not in client.get("/sitemap-cards-0.xml").content


@pytest.mark.django_db
def test_lastmod_comes_from_the_content_versions(client, shared_site):
    versions.bump("cards")
    changed = versions.changed("cards")
    root = urlset(client, "/sitemap-cards-0.xml")
    assert root.findtext("s:url/s:lastmod", namespaces=NS) == changed.isoformat("T", "seconds")


@pytest.mark.django_db
def test_robots_txt_names_the_sitemap_and_keeps_crawlers_out(client, settings):
    settings.SITE_ORIGIN = "https://codex.example"
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    assert "Sitemap: https://codex.example/sitemap.xml" in text
    everyone = text.split("\n\n")[0]
    for path in ("/*/admin/", "/api/bulk/", "/*/cards/*?", "/*/play/m/", "/*/arena/m/"):
        assert f"Disallow: {path}\n" in everyone + "\n"
    for path in ("/*/packs/openings/", "/*/search/", "/*/wiki/search/"):
        assert f"Disallow: {path}\n" in everyone + "\n"
    assert "Disallow: /*/cards/\n" not in text  # the card pages themselves are crawled


@pytest.mark.django_db
def test_the_fast_urls_are_djangos_urls(shared_site):
    """``VersionedSitemap._urls`` works each address out once per language; Django's own
    (per URL and alternate) must give the same entries."""
    site = explorer_sitemaps.sitemaps()["cards-0"]
    ours = site.get_urls(page=1, site=type("Site", (), {"domain": "h"})(), protocol="https")
    django = Sitemap._urls(site, 1, "https", "h")
    keys = ("location", "lastmod", "alternates")
    assert [{k: u[k] for k in keys} for u in ours] == [{k: u[k] for k in keys} for u in django]
    assert len(ours) == 2 * Card.objects.count()


@pytest.mark.django_db
def test_a_client_that_takes_gzip_gets_it(client, shared_site):
    import gzip

    plain = client.get("/sitemap-cards-0.xml")
    packed = client.get("/sitemap-cards-0.xml", HTTP_ACCEPT_ENCODING="gzip, br")
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert "Accept-Encoding" in packed["Vary"] and "Accept-Encoding" in plain["Vary"]
