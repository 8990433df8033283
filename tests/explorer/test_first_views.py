"""First views and the JSON API on the fast path: what is kept per collection version
(the attribute catalogue, the combos, the wiki links; a card's and a search's JSON) and
that an edit of the collection shows at once. Query counts, never times."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.models import Attribute, Card
from core import versions
from engine.types import Slot

pytestmark = pytest.mark.django_db


def test_a_first_view_of_another_card_reads_only_that_card(
    client, demo, django_assert_num_queries, monkeypatch
):
    # The content versions are read again after READ_SECONDS: not within this test, however
    # slow the machine.
    monkeypatch.setattr(versions, "READ_SECONDS", 3600)
    first, second = Card.objects.order_by("token")[:2]
    cache.clear()
    assert client.get(f"/en/cards/{first.token}/").status_code == 200
    # The card with its wardrobe (one query), its neighbours: the catalogue, the combos and
    # the content versions are the ones the first page read.
    with django_assert_num_queries(2):
        assert client.get(f"/en/cards/{second.token}/").status_code == 200
    # A what-if of a card is a first view too; answered to htmx it shows no neighbours, so
    # it reads the card only.
    third = Card.objects.order_by("token")[2]
    with django_assert_num_queries(1):
        response = client.get(f"/en/cards/{third.token}/?rank=7", headers={"HX-Request": "true"})
    assert response.status_code == 200 and 'rel="next"' not in response.content.decode()


def test_the_kept_catalogue_follows_an_edit_of_the_collection(client, demo):
    card = Card.objects.select_related("head").order_by("token").first()
    other = Attribute.objects.filter(slot="head").exclude(pk=card.head_id).order_by("name").first()
    page = client.get(f"/en/cards/{card.token}/").content.decode()
    assert f'<option value="{other.name}">{other.name} ({other.supply})</option>' in page
    other.supply += 1000
    other.save()  # the collection's signals bump its version
    page = client.get(f"/en/cards/{card.token}/").content.decode()
    assert f'<option value="{other.name}">{other.name} ({other.supply})</option>' in page


def test_wiki_links_are_in_the_pages_language(client, demo):
    card = Card.objects.order_by("token").first()
    en = client.get(f"/en/cards/{card.token}/").content.decode()
    ru = client.get(f"/ru/cards/{card.token}/").content.decode()
    assert 'href="/en/wiki/rarities/' in en and 'href="/ru/wiki/' not in en
    assert 'href="/ru/wiki/rarities/' in ru and 'href="/en/wiki/' not in ru


def test_a_cards_json_is_kept_and_revalidated_without_a_query(
    client, demo, django_assert_num_queries
):
    card = Card.objects.order_by("token").first()
    first = client.get(f"/api/cards/{card.token}")
    assert first.status_code == 200
    etag = first["ETag"]
    with django_assert_num_queries(0):
        again = client.get(f"/api/cards/{card.token}")
    assert again.content == first.content and again["ETag"] == etag
    assert again["Cache-Control"] == "public, max-age=60, s-maxage=86400"
    assert "Accept-Language" in again["Vary"]
    with django_assert_num_queries(0):
        unchanged = client.get(f"/api/cards/{card.token}", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert (
        unchanged["ETag"] == etag
        and unchanged["Cache-Control"] == "public, max-age=60, s-maxage=86400"
    )


def test_an_edit_changes_the_cards_json_and_its_etag(client, demo):
    card = Card.objects.order_by("token").first()
    first = client.get(f"/api/cards/{card.token}")
    card.burned_stickers += 3
    card.save()
    changed = client.get(f"/api/cards/{card.token}", headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]
    assert changed.json()["burned_stickers"] == card.burned_stickers


def test_each_language_has_its_own_json_and_etag(client, demo):
    card = Card.objects.order_by("token").first()
    en = client.get(f"/api/cards/{card.token}", headers={"Accept-Language": "en"})
    ru = client.get(f"/api/cards/{card.token}", headers={"Accept-Language": "ru"})
    assert en.json()["page_url"].endswith(f"/en/cards/{card.token}/")
    assert ru.json()["page_url"].endswith(f"/ru/cards/{card.token}/")
    assert en["ETag"] != ru["ETag"]
    ru_again = client.get(
        f"/api/cards/{card.token}", headers={"Accept-Language": "ru", "If-None-Match": en["ETag"]}
    )
    assert ru_again.status_code == 200


def test_a_searchs_json_is_kept_per_address_without_junk(client, demo, django_assert_num_queries):
    first = client.get("/api/cards", {"q": "r>=rare", "page_size": "5"})
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = client.get("/api/cards", {"page_size": "5", "q": "r>=rare", "utm": "x"})
    assert again["ETag"] == first["ETag"] and again.content == first.content
    other = client.get("/api/cards", {"q": "r>=epic", "page_size": "5"})
    assert other["ETag"] != first["ETag"]
    assert other.json()["query"] == "r>=epic"


def test_errors_are_never_kept(client, demo):
    bad = client.get("/api/cards", {"page_size": "0"})
    assert bad.status_code == 400 and "ETag" not in bad
    assert bad["Cache-Control"] == "no-store"
    missing = client.get("/api/cards/99999999")
    assert missing.status_code == 404 and "ETag" not in missing
    assert re.search(r"99999999|token", missing.json()["details"])


def test_a_large_catalogue_offers_its_rarest_attributes(client, demo, monkeypatch):
    """At 100,000 cards a slot has ~7,000 attributes: the select offers the rarest ones
    (what a what-if reaches for) and any other still works from the address."""
    from explorer.presenters import card as card_presenter

    monkeypatch.setattr(card_presenter, "MAX_OFFERED", 5)
    card = Card.objects.select_related("head").order_by("token").first()
    heads = Attribute.objects.filter(slot="head").order_by("supply", "name")
    rarest = [a.name for a in heads[:5]]
    common = heads.exclude(name__in=rarest).exclude(pk=card.head_id).last()
    total = heads.count()
    page = client.get(f"/en/cards/{card.token}/").content.decode()
    select = re.search(r'<select id="wi-head".*?</select>', page, re.S).group(0)
    assert f"The 5 rarest of the catalogue’s {total}" in select
    group = select.split("rarest of the catalogue", 1)[1]
    assert re.findall(r'<option value="([^"]+)"', group) == sorted(rarest)
    # A what-if of another attribute: it is shown, selected, among the options.
    page = client.get(f"/en/cards/{card.token}/", {"head": common.name}).content.decode()
    select = re.search(r'<select id="wi-head".*?</select>', page, re.S).group(0)
    assert f'<option value="{common.name}" selected>' in select
    assert select.count(" selected") == 1
    ru = client.get(f"/ru/cards/{card.token}/").content.decode()
    assert "самых редких" in ru


def test_the_home_pages_cards_are_kept_per_collection_version(
    client, demo, settings, django_assert_num_queries
):
    settings.PAGE_CACHE_SECONDS = 0  # every request renders: what the memo saves shows
    assert client.get("/en/").status_code == 200
    with django_assert_num_queries(0):
        page = client.get("/en/").content.decode()
    assert "/en/cards/" in page
    assert "/ru/cards/" in client.get("/ru/").content.decode()  # its own language's rows
    card = Card.objects.order_by("token").first()
    card.burned_stickers += 1
    card.save()
    with CaptureQueriesContext(connection) as after_edit:
        assert client.get("/en/").status_code == 200
    assert len(after_edit) > 0  # the collection changed: the featured cards are read again


def test_a_wiki_pages_live_tables_are_kept_until_the_collection_changes(demo):
    """{{ collection_stats }} reads the collection: rendered once per collection version
    (and language), not on every first view of the page."""
    from wiki.rendering import fill_live_macros

    placeholder = '<div class="live-macro" title="0"></div>'
    live = [("collection_stats", None)]
    with CaptureQueriesContext(connection) as first:
        before = fill_live_macros(placeholder, live, "en")
    assert len(first) > 0 and "<table" in before
    with CaptureQueriesContext(connection) as again:
        assert fill_live_macros(placeholder, live, "en") == before
    assert len(again) == 0
    russian = fill_live_macros(placeholder, live, "ru")
    assert russian != before  # its own language
    Card.objects.order_by("-token").first().delete()  # the signals bump the version
    with CaptureQueriesContext(connection) as after:
        changed = fill_live_macros(placeholder, live, "en")
    assert len(after) > 0 and changed != before


def test_a_search_reads_only_the_cards_no_search_showed_before(
    client, demo, settings, django_assert_num_queries, monkeypatch
):
    """Rows are kept per collection version and language: the same cards in another
    display, or in another search, are not read again; an edit shows at once."""
    monkeypatch.setattr(versions, "READ_SECONDS", 3600)
    settings.PAGE_CACHE_SECONDS = 0  # every request renders: what is kept shows
    first = client.get("/en/cards/", {"q": "r>=rare sort:-atk"}).content.decode()
    tokens = re.findall(r'class="card-tile-link" href="/en/cards/(\d+)/"', first)
    assert len(tokens) == 24
    with django_assert_num_queries(1):  # its page of ids: the count and the rows are kept
        text = client.get("/en/cards/", {"q": "r>=rare sort:-atk", "display": "text"})
    assert (
        re.findall(r'<h2 class="card-text-title"><a href="/en/cards/(\d+)/"', text.text) == tokens
    )
    # Russian rows are Russian ones, with Russian addresses.
    ru = client.get("/ru/cards/", {"q": "r>=rare sort:-atk"}).content.decode()
    assert re.findall(r'class="card-tile-link" href="/ru/cards/(\d+)/"', ru) == tokens
    assert 'card-tile-link" href="/en/' not in ru
    card = Card.objects.get(token=int(tokens[0]))
    card.name = "Renamed For The Test"
    card.save()  # the collection's signals bump its version
    again = client.get("/en/cards/", {"q": "r>=rare sort:-atk"}).content.decode()
    assert f"Renamed For The Test #{card.token}" in again


def test_a_search_that_fits_on_one_page_is_not_counted(
    client, demo, settings, django_assert_num_queries, monkeypatch
):
    monkeypatch.setattr(versions, "READ_SECONDS", 3600)
    settings.PAGE_CACHE_SECONDS = 0
    client.get("/en/cards/", {"q": "sort:token"})  # reads the content versions
    legendary = Card.objects.filter(rarity="legendary", starter=False).count()
    assert 0 < legendary < 60  # a checklist page holds 60
    with django_assert_num_queries(2):  # its page of ids, those cards: the page says how many
        html = client.get("/en/cards/", {"q": "r:legendary", "display": "checklist"}).text
    assert f"{legendary} cards found" in html
    # Past the end: the last page, whose count is counted.
    total = Card.objects.filter(starter=False).count()
    last = client.get("/en/cards/", {"q": "sort:token", "page": "2"}).content.decode()
    past = client.get("/en/cards/", {"q": "sort:token", "page": "999"}).content.decode()
    shown = re.findall(r'class="card-tile-link" href="/en/cards/(\d+)/"', past)
    pages = -(-total // 24)
    assert f'aria-current="page">{pages}<' in past and f"{total} cards found" in past
    assert shown and len(shown) == total - 24 * (pages - 1)
    assert pages > 2 or shown == re.findall(r'card-tile-link" href="/en/cards/(\d+)/"', last)


def test_a_tile_is_in_its_pages_language(client, demo, settings):
    """The same card's tile in English, then in Russian, has each language's words (the
    template's own and the row's, which is kept per language)."""
    settings.PAGE_CACHE_SECONDS = 0
    en = client.get("/en/cards/", {"q": "r:legendary"}).content.decode()
    ru = client.get("/ru/cards/", {"q": "r:legendary"}).content.decode()
    again = client.get("/en/cards/", {"q": "r:legendary"}).content.decode()
    tile = re.compile(r'<li class="card-tile.*?</li>', re.S)
    assert tile.findall(en) == tile.findall(again) and tile.findall(en)
    assert "> active skill</span>" in en and "активный скилл" not in en
    assert "> активный скилл</span>" in ru and "> active skill</span>" not in ru


def test_a_large_catalogue_is_left_out_of_the_garbage_collectors_passes(demo, monkeypatch):
    """At a million cards the catalogue holds 280,000 attributes, and each full pass of
    the collector over them paused a request for 80–190 ms: a catalogue of
    ``LARGE_CATALOGUE`` attributes or more is frozen once loaded (``gc.freeze``), a small
    one is not."""
    import gc

    from explorer import selectors

    try:
        gc.unfreeze()
        small = selectors._load_catalogue()
        assert gc.get_freeze_count() == 0
        assert id(small) in {id(o) for o in gc.get_objects()}  # the collector walks it
        monkeypatch.setattr(selectors, "LARGE_CATALOGUE", sum(small.count(s) for s in Slot))
        large = selectors._load_catalogue()
        assert gc.get_freeze_count() > 0
        assert id(large) not in {id(o) for o in gc.get_objects()}  # frozen: it does not
    finally:
        gc.unfreeze()
