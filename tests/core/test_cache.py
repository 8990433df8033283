"""Whole-page caching: the same HTML for everyone but their own CSRF token, until an edit."""

import re

import pytest
from django.test import Client

from core import versions
from core.cache import CSRF_PLACEHOLDER

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')


def test_two_visitors_get_the_cached_page_with_their_own_token(django_assert_num_queries):
    first, second = Client(), Client()
    a = first.get("/en/").content.decode()
    with django_assert_num_queries(0):
        b = second.get("/en/").content.decode()
    assert CSRF_PLACEHOLDER not in a and CSRF_PLACEHOLDER not in b
    token_a, token_b = TOKEN.search(a).group(1), TOKEN.search(b).group(1)
    assert token_a != token_b
    assert TOKEN.sub("", a) == TOKEN.sub("", b)
    assert "csrftoken" in second.cookies


def test_a_token_from_a_cached_page_passes_the_csrf_check():
    Client().get("/en/play/")  # fills the cache with someone else's render
    visitor = Client(enforce_csrf_checks=True)
    html = visitor.get("/en/play/").content.decode()
    token = TOKEN.search(html).group(1)
    refused = visitor.post("/en/play/", {"deck": "1"})
    accepted = visitor.post("/en/play/", {"deck": "1"}, headers={"X-CSRFToken": token})
    assert refused.status_code == 403
    assert accepted.status_code != 403


def test_an_edit_shows_at_once(client):
    from wiki.models import Page
    from wiki.services import save_page

    page = Page.objects.create(
        slug="energy", title_en="Energy", title_ru="Энергия", body_en="Old text.", published=True
    )
    save_page(page, summary="first")
    assert "Old text." in client.get("/en/wiki/energy/").content.decode()
    page.body_en = "New text."
    save_page(page, summary="second")
    assert "New text." in client.get("/en/wiki/energy/").content.decode()


def test_versions_change_the_key():
    before = versions.current("cards", "wiki")
    versions.bump("cards")
    after = versions.current("cards", "wiki")
    assert before != after and after.endswith("|wiki:0")


def test_pages_with_pending_messages_are_not_cached(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from wiki.models import Page
    from wiki.services import save_page

    save_page(Page.objects.create(slug="energy", title_en="Energy", published=True))
    client.get("/en/wiki/energy/")
    client.cookies["messages"] = "x"  # a message waits to be shown: render for this visitor
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/en/wiki/energy/").status_code == 200
    assert len(queries) > 0


def test_the_cache_can_be_switched_off(client, settings, django_assert_num_queries):
    from wiki.models import Page
    from wiki.services import save_page

    settings.PAGE_CACHE_SECONDS = 0
    save_page(Page.objects.create(slug="energy", title_en="Energy", published=True))
    client.get("/en/wiki/energy/")
    with django_assert_num_queries(3):  # rendered again (no versions to read): nothing kept
        client.get("/en/wiki/energy/")
