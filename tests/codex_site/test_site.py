"""The foundation: every page in both languages, language switching, headers, health."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse, translate_url
from django.utils import translation
from django.utils.functional import Promise

pytestmark = pytest.mark.django_db

LANGS = ["en", "ru"]
SKIP_NAMESPACES = {"admin"}


def _walk(patterns, namespace: str = ""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace in SKIP_NAMESPACES:
                continue
            if entry.pattern.converters:
                continue
            ns = entry.namespace or namespace
            if entry.namespace and namespace:
                ns = f"{namespace}:{entry.namespace}"
            yield from _walk(entry.url_patterns, ns)
        elif isinstance(entry, URLPattern) and entry.name and not entry.pattern.converters:
            if getattr(entry.pattern, "regex", None) is not None and entry.pattern.regex.groups:
                continue
            yield f"{namespace}:{entry.name}" if namespace else entry.name


def page_names() -> list[str]:
    """Every named page of the site that takes no arguments (API and health excluded, and
    what is for machines: robots.txt, the sitemaps, the site's preview picture, the Atom
    feeds)."""
    return sorted(
        n
        for n in set(_walk(get_resolver().url_patterns))
        if not n.startswith(("api", "healthz", "favicon", "sharing:", "site:site-preview"))
        and not n.endswith("-feed")
    )


def test_the_site_has_its_main_pages():
    assert {"site:home", "wiki:index", "explorer:card-list", "play:index"} <= set(page_names())


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_answers_in_both_languages(client, lang):
    for name in page_names():
        with translation.override(lang):
            url = reverse(name)
        assert url.startswith(f"/{lang}/"), url
        response = client.get(url)
        assert response.status_code == 200, (name, url, response.status_code)
        assert f'<html lang="{lang}">' in response.content.decode()


@pytest.mark.parametrize(
    ("accept", "prefix"), [("ru-RU,ru;q=0.9", "/ru/"), ("en-GB,en;q=0.8", "/en/"), ("de", "/en/")]
)
def test_root_redirects_by_accept_language(client, accept, prefix):
    response = client.get("/", headers={"accept-language": accept})
    assert response.status_code == 302
    assert response["Location"] == prefix


def test_language_switcher_keeps_the_page_and_query(client):
    response = client.get("/en/cards/?q=r%3Alegendary&page=2")
    html = response.content.decode()
    assert 'href="/ru/cards/?q=r%3Alegendary&amp;page=2" hreflang="ru"' in html
    assert 'rel="alternate" hreflang="ru" href="http://testserver/ru/cards/?q=r%3Alegendary' in html
    ru = client.get("/ru/cards/?q=r%3Alegendary&page=2").content.decode()
    assert 'href="/en/cards/?q=r%3Alegendary&amp;page=2" hreflang="en"' in ru


def _all_patterns(patterns):
    for entry in patterns:
        yield entry
        if isinstance(entry, URLResolver):
            yield from _all_patterns(entry.url_patterns)


def test_no_route_is_translated():
    """The language switcher swaps the language prefix of an address (core/context_processors.py):
    right only while every route reads the same in every language."""
    for entry in _all_patterns(get_resolver().url_patterns):
        words = getattr(entry.pattern, "_route", None) or getattr(entry.pattern, "_regex", "")
        assert not isinstance(words, Promise), entry


@pytest.mark.parametrize("lang", LANGS)
def test_the_switcher_links_what_django_would_translate(client, lang):
    for name in page_names():
        with translation.override(lang):
            url = reverse(name)
        html = client.get(url).content.decode()
        for other in LANGS:
            assert f'href="{translate_url(url, other)}" hreflang="{other}"' in html, (name, other)


def test_pages_are_translated(client):
    ru = client.get("/ru/").content.decode()
    assert "Вики" in ru and "Карты" in ru and "Играть" in ru
    en = client.get("/en/").content.decode()
    assert "Wiki" in en and "Вики" not in en


def test_csp_header_forbids_inline_code(client):
    response = client.get("/en/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    html = response.content.decode()
    assert "<script>" not in html and " style=" not in html
    assert "includeIndicatorStyles" in html  # htmx would otherwise inject a <style>


def test_htmx_is_served_from_our_static_files(client):
    html = client.get("/en/").content.decode()
    assert '<script src="/static/vendor/htmx/htmx.min.js" defer>' in html


def test_healthz_reports_the_database_and_the_cache(client, django_assert_num_queries):
    from django.db import connection

    # SELECT 1; on PostgreSQL inside a savepoint with its own statement timeout.
    expected = 4 if connection.vendor == "postgresql" else 1
    with django_assert_num_queries(expected):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}


def test_healthz_names_a_database_that_does_not_answer(client, monkeypatch):
    from django.db import OperationalError

    from codex_site import views

    def refused():
        raise OperationalError("connection to server failed: Connection refused")

    monkeypatch.setattr(views, "_check_database", refused)
    response = client.get("/healthz")
    assert response.status_code == 503
    report = response.json()
    assert report["status"] == "unavailable" and report["cache"] == "ok"
    assert report["database"].startswith("error: OperationalError: connection to server")


def test_unknown_page_is_a_translated_404(client):
    response = client.get("/ru/no-such-page/")
    assert response.status_code == 404
    assert "Страница не найдена" in response.content.decode()


@pytest.mark.parametrize("lang", LANGS)
def test_a_bad_host_header_is_a_400_not_a_500(client, lang):
    response = client.get(f"/{lang}/", headers={"host": "evil.example"})
    assert response.status_code == 400


def test_favicon_ico_points_at_the_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("img/favicon.svg")
