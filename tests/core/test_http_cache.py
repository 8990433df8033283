"""The shared HTTP cache's policy (core.http_cache) without a cache in front: which pages go
out public with a validator and tags, which stay the visitor's own, 304s, and the purge a
write sends (to a stand-in server that records it)."""

from __future__ import annotations

import http.server
import logging
import threading
from collections.abc import Iterator

import pytest
from django.test import Client
from django.utils.http import http_date

from core import http_cache, versions
from tests.wiki.conftest import make_page

pytestmark = pytest.mark.django_db


def _directives(response) -> dict[str, str]:
    found = {}
    for part in response.get("Cache-Control", "").split(","):
        name, _, value = part.strip().partition("=")
        if name:
            found[name] = value
    return found


def _vary(response) -> set[str]:
    return {v.strip().lower() for v in response.get("Vary", "").split(",") if v.strip()}


@pytest.fixture
def wiki_page():
    return make_page("shared-rules", body_en="The rules everybody reads.")


def test_an_anonymous_wiki_page_is_public_with_validators_and_tags(client, wiki_page, settings):
    settings.HTTP_CACHE_MAX_AGE = 60
    settings.HTTP_CACHE_S_MAXAGE = 3600
    response = client.get("/en/wiki/shared-rules/")
    assert response.status_code == 200
    directives = _directives(response)
    assert "public" in directives and "private" not in directives
    assert directives["max-age"] == "60" and directives["s-maxage"] == "3600"
    assert response["ETag"].startswith('"')
    assert response["Last-Modified"]
    tags = response[http_cache.TAG_HEADER].split()
    assert tags[0] == "site" and "wiki" in tags
    # The language is the path's: nothing varies on the visitor's language or cookies.
    assert not _vary(response) & {"cookie", "accept-language"}
    assert not response.cookies


