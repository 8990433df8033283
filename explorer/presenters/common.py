"""Shared by the pages: a counted paginator, a page as a template context, a search text."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from django.core.paginator import Paginator
from django.utils.functional import cached_property

CARD_LIST_PAGE_SIZE = 24


class CountedPaginator(Paginator):
    """A ``Paginator`` given its count (``selectors.search_count`` keeps a search's)."""

    def __init__(self, object_list: Any, per_page: int, count: int) -> None:
        super().__init__(object_list, per_page)
        self._known_count = count

    @cached_property
    def count(self) -> int:
        return self._known_count


def context(page: Any) -> dict[str, Any]:
    """A page dataclass as a template context: its fields, one level deep."""
    return {f.name: getattr(page, f.name) for f in fields(page)}


def attribute_query(slot: str, name: str) -> str:
    """The search for the cards equipping this attribute in its slot: ``paw="Qx Mitten"``."""
    return f'{slot}="{name.replace(chr(34), "")}"'
