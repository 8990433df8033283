"""Hypothesis-generated requests against every public URL pattern: never a 5xx.

For each named pattern of the URLconf (the admin excepted), requests are built from random
values for its path converters (shaped by the converter's regex, plus real values found by
crawling the site), random query strings (the site's own parameter names and random ones,
with hostile values), random form bodies for POST, both languages, with and without
HX-Request. Every response must be below 500 and carry the Content-Security-Policy header.

Bounded and deterministic: derandomized Hypothesis, a fixed number of examples spread over
the patterns, no example database. A failure names the exact request to reproduce it.
"""

from __future__ import annotations

import os
import random
import sys
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.urls import NoReverseMatch, resolve, reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.htmlforms import Form, parse_page
from tests.security.sitedata import (
    Pattern,
    crawl,
    populated_for_module,
    url_patterns,
)
from tests.security.test_csp import start_urls

pytestmark = pytest.mark.django_db

# FUZZ_PROFILE=prod: the production-settings pass (tests/fuzz/test_prod_fuzz.py runs this
# file again under config.settings.prod): fewer examples, every request over HTTPS.
PROD = os.environ.get("FUZZ_PROFILE") == "prod"
TOTAL_EXAMPLES = 250 if PROD else 700  # spread over all patterns; keeps the file under a minute
MIN_EXAMPLES = 5 if PROD else 10
HOSTILE = [
    "",
    " ",
    "0",
    "-1",
    "1e309",
    "NaN",
    "99999999999999999999999",
    "9223372036854775808",
    "-9223372036854775809",
    "\x00",
    "a\x00b",
    "%",
    "%%%",
    "' OR 1=1 --",
    '"',
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "r:",
    ":",
    "r:legendary s:arcane rank<=80 head:crown supply<=3 burned>=1",
    'head:"unterminated',
    "rank<=abc",
    "редкость",
    "ＲＡＲＩＴＹ",
    "\ud7ff",
    "x" * 600,
    # What found issue 12's faults: integers past 2^63 and past Python's 4,300 digits,
    # names one character longer than their column (100) and exactly as long.
    "9223372036854775807",
    "18446744073709551616",
    "1" + "0" * 5000,
    "-" + "9" * 5000,
    "#" + "9" * 4400,
    "N" * 100,
    "N" * 101,
    "r:legendary " + "x " * 300,
]
# Sent as they are, never percent-encoded again: the UTF-8 form of a lone surrogate
# (U+D800, which no valid UTF-8 holds), a truncated sequence, an overlong NUL.
RAW_HOSTILE = ["%ED%A0%80", "%ED%BF%BF", "a%ED%A0%80b", "%E2%82", "%C0%80", "%FF%FE"]


def unicode_digits() -> list[str]:
    """Characters that look like digits to ``str.isdigit`` (or ``int``) but are not 0–9.

    One digit of every block of decimal digits (Unicode category Nd: Arabic-Indic ٣,
    Devanagari ३, fullwidth ３, mathematical 𝟛 …) — ``int`` reads them — plus the
    superscripts and circled digits that ``isdigit`` accepts and ``int`` refuses. A view
    that checks ``isdigit()`` then calls ``int()`` answers 500 on the latter.
    """
    zeros = [
        code
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) == "Nd" and unicodedata.decimal(chr(code)) == 0
    ]
    blocks = [chr(zero + 3) for zero in zeros if zero != ord("0")]
    return [*blocks, *DIGIT_LOOKALIKES]


DIGIT_LOOKALIKES = ["²", "³", "¹", "①", "1²", "#²", "²³"]
UNICODE_DIGITS = unicode_digits()
DIGIT_BLOCKS = [d for d in UNICODE_DIGITS if d not in DIGIT_LOOKALIKES]
HOSTILE = [*HOSTILE, *UNICODE_DIGITS]
# How the hostile values reach a page (hostile_queries): each value in every parameter of
# the page at once (each field of a form is read whatever the others hold), and each
# parameter alone with a rotating share of the values, so every parameter also meets
# values of each kind by itself. Of the ~70 blocks of decimal digits (one form field
# reads them all alike) each page gets a rotating share; the run as a whole sends every
# block and every value (asserted).
BLOCKS_PER_PAGE = 6
ALONE_PER_PARAMETER = 10
# Sent to every parameter alone as well, whatever the rotation: numbers past every integer
# type, which a valid rest of the page carries down to the database (the card list's page
# number overflowed SQLite's OFFSET, and only a request made by hand found it).
ALWAYS_ALONE = ("99999999999999999999999", "-9223372036854775809")


