"""The explorer's sitemap sections: its public pages, and every card in token ranges.

A range holds at most ``CARDS_PER_FILE`` tokens, so with both languages a section is one
sitemap file of at most 50,000 URLs, read with one indexed range query: a million cards
are forty files, none of which reads another's rows.
"""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap
from django.db.models import Max, Min

from cards.models import Card
from core.links import token_path
from core.sitemaps import ModelSitemap, RouteSitemap

CARDS_PER_FILE = 25_000  # × 2 languages = the protocol's 50,000 URLs a file


class CardRangeSitemap(ModelSitemap):
    """The cards whose token is in ``[low, high)``."""

    depends_on = ("cards",)

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def items(self):
        return (
            Card.objects.filter(token__gte=self.low, token__lt=self.high)
            .order_by("token")
            .values_list("token", flat=True)
        )

    @staticmethod
    def path(token: int) -> str:
        return token_path("explorer:card-detail", token)


def sitemaps() -> dict[str, Sitemap]:
    """The explorer's sections (one query: the lowest and highest token)."""
    found = Card.objects.aggregate(low=Min("token"), high=Max("token"))
    sections: dict[str, Sitemap] = {
        "cards-pages": RouteSitemap(
            [
                "explorer:card-list",
                "explorer:advanced-search",
                "explorer:search-help",
                "explorer:statistics",
            ],
            depends_on=("cards",),
        )
    }
    if found["low"] is not None:
        for start in range(
            found["low"] // CARDS_PER_FILE * CARDS_PER_FILE, found["high"] + 1, CARDS_PER_FILE
        ):
            sections[f"cards-{start // CARDS_PER_FILE}"] = CardRangeSitemap(
                start, start + CARDS_PER_FILE
            )
    return sections
