"""Every app's sitemap sections, gathered for /sitemap.xml (the top floor's one job here)."""

from __future__ import annotations

from django.contrib.sitemaps import Sitemap

from arena import sitemaps as arena_sitemaps
from core.sitemaps import RouteSitemap
from explorer import sitemaps as explorer_sitemaps
from packs import sitemaps as packs_sitemaps
from play import sitemaps as play_sitemaps
from wiki import sitemaps as wiki_sitemaps

#: The content versions the sitemaps show: a change in any of them is a new sitemap.
DEPENDS_ON = ("cards", "wiki", "packs", "arena", "balance")


def sitemaps() -> dict[str, Sitemap]:
    """Section name → sitemap, in index order."""
    sections: dict[str, Sitemap] = {
        "home": RouteSitemap(["site:home", "site:api-docs"], depends_on=("cards",))
    }
    for app in (wiki_sitemaps, explorer_sitemaps, packs_sitemaps, arena_sitemaps, play_sitemaps):
        sections.update(app.sitemaps())
    return sections
