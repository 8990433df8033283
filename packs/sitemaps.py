"""The packs' sitemap section: the pool list and every pool (openings are not listed:
each is one visitor's pack, shared by its link, and robots.txt keeps crawlers out)."""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap
from django.db.models import Max
from django.urls import reverse

from core.sitemaps import ModelSitemap, RouteSitemap

from .models import Pool
from .signals import VERSION


class PoolSitemap(ModelSitemap):
    depends_on = (VERSION,)

    def items(self):
        return Pool.objects.order_by("pk").values_list("slug", "updated_at")

    @staticmethod
    def path(item: tuple) -> str:
        return reverse("packs:pool-detail", kwargs={"slug": item[0]})

    @staticmethod
    def dated(item: tuple):
        return item[1]

    def get_latest_lastmod(self):
        return Pool.objects.aggregate(latest=Max("updated_at"))["latest"]


def sitemaps() -> dict[str, Sitemap]:
    return {
        "packs-index": RouteSitemap(["packs:pool-list"], depends_on=(VERSION,)),
        "pools": PoolSitemap(),
    }
