"""Re-derive every card's stored fields with the engine (after engine or bulk data changes)."""

import time

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from cards.services import recompute_cards


class Command(BaseCommand):
    help = _(
        "Derive every card again with the rules engine and store the fields that changed "
        "(rarity, role, skills, stats, energy, wardrobe score), in batches."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--batch-size",
            type=int,
            default=2000,
            help=_("Cards derived per batch (default 2000)."),
        )

    def handle(self, *args, batch_size: int, **options):
        started = time.perf_counter()
        result = recompute_cards(batch_size=max(1, batch_size))
        self.stdout.write(
            _("%(checked)d cards checked, %(changed)d changed in %(seconds).1f s.")
            % {
                "checked": result.checked,
                "changed": result.changed,
                "seconds": time.perf_counter() - started,
            }
        )
