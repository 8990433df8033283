"""The wiki's sitemap section: its index and every published page (with its last edit)."""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap
from django.db.models import Max
from django.urls import reverse

from core.sitemaps import ModelSitemap, RouteSitemap

from .selectors import published_pages


class WikiPageSitemap(ModelSitemap):
    def items(self):
        return published_pages().order_by("pk").values_list("slug", "updated_at")

    @staticmethod
    def path(item: tuple) -> str:
        return reverse("wiki:page", kwargs={"slug": item[0]})

    @staticmethod
    def dated(item: tuple):
        return item[1]

    def get_latest_lastmod(self):
        return published_pages().aggregate(latest=Max("updated_at"))["latest"]


def sitemaps() -> dict[str, Sitemap]:
    return {
        "wiki-index": RouteSitemap(["wiki:index"], depends_on=("wiki",)),
        "wiki": WikiPageSitemap(),
    }
