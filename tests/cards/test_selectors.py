"""Read queries other apps reuse: the collection statistics."""

from __future__ import annotations

import pytest

from cards.selectors import collection_stats

from .conftest import make_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def cards(catalogue):
    c = catalogue
    return [
        make_card(1, head=c["crown"], body=c["armor"], paw=c["axe"]),  # Legendary, Pierce
        make_card(2, paw=c["mitten"]),
        make_card(3, starter=True, name="Starter Pup #3"),
    ]


def test_collection_stats_shape_and_counts(cards, django_assert_num_queries):
    with django_assert_num_queries(1):
        stats = collection_stats()
    assert (stats["total"], stats["catalogue"], stats["free"]) == (3, 2, 1)
    assert list(stats["by_rarity"]) == ["common", "rare", "epic", "legendary"]
    assert stats["by_rarity"]["legendary"] == 1 and sum(stats["by_rarity"].values()) == 2
    assert sum(stats["by_role"].values()) == 3
    assert sum(stats["by_skill_affinity"].values()) == 3
    assert stats["by_active_skill"] == {"pierce": 1, "speed": 0, "steal": 0, "arcane": 0}
    assert stats["without_active_skill"] == 2
    assert stats["with_active_skill_by_rarity"]["legendary"] == 1


def test_empty_collection_stats(db):
    stats = collection_stats()
    assert stats["total"] == 0 and stats["by_rarity"]["common"] == 0
