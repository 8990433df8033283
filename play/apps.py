from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = _("Match demo")

    def ready(self) -> None:
        # The wiki's {{ balance_report }} table (the wiki app owns the registry).
        from . import reports  # noqa: F401
