"""Arena starts are rate-limited and capped like the match demo's (issue 26, M2), and
``manage.py cleanup`` ends the matches whose player walked away."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from io import StringIO

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from arena import services
from arena.models import ArenaMatch, MatchStatus
from core import limits as core_limits

from .test_views import build_team, start_match, url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_window(monkeypatch):
    monkeypatch.setattr(core_limits, "clock", lambda: 1_000_000.0)


def post_start(client):
    return client.post(url("arena:match-start"), {"bracket": "rookie", "bot": "planner"})


def test_one_session_starting_a_hundred_matches_is_held_back(client, slabs, rookie_team):
    build_team(client, rookie_team)
    codes = [post_start(client).status_code for _ in range(100)]
    assert codes.count(302) == services.STARTS.per_session
    assert set(codes[services.STARTS.per_session :]) == {429}
    assert ArenaMatch.objects.count() == services.STARTS.per_session
    # At most ACTIVE_MATCHES_PER_SESSION stay in progress: the older ones were given up.
    assert ArenaMatch.objects.filter(status=MatchStatus.ACTIVE).count() == (
        services.ACTIVE_MATCHES_PER_SESSION
    )
    refused = post_start(client)
    assert int(refused["Retry-After"]) >= 1
    assert "Too many matches at once" in refused.content.decode()
    ru = client.post(url("arena:match-start", "ru"), {"bracket": "rookie", "bot": "planner"})
    assert ru.status_code == 429 and "Слишком много матчей сразу" in ru.content.decode()
    rematch = client.post(
        url("arena:match-rematch", public_id=ArenaMatch.objects.first().public_id)
    )
    assert rematch.status_code == 429


def test_a_start_past_the_cap_says_the_oldest_was_given_up(client, slabs, rookie_team):
    first = start_match(client, rookie_team)
    for _ in range(services.ACTIVE_MATCHES_PER_SESSION - 1):
        assert post_start(client).status_code == 302
    page = post_start(client)
    first.refresh_from_db()
    assert first.over and first.end_reason
    assert "the oldest was given up" in client.get(page["Location"]).content.decode()


def test_a_refused_start_creates_no_session(slabs, monkeypatch):
    monkeypatch.setattr(services, "STARTS", replace(services.STARTS, per_new_visitor=2))
    codes = [post_start(Client(REMOTE_ADDR="10.1.1.1")).status_code for _ in range(5)]
    assert codes.count(429) == 3
    assert Session.objects.count() == 2  # the two allowed (and refused for an empty team)


def test_cleanup_ends_a_match_its_player_walked_away_from(client, slabs, rookie_team):
    match = start_match(client, rookie_team)
    recent = start_match(client, rookie_team)
    old = timezone.now() - services.ABANDONED_AFTER - dt.timedelta(minutes=1)
    ArenaMatch.objects.filter(pk=match.pk).update(turn_started_at=old)
    out = StringIO()
    call_command("cleanup", stdout=out)
    match.refresh_from_db()
    recent.refresh_from_db()
    assert match.status == MatchStatus.LOST and match.end_reason == "forfeit"
    assert recent.status == MatchStatus.ACTIVE
    assert "Ended 1 abandoned arena match(es)" in out.getvalue()
    assert "Removed 0 team(s) of expired sessions" in out.getvalue()
    Session.objects.all().delete()
    call_command("cleanup", stdout=out)
    assert "Removed 1 team(s) of expired sessions" in out.getvalue()
    # Finished, it stays: its replay is public.
    replay = url("arena:match-replay", public_id=match.public_id)
    assert client.get(replay, {"turn": 0}).status_code == 200
