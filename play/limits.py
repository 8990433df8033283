"""How many matches a visitor may keep and how fast they may start them (issue 12, item 10;
issue 26).

- A session keeps at most ``ACTIVE_MATCHES_PER_SESSION`` matches in progress; starting
  one more sets the oldest aside (``play.services.start_match`` does it and says so).
- Starts (a rematch is one) are counted by ``core.limits`` against ``STARTS``: per
  session, per new visitor and per client address, in windows of a minute; past a limit a
  start is refused (a 429 page in the visitor's language) before a session is created.
  ``core.limits`` says how the address is found behind a proxy and what happens when the
  cache fails.
- ``manage.py cleanup`` deletes matches left unfinished for ``ABANDONED_AFTER``.
"""

from __future__ import annotations

from datetime import timedelta

from core.limits import Budget, RateLimited

__all__ = ["ABANDONED_AFTER", "ACTIVE_MATCHES_PER_SESSION", "STARTS", "RateLimited"]

ACTIVE_MATCHES_PER_SESSION = 5
STARTS = Budget(
    "play",
    per_session=12,  # a match every five seconds, for a minute
    per_new_visitor=12,
    per_address=40,  # a few people behind one address
)
ABANDONED_AFTER = timedelta(days=1)
