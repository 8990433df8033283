"""Several submits of the same move at the same moment: exactly one applies.

The test database is SQLite's shared-cache in-memory database, which reports a table
lock at once ("database table is locked") instead of waiting out the busy timeout as
the file database does; such a refusal counts as a refusal here. On PostgreSQL the row
lock (SELECT … FOR UPDATE) makes the others wait and then see a stale turn.
"""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connections

from engine.match import A, Pick
from play import services
from play.models import Match

from .conftest import build_collection

pytestmark = pytest.mark.django_db(transaction=True)


def test_concurrent_submits_on_one_match_apply_once():
    build_collection()
    match = services.start_match("s" * 32, [1, 2], seed=4).match
    turn = services.load(match).state.actions
    barrier = threading.Barrier(4)
    outcomes: list[str] = []
    lock = threading.Lock()

    def submit() -> None:
        result = "error"
        try:
            barrier.wait()
            services.play_move(match.public_id, "s" * 32, turn, Pick(A, 0))
            result = "applied"
        except services.StaleActionError:
            result = "stale"
        except OperationalError as exc:
            result = "stale" if "locked" in str(exc) else f"error: {exc}"
        finally:
            connections.close_all()
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["applied", "stale", "stale", "stale"]
    stored = Match.objects.get(pk=match.pk)
    assert len(stored.actions) == turn + 1
