"""Builders for wiki tests: pages saved through the services, the shipped content loaded."""

from __future__ import annotations

import io

import pytest
from django.core.cache import cache
from django.core.management import call_command

from wiki import services
from wiki.models import Page


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rendered pages are cached per revision; tests start from an empty cache."""
    cache.clear()
    yield
    cache.clear()


def make_page(slug: str, *, related=(), author=None, summary: str = "", **fields) -> Page:
    """A published page saved through the services (so it has revision 1 and a search entry)."""
    fields.setdefault("title_en", slug.replace("-", " ").title())
    fields.setdefault("body_en", f"Text of {slug}.")
    fields.setdefault("section", "basics")
    page = Page(slug=slug, **fields)
    services.save_page(page, related=list(related), author=author, summary=summary)
    return page


@pytest.fixture
def shipped_wiki(db) -> list[Page]:
    """The pages of wiki/content, loaded as `make install` loads them."""
    call_command("load_wiki", stdout=io.StringIO())
    return list(Page.objects.order_by("slug"))
