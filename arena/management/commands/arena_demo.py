"""``manage.py arena_demo``: the demo slabs (once) and a balance report (when none is
stored). ``make install`` runs it through ``load_demo``."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from arena import demo, selectors, services
from arena.models import ArenaBalanceReport


class Command(BaseCommand):
    help = "Generate the demo slabs (if there are none) and a balance report (if none is stored)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=services.BALANCE_GAMES,
                            help="balance games per bot pairing")  # fmt: skip
        parser.add_argument("--report", action="store_true", help="compute a new report anyway")

    def handle(self, *args, games: int, report: bool, **options):
        started = time.perf_counter()
        created = demo.load(selectors.match_day())
        if created:
            self.stdout.write(
                f"Arena: {created} demo slabs with {demo.DEMO_DAYS} days of values "
                f"(seed {demo.DEMO_SEED}) in {time.perf_counter() - started:.1f} s."
            )
        else:
            self.stdout.write("Arena: slabs already loaded.")
        if report or not ArenaBalanceReport.objects.exists():
            result = services.run_balance_report(max(1, games))
            self.stdout.write(
                f"Arena balance: {result.games} bot-vs-bot games over {result.slabs} slabs "
                f"in {result.seconds:.1f} s."
            )
