"""A small, hand-made arena: slabs in every tier, element and armor band, with dated values
ending today (UTC), some crossing a band edge, one with no value until two days ago."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from arena.models import Slab, SlabValue
from arena.selectors import match_day
from engine.arena.slabs import Element, element_of

D = Decimal


def sun_ids(prefix: str = "t", count: int = 40) -> list[str]:
    ids = [f"{prefix}-{i}" for i in range(400)]
    return [a for a in ids if element_of(a) is Element.SUN][:count]


# asset id: (name, grade, year, values by days ago)
SLABS = {
    "cc-7": ("Sun Pup", "9", 2020, {0: "10.00", 1: "10.00", 5: "9.00"}),  # Sun, common
    "cc-3": ("Moon Pup", "8.5", 2010, {0: "30.00", 3: "28.00"}),  # Moon, uncommon
    "cc-1": ("Star Pup", "10", 2001, {0: "100.00", 9: "95.00"}),  # Star, rare
    "cc-2": ("Star Cub", "7", 2018, {0: "12.40"}),  # Star, common
    "a": ("Moon Cub", "9.5", 1999, {0: "62.60", 1: "74.99", 2: "75.00"}),  # crosses 75
    "CC-1": ("Big Sun", "10", 2015, {0: "300.00"}),  # Sun, epic
    "0x5f3a": ("Old Sun", "1", 1996, {0: "2.50"}),
    "late": ("Late Listing", "8", 2022, {0: "5.00", 2: "4.00"}),  # no value 3+ days ago
    "pricey": ("Pricey Moth", "9", 2012, {0: "2500.00", 1: "1999.99"}),
    "mid": ("Mid Owl", "8", 2008, {0: "140.00"}),
}


def make_slabs(today: dt.date | None = None) -> dict[str, Slab]:
    today = today or match_day()
    made = {}
    for asset_id, (name, grade, year, values) in SLABS.items():
        slab = Slab.objects.create(asset_id=asset_id, name=name, grade=D(grade), year=year)
        for ago, value in values.items():
            SlabValue.objects.create(slab=slab, date=today - dt.timedelta(days=ago), value=D(value))
        made[asset_id] = slab
    return made


@pytest.fixture
def slabs(db) -> dict[str, Slab]:
    return make_slabs()


@pytest.fixture
def rookie_team() -> list[str]:
    """A legal team worth $54.90 (rookie and up)."""
    return ["cc-7", "cc-2", "0x5f3a", "cc-3"]
