"""Link previews (OpenGraph, Twitter Card) and canonical addresses on the pages people share,
and the 1200×630 PNG pictures behind them."""

from __future__ import annotations

import re
import struct

import pytest
from django.test import Client
from django.urls import reverse

from core import versions
from core.previews import preview_svg, render_png

pytestmark = pytest.mark.django_db


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    assert body[12:16] == b"IHDR"
    return struct.unpack(">II", body[16:24])


def head_tags(html: str) -> dict[str, str]:
    head = html.split("</head>", 1)[0]
    tags = dict(
        re.findall(r'<meta (?:property|name)="((?:og|twitter):[\w:]+)" content="([^"]*)"', head)
    )
    canonical = re.findall(r'<link rel="canonical" href="([^"]*)"', head)
    assert len(canonical) <= 1
    if canonical:
        tags["canonical"] = canonical[0]
    return tags


def test_a_card_preview_is_a_png_of_1200_by_630_cached_per_version(client, shared_site):
    response = client.get("/en/cards/7/preview.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert png_size(response.content) == (1200, 630)
    assert "public" in response["Cache-Control"] and "max-age=" in response["Cache-Control"]
    assert response["Last-Modified"] and response["ETag"]
    again = client.get("/en/cards/7/preview.png", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    russian = client.get("/ru/cards/7/preview.png")
    assert russian["ETag"] != response["ETag"] and russian.content != response.content
    versions.bump("cards")
    changed = client.get("/en/cards/7/preview.png", HTTP_IF_NONE_MATCH=response["ETag"])
    assert changed.status_code == 200


def test_previews_of_missing_things_are_404(client, shared_site):
    assert client.get("/en/cards/99999/preview.png").status_code == 404
    assert client.get("/en/cards/99999999999999999999/preview.png").status_code == 404
    assert client.get("/en/arena/slabs/nope/preview.png").status_code == 404
    assert client.post("/en/cards/7/preview.png").status_code == 405


def test_slab_and_site_previews_are_pngs_too(client, shared_site):
    for path in ("/ru/arena/slabs/cc-7/preview.png", "/ru/preview.png", "/en/preview.png"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response["Content-Type"] == "image/png"
        assert png_size(response.content) == (1200, 630)


def test_cyrillic_text_is_drawn_not_dropped():
    """A font without Cyrillic draws nothing for it: the picture would be the blank one."""
    blank = render_png(preview_svg("<svg/>", "", "", ""))
    epic = render_png(preview_svg("<svg/>", "", "", "Эпическая карта"))
    legendary = render_png(preview_svg("<svg/>", "", "", "Легендарная карта"))
    assert len({blank, epic, legendary}) == 3


def test_the_card_page_tags_name_its_picture_and_why(client, shared_site):
    tags = head_tags(client.get("/en/cards/7/").content.decode())
    assert tags["og:image"] == "http://testserver/en/cards/7/preview.png"
    assert tags["twitter:image"] == tags["og:image"]
    assert tags["twitter:card"] == "summary_large_image"
    assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")
    assert tags["og:url"] == tags["canonical"] == "http://testserver/en/cards/7/"
    kind, _, why = tags["og:description"].partition(" — ")
    assert why.split()[0] in kind  # "Legendary Tank — Legendary because …"
    russian = head_tags(client.get("/ru/cards/7/").content.decode())
    assert russian["og:locale"] == "ru_RU" and russian["og:description"] != tags["og:description"]


def test_a_what_if_points_to_its_card(client, shared_site):
    html = client.get("/en/cards/7/", {"rank": "3", "utm_source": "x"}).content.decode()
    tags = head_tags(html)
    assert tags["canonical"] == tags["og:url"] == "http://testserver/en/cards/7/"
    assert '<meta name="robots" content="noindex">' in html
    assert '<meta name="robots"' not in client.get("/en/cards/7/").content.decode()


@pytest.mark.parametrize(
    ("asked", "canonical"),
    [
        ("/en/cards/?q=r%3Aepic&page=1&utm=x", "/en/cards/?q=r%3Aepic"),
        ("/en/cards/?q=r%3Aepic&page=2", "/en/cards/?q=r%3Aepic&amp;page=2"),
        ("/en/cards/?q=&page=", "/en/cards/"),
        ("/en/search/?q=tank&fbclid=1", "/en/search/?q=tank"),
        ("/en/wiki/search/?q=rarity&page=1", "/en/wiki/search/?q=rarity"),
        ("/ru/wiki/rarities/?ref=chat", "/ru/wiki/rarities/"),
        ("/en/arena/slabs/cc-7/?date=2020-01-01", "/en/arena/slabs/cc-7/"),
    ],
)
def test_canonical_addresses_drop_junk_and_the_first_page(client, shared_site, asked, canonical):
    html = client.get(asked).content.decode()
    assert f'<link rel="canonical" href="http://testserver{canonical}">' in html


def test_wiki_pool_slab_opening_and_replay_pages_have_previews(client, shared_site):
    from packs.models import Pool
    from packs.services import open_pack

    pool = Pool.objects.first()
    opened = open_pack(pool, "s" * 32, "t" * 32)
    pages = {
        "/ru/wiki/rarities/": "http://testserver/ru/preview.png",
        f"/en/packs/{pool.slug}/": "http://testserver/en/preview.png",
        "/en/arena/slabs/cc-7/": "http://testserver/en/arena/slabs/cc-7/preview.png",
        reverse("packs:opening-detail", args=[opened.opening.public_id]): (
            "http://testserver/en/preview.png"
        ),
    }
    response = client.post(reverse("play:index"), {"card": ["1", "2"]})
    if response.status_code == 302:  # a match to replay
        pages[response["Location"] + "replay/?step=0"] = "http://testserver/en/preview.png"
    for path, image in pages.items():
        response = client.get(path)
        assert response.status_code == 200, path
        tags = head_tags(response.content.decode())
        assert tags["og:image"] == image, path
        assert tags["og:title"] and tags["og:description"] and tags["twitter:card"], path
        assert tags["og:url"] == tags["canonical"], path
    assert len(pages) == 5


def test_the_tags_hold_nothing_of_the_visitor(client, shared_site):
    """Two visitors (one with a session) get the same head: a shared cache may keep it."""
    other = Client()
    other.get("/en/arena/slabs/")  # a session
    for path in ("/en/cards/7/", "/en/wiki/rarities/"):
        assert head_tags(client.get(path).content.decode()) == head_tags(
            other.get(path).content.decode()
        )
