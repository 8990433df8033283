"""Whole-page caching: the same HTML for everyone but their own CSRF token, until an edit;
keyed on the parameters a page reads, bounded in bytes, and blind to the Host header."""

import inspect
import random
import re
import string

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from core import versions
from core.cache import BoundedLocMemCache

pytestmark = pytest.mark.django_db

# A visitor's CSRF token where a page puts it: a form's field or an element's hx-headers.
TOKEN = re.compile(r'(?:name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")([^"]+)"')
OLD_PLACEHOLDER = "__card-codex-csrf-token__"  # the fixed placeholder the cache once used


def page_entries() -> list[str]:
    """The page entries in this process's memory cache."""
    return [key for key in cache._cache if ":page:" in key]


def form_page(*names: str) -> str:
    """A cached page with a form, whose CSRF token is spliced into every render, listing
    the names of the collection's cards: ``names`` (and three more). Its test needs
    ``FORM_URLS`` (no page of the site has a form since issue 32)."""
    from tests.cards.conftest import make_card

    from .page_cache_urls import FORM_PAGE

    for token, name in enumerate((*names, "Pup A", "Pup B", "Pup C"), start=900):
        make_card(token, name=name)
    return FORM_PAGE


FORM_URLS = pytest.mark.urls("tests.core.page_cache_urls")


@FORM_URLS
def test_two_visitors_get_the_cached_page_with_their_own_token(django_assert_num_queries):
    page = form_page()
    first, second = Client(), Client()
    a = first.get(page).content.decode()
    with django_assert_num_queries(0):
        b = second.get(page).content.decode()
    token_a, token_b = TOKEN.search(a).group(1), TOKEN.search(b).group(1)
    assert token_a != token_b
    assert TOKEN.sub("", a) == TOKEN.sub("", b)
    assert "csrftoken" in second.cookies


def test_a_cached_page_without_a_form_makes_no_token():
    Client().get("/en/")  # fills the cache
    visitor = Client()
    html = visitor.get("/en/").content.decode()
    assert not TOKEN.search(html)
    assert "csrftoken" not in visitor.cookies


@FORM_URLS
def test_a_token_from_a_cached_page_passes_the_csrf_check():
    from bench.htmlforms import parse_page

    page = form_page()
    Client().get(page)  # fills the cache with someone else's render
    visitor = Client(enforce_csrf_checks=True)
    html = visitor.get(page).content.decode()
    (form,) = parse_page(page, html)[1]
    data = [(k, v) for k, v in form.data() if k != "csrfmiddlewaretoken"]
    refused = visitor.post(form.action, dict(data))
    accepted = visitor.post(form.action, dict(form.data()))
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
    # The history page: the article itself is kept per content version (0 queries).
    client.get("/en/wiki/energy/history/")
    client.cookies["messages"] = "x"  # a message waits to be shown: render for this visitor
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/en/wiki/energy/history/").status_code == 200
    assert len(queries) > 0


def test_the_cache_can_be_switched_off(client, settings, django_assert_num_queries):
    from wiki.models import Page
    from wiki.services import save_page

    settings.PAGE_CACHE_SECONDS = 0
    save_page(Page.objects.create(slug="energy", title_en="Energy", published=True))
    client.get("/en/wiki/energy/history/")
    # Rendered again (no versions to read): the page, its related pages, the revisions.
    with django_assert_num_queries(4):
        client.get("/en/wiki/energy/history/")


# --- item 3: keyed on the parameters a page reads, bounded in bytes ------------------------


def _junk(rng: random.Random) -> dict[str, str]:
    letters = string.ascii_letters + string.digits + "_-"
    return {
        "".join(rng.choices(letters, k=rng.randint(1, 12))): "".join(
            rng.choices(letters, k=rng.randint(0, 30))
        )
        for _ in range(rng.randint(1, 4))
    }


def test_junk_parameters_make_no_new_entries(client):
    rng = random.Random(12)
    first = client.get("/en/cards/", {"q": "r:legendary"})
    assert first.status_code == 200
    for _ in range(1000):
        junk = {k: v for k, v in _junk(rng).items() if k not in ("q", "page")}
        response = client.get("/en/cards/", {**junk, "q": "r:legendary"})
        assert response.status_code == 200
    assert len(page_entries()) == 1


