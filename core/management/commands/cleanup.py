"""``python manage.py cleanup``: expired sessions, then each app's own clean-up.

An app takes part by giving its ``AppConfig`` a ``cleanup(now)`` method that returns the
lines to report (core knows no feature app): the match demo deletes matches left
unfinished for a day, the arena ends the matches whose player walked away (they become
finished, shareable matches), the packs delete candidate lists no opening uses any more.
Finished, shareable things stay. Run it daily (cron or a timer).
"""

from __future__ import annotations

from django.apps import apps
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils import timezone


class Command(BaseCommand):
    help = (
        "Delete expired sessions (Django's clearsessions), then run each app's clean-up: "
        "demo matches left unfinished for a day, arena matches whose player walked away "
        "(ended by forfeit, kept), pack candidate lists no opening uses. Finished matches "
        "and openings stay: their permalinks are shareable. Run it daily."
    )

    def handle(self, *args: object, **options: object) -> None:
        now = timezone.now()
        sessions = Session.objects.filter(expire_date__lt=now).count()
        call_command("clearsessions")
        self.stdout.write(f"Removed {sessions} expired session(s).")
        for config in apps.get_app_configs():
            hook = getattr(config, "cleanup", None)
            if callable(hook):
                for line in hook(now):
                    self.stdout.write(line)
