"""Hypothesis: whatever sequence of edits staff make, stored fields equal a live derivation."""

from __future__ import annotations

import uuid

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Attribute, Card, Combo

from .conftest import make_card
from .test_recompute import assert_fresh

pytestmark = pytest.mark.django_db

SLOTS = ("head", "body", "paw", "background")

edit = st.one_of(
    st.tuples(st.just("stickers"), st.integers(0, 3), st.integers(0, 8)),
    st.tuples(st.just("rank"), st.integers(0, 3), st.one_of(st.none(), st.integers(1, 300))),
    st.tuples(st.just("equip"), st.integers(0, 3), st.integers(0, 12)),
    st.tuples(st.just("own"), st.integers(0, 3), st.integers(0, 12)),
    st.tuples(st.just("disown"), st.integers(0, 3), st.integers(0, 12)),
    st.tuples(st.just("supply"), st.integers(0, 12), st.integers(1, 40)),
    st.tuples(st.just("kind"), st.integers(0, 12), st.sampled_from(["normal", "god", "premium"])),
    st.tuples(st.just("combo"), st.integers(0, 12), st.sampled_from(["rare", "epic", "legendary"])),
    st.tuples(st.just("uncombo"), st.integers(0, 3), st.just(0)),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edits=st.lists(edit, min_size=1, max_size=8))
def test_any_edit_sequence_keeps_stored_fields_live(catalogue, edits):
    with transaction.atomic():
        attrs = list(Attribute.objects.order_by("id"))
        cards = [make_card(t, starter=(t == 4)) for t in range(1, 5)]
        for op, a, b in edits:
            if op == "stickers":
                cards[a].burned_stickers = b
                cards[a].save()
            elif op == "rank":
                cards[a].getgems_rank = b
                cards[a].save()
            elif op == "equip":
                attribute = attrs[b]
                setattr(cards[a], attribute.slot, attribute)
                cards[a].save()
            elif op == "own":
                cards[a].wardrobe.add(attrs[b])
            elif op == "disown":
                cards[a].wardrobe.remove(attrs[b])
            elif op == "supply":
                attrs[a].supply = b
                attrs[a].save()
            elif op == "kind":
                attrs[a].kind = b
                attrs[a].save()
            elif op == "combo":
                combo = Combo.objects.create(name_en=f"Combo {uuid.uuid4().hex[:8]}", rarity=b)
                mates = {attrs[a].slot: attrs[a]}
                for other in attrs:
                    mates.setdefault(other.slot, other)
                combo.attributes.set(list(mates.values())[:2])
            elif op == "uncombo":
                first = Combo.objects.order_by("id").first()
                if first is not None:
                    first.delete()
            for card in cards:
                card.refresh_from_db()
            assert_fresh()
        transaction.set_rollback(True)
    assert not Card.objects.exists()