def values_for(index: int, values: list[str]) -> list[str]:
    """The hostile values the ``index``-th page is sent: all but the digit blocks, and
    ``BLOCKS_PER_PAGE`` of those.

    >>> share = values_for(1, ["x", *DIGIT_BLOCKS])
    >>> share[0], len(share) == 1 + BLOCKS_PER_PAGE
    ('x', True)
    """
    n = len(DIGIT_BLOCKS)
    start = index * BLOCKS_PER_PAGE
    share = {DIGIT_BLOCKS[(start + j) % n] for j in range(BLOCKS_PER_PAGE)}
    blocks = set(DIGIT_BLOCKS)
    return [v for v in values if v not in blocks or v in share]


def hostile_queries(params: list[str], values: list[str]) -> list[tuple[str, str]]:
    """(value, query string) for one page: every value in all ``params`` together, then
    each parameter alone with ``ALONE_PER_PARAMETER`` of the values, in rotation, and with
    those of ``ALWAYS_ALONE``.

    >>> [q for _, q in hostile_queries(["a", "b"], ["1", "2"])]
    ['a=1&b=1', 'a=2&b=2', 'a=1', 'a=2', 'b=1', 'b=2']
    >>> [q for _, q in hostile_queries(["a"], ["1", "2"])]
    ['a=1', 'a=2']
    >>> many = [*map(str, range(30)), ALWAYS_ALONE[0]]  # more than a parameter's share
    >>> alone = [q for _, q in hostile_queries(["a", "b"], many)][len(many) :]
    >>> len(alone), alone[9:11], alone[-1]
    (22, ['a=9', 'a=99999999999999999999999'], 'b=99999999999999999999999')
    """
    queries = [(v, urlencode([(p, v) for p in params])) for v in values]
    if len(params) > 1:
        share = min(ALONE_PER_PARAMETER, len(values))
        for i, param in enumerate(params):
            alone = [values[(i * share + j) % len(values)] for j in range(share)]
            alone += [v for v in ALWAYS_ALONE if v in values and v not in alone]
            queries.extend((value, urlencode({param: value})) for value in alone)
    return queries


HEADER_SETS = [
    {},
    {"HX-Request": "true"},
    {"HX-Request": "true", "HX-Target": "main", "HX-Trigger": "x"},
    {"HX-Request": "true", "HX-History-Restore-Request": "true"},
    {"Accept": "application/json"},
]


@dataclass(frozen=True)
class Probe:
    """What the crawl taught: real kwargs per pattern, and the site's parameter names."""

    kwargs: dict[str, list[dict[str, str]]]
    params: list[str]
    # pattern → (a real URL of it, the query parameters its links and GET forms use)
    pages: dict[str, tuple[str, list[str]]]
    forms: list[Form]  # POST forms and hx-post elements found on the pages


def learn(client) -> Probe:
    result = crawl(client, start_urls("en") + start_urls("ru"), per_pattern=6)
    kwargs: dict[str, list[dict[str, str]]] = {}
    params = {"q", "page", "sort", "order", "lang", "next"}
    pages: dict[str, tuple[str, set[str]]] = {}

    def note(path: str, names) -> None:
        parts = urlsplit(path)
        try:
            match = resolve(parts.path)
        except Exception:
            return
        names = set(names)
        params.update(names)
        _, known = pages.setdefault(match.view_name, (parts.path, set()))
        known.update(names)
        if match.kwargs:
            kwargs.setdefault(match.view_name, []).append(
                {k: str(v) for k, v in match.kwargs.items()}
            )

    for path in [*result.responses, *result.errors]:
        note(path, (k for k, _ in parse_qsl(urlsplit(path).query, keep_blank_values=True)))
    for form in result.get_forms:
        note(local(form.action), (k for k, _ in form.fields))
    for form in result.forms:
        params.update(name for name, _ in form.fields)
    params.discard("csrfmiddlewaretoken")
    return Probe(
        kwargs,
        sorted(params),
        {name: (url, sorted(known)) for name, (url, known) in pages.items()},
        result.forms,
    )