def test_a_conditional_request_is_answered_304_until_the_page_changes(client, wiki_page):
    first = client.get("/en/wiki/shared-rules/")
    tag, modified = first["ETag"], first["Last-Modified"]
    again = client.get("/en/wiki/shared-rules/", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == tag and "public" in _directives(again)
    assert "wiki" in again[http_cache.TAG_HEADER].split()
    since = client.get("/en/wiki/shared-rules/", headers={"If-Modified-Since": modified})
    assert since.status_code == 304

    wiki_page.body_en = "The rules, edited."
    from wiki import services

    services.save_page(wiki_page)
    changed = client.get("/en/wiki/shared-rules/", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and b"The rules, edited." in changed.content
    assert changed["ETag"] != tag


def test_a_page_of_the_other_language_has_its_own_validator(client, wiki_page):
    english = client.get("/en/wiki/shared-rules/")
    russian = client.get("/ru/wiki/shared-rules/", headers={"If-None-Match": english["ETag"]})
    assert russian.status_code == 200 and russian["ETag"] != english["ETag"]


def test_an_htmx_fragment_varies_on_htmx_and_its_history_restore(client, wiki_page):
    response = client.get("/en/wiki/search/", {"q": "rules"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert {"hx-request", "hx-history-restore-request"} <= _vary(response)


def test_a_visitor_with_a_waiting_message_gets_a_private_page(wiki_page):
    visitor = Client()
    visitor.cookies["messages"] = "something"
    response = visitor.get("/en/wiki/shared-rules/")
    directives = _directives(response)
    assert "private" in directives and "no-store" in directives and "public" not in directives
    assert http_cache.TAG_HEADER not in response
    assert "cookie" in _vary(response)


def test_the_binder_page_is_the_visitors_own(client):
    response = client.get("/en/packs/binder/")
    assert response.status_code == 200
    directives = _directives(response)
    assert "private" in directives and "no-store" in directives and "public" not in directives
    assert "cookie" in _vary(response)


def test_a_page_with_a_csrf_form_is_never_public(client):
    """The play page holds a CSRF token (its forms post) and reads the session's binder."""
    response = client.get("/en/play/")
    assert response.status_code == 200
    directives = _directives(response)
    assert "private" in directives and "public" not in directives
    assert http_cache.TAG_HEADER not in response


def test_the_admin_is_private(client, admin_user):
    client.force_login(admin_user)
    response = client.get("/admin/")
    directives = _directives(response)
    assert "private" in directives and "public" not in directives


def test_a_shared_view_that_reads_the_session_is_kept_private(rf, settings):
    """The policy looks at what went into the answer, not at which view made it."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.http import HttpResponse

    request = rf.get("/en/anything/")
    request.session = SessionStore()

    def view(request):
        request.session.get("binder")
        return http_cache.shared(HttpResponse("yours"), ("cards",))

    response = http_cache.SharedCacheMiddleware(view)(request)
    assert "public" not in _directives(response) and "private" in _directives(response)

    def public_view(request):
        request.session.get("binder")
        response = HttpResponse("yours, though the view said otherwise")
        response["Cache-Control"] = "public, max-age=60, s-maxage=600"
        return response

    request = rf.get("/en/anything/")
    request.session = SessionStore()
    response = http_cache.SharedCacheMiddleware(public_view)(request)
    assert _directives(response) == {"private": "", "max-age": "60", "no-store": ""}

    request = rf.get("/en/anything/")
    request.session = SessionStore()
    response = http_cache.SharedCacheMiddleware(
        lambda r: http_cache.shared(HttpResponse("same for all"), ("cards",))
    )(request)
    assert "public" in _directives(response)
    assert response[http_cache.TAG_HEADER] == "site cards"


def test_an_undeclared_page_is_not_offered_to_a_shared_cache(rf):
    from django.http import HttpResponse

    response = http_cache.SharedCacheMiddleware(lambda r: HttpResponse("?"))(rf.get("/en/x/"))
    assert _directives(response) == {"private": ""}


def test_what_a_view_calls_public_without_tags_is_not_kept_by_a_shared_cache(rf):
    """Nothing would purge it after a write (an API answer of no cached_page, a picture)."""
    from django.http import HttpResponse

    def view(request):
        response = HttpResponse("{}")
        response["Cache-Control"] = "public, max-age=60"
        return response

    response = http_cache.SharedCacheMiddleware(view)(rf.get("/api/somewhere"))
    assert _directives(response) == {"public": "", "max-age": "60", "s-maxage": "0"}


def test_last_modified_is_the_latest_content_change(client, wiki_page):
    response = client.get("/en/wiki/shared-rules/")
    changed = versions.changed("wiki")
    assert changed is not None
    started = http_cache._STARTED
    assert response["Last-Modified"] == http_date(max(changed, started).timestamp())


# ---------------------------------------------------------------------------
# Purge


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: list[tuple[str, str]]

    def do_BAN(self) -> None:  # http.server calls do_<METHOD>
        self.server.seen.append((self.command, self.headers.get("xkey-purge", "")))  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def recorder() -> Iterator[http.server.HTTPServer]:
    server = http.server.HTTPServer(("127.0.0.1", 0), _Recorder)
    server.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def test_a_wiki_edit_sends_a_ban_for_its_tag_after_commit(
    recorder, settings, monkeypatch, django_capture_on_commit_callbacks
):
    later: list[threading.Timer] = []
    monkeypatch.setattr(http_cache.threading.Timer, "start", lambda timer: later.append(timer))
    settings.HTTP_CACHE_PURGE_URLS = [f"http://127.0.0.1:{recorder.server_port}/"]
    with django_capture_on_commit_callbacks(execute=True):
        make_page("purged-page")
        assert recorder.seen == []  # nothing until the write is committed
    assert recorder.seen == [("BAN", "wiki")]
    # Once more after the versions' read time, for a process that read the old one.
    (timer,) = later
    assert timer.interval > versions.READ_SECONDS
    timer.function(*timer.args)
    assert recorder.seen == [("BAN", "wiki"), ("BAN", "wiki")]


def test_purge_sends_each_tag_to_every_cache(recorder, settings):
    url = f"http://127.0.0.1:{recorder.server_port}/"
    settings.HTTP_CACHE_PURGE_URLS = [url, url]
    assert http_cache.purge("wiki", "cards", "wiki", "bad tag!") == 2
    assert recorder.seen == [("BAN", "wiki cards"), ("BAN", "wiki cards")]


def test_no_purge_address_sends_nothing(recorder, settings):
    settings.HTTP_CACHE_PURGE_URLS = []
    assert http_cache.purge("wiki") == 0
    assert recorder.seen == []


def test_a_cache_that_is_down_is_logged_and_the_write_goes_on(
    settings, caplog, monkeypatch, django_capture_on_commit_callbacks
):
    import socket

    from wiki.models import Page

    monkeypatch.setattr(http_cache.threading.Timer, "start", lambda timer: None)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens there once closed
    settings.HTTP_CACHE_PURGE_URLS = [f"http://127.0.0.1:{port}/"]
    settings.HTTP_CACHE_PURGE_TIMEOUT = 0.5
    with (
        caplog.at_level(logging.WARNING, logger="core.http_cache"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        make_page("still-saved")
    assert Page.objects.filter(slug="still-saved").exists()
    assert "could not be purged" in caplog.text and "wiki" in caplog.text


def test_the_purge_command_bans_every_shared_page_by_default(recorder, settings):
    from io import StringIO

    from django.core.management import CommandError, call_command

    settings.HTTP_CACHE_PURGE_URLS = [f"http://127.0.0.1:{recorder.server_port}/"]
    out = StringIO()
    call_command("purge_http_cache", stdout=out)
    call_command("purge_http_cache", "wiki", "cards", stdout=out)
    assert recorder.seen == [("BAN", "site"), ("BAN", "wiki cards")]
    assert "in 1 of 1 HTTP caches" in out.getvalue()
    with pytest.raises(CommandError):
        call_command("purge_http_cache", "not a tag", stdout=out)


def test_a_page_cache_hit_reuses_the_validator_it_stored(client, wiki_page, monkeypatch):
    first = client.get("/en/wiki/shared-rules/")
    hashed = []
    real = http_cache.etag_of
    monkeypatch.setattr(http_cache, "etag_of", lambda content: hashed.append(1) or real(content))
    again = client.get("/en/wiki/shared-rules/")
    assert again["ETag"] == first["ETag"] == real(again.content)
    assert hashed == []  # served from the page cache: its body is not hashed again
