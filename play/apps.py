from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = _("Match demo")

    def ready(self) -> None:
        # The wiki's {{ balance_report }} table (the wiki app owns the registry).
        from . import reports  # noqa: F401

    def cleanup(self, now) -> list[str]:
        """``manage.py cleanup``: matches left unfinished for a day."""
        from .limits import ABANDONED_AFTER
        from .services import cleanup

        matches = cleanup(now)
        return [f"Removed {matches} unfinished match(es) older than {ABANDONED_AFTER.days} day."]
