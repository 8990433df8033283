from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SharingConfig(AppConfig):
    """How the site is found and shared: sitemaps, robots.txt, oEmbed, the site's preview."""

    name = "sharing"
    verbose_name = _("Sharing")
