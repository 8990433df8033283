"""``python manage.py purge_http_cache [tag …]``: drop pages from the shared HTTP cache.

Without tags it bans ``site``, the tag every shared page carries: run it after a deploy
(templates and words change without a content version). With tags (``wiki``, ``cards``…)
only the pages that depend on them. Sent to every address of ``DJANGO_HTTP_CACHE_PURGE_URL``
(``core.http_cache.purge``); exits 1 when a cache could not be reached.
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core import http_cache


class Command(BaseCommand):
    help = (
        "Ban pages from the shared HTTP cache (Varnish) by cache tag: all shared pages "
        "('site', the default; run it after a deploy) or those of the given content "
        "versions (wiki, cards, balance, packs, arena)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tags", nargs="*", default=[http_cache.SITE_TAG])

    def handle(self, *args: object, **options: object) -> None:
        tags = list(options["tags"])  # type: ignore[call-overload]
        bad = [tag for tag in tags if not http_cache.valid_tag(tag)]
        if bad:
            raise CommandError(f"Not a cache tag: {', '.join(bad)} (letters, digits, _ . : -)")
        caches = settings.HTTP_CACHE_PURGE_URLS
        if not caches:
            self.stdout.write("DJANGO_HTTP_CACHE_PURGE_URL is not set: nothing to purge.")
            return
        done = http_cache.purge(*tags)
        self.stdout.write(f"Banned {' '.join(tags)} in {done} of {len(caches)} HTTP caches.")
        if done < len(caches):
            raise CommandError("Some HTTP caches could not be purged (see the log).")
