"""A strict Content Security Policy on every page: no inline or eval'd script, nothing
third-party, and pages that do not rely on what the policy forbids."""

import re

import pytest
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from tests.security.sitedata import crawl, url_patterns

pytestmark = pytest.mark.django_db

LANGS = ["en", "ru"]
# Sources that make a script policy worthless.
WEAK_SCRIPT_SOURCES = {
    "'unsafe-inline'",
    "'unsafe-eval'",
    "'unsafe-hashes'",
    "*",
    "data:",
    "http:",
    "https:",
}
INLINE_SCRIPT = re.compile(
    r"<script\b(?![^>]*\bsrc=)(?![^>]*type=[\"']application/(?:ld\+)?json)[^>]*>", re.I
)
INLINE_HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)
JS_URL = re.compile(r"""(?:href|src|action)\s*=\s*["']\s*javascript:""", re.I)
INLINE_STYLE = re.compile(r"<[a-z][^>]*\sstyle\s*=|<style\b", re.I)


def policy_of(response) -> dict[str, list[str]]:
    header = response.get("Content-Security-Policy", "")
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0].lower()] = words[1:]
    return directives


def csp_problems(response) -> list[str]:
    policy = policy_of(response)
    if not policy:
        return ["no Content-Security-Policy header"]
    problems = []
    scripts = policy.get("script-src", policy.get("default-src"))
    if scripts is None:
        problems.append("neither script-src nor default-src")
    else:
        weak = WEAK_SCRIPT_SOURCES & set(scripts)
        if weak:
            problems.append(f"script-src allows {sorted(weak)}")
    styles = policy.get("style-src", policy.get("default-src")) or []
    if "'unsafe-inline'" in styles:
        problems.append("style-src allows 'unsafe-inline'")
    if policy.get("object-src") != ["'none'"]:
        problems.append(f"object-src is {policy.get('object-src')}, not 'none'")
    for directive in ("default-src", "base-uri", "frame-ancestors", "form-action"):
        if directive not in policy:
            problems.append(f"no {directive}")
    if "report-only" in " ".join(policy):
        problems.append("report-only")
    return problems


def markup_problems(html: str) -> list[str]:
    """What a strict policy would block, so the page would silently break."""
    problems = []
    for regex, what in (
        (INLINE_SCRIPT, "inline <script>"),
        (INLINE_HANDLER, "inline on* event handler"),
        (JS_URL, "javascript: URL"),
        (INLINE_STYLE, "inline style"),
    ):
        found = regex.search(html)
        if found:
            problems.append(f"{what}: {found.group(0)[:120]!r}")
    return problems


def start_urls(lang: str) -> list[str]:
    urls = [f"/{lang}/"]
    with translation.override(lang):
        for pattern in url_patterns():
            if not pattern.converters:
                try:
                    urls.append(reverse(pattern.name))
                except NoReverseMatch:
                    continue
    return urls


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_has_a_strict_csp_and_no_inline_code(client, site, lang):
    result = crawl(client, start_urls(lang))
    assert len(result.responses) > 1
    failures = {path: [f"server error: {error}"] for path, error in result.errors.items()}
    for path, response in result.responses.items():
        problems = csp_problems(response)
        if response in result.html_pages().values():
            problems += markup_problems(response.content.decode("utf-8", errors="replace"))
        if problems:
            failures[path] = problems
    assert not failures, failures


@pytest.mark.parametrize("lang", LANGS)
def test_htmx_fragments_have_the_same_policy(client, site, lang):
    pages = crawl(client, start_urls(lang)).html_pages()
    failures = {}
    for path in pages:
        try:
            response = client.get(path, headers={"HX-Request": "true"})
        except Exception as exc:
            failures[path] = [f"server error: {type(exc).__name__}: {exc}"]
            continue
        problems = csp_problems(response)
        if response.status_code == 200:
            problems += markup_problems(response.content.decode("utf-8", errors="replace"))
        if problems:
            failures[path] = problems
    assert not failures, failures


@pytest.mark.parametrize(
    ("path", "status"),
    [("/en/no-such-page/", 404), ("/ru/no-such-page/", 404), ("/healthz", 200)],
)
def test_error_and_plain_responses_carry_the_policy(client, path, status):
    response = client.get(path)
    assert response.status_code == status
    assert csp_problems(response) == []


def test_csrf_failure_page_carries_the_policy():
    from django.test import Client

    response = Client(enforce_csrf_checks=True).post("/en/")
    assert response.status_code == 403
    assert csp_problems(response) == []
    assert markup_problems(response.content.decode()) == []


def test_admin_pages_carry_the_policy(admin_client):
    response = admin_client.get("/en/admin/")
    assert response.status_code == 200
    assert csp_problems(response) == []
