from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WikiConfig(AppConfig):
    """Bilingual rules pages: models, revisions, rendering, live tables and search."""

    name = "wiki"
    verbose_name = _("Wiki")

    def ready(self) -> None:
        # Registers the engine tables; other apps add theirs from their own ready().
        from . import macros  # noqa: F401
