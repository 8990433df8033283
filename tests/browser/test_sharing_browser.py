"""What a crawler and a chat's link preview see: the sitemaps, every address they list and
every hreflang alternate answering, and a card page's preview picture as a real PNG."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import pytest

from tests.sharing.conftest import build_site
from tests.sharing.test_sitemaps import NS, W3C_DATE

pytestmark = pytest.mark.django_db(transaction=True)

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def _validate_urlset(root: ET.Element, origin: str) -> list[ET.Element]:
    """The sitemap protocol's rules for one file (sitemaps.org/protocol.html)."""
    assert root.tag == f"{SITEMAP}urlset"
    urls = root.findall("s:url", NS)
    assert 0 < len(urls) <= 50_000
    for url in urls:
        children = [child.tag for child in url]
        assert children.count(f"{SITEMAP}loc") == 1
        assert set(children) <= {
            f"{SITEMAP}loc",
            f"{SITEMAP}lastmod",
            f"{SITEMAP}changefreq",
            f"{SITEMAP}priority",
            "{http://www.w3.org/1999/xhtml}link",
        }
        loc = url.findtext("s:loc", namespaces=NS)
        assert loc.startswith(origin + "/") and len(loc) < 2048, loc
        lastmod = url.findtext("s:lastmod", namespaces=NS)
        assert lastmod is None or W3C_DATE.match(lastmod), lastmod
        for link in url.findall("x:link", NS):
            assert link.get("rel") == "alternate" and link.get("href").startswith(origin + "/")
    return urls


def test_every_sitemap_address_and_alternate_answers(page):
    build_site()
    origin = page.base_url
    index = page.request.get(f"{origin}/sitemap.xml")
    assert index.ok and index.headers["content-type"].startswith("application/xml")
    root = ET.fromstring(index.body())
    assert root.tag == f"{SITEMAP}sitemapindex"
    sitemaps = root.findall("s:sitemap", NS)
    assert 0 < len(sitemaps) <= 50_000
    locations, alternates = set(), set()
    for entry in sitemaps:
        location = entry.findtext("s:loc", namespaces=NS)
        assert location.startswith(f"{origin}/sitemap-")
        assert W3C_DATE.match(entry.findtext("s:lastmod", namespaces=NS) or "2026-01-01")
        answer = page.request.get(location)
        assert answer.ok, location
        for url in _validate_urlset(ET.fromstring(answer.body()), origin):
            locations.add(url.findtext("s:loc", namespaces=NS))
            alternates |= {link.get("href") for link in url.findall("x:link", NS)}
    assert any("/cards/" in loc for loc in locations)
    assert any("/wiki/" in loc for loc in locations)
    for address in sorted(locations | alternates):
        answer = page.request.get(address)  # x-default redirects to a language: followed
        assert answer.status == 200, (address, answer.status)
    # The robots.txt names the index.
    robots = page.request.get(f"{origin}/robots.txt").text()
    assert f"Sitemap: {origin}/sitemap.xml" in robots


def test_a_card_page_preview_is_a_1200_by_630_png(page):
    build_site()
    page.goto(f"{page.base_url}/ru/cards/7/")
    image = page.locator('meta[property="og:image"]').get_attribute("content")
    assert image == f"{page.base_url}/ru/cards/7/preview.png"
    assert page.locator('meta[property="og:image:width"]').get_attribute("content") == "1200"
    assert page.locator('meta[name="twitter:card"]').get_attribute("content") == (
        "summary_large_image"
    )
    answer = page.request.get(image)
    assert answer.ok and answer.headers["content-type"] == "image/png"
    body = answer.body()
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    assert struct.unpack(">II", body[16:24]) == (1200, 630)
    # The browser decodes it: a valid PNG of the stated size.
    size = page.evaluate(
        """async (src) => {
            const img = new Image();
            img.src = src;
            await img.decode();
            return [img.naturalWidth, img.naturalHeight];
        }""",
        image,
    )
    assert size == [1200, 630]
    # Each of the card page's hreflang alternates and its canonical address exist.
    page.goto(f"{page.base_url}/en/cards/7/?rank=3")
    canonical = page.locator('link[rel="canonical"]').get_attribute("href")
    assert urlsplit(canonical).path == "/en/cards/7/" and not urlsplit(canonical).query
    links = page.locator('link[rel="alternate"][hreflang]')
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert len(hrefs) == 2
    for href in [canonical, *hrefs]:
        assert page.request.get(href).status == 200, href
    oembed = page.locator('link[type="application/json+oembed"]').get_attribute("href")
    assert page.request.get(oembed).json()["type"] == "rich"
