from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PacksConfig(AppConfig):
    name = "packs"
    verbose_name = _("Booster packs")

    def ready(self) -> None:
        # Pool writes bump the "packs" content version; the wiki's live pool tables.
        from cards import binders

        from . import macros, selectors, signals  # noqa: F401

        binders.register(selectors.binder_tokens)  # the match demo's "my binder" (cards.binders)

    def cleanup(self, now) -> list[str]:
        """``manage.py cleanup``: candidate lists no opening uses any more. Openings stay:
        their permalinks are shareable."""
        from .services import delete_unused_candidate_lists

        return [f"Removed {delete_unused_candidate_lists()} unused candidate list(s)."]
