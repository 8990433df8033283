"""Re-derive every card's stored fields with the engine (after engine or bulk data changes)."""

import time

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from cards.history import record_rules_version
from cards.models import DerivationStamp
from cards.services import engine_fingerprint, recompute_cards


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
        parser.add_argument(
            "--if-stale",
            action="store_true",
            help=_("Only when the engine changed since the stored fields were derived."),
        )

    def handle(self, *args, batch_size: int, if_stale: bool = False, **options):
        # A new rules version is recorded first, with every card it changes and why
        # (compared with the stored fields, derived with the version before).
        version = record_rules_version()
        if version is not None:
            self.stdout.write(_("Rules version %(version)s recorded.") % {"version": version})
        fingerprint = engine_fingerprint()
        stamp = DerivationStamp.objects.first()
        if if_stale and stamp is not None and stamp.fingerprint == fingerprint:
            self.stdout.write(_("Stored fields are up to date with the engine."))
            return
        started = time.perf_counter()
        result = recompute_cards(batch_size=max(1, batch_size))
        DerivationStamp.objects.exclude(pk=getattr(stamp, "pk", None)).delete()
        DerivationStamp.objects.update_or_create(
            pk=getattr(stamp, "pk", None), defaults={"fingerprint": fingerprint}
        )
        self.stdout.write(
            _("%(checked)d cards checked, %(changed)d changed in %(seconds).1f s.")
            % {
                "checked": result.checked,
                "changed": result.changed,
                "seconds": time.perf_counter() - started,
            }
        )