def test_a_page_never_shows_parameters_it_does_not_read(client):
    html = client.get("/en/cards/?utm_source=%3Cmark%3Eevil&q=r%3Arare").content.decode()
    assert "utm_source" not in html and "evil" not in html
    assert 'hreflang="ru" href="http://testserver/ru/cards/?q=r%3Arare"' in html
    # The next visitor, without junk, is served the same entry.
    assert TOKEN.sub("", client.get("/en/cards/?q=r%3Arare").content.decode()) == TOKEN.sub(
        "", html
    )
    assert len(page_entries()) == 1


def test_order_and_repeats_of_parameters_share_one_entry(client):
    for query in ("q=r%3Arare&page=1", "page=1&q=r%3Arare", "q=x&q=r%3Arare&page=1"):
        assert client.get(f"/en/cards/?{query}").status_code == 200
    assert len(page_entries()) == 1


def test_htmx_targets_and_triggers_make_no_new_entries(client):
    for n in range(50):
        headers = {"HX-Request": "true", "HX-Target": f"t{n}", "HX-Trigger": f"x{n}"}
        assert client.get("/en/cards/", headers=headers).status_code == 200
    assert client.get("/en/cards/").status_code == 200
    assert len(page_entries()) == 2  # the fragment and the page


def test_what_ifs_of_a_card_are_rendered_not_kept(client):
    """A what-if is one of cards × attribute combinations: page-cached, distinct what-ifs
    filled a shared Redis (issue 26, M1). Only the card's own page is kept."""
    from tests.cards.conftest import make_card

    make_card(77, name="Pup What")
    for path in ("/en/cards/77/", "/en/cards/77/paths/"):
        assert client.get(path).status_code == 200
    kept = set(page_entries())
    assert len(kept) == 2
    for rank in range(1, 6):
        for path in ("/en/cards/77/", "/en/cards/77/paths/"):
            response = client.get(path, {"rank": rank})
            assert response.status_code == 200
    assert set(page_entries()) == kept
    assert client.get("/en/cards/77/").status_code == 200  # still served from the cache
    assert set(page_entries()) == kept


@FORM_URLS
def test_a_body_above_the_limit_is_served_but_not_kept(client, settings):
    settings.PAGE_CACHE_MAX_BYTES = 1000
    response = client.get(form_page())
    assert response.status_code == 200 and len(response.content) > 1000
    assert TOKEN.search(response.content.decode())  # the visitor's token, not a placeholder
    assert page_entries() == []


def test_the_memory_cache_is_bounded_in_bytes():
    store = BoundedLocMemCache("bounded-test", {"OPTIONS": {"MAX_BYTES": 10_000}})
    store.clear()
    for n in range(100):
        store.set(f"k{n}", b"x" * 1000)
        assert store.total_bytes <= 10_000
    assert store.get("k99") is not None and store.get("k0") is None
    assert len(store._cache) < 10
    store.get("k95")  # recently read: kept when the next set evicts
    store.set("k100", b"y" * 1000)
    assert store.get("k95") is not None
    store.set("huge", b"z" * 20_000)  # larger than the whole budget: not kept
    assert store.get("huge") is None and store.total_bytes <= 10_000
    before = store.total_bytes
    store.delete("k99")
    assert store.total_bytes < before
    store.set("n", 1)
    assert store.incr("n", 10**30) == 10**30 + 1
    assert store.total_bytes == sum(len(v) for v in store._cache.values())
    store.clear()
    assert store.total_bytes == 0


def _cached_views():
    """(name, view) for every URL pattern whose view is wrapped by cached_page."""

    def walk(patterns, namespace=""):
        for entry in patterns:
            if isinstance(entry, URLResolver):
                ns = entry.namespace or namespace
                if entry.namespace and namespace:
                    ns = f"{namespace}:{entry.namespace}"
                yield from walk(entry.url_patterns, ns)
            elif isinstance(entry, URLPattern):
                view = entry.callback
                while view is not None and not hasattr(view, "page_params"):
                    view = getattr(view, "__wrapped__", None)
                if view is not None:
                    yield f"{namespace}:{entry.name}", view

    return dict(walk(get_resolver().url_patterns))


READS = re.compile(r"""request\.GET\.get(?:list)?\(\s*["']([^"']+)["']""")
# A helper handed the request reads its parameters too: name them next to the call.
HELPERS = {"_page": {"page"}}
FORM_OF_GET = re.compile(r"""\b([A-Z]\w*Form)(?:\.from_request)?\(\s*request\.GET""")


