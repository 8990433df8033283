"""``python manage.py balance_report [--matches 10000] [--seed S]``: bot against bot."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from core.jobs import run_job
from engine.data import DECK_MAX, DECK_MIN
from engine.match.bots import BOTS
from play.services import DeckError, run_balance_report
from play.tasks import balance_report_task


class Command(BaseCommand):
    help = (
        "Play bot-vs-bot matches between random decks from the collection and store win "
        "rates by rarity mix and by role (the wiki's {{ balance_report }} shows the latest)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--matches", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=0, help="match i uses seed S+i")
        parser.add_argument("--deck-size", type=int, default=DECK_MAX)
        parser.add_argument("--bots", default="greedy,greedy", help=f"two of {', '.join(BOTS)}")
        parser.add_argument(
            "--background", action="store_true", help="enqueue it for a worker (db_worker)"
        )

    def handle(self, *args, **options):
        matches = options["matches"]
        size = options["deck_size"]
        bots = tuple(b.strip() for b in options["bots"].split(","))
        if matches < 1:
            raise CommandError("--matches must be at least 1.")
        if not DECK_MIN <= size <= DECK_MAX:
            raise CommandError(f"--deck-size must be {DECK_MIN} to {DECK_MAX}.")
        if len(bots) != 2 or any(b not in BOTS for b in bots):
            raise CommandError(f"--bots takes two of {', '.join(BOTS)}.")

        if options["background"]:
            queued = balance_report_task.enqueue(
                matches=matches, seed=options["seed"], deck_size=size, bots=list(bots)
            )
            self.stdout.write(f"Enqueued the balance report as task {queued.id}.")
            return
        verbosity = options["verbosity"]

        def progress(done: int) -> None:
            if verbosity >= 2:
                self.stdout.write(f"  {done} / {matches}")

        try:
            report = run_job(
                None,
                lambda _progress: run_balance_report(
                    matches, options["seed"], deck_size=size, bots=bots, progress=progress
                ),
                attempts=1,  # a deck error is the collection's, not a passing failure
            )
        except DeckError:
            raise CommandError("The collection has no cards to build decks from.") from None
        data = report.data
        self.stdout.write(
            f"{report.matches} matches ({report.cards} cards, {data['mixes']} rarity mixes) "
            f"in {report.seconds:.2f} s ({report.matches / max(report.seconds, 1e-9):,.0f}/s); "
            f"average {data['average_rounds']} rounds."
        )
        for title, key in (("rarity", "by_rarity"), ("role", "by_role")):
            self.stdout.write(f"Win rate by {title} (per card):")
            for name, (games, wins, draws) in data[key].items():
                self.stdout.write(
                    f"  {name:<10} {wins / games:6.1%}  draws {draws / games:5.1%}  ({games})"
                )
        edge = data["higher_rarity"]
        if edge["games"]:
            self.stdout.write(
                f"The deck with the higher rarity sum won {edge['wins'] / edge['games']:.1%} "
                f"of {edge['games']} matches (lost {edge['losses']}, drew {edge['draws']})."
            )
        self.stdout.write(self.style.SUCCESS(f"Stored as balance report #{report.pk}."))
