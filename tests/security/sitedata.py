"""Helpers shared by the security and fuzz tests: a small site to test, and a crawler.

`populate()` fills the test database with a small collection and the wiki pages, using the
same steps as `manage.py load_demo` (core.management.commands.load_demo.DEMO_STEPS) but with
a small collection so it stays fast. `crawl()` walks the site from its home pages the way a
visitor would, following links, bounded per URL pattern, and returns every response.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.core.management import call_command, get_commands
from django.db import transaction
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve

from bench.htmlforms import Form, get_forms, parse_page

SMALL_COLLECTION = 60  # small enough to keep these tests fast; real tokens for every card URL


def populate() -> list[str]:
    """Load a small demo site into the (test) database; returns what was loaded."""
    from django.apps import apps

    from core.management.commands.load_demo import DEMO_STEPS

    loaded = []
    commands = get_commands()
    for label, model_label, command, kwargs in DEMO_STEPS:
        if command not in commands:
            continue
        model = apps.get_model(model_label)
        if model.objects.exists():
            continue
        options = dict(kwargs)
        if command == "generate_collection":
            options["size"] = SMALL_COLLECTION
        if command == "load_packs":
            options["per_tier"] = 1  # the booster pools, with a quick power measurement
        if command == "balance_report":
            options["matches"] = 100  # a quick report: the wiki macro has its tables
        call_command(command, verbosity=0, **options)
        loaded.append(label)
    if "generate_collection" in commands and not any(
        step[2] == "generate_collection" for step in DEMO_STEPS
    ):
        call_command("generate_collection", size=SMALL_COLLECTION, verbosity=0)
        loaded.append("collection")
    return loaded


@contextmanager
def populated_for_module(django_db_blocker) -> Iterator[list[str]]:
    """`populate()` once for a whole test module, in a transaction rolled back after it.

    Each test's own ``db`` transaction nests inside it (a savepoint), as Django's
    ``TestCase.setUpTestData`` does, so a test sees the site as loaded and leaves nothing
    behind; only ``db`` tests may use it (a transactional test would end the transaction).
    Loading the site and crawling it once per module instead of once per test takes a
    minute off the suite.
    """
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        loaded = populate()
    try:
        yield loaded
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


# --- URL patterns ------------------------------------------------------------------------


@dataclass(frozen=True)
class Pattern:
    """One URL pattern of the site: its reverse name and its converters (kwarg → converter)."""

    name: str
    route: str
    converters: tuple[tuple[str, object], ...]
    i18n: bool


def url_patterns(skip_namespaces: Iterable[str] = ("admin",)) -> list[Pattern]:
    """Every named URL pattern, admin excluded by default."""
    skip = set(skip_namespaces)
    found: list[Pattern] = []

    def walk(patterns, namespace: str, route: str, converters: dict, i18n: bool) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                if entry.namespace in skip:
                    continue
                ns = namespace
                if entry.namespace:
                    ns = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
                is_i18n = i18n or type(entry.pattern).__name__ == "LocalePrefixPattern"
                walk(
                    entry.url_patterns,
                    ns,
                    route + str(entry.pattern),
                    {**converters, **getattr(entry.pattern, "converters", {})},
                    is_i18n,
                )
            elif isinstance(entry, URLPattern) and entry.name:
                name = f"{namespace}:{entry.name}" if namespace else entry.name
                convs = {**converters, **getattr(entry.pattern, "converters", {})}
                found.append(
                    Pattern(name, route + str(entry.pattern), tuple(sorted(convs.items())), i18n)
                )

    walk(get_resolver().url_patterns, "", "/", {}, False)
    unique = {p.name: p for p in found}
    return sorted(unique.values(), key=lambda p: p.name)


def pattern_of(path: str) -> str | None:
    """The namespaced name of the pattern that serves `path`, or None."""
    try:
        match = resolve(urlsplit(path).path)
    except Resolver404:
        return None
    return match.view_name


# --- the crawler -----------------------------------------------------------------------------

SKIP_PREFIXES = ("/static/", "/media/")
ADMIN = re.compile(r"^/[a-z]{2}/admin/")


@dataclass
class Crawl:
    responses: dict[str, object] = field(default_factory=dict)  # path → response
    forms: list[Form] = field(default_factory=list)
    get_forms: list[Form] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)  # path → exception raised by the view

    def patterns_seen(self) -> set[str]:
        return {n for n in (pattern_of(p) for p in self.responses) if n}

    def html_pages(self) -> dict[str, object]:
        return {
            p: r
            for p, r in self.responses.items()
            if r.status_code == 200 and r.get("Content-Type", "").startswith("text/html")
        }


def crawl(
    client, starts: Iterable[str], per_pattern: int = 4, limit: int = 250, htmx: bool = False
) -> Crawl:
    """Breadth-first over internal links, at most `per_pattern` URLs per URL pattern."""
    result = Crawl()
    queue = list(starts)
    per: Counter[str] = Counter()
    headers = {"HX-Request": "true"} if htmx else {}
    while queue and len(result.responses) < limit:
        url = queue.pop(0)
        parts = urlsplit(url)
        if parts.netloc not in ("testserver", ""):
            continue
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        if path in result.responses or path.startswith(SKIP_PREFIXES) or ADMIN.match(path):
            continue
        name = pattern_of(path) or "?"
        if per[name] >= per_pattern:
            continue
        per[name] += 1
        try:
            response = client.get(path, headers=headers)
        except Exception as exc:  # a view that crashed: note it, crawl on
            result.errors[path] = f"{type(exc).__name__}: {exc}"
            continue
        result.responses[path] = response
        content_type = response.get("Content-Type", "")
        if response.status_code == 200 and content_type.startswith("text/html"):
            html = response.content.decode("utf-8", errors="replace")
            links, forms = parse_page(path, html)
            result.forms.extend(forms)
            result.get_forms.extend(get_forms(path, html))
            queue.extend(link for link in links if link not in result.responses)
    return result
