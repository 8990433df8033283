"""Load the demo content into an empty database; a database with content is left alone."""

from django.core.management import call_command
from django.core.management.base import BaseCommand

# Each step: (label, "app_label.Model" whose emptiness triggers it, command, its options).
DEMO_STEPS: list[tuple[str, str, str, dict[str, object]]] = [
    ("Demo collection", "cards.Card", "generate_collection", {}),
    ("Market history (30 days)", "cards.SupplyRecord", "generate_market_history", {"days": 30}),
    ("Wiki pages", "wiki.Page", "load_wiki", {}),
    ("Booster pools and power promise", "packs.PowerRun", "load_packs", {}),
    ("Slab arena (demo slabs, balance report)", "arena.ArenaBalanceReport", "arena_demo", {}),
    ("Balance report", "play.BalanceReport", "balance_report", {"matches": 3000, "seed": 0}),
]


class Command(BaseCommand):
    help = "Load the demo collection and the wiki pages when the database has none."

    def handle(self, *args: object, **options: object) -> None:
        from django.apps import apps

        for label, model_label, command, kwargs in DEMO_STEPS:
            model = apps.get_model(model_label)
            if model.objects.exists():
                self.stdout.write(f"{label}: already loaded.")
                continue
            self.stdout.write(f"{label}: loading…")
            call_command(command, **kwargs)
