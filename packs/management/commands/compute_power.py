"""Measure the power promise (seed 003): every catalogue card's win rate against the
fixed gauntlet, bot against bot, stored for the pool pages and the wiki.

Bounded: one-card decks, a handful per tier, one match from each side; about ten
seconds for the demo collection of 1,000 cards.
"""

from django.core.management.base import BaseCommand, CommandError

from core.jobs import run_job
from engine.packs import GAUNTLET_GAMES_PER_SIDE, GAUNTLET_PER_TIER, GAUNTLET_SEED
from packs.models import PowerRun
from packs.services import compute_power
from packs.tasks import power_task


class Command(BaseCommand):
    help = "Measure every catalogue card's power against the gauntlet and store it."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=GAUNTLET_SEED)
        parser.add_argument(
            "--per-tier", type=int, default=GAUNTLET_PER_TIER, help="gauntlet decks per tier"
        )
        parser.add_argument(
            "--games", type=int, default=GAUNTLET_GAMES_PER_SIDE, help="matches from each side"
        )
        parser.add_argument(
            "--if-missing", action="store_true", help="do nothing when a measurement is stored"
        )
        parser.add_argument(
            "--background", action="store_true", help="enqueue it for a worker (db_worker)"
        )

    def handle(self, *args, **options):
        if options["if_missing"] and PowerRun.objects.exists():
            self.stdout.write("Power promise: already measured.")
            return
        if not 1 <= options["per_tier"] <= 50:
            raise CommandError("--per-tier: from 1 to 50")
        if not 1 <= options["games"] <= 20:
            raise CommandError("--games: from 1 to 20")

        if options["background"]:
            queued = power_task.enqueue(
                seed=options["seed"], per_tier=options["per_tier"], games=options["games"]
            )
            self.stdout.write(f"Enqueued the power promise as task {queued.id}.")
            return

        def progress(done: int, total: int) -> None:
            if options["verbosity"] > 1:
                self.stdout.write(f"  {done}/{total} cards")

        run = run_job(
            None,
            lambda _progress: compute_power(
                seed=options["seed"],
                per_tier=options["per_tier"],
                games=options["games"],
                progress=progress,
            ),
        )
        self.stdout.write(
            f"Power promise: {run.matches:,} matches against {len(run.gauntlet)} gauntlet "
            f"decks in {run.seconds:.1f} s."
        )