def converter_values(converter) -> st.SearchStrategy[str]:
    name = type(converter).__name__
    shaped = st.from_regex(f"(?:{converter.regex})", fullmatch=True)
    extra: list[st.SearchStrategy[str]] = []
    if name == "IntConverter":
        extra.append(st.integers(min_value=0, max_value=2**80).map(str))
        extra.append(st.sampled_from(["0", "1", "9223372036854775807", "9223372036854775808"]))
    return st.one_of(shaped, *extra)


def path_kwargs(pattern: Pattern, probe: Probe) -> st.SearchStrategy[dict[str, str]]:
    if not pattern.converters:
        return st.just({})
    random_kwargs = st.fixed_dictionaries(
        {name: converter_values(conv) for name, conv in pattern.converters}
    )
    real = probe.kwargs.get(pattern.name)
    return st.one_of(st.sampled_from(real), random_kwargs) if real else random_kwargs


def query_strings(probe: Probe) -> st.SearchStrategy[str]:
    key = st.one_of(st.sampled_from(probe.params), st.text(max_size=8))
    value = st.one_of(
        st.sampled_from(HOSTILE),
        st.text(max_size=40),
        st.integers(min_value=-(2**70), max_value=2**70).map(str),
    )
    return st.lists(st.tuples(key, value), max_size=4).map(urlencode)


def build_path(pattern: Pattern, lang: str, kwargs: dict[str, str]) -> str | None:
    with translation.override(lang):
        try:
            return reverse(pattern.name, kwargs=kwargs)
        except NoReverseMatch:
            return None


def check(response, request: str) -> None:
    assert response.status_code < 500, f"{response.status_code} for {request}"
    if not 300 <= response.status_code < 400:  # a redirect has no content to protect
        assert response.has_header("Content-Security-Policy"), f"no CSP header for {request}"


def send(client, method: str, url: str, body: str, headers: dict[str, str]):
    if method in ("GET", "HEAD"):
        request = f"{method} {url!r} headers={headers}"
    else:
        request = f"POST {url!r} body={body[:300]!r} headers={headers}"
    try:
        if method == "GET":
            response = client.get(url, headers=headers)
        elif method == "HEAD":
            response = client.head(url, headers=headers)
        else:
            response = client.post(
                url, body, content_type="application/x-www-form-urlencoded", headers=headers
            )
    except Exception as exc:
        raise AssertionError(f"{type(exc).__name__}: {exc} for {request}") from exc
    check(response, request)
    return response


def fuzzer(client, probe: Probe, pattern: Pattern, method: str, examples: int):
    """A Hypothesis test for one pattern; calling it runs the examples."""

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        lang=st.sampled_from(["en", "ru"]),
        kwargs=path_kwargs(pattern, probe),
        query=query_strings(probe),
        headers=st.sampled_from(HEADER_SETS),
        body=query_strings(probe),
    )
    def run(lang, kwargs, query, headers, body):
        path = build_path(pattern, lang, kwargs)
        if path is not None:
            send(client, method, f"{path}?{query}" if query else path, body, headers)

    return run


