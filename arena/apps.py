from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArenaConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "arena"
    verbose_name = _("Slab arena")

    def ready(self) -> None:
        from . import macros  # noqa: F401  (registers the arena's live wiki tables)
