"""`recompute --if-stale`: stored fields follow the engine whenever its code changes."""

from io import StringIO

import pytest
from django.core.management import call_command

from cards import services
from cards.models import Card, DerivationStamp

from .conftest import make_card

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command("recompute", *args, stdout=out)
    return out.getvalue()


def test_recompute_if_stale_runs_once_per_engine_version(monkeypatch):
    card = make_card(7)
    Card.objects.filter(pk=card.pk).update(rarity="legendary", rarity_rank=4)  # stale on purpose
    assert "1 changed" in run("--if-stale")
    assert Card.objects.get(pk=card.pk).rarity == "common"
    assert DerivationStamp.objects.get().fingerprint == services.engine_fingerprint()
    assert "up to date" in run("--if-stale")
    monkeypatch.setattr(services, "engine_fingerprint", lambda: "a-newer-engine")
    monkeypatch.setattr("cards.tasks.engine_fingerprint", lambda: "a-newer-engine")
    assert "checked" in run("--if-stale")
    assert DerivationStamp.objects.count() == 1
    assert DerivationStamp.objects.get().fingerprint == "a-newer-engine"
