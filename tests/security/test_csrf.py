"""CSRF is enforced on every POST, htmx requests included.

Three checks: no view in the URLconf is exempt; a POST without a token to any page of the
site (from a crawl) is refused with 403; and every POST endpoint the pages offer (forms and
hx-post elements) accepts the same request once it carries the token, the way the page
sends it (a form field, which htmx sends too, or htmx's X-CSRFToken header from the
element's hx-headers). Pages without a POST form carry no token and set no CSRF cookie.
"""

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from bench.htmlforms import parse_page
from tests.security.sitedata import Form, crawl
from tests.security.test_csp import start_urls

pytestmark = pytest.mark.django_db


def views():
    def walk(patterns):
        for entry in patterns:
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns)
            elif isinstance(entry, URLPattern):
                yield entry

    return list(walk(get_resolver().url_patterns))


def test_no_view_is_exempt_from_csrf():
    exempt = [
        f"{p.pattern} → {p.lookup_str}"
        for p in views()
        if getattr(p.callback, "csrf_exempt", False)
    ]
    assert not exempt, exempt


def csrf_client() -> Client:
    return Client(enforce_csrf_checks=True)


@pytest.fixture(scope="module")
def crawled(module_site, django_db_blocker):
    """The crawl, once for the module (the site does not change between its tests)."""
    from django.test import Client

    with django_db_blocker.unblock():
        return crawl(Client(), start_urls("en") + start_urls("ru"))


@pytest.fixture
def pages_and_forms(crawled, site):
    result = crawled
    # The admin login is a POST endpoint on every site.
    admin_login = Form(
        "/en/admin/login/", "/en/admin/login/", [("username", "x"), ("password", "y")]
    )
    forms = [*result.forms, admin_login]
    return list(result.responses), forms


def test_a_post_without_a_token_is_refused_everywhere(pages_and_forms):
    paths, forms = pages_and_forms
    targets = sorted(set(paths) | {f.action.replace("http://testserver", "") for f in forms})
    c = csrf_client()
    accepted = {}
    for path in targets:
        for headers in ({}, {"HX-Request": "true"}):
            response = c.post(path, {"anything": "1"}, headers=headers)
            if response.status_code != 403:
                accepted[f"{path} {headers}"] = response.status_code
    assert not accepted, accepted


def test_a_forged_token_is_refused(pages_and_forms):
    _, forms = pages_and_forms
    c = csrf_client()
    c.get("/en/")
    for form in forms:
        response = c.post(
            form.action,
            dict(form.data()),
            headers={"HX-Request": "true", "X-CSRFToken": "x" * 64},
        )
        assert response.status_code == 403, form.action
        data = [*form.data(), ("csrfmiddlewaretoken", "y" * 64)]
        response = c.post(form.action, _encode(data), content_type=FORM)
        assert response.status_code == 403, form.action


FORM = "application/x-www-form-urlencoded"


def _encode(fields) -> str:
    from urllib.parse import urlencode

    return urlencode(fields)


def test_every_post_endpoint_accepts_the_token_its_page_provides(pages_and_forms):
    _, forms = pages_and_forms
    refused = {}
    for form in forms:
        c = csrf_client()
        page = c.get(form.page)
        assert page.status_code == 200, form.page
        html = page.content.decode()
        if form.htmx:
            # What htmx sends from this visitor's page: the form's fields and the
            # element's hx-headers.
            (sent,) = [f for f in parse_page(form.page, html)[1] if f.action == form.action][:1]
            fields = dict(sent.data())
            assert "csrfmiddlewaretoken" in fields or "X-CSRFToken" in sent.headers, (
                f"{form.page} → {form.action}: an hx-post without a token field or header"
            )
            response = c.post(
                form.action,
                _encode(sent.data()),
                content_type=FORM,
                headers={"HX-Request": "true", **sent.headers},
            )
        else:
            found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
            assert found, f"{form.page}: a POST form without {{% csrf_token %}}"
            data = [(k, v) for k, v in form.data() if k != "csrfmiddlewaretoken"]
            data.append(("csrfmiddlewaretoken", found.group(1)))
            response = c.post(form.action, _encode(data), content_type=FORM)
        if response.status_code == 403:
            refused[f"{form.page} → {form.action}"] = response.content.decode()[:200]
    assert not refused, refused


def test_a_page_without_a_post_form_carries_no_token_and_sets_no_cookie(client):
    """A reader of the wiki or the card list gets no CSRF cookie (and the page no token to
    make); a page with a form gets both."""
    for path in ("/en/", "/en/cards/", "/ru/wiki/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert "csrfmiddlewaretoken" not in response.content.decode(), path
        assert "X-CSRFToken" not in response.content.decode(), path
        assert "csrftoken" not in response.cookies, path
    response = client.get("/en/play/")
    assert 'name="csrfmiddlewaretoken"' in response.content.decode()
    assert "csrftoken" in response.cookies
