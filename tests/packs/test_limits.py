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

from .test_views import csrf_of, open_pack, url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_window(monkeypatch):
    monkeypatch.setattr(core_limits, "clock", lambda: 1_000_000.0)


def test_one_session_opening_a_hundred_packs_is_held_back(client, site):
    token = csrf_of(client.get(url("pool-detail", slug="whole-collection")).content.decode())
    post = url("pool-open", slug="whole-collection")
    codes = [
        client.post(post, {"csrfmiddlewaretoken": f"{token[:-4]}{i:04d}"}).status_code
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
