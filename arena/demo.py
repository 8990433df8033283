"""The demo arena: a seeded set of slabs with 30 days of insured values.

``generate(today)`` draws about 200 slabs so that every tier, HP band, element, attack
band, armor band and bracket appears, and a quarter of them are "edge walkers" whose value
crosses a band edge (HP or tier) during the 30 days — so the slab page's ``?date=`` shows
stats changing over time. A few slabs are newly listed: their values start later, so some
days have no value for them. ``load(today)`` stores them once (a database that already
has slabs is left alone).

>>> import datetime as dt
>>> slabs = generate(dt.date(2026, 1, 30), count=20)
>>> len(slabs), len(slabs[0].values) <= DEMO_DAYS
(20, True)
>>> slabs == generate(dt.date(2026, 1, 30), count=20)  # seeded: the same every time
True
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db import transaction

from core import versions
from core.db import analyze
from engine.arena.slabs import HP_BY_VALUE, TIER_BY_VALUE, USD_CENT

from .models import Slab, SlabValue

__all__ = ["DEMO_DAYS", "DEMO_SEED", "DEMO_SLABS", "DemoSlab", "generate", "load"]

DEMO_SEED = 2026
DEMO_SLABS = 200
DEMO_DAYS = 30

_CREATURES = (
    "Drake", "Sprite", "Golem", "Lynx", "Wyvern", "Otter", "Phoenix", "Tortoise", "Fox",
    "Kraken", "Moth", "Stag", "Beetle", "Heron", "Salamander", "Yeti", "Pup", "Owl",
)  # fmt: skip
_ADJECTIVES = (
    "Ember", "Tide", "Moss", "Storm", "Frost", "Gilded", "Shadow", "Thorn", "Dawn", "Ash",
    "Crystal", "Ironbark", "Velvet", "Rune", "Static", "Coral", "Dusk", "Saffron",
)  # fmt: skip
_VARIANTS = ("Holo", "1st Edition", "Reverse Holo", "Promo", "Shadowless", "Full Art", "")
# Grades: PSA-style, mostly high. (grade, weight)
_GRADES = ((Decimal("10"), 14), (Decimal("9.5"), 6), (Decimal("9"), 22), (Decimal("8.5"), 8),
           (Decimal("8"), 18), (Decimal("7.5"), 5), (Decimal("7"), 12), (Decimal("6"), 7),
           (Decimal("5"), 4), (Decimal("3"), 2), (Decimal("1.5"), 1), (Decimal("1"), 1))  # fmt: skip
# Value profiles: (weight, low, high) in dollars, drawn log-uniformly.
_PROFILES = ((44, 2, 24.99), (20, 25, 74.99), (17, 75, 249.99), (13, 250, 1999.99),
             (6, 2000, 9000))  # fmt: skip
_EDGES = sorted({b.below for b in (*HP_BY_VALUE, *TIER_BY_VALUE) if b.below is not None})
EDGE_WALKERS = 0.25  # share of slabs whose value crosses a band edge during the days
NEW_LISTINGS = 0.05  # share of slabs whose values start part-way through


@dataclass(frozen=True, slots=True)
class DemoSlab:
    asset_id: str
    name: str
    grade: Decimal
    year: int
    values: tuple[tuple[dt.date, Decimal], ...]


def _cents(amount: float) -> Decimal:
    return max(USD_CENT, Decimal(str(amount)).quantize(USD_CENT, rounding=ROUND_HALF_UP))


def _weighted(rng: random.Random, items: tuple) -> object:
    return rng.choices([i[0] for i in items], weights=[i[1] for i in items])[0]


def generate(
    today: dt.date, *, seed: int = DEMO_SEED, count: int = DEMO_SLABS, days: int = DEMO_DAYS
) -> list[DemoSlab]:
    """The demo slabs and their values for the ``days`` days ending ``today`` (UTC)."""
    rng = random.Random(seed)
    first_day = today - dt.timedelta(days=days - 1)
    ids: set[str] = set()
    out = []
    for i in range(count):
        asset_id = f"cc-{rng.randrange(16**8):08x}"
        while asset_id in ids:
            asset_id = f"cc-{rng.randrange(16**8):08x}"
        ids.add(asset_id)
        variant = rng.choice(_VARIANTS)
        name = f"{rng.choice(_ADJECTIVES)} {rng.choice(_CREATURES)}" + (
            f" · {variant}" if variant else ""
        )
        grade = _weighted(rng, _GRADES)
        # Years in all three armor bands: a third each, roughly.
        year = rng.choice(
            (rng.randint(1996, 2003), rng.randint(2004, 2015), rng.randint(2016, 2025))
        )
        if i < len(_PROFILES) * 2:  # the first few: every profile at least twice
            _, low, high = _PROFILES[i % len(_PROFILES)]
        else:
            _, low, high = _weighted(rng, tuple((p, p[0]) for p in _PROFILES))  # type: ignore[misc]
        walker = rng.random() < EDGE_WALKERS
        if walker:
            edge = float(rng.choice(_EDGES))
            start_gap, end_gap = rng.uniform(0.02, 0.12), rng.uniform(0.02, 0.12)
            up = rng.random() < 0.5
            start = edge * (1 - start_gap) if up else edge * (1 + start_gap)
            end = edge * (1 + end_gap) if up else edge * (1 - end_gap)
            drift = math.log(end / start) / max(1, days - 1)
            noise = 0.004
        else:
            start = math.exp(rng.uniform(math.log(low), math.log(high)))
            drift = rng.gauss(0, 0.004)
            noise = 0.015
        begins = rng.randrange(days // 3, days - 2) if rng.random() < NEW_LISTINGS else 0
        values = []
        level = math.log(start)
        for d in range(days):
            level += drift + rng.gauss(0, noise) if d else 0
            if d >= begins:
                values.append((first_day + dt.timedelta(days=d), _cents(math.exp(level))))
        out.append(DemoSlab(asset_id, name, grade, year, tuple(values)))  # type: ignore[arg-type]
    return out


def load(today: dt.date, *, seed: int = DEMO_SEED, count: int = DEMO_SLABS) -> int:
    """Store the demo slabs once; returns how many were created (0: slabs exist already)."""
    if Slab.objects.exists():
        return 0
    demo = generate(today, seed=seed, count=count)
    with transaction.atomic():
        rows = Slab.objects.bulk_create(
            [Slab(asset_id=s.asset_id, name=s.name, grade=s.grade, year=s.year) for s in demo]
        )
        by_id = {
            r.asset_id: r for r in Slab.objects.filter(asset_id__in=[s.asset_id for s in demo])
        }
        SlabValue.objects.bulk_create(
            [
                SlabValue(slab=by_id[s.asset_id], date=day, value=value)
                for s in demo
                for day, value in s.values
            ],
            batch_size=2000,
        )
        analyze(Slab, SlabValue)
        versions.bump("arena")
    return len(rows)