def test_every_cached_view_names_the_parameters_it_reads():
    """A parameter a cached view reads but does not name would be dropped: guard the list."""
    from explorer.whatif import PARAMS

    views = _cached_views()
    assert {"site:home", "site:search", "explorer:card-detail", "wiki:search"} <= set(views)
    for name, view in views.items():
        source = inspect.getsource(inspect.unwrap(view))
        module = inspect.getmodule(inspect.unwrap(view))
        wanted = set(READS.findall(source))
        for form_name in FORM_OF_GET.findall(source):
            form = getattr(module, form_name)
            try:
                wanted |= set(form().fields)  # the fields __init__ makes too
            except TypeError:  # a form that needs its data
                wanted |= set(form.base_fields)
        for helper, names in HELPERS.items():
            if re.search(rf"(?<![\w.]){helper}\(request", source):
                wanted |= names
        if "WhatIfForm(" in source:
            wanted |= set(PARAMS)
        assert wanted <= set(view.page_params), (name, wanted - set(view.page_params))


# --- item 5: the CSRF placeholder is spliced in only where the template put it -----------


def _two_visits(url: str) -> tuple[str, str]:
    first, second = Client(), Client()
    a = first.get(url)
    b = second.get(url)
    assert a.status_code == b.status_code == 200
    return a.content.decode(), b.content.decode()


@FORM_URLS
def test_a_card_name_holding_the_old_placeholder_stays_text():
    # The page lists the card's name beside its form's token.
    a, b = _two_visits(form_page(f"Pup {OLD_PLACEHOLDER} #42"))
    for html in (a, b):
        assert f"Pup {OLD_PLACEHOLDER} #42" in html
        token = TOKEN.search(html).group(1)
        # The visitor's token in each form's field, and nowhere else.
        assert html.count(token) == html.count('name="csrfmiddlewaretoken"') > 0
    assert TOKEN.search(a).group(1) != TOKEN.search(b).group(1)


def test_a_wiki_link_holding_the_old_placeholder_stays_text():
    from wiki.models import Page
    from wiki.services import save_page

    link = f"https://evil.example/?t={OLD_PLACEHOLDER}"
    save_page(
        Page.objects.create(
            slug="energy", title_en="Energy", body_en=f"See [this]({link}).", published=True
        )
    )
    a, b = _two_visits("/en/wiki/energy/")
    for html in (a, b):
        assert f'href="{link}"' in html
        assert not TOKEN.search(html)  # a page without a form has no token to splice


@FORM_URLS
def test_each_render_has_its_own_unguessable_placeholder(monkeypatch):
    from core import cache as page_cache

    page = form_page()
    seen = []
    made = page_cache._new_placeholder

    def spy():
        seen.append(made())
        return seen[-1]

    monkeypatch.setattr(page_cache, "_new_placeholder", spy)
    for _ in range(2):
        cache.clear()
        html = Client().get(page).content.decode()
        assert seen[-1] not in html
    assert len(set(seen)) == 2 and all(re.fullmatch(r"csrf[0-9a-f]{40}", p) for p in seen)
    (entry,) = [cache.get(key.split(":", 2)[2]) for key in page_entries()]
    content, _headers, marks, width = entry
    assert marks and all(content[at : at + width] == seen[-1].encode() for at in marks)


# --- item 6: absolute links never take a visitor's Host header ------------------------------

ALTERNATE = re.compile(r'<link rel="alternate" hreflang="ru" href="([^"]+)"')


def test_a_hostile_host_header_does_not_reach_the_next_visitor():
    poisoned = Client().get("/en/", headers={"host": "127.0.0.1:6666"})
    assert poisoned.status_code == 200
    assert ALTERNATE.search(poisoned.content.decode()).group(1) == "http://127.0.0.1:6666/ru/"
    html = Client().get("/en/").content.decode()
    assert ALTERNATE.search(html).group(1) == "http://testserver/ru/"
    assert "6666" not in html


def test_a_configured_origin_is_what_everyone_gets(settings):
    settings.SITE_ORIGIN = "https://cards.example.org"
    for host in ("127.0.0.1:6666", "testserver"):
        html = Client().get("/en/", headers={"host": host}).content.decode()
        assert ALTERNATE.search(html).group(1) == "https://cards.example.org/ru/"
    assert len(page_entries()) == 1  # one origin, one entry