def fuzz_patterns(client, probe: Probe, method: str) -> dict[str, str]:
    """Fuzz each pattern; return {pattern: failure} for every one that failed."""
    patterns = url_patterns()
    examples = max(MIN_EXAMPLES, TOTAL_EXAMPLES // max(1, len(patterns)) // 2)
    failures: dict[str, str] = {}
    for pattern in patterns:
        try:
            fuzzer(client, probe, pattern, method, examples)()
        except AssertionError as exc:
            failures[pattern.name] = str(exc).splitlines()[0]
    return failures


def _client():
    """The test client; over HTTPS in the production pass (prod redirects plain HTTP)."""
    from django.test import Client

    return Client(**({"wsgi.url_scheme": "https"} if PROD else {}))


@pytest.fixture
def client(db):
    return _client()


@pytest.fixture(scope="module")
def learned(django_db_setup, django_db_blocker) -> Iterator[Probe]:
    """The small site loaded and crawled once for the module (see populated_for_module)."""
    with populated_for_module(django_db_blocker):
        with django_db_blocker.unblock():
            found = learn(_client())
        yield found


@pytest.fixture
def probe(learned, db) -> Probe:
    return learned


def test_random_get_requests_never_fail(client, probe):
    failures = fuzz_patterns(client, probe, "GET")
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


def test_random_post_bodies_never_fail(client, probe):
    # The test client skips CSRF checks, so random bodies reach the views themselves.
    failures = fuzz_patterns(client, probe, "POST")
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


def test_random_head_requests_never_fail(client, probe):
    failures = fuzz_patterns(client, probe, "HEAD")
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


def head_failures(client, probe: Probe) -> dict[str, str]:
    """{page: failure} where HEAD is not answered as GET is."""
    failures = {}
    for name, (url, _params) in sorted(probe.pages.items()):
        try:
            got = send(client, "GET", url, "", {})
            head = send(client, "HEAD", url, "", {})
        except AssertionError as exc:
            failures[name] = str(exc).splitlines()[0]
            continue
        if head.status_code != got.status_code:
            failures[name] = f"HEAD {head.status_code}, GET {got.status_code} for {url}"
    return failures


def test_head_on_every_get_route_answers_as_get_does(client, probe):
    """HEAD wherever GET is allowed (issue 12 item 12): the same status, never 405."""
    assert len(probe.pages) > 5
    failures = head_failures(client, probe)
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    prefix=st.sampled_from(["", "en/", "ru/", "en/wiki/", "ru/cards/", "en/play/", "api/"]),
    junk=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30),
    headers=st.sampled_from(HEADER_SETS),
)
def test_random_paths_are_answered_without_a_server_error(prefix, junk, headers):
    from urllib.parse import quote

    from django.test import Client

    url = "/" + prefix + quote(junk, safe="/")
    response = Client(**({"wsgi.url_scheme": "https"} if PROD else {})).get(url, headers=headers)
    check(response, f"GET {url!r} headers={headers}")


@pytest.mark.parametrize("raw", RAW_HOSTILE)
@pytest.mark.parametrize(
    "prefix", ["/en/cards/", "/ru/wiki/", "/en/wiki/search/", "/en/play/", "/api/cards/"]
)
def test_broken_utf8_in_a_path_is_answered_without_a_server_error(client, db, prefix, raw):
    for method in ("GET", "HEAD"):
        send(client, method, f"{prefix}{raw}/", "", {})


# Parameters a page reads that its own links and forms may not show (on the small site a
# list may fit on one page: no link carries its ``page``).
EXTRA_PARAMS = {
    "api:card-search": ("q", "page", "page_size"),
    "api_arena:slabs": ("page",),
    "explorer:card-list": ("page",),
    "packs:binder": ("page",),
    "packs:pool-detail": ("page",),
    "play:index": ("page",),
    "wiki:diff": ("from", "to"),
    "wiki:history": ("page",),
    "play:replay": ("step",),
}


def hostile_failures(client, probe: Probe, values: list[str]):
    """{page: first failure} for each value in each parameter of each page."""
    failures: dict[str, str] = {}
    sent: set[str] = set()
    pages = [
        (name, url, sorted({*params, *EXTRA_PARAMS.get(name, ())}))
        for name, (url, params) in sorted(probe.pages.items())
    ]
    pages = [page for page in pages if page[2]]
    for index, (name, url, names) in enumerate(pages):
        for value, query in hostile_queries(names, values_for(index, values)):
            sent.add(value)
            # Unicode digits break the reading of a value, not the htmx branch: one pass.
            header_sets = ({},) if value in UNICODE_DIGITS else ({}, {"HX-Request": "true"})
            for headers in header_sets:
                try:
                    send(client, "GET", f"{url}?{query}", "", headers)
                except AssertionError as exc:
                    failures.setdefault(name, str(exc).splitlines()[0][:400])
    assert sent == set(values), "some hostile values were never sent"
    return failures


def test_hostile_values_in_every_parameter_each_page_uses(client, probe):
    """Every query parameter a page's links and GET forms use, given each hostile value
    (NUL bytes, huge numbers, unterminated quotes, Unicode digits …), all of the page's
    parameters at once and each alone (see hostile_queries), as a page and as htmx."""
    values = [v for v in HOSTILE if v not in UNICODE_DIGITS] if PROD else HOSTILE
    failures = hostile_failures(client, probe, values)
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


