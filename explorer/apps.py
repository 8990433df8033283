from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExplorerConfig(AppConfig):
    name = "explorer"
    verbose_name = _("Explorer")
