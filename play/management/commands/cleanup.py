"""``python manage.py cleanup``: expired sessions, and matches left unfinished for a day."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from play.limits import ABANDONED_AFTER
from play.services import cleanup


class Command(BaseCommand):
    help = (
        "Delete expired sessions (Django's clearsessions) and demo matches left unfinished "
        f"(in progress or set aside) for more than {ABANDONED_AFTER.days} day. Finished "
        "matches stay: their replays are shareable links. Run it daily (cron or a timer)."
    )

    def handle(self, *args, **options):
        done = cleanup()
        self.stdout.write(
            f"Removed {done.sessions} expired session(s) and {done.matches} unfinished "
            f"match(es) older than {ABANDONED_AFTER.days} day."
        )
