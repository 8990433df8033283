"""Pack openings are rate-limited like match starts (issue 26, M2): per session, per new
visitor and per address, counted before a session is created."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.contrib.sessions.models import Session
from django.test import Client

from core import limits as core_limits
from packs import services
from packs.models import Opening

from .test_views import csrf_of, open_form, open_pack, url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_window(monkeypatch):
    monkeypatch.setattr(core_limits, "clock", lambda: 1_000_000.0)


def test_one_session_opening_a_hundred_packs_is_held_back(client, site):
    token = csrf_of(open_form(client))
    post = url("pool-open", slug="whole-collection")
    codes = [
        client.post(
            post, {"csrfmiddlewaretoken": f"{token[:-4]}{i:04d}", "client_seed": "s"}
        ).status_code
        for i in range(100)
    ]
    per_session = services.OPENINGS.per_session
    assert codes.count(302) == per_session and set(codes[per_session:]) == {429}
    assert Opening.objects.count() == per_session
    refused = open_pack(client)
    assert int(refused["Retry-After"]) >= 1
    assert "Too many packs at once" in refused.content.decode()
    ru = open_pack(client, lang="ru")
    assert ru.status_code == 429 and "Слишком много бустеров сразу" in ru.content.decode()


def test_a_refused_opening_creates_no_session(site, monkeypatch):
    monkeypatch.setattr(services, "OPENINGS", replace(services.OPENINGS, per_new_visitor=2))
    codes = [open_pack(Client(REMOTE_ADDR="10.2.2.2")).status_code for _ in range(5)]
    assert codes == [302, 302, 429, 429, 429]
    assert Session.objects.count() == 2 and Opening.objects.count() == 2


def test_an_odds_check_is_drawn_once_per_version_and_parameters(client, site, monkeypatch):
    """Issue 26: every anonymous check drew again (0.3-0.45 s)."""
    drawn = []
    real = services.check_odds
    monkeypatch.setattr(services, "check_odds", lambda *a: drawn.append(a[1:]) or real(*a))
    check = url("pool-check", slug="night-sky")
    for _ in range(3):
        assert client.get(check, {"n": 500, "seed": 7}).status_code == 200
    assert len(drawn) == 1
    client.get(check, {"n": 500, "seed": 8})
    client.get(check, {"n": 600, "seed": 7})
    assert len(drawn) == 3


def test_new_odds_checks_are_counted_and_repeats_are_free(client, site, monkeypatch):
    monkeypatch.setattr(services, "CHECKS", replace(services.CHECKS, per_new_visitor=2))
    check = url("pool-check", slug="night-sky")
    codes = [client.get(check, {"n": 100, "seed": s}).status_code for s in range(4)]
    assert codes == [200, 200, 429, 429]
    refused = client.get(check, {"n": 100, "seed": 99})
    assert "Many odds checks were drawn from here" in refused.content.decode()
    assert int(refused["Retry-After"]) >= 1
    assert client.get(check, {"n": 100, "seed": 1}).status_code == 200  # already drawn
    ru = client.get(url("pool-check", "ru", slug="night-sky"), {"n": 100, "seed": 98})
    assert ru.status_code == 429 and "проверок шансов" in ru.content.decode()
