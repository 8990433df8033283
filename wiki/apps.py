from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _refresh_search_index(sender, using="default", **kwargs) -> None:
    """After ``migrate``: rebuild the SQLite search index if the synonym table changed."""
    from django.db import connections

    from . import search

    if connections[using].vendor == "sqlite" and using == "default":
        search.ensure_index_current()


class WikiConfig(AppConfig):
    """Bilingual rules pages: models, revisions, rendering, live tables and search."""

    name = "wiki"
    verbose_name = _("Wiki")

    def ready(self) -> None:
        # Registers the engine tables; other apps add theirs from their own ready().
        from . import macros  # noqa: F401

        post_migrate.connect(_refresh_search_index, sender=self, dispatch_uid="wiki-search")
