from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SiteConfig(AppConfig):
    """The top floor: the pages that gather from several apps (home, header search, the
    API's index, catch-all and documentation) and the health check. It may import every
    app; no app imports it."""

    name = "codex_site"
    verbose_name = _("Card Codex")
