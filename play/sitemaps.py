"""The match demo's sitemap section: its start page (matches are one visitor's each)."""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap

from core.sitemaps import RouteSitemap


def sitemaps() -> dict[str, Sitemap]:
    return {"play": RouteSitemap(["play:index"], depends_on=("balance",))}
