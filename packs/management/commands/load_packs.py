"""Create the demo booster pools (when there are none) and measure the power promise
(when none is stored). Run by ``manage.py load_demo``, so by ``make install``."""

from django.core.management.base import BaseCommand

from packs.demo import load_demo_packs


class Command(BaseCommand):
    help = "Create the demo booster pools and measure the power promise, where missing."

    def handle(self, *args, **options):
        load_demo_packs(self.stdout.write if options["verbosity"] else lambda line: None)