def raw_failures(client, probe: Probe) -> dict[str, str]:
    """{page: first failure} for broken UTF-8 (RAW_HOSTILE) in each parameter and name."""
    failures: dict[str, str] = {}
    for name, (url, params) in sorted(probe.pages.items()):
        for param in sorted({*params, *EXTRA_PARAMS.get(name, ())}):
            for raw in RAW_HOSTILE:
                for query in (f"{param}={raw}", f"{raw}={raw}&{param}=1"):
                    try:
                        send(client, "GET", f"{url}?{query}", "", {})
                    except AssertionError as exc:
                        failures.setdefault(name, str(exc).splitlines()[0])
    return failures


def test_broken_utf8_in_every_parameter_each_page_uses(client, probe):
    """%ED%A0%80 (a lone surrogate's bytes) and other broken UTF-8, percent-encoded in a
    parameter's value and in its name."""
    failures = raw_failures(client, probe)
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


def test_junk_parameters_on_every_page(client, probe):
    """Parameters no page reads (the page cache drops them: issue 12 item 3), many of them,
    hostile names, and more fields than Django parses (a 400)."""
    rng = random.Random(12)
    failures: dict[str, str] = {}
    for name, (url, params) in sorted(probe.pages.items()):
        junk = [(f"utm_{rng.randrange(10**6)}", "x"), ("__proto__", "1"), ("x" * 300, "y")]
        junk += [(f"j{n}", str(n)) for n in range(50)]
        queries = [urlencode(junk), urlencode([(p, "1") for p in params] + junk)]
        queries.append(urlencode([(f"f{n}", "1") for n in range(1001)]))  # TooManyFieldsSent
        for query in queries:
            try:
                send(client, "GET", f"{url}?{query}", "", {})
            except AssertionError as exc:
                failures.setdefault(name, str(exc).splitlines()[0])
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


MAX_FORMS = 12


def local(url: str) -> str:
    """A form's action without the test server's origin (http or https)."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def reachable_forms(client, forms: list[Form]) -> list[Form]:
    """The POST forms found by the crawl, plus those on the pages their valid submission
    leads to (a started match's move form, say): one step further, bounded."""
    seen: dict[tuple[str, tuple[str, ...]], Form] = {}
    queue = list(forms)
    while queue and len(seen) < MAX_FORMS:
        form = queue.pop(0)
        action = local(form.action)
        key = (urlsplit(action).path, tuple(sorted({k for k, _ in form.data()})))
        if key in seen:
            continue
        seen[key] = form
        headers = {"HX-Request": "true"} if form.htmx else {}
        response = client.post(action, urlencode(form.data()), content_type=FORM, headers=headers)
        if response.status_code in (301, 302, 303):
            location = response["Location"]
            page = client.get(location)
            if page.status_code == 200:
                _, more = parse_page(location, page.content.decode("utf-8", errors="replace"))
                queue.extend(more)
    return list(seen.values())


FORM = "application/x-www-form-urlencoded"


def form_failures(client, probe: Probe) -> dict[str, str]:
    """{form field: first failure} for each hostile value in each field (and submit
    button) of every POST form."""
    failures = {}
    for form in reachable_forms(client, probe.forms):
        action = local(form.action)
        headers = {"HX-Request": "true"} if form.htmx else {}
        names = {k for k, _ in form.data()} | {k for k, _ in form.buttons}
        names.discard("csrfmiddlewaretoken")
        for name in sorted(names):
            rest = [(k, v) for k, v in form.data() if k != name]
            bodies = [urlencode([*rest, (name, v)]) for v in HOSTILE]
            bodies += [f"{urlencode(rest)}&{name}={raw}" for raw in RAW_HOSTILE]
            for body in bodies:
                try:
                    send(client, "POST", action, body, headers)
                except AssertionError as exc:
                    failures.setdefault(f"{action} {name}", str(exc).splitlines()[0][:400])
    return failures


def test_hostile_values_in_every_form_field(client, probe):
    """Each field (and submit button) of every POST form, given each hostile value, posted
    as the form would be (htmx forms with HX-Request), on pages reached by real submits."""
    failures = form_failures(client, probe)
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())
