from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArenaConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "arena"
    verbose_name = _("Slab arena")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from . import macros  # noqa: F401  (registers the arena's live wiki tables)
        from .models import Slab, SlabValue

        for model in (Slab, SlabValue):
            post_save.connect(_changed, sender=model, dispatch_uid=f"arena-{model.__name__}-save")
            post_delete.connect(
                _changed, sender=model, dispatch_uid=f"arena-{model.__name__}-delete"
            )

    def cleanup(self, now) -> list[str]:
        """``manage.py cleanup``: matches whose player walked away end by forfeit."""
        from .services import delete_orphan_teams, settle_abandoned

        return [
            f"Ended {settle_abandoned(now)} abandoned arena match(es) by forfeit.",
            f"Removed {delete_orphan_teams()} team(s) of expired sessions.",
        ]


def _changed(sender, **kwargs) -> None:
    """A slab or a value changed (the admin, a script): cached day tables are stale."""
    from core import versions

    versions.bump("arena")
