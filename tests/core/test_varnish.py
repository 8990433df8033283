"""The shared HTTP cache through a real Varnish: Debian's varnishd with the shipped VCL
(docs/varnish/default.vcl) on a loopback port in front of the live test server.

Skipped, saying why, when varnishd is not installed (`scripts/ensure-test-tools.sh`
installs it as root, as it does redis-server).
"""

from __future__ import annotations

import http.client
import re
from collections.abc import Iterator
from http.cookies import SimpleCookie

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command

from bench import varnish as varnish_kit
from core import http_cache
from tests.wiki.conftest import make_page
from wiki import services as wiki_services

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(varnish_kit.binary() is None, reason=varnish_kit.MISSING),
]


@pytest.fixture(scope="module")
def varnish(live_server, tmp_path_factory) -> Iterator[varnish_kit.Varnish]:
    port = int(live_server.url.rsplit(":", 1)[1])
    with varnish_kit.varnishd(port, tmp_path_factory.mktemp("varnish")) as server:
        yield server


@pytest.fixture(autouse=True)
def _purge_to_varnish(varnish, settings, monkeypatch):
    """Writes purge this Varnish at once (the second, delayed ban is not needed here: the
    live server is this process and reads the new version at once)."""
    settings.HTTP_CACHE_PURGE_URLS = [f"{varnish.base}/"]
    monkeypatch.setattr(http_cache.threading.Timer, "start", lambda timer: None)


