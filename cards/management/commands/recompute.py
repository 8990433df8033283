"""Re-derive every card's stored fields with the engine (after engine or bulk data changes).

A thin wrapper of the recompute job (``cards.tasks``): run here, or with ``--background``
enqueued for a worker (``manage.py db_worker``)."""

import time

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from cards.tasks import recompute, recompute_task
from core.jobs import run_job


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
        parser.add_argument(
            "--processes",
            type=int,
            default=1,
            help=_("Processes that derive the cards (default 1; one per core to use)."),
        )
        parser.add_argument(
            "--background",
            action="store_true",
            help=_("Enqueue it for a worker (manage.py db_worker) instead of running it here."),
        )

    def handle(self, *args, batch_size: int, if_stale: bool = False, **options):
        processes = max(1, options.get("processes") or 1)
        if options.get("background"):
            queued = recompute_task.enqueue(
                batch_size=batch_size, if_stale=if_stale, processes=processes
            )
            self.stdout.write(_("Enqueued the recompute as task %(id)s.") % {"id": queued.id})
            return
        started = time.perf_counter()
        result = run_job(
            None,
            lambda progress: recompute(
                batch_size=batch_size, if_stale=if_stale, processes=processes
            ),
        )
        if result["rules_version"]:
            self.stdout.write(
                _("Rules version %(version)s recorded.") % {"version": result["rules_version"]}
            )
        if result["skipped"]:
            self.stdout.write(_("Stored fields are up to date with the engine."))
            return
        self.stdout.write(
            _("%(checked)d cards checked, %(changed)d changed in %(seconds).1f s.")
            % {
                "checked": result["checked"],
                "changed": result["changed"],
                "seconds": time.perf_counter() - started,
            }
        )
