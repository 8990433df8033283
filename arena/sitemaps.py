"""The arena's sitemap section: its index, the slab list and every slab."""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap
from django.db.models import Max

from core.sitemaps import ModelSitemap, RouteSitemap

from . import presenters
from .models import Slab


class SlabSitemap(ModelSitemap):
    depends_on = ("arena",)

    def items(self):
        return Slab.objects.order_by("pk").values_list("asset_id", "updated_at")

    @staticmethod
    def path(item: tuple) -> str:
        return presenters.slab_url(item[0])

    @staticmethod
    def dated(item: tuple):
        return item[1]

    def get_latest_lastmod(self):
        return Slab.objects.aggregate(latest=Max("updated_at"))["latest"]


def sitemaps() -> dict[str, Sitemap]:
    return {
        "arena-pages": RouteSitemap(["arena:index", "arena:slab-list"], depends_on=("arena",)),
        "slabs": SlabSitemap(),
    }