class Visitor:
    """One visitor of the site through Varnish, with its own cookies."""

    def __init__(self, varnish: varnish_kit.Varnish, **cookies: str) -> None:
        self.port = varnish.port
        self.cookies = dict(cookies)

    def get(self, path: str, **headers: str) -> tuple[http.client.HTTPResponse, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            body = response.read().decode()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or ():
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response, body


def _csrf(body: str) -> set[str]:
    return set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', body))


def test_repeat_views_are_hits(varnish):
    make_page("cached-rules", body_en="Rules a crawler reads again and again.")
    visitor = Visitor(varnish)
    for path in ("/en/wiki/cached-rules/", "/en/wiki/", "/ru/wiki/cached-rules/"):
        first, body = visitor.get(path)
        assert first.status == 200 and first.headers["X-Cache"] == "MISS", path
        again, again_body = visitor.get(path)
        assert again.headers["X-Cache"] == "HIT", path
        assert again_body == body
        assert int(again.headers["Age"]) >= 0
        assert "public" in again.headers["Cache-Control"]
        assert "xkey" not in again.headers  # the tags are Varnish's business
    # Another visitor, with cookies of its own, gets the same shared page from the cache.
    other, _ = Visitor(varnish, sessionid="someone-else", csrftoken="x" * 32).get(
        "/en/wiki/cached-rules/"
    )
    assert other.headers["X-Cache"] == "HIT"
    # A browser revalidating gets a 304 from Varnish itself.
    tag = again.headers["ETag"]
    unchanged, _ = visitor.get("/ru/wiki/cached-rules/", **{"If-None-Match": tag})
    assert unchanged.status == 304 and unchanged.headers["X-Cache"] == "HIT"


def test_the_admin_and_a_waiting_message_are_never_served_from_the_cache(varnish):
    make_page("message-rules")
    Visitor(varnish).get("/en/wiki/message-rules/")
    hit, _ = Visitor(varnish).get("/en/wiki/message-rules/")
    assert hit.headers["X-Cache"] == "HIT"
    waiting, _ = Visitor(varnish, messages="a-message-for-me").get("/en/wiki/message-rules/")
    assert waiting.headers["X-Cache"] == "PASS"
    for _ in range(2):
        admin, _ = Visitor(varnish).get("/admin/login/")
        assert admin.headers["X-Cache"] == "PASS"


def test_an_htmx_fragment_and_the_whole_page_are_kept_apart(varnish):
    make_page("fragment-rules", body_en="Searchable rules about paws.")
    visitor = Visitor(varnish)
    visitor.get("/en/wiki/search/?q=paws")
    whole, whole_body = visitor.get("/en/wiki/search/?q=paws")
    part, part_body = visitor.get("/en/wiki/search/?q=paws", **{"HX-Request": "true"})
    assert whole.headers["X-Cache"] == "HIT" and part.headers["X-Cache"] == "MISS"
    assert "<html" in whole_body and "<html" not in part_body
    restore, restore_body = visitor.get(
        "/en/wiki/search/?q=paws",
        **{"HX-Request": "true", "HX-History-Restore-Request": "true"},
    )
    assert restore.headers["X-Cache"] == "MISS" and "<html" in restore_body


def test_after_a_wiki_edit_no_stale_page_is_served(varnish):
    page = make_page("edited-rules", body_en="The first wording.")
    visitor = Visitor(varnish)
    visitor.get("/en/wiki/edited-rules/")
    hit, body = visitor.get("/en/wiki/edited-rules/")
    assert hit.headers["X-Cache"] == "HIT" and "The first wording." in body
    visitor.get("/en/wiki/")
    index_hit, _ = visitor.get("/en/wiki/")
    assert index_hit.headers["X-Cache"] == "HIT"
    page.body_en = "The second wording."
    wiki_services.save_page(page)  # bumps "wiki": its BAN reaches Varnish on commit
    fresh, body = visitor.get("/en/wiki/edited-rules/")
    assert fresh.headers["X-Cache"] == "MISS"
    assert "The second wording." in body and "The first wording." not in body
    index, _ = visitor.get("/en/wiki/")  # every page tagged "wiki" went with it
    assert index.headers["X-Cache"] == "MISS"


def test_after_an_edit_in_the_admin_no_stale_page_is_served(varnish, admin_client):
    from tests.wiki.test_admin import change_url, form_data

    page = make_page("admin-rules", body_en="Before the editor came.")
    visitor = Visitor(varnish)
    visitor.get("/ru/wiki/admin-rules/")
    hit, _ = visitor.get("/ru/wiki/admin-rules/")
    assert hit.headers["X-Cache"] == "HIT"
    response = admin_client.post(change_url(page), form_data(page, body_en="After the editor."))
    assert response.status_code == 302
    fresh, body = visitor.get("/ru/wiki/admin-rules/")  # (the Russian page shows English)
    assert fresh.headers["X-Cache"] == "MISS" and "After the editor." in body


def test_after_a_collection_change_no_stale_page_is_served(varnish, live_server):
    call_command("generate_collection", seed=2026, size=40, replace=True, verbosity=0)
    visitor = Visitor(varnish)
    visitor.get("/en/cards/")
    hit, before = visitor.get("/en/cards/")
    assert hit.headers["X-Cache"] == "HIT"
    call_command("generate_collection", seed=2027, size=50, replace=True, verbosity=0)
    fresh, after = visitor.get("/en/cards/")
    assert fresh.headers["X-Cache"] == "MISS" and after != before
    # What Varnish serves now is what the server itself answers.
    port = int(live_server.url.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/en/cards/", headers={"Host": f"127.0.0.1:{varnish.port}"})
    direct = connection.getresponse().read().decode()
    connection.close()
    assert after == direct


def _session_with_binder() -> tuple[str, list[int]]:
    """A visitor's session that opened a pack: its binder holds the pack's cards."""
    from packs.demo import load_demo_pools
    from packs.models import Pool
    from packs.services import open_pack

    call_command("generate_collection", seed=2026, size=40, replace=True, verbosity=0)
    load_demo_pools()
    session = SessionStore()
    session["visitor"] = True
    session.create()
    opened = open_pack(Pool.objects.order_by("slug").first(), session.session_key, "form")
    return session.session_key, sorted(set(opened.opening.picks))


def test_no_visitor_gets_another_visitors_binder_or_csrf_token(varnish):
    key, tokens = _session_with_binder()
    owner = Visitor(varnish, sessionid=key)
    stranger = Visitor(varnish)
    # What only the owner's page says, for each page that shows the session's binder.
    marks = {
        "/en/packs/binder/": "different card",
        "/en/play/?source=binder": "Showing the",
        "/en/play/": "Play with my binder",
    }
    for path, mark in marks.items():
        mine, mine_body = owner.get(path)
        theirs, theirs_body = stranger.get(path)
        again, again_body = owner.get(path)
        for response in (mine, theirs, again):
            assert response.headers["X-Cache"] != "HIT", path
            assert "private" in response.headers["Cache-Control"], path
        assert mark in mine_body and mark in again_body, path
        assert mark not in theirs_body, path
    _, mine = owner.get("/en/packs/binder/")
    _, theirs = stranger.get("/en/packs/binder/")
    for token in tokens:
        assert f"/en/cards/{token}/" in mine and f"/en/cards/{token}/" not in theirs
    # Each visitor's forms carry its own CSRF token, never one of another visitor.
    _, first = owner.get("/en/play/")
    _, second = stranger.get("/en/play/")
    assert _csrf(first) and _csrf(second) and not _csrf(first) & _csrf(second)


def test_no_visitor_gets_another_visitors_match(varnish):
    from play.services import start_match

    key, _ = _session_with_binder()
    match = start_match(key, [2, 9], seed=77).match
    path = f"/en/play/m/{match.public_id}/"
    owner = Visitor(varnish, sessionid=key)
    stranger = Visitor(varnish, sessionid="x" * 32)
    for _ in range(2):
        mine, _ = owner.get(path)
        assert mine.status == 200 and mine.headers["X-Cache"] != "HIT"
        assert "private" in mine.headers["Cache-Control"]
        theirs, _ = stranger.get(path)
        assert theirs.status == 404 and theirs.headers["X-Cache"] != "HIT"
        nobody, _ = Visitor(varnish).get(path)
        assert nobody.status == 404


def test_the_api_answers_each_language_apart(varnish):
    """The API's language comes from Accept-Language (not the path): it varies on it."""
    call_command("generate_collection", seed=2026, size=40, replace=True, verbosity=0)
    visitor = Visitor(varnish)
    for _ in range(2):
        english, english_body = visitor.get("/api/cards/2", **{"Accept-Language": "en"})
        russian, russian_body = visitor.get("/api/cards/2", **{"Accept-Language": "ru"})
        assert (
            "/en/cards/2/" in english_body
            and "/ru/cards/2/" in russian_body
            and "/ru/cards/2/" not in english_body
        )
    assert english.headers["X-Cache"] == "HIT" and russian.headers["X-Cache"] == "HIT"


def test_a_ban_names_tags_and_nothing_else(varnish):
    connection = http.client.HTTPConnection("127.0.0.1", varnish.port, timeout=10)
    for tags, status in (("wiki cards", 200), ('wiki") || obj.status ~ ("', 400), ("", 400)):
        connection.request("BAN", "/", headers={"xkey-purge": tags})
        answer = connection.getresponse()
        answer.read()
        assert answer.status == status, tags
    connection.close()


def test_the_pool_page_is_shared_and_its_open_form_never_is(varnish):
    """Issue 32: the booster pool page holds nothing of the visitor, so Varnish serves it
    to everyone; the open form (each visitor's CSRF token) is a fragment never kept."""
    from packs.demo import load_demo_pools

    call_command("generate_collection", seed=2026, size=40, replace=True, verbosity=0)
    load_demo_pools()
    path = "/en/packs/night-sky/"
    first, body = Visitor(varnish).get(path)
    assert first.status == 200 and "csrfmiddlewaretoken" not in body
    other, other_body = Visitor(varnish, sessionid="someone", csrftoken="y" * 32).get(path)
    assert other.headers["X-Cache"] == "HIT" and other_body == body
    assert "public" in other.headers["Cache-Control"]
    owner, stranger = Visitor(varnish), Visitor(varnish)
    tokens = []
    for visitor in (owner, stranger, owner):
        form, form_body = visitor.get("/en/packs/night-sky/open/", **{"HX-Request": "true"})
        assert form.headers["X-Cache"] != "HIT" and "private" in form.headers["Cache-Control"]
        tokens.append(_csrf(form_body))
    assert all(tokens) and not tokens[0] & tokens[1]
