"""Create the demo booster pools (when there are none) and measure the power promise
(when none is stored). Run by ``manage.py load_demo``, so by ``make install``."""

from django.core.management.base import BaseCommand

from engine.packs import GAUNTLET_PER_TIER
from packs.demo import load_demo_packs


class Command(BaseCommand):
    help = "Create the demo booster pools and measure the power promise, where missing."

    def add_arguments(self, parser):
        parser.add_argument(
            "--per-tier",
            type=int,
            default=GAUNTLET_PER_TIER,
            help="gauntlet decks per tier (fewer for a quick test site)",
        )

    def handle(self, *args, **options):
        say = self.stdout.write if options["verbosity"] else lambda line: None
        load_demo_packs(say, per_tier=max(1, options["per_tier"]))
