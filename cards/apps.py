from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _ensure_search_index(sender, using: str = "default", verbosity: int = 1, **kwargs) -> None:
    """After every ``migrate``: SQLite drops a table's triggers when a migration rebuilds
    the table, so the word index puts back what is missing (cards.search_index)."""
    from django.db import connections
    from django.db.migrations.recorder import MigrationRecorder

    from . import search_index

    connection = connections[using]
    recorder = MigrationRecorder(connection)
    if (
        not recorder.has_table()
        or ("cards", "0006_card_name_search_index") not in recorder.applied_migrations()
    ):
        return
    for line in search_index.ensure(connection):
        if verbosity >= 1:
            print(f"  search index: {line}")


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = _("Cards")

    def ready(self) -> None:
        from . import lookups, signals  # noqa: F401  (signals connects the receivers)

        lookups.register()

        post_migrate.connect(_ensure_search_index, sender=self, dispatch_uid="cards.search_index")
