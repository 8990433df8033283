"""``python manage.py cleanup``: expired sessions, then each app's own clean-up.

An app takes part by giving its ``AppConfig`` a ``cleanup(now)`` method that returns the
lines to report (core knows no feature app): the match demo deletes matches left
unfinished for a day, the arena ends the matches whose player walked away (they become
finished, shareable matches), the packs delete candidate lists no opening uses any more.
Finished, shareable things stay. Run it daily (cron or a timer).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from core.tasks import cleanup, cleanup_task


class Command(BaseCommand):
    help = (
        "Delete expired sessions (Django's clearsessions), then run each app's clean-up: "
        "demo matches left unfinished for a day, arena matches whose player walked away "
        "(ended by forfeit, kept), pack candidate lists no opening uses. Finished matches "
        "and openings stay: their permalinks are shareable. Run it daily."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--background", action="store_true", help="enqueue it for a worker (db_worker)"
        )

    def handle(self, *args: object, **options: object) -> None:
        if options["background"]:
            result = cleanup_task.enqueue()
            self.stdout.write(f"Enqueued clean-up as task {result.id}.")
            return
        for line in cleanup():
            self.stdout.write(line)
