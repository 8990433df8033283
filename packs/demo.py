"""The demo pools ``make install`` creates (through ``manage.py load_demo``), and the
power promise it measures when none is stored.

The pools, each in both languages: the whole collection; one per role; and one themed
pool, "Night sky" — every card wearing an attribute whose name has one of
``NIGHT_SKY_WORDS``. Cards are chosen by rule, so the pools fit whatever collection the
generator made; Free (starter) cards never enter one.

The featured pool, Night sky, is curated to keep its power promise (seed 003: curation is
the mechanism): once the power is measured, the cards ``packs.promise.removals`` proposes
are taken out of it. The demo also holds openings of the last ``DEMO_DAYS`` days, their
server seeds revealed, so the ledger and its verification show on a fresh install.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q

from cards.models import EQUIPPED_FIELDS, Attribute, Card
from core.db import analyze
from engine.packs import GAUNTLET_PER_TIER
from engine.types import Role

from . import selectors, services
from .models import DaySeed, OddsVersion, Opening, Pool, PowerRun
from .promise import removals

__all__ = [
    "DEMO_POOLS",
    "FEATURED_POOL",
    "NIGHT_SKY_WORDS",
    "curate_featured",
    "load_demo_openings",
    "load_demo_packs",
]

FEATURED_POOL = "night-sky"
DEMO_DAYS = 3
DEMO_OPENINGS_PER_DAY = 6
DEMO_SESSION = "demo"

NIGHT_SKY_WORDS = ("Midnight", "Lunar", "Nebula", "Stormy")


@dataclass(frozen=True)
class DemoPool:
    slug: str
    name_en: str
    name_ru: str
    description_en: str
    description_ru: str
    cards: Q = field(default_factory=Q)


def _wears_any(words: tuple[str, ...]) -> Q:
    """The cards equipping, in any slot, an attribute whose name has one of ``words``.

    Written as "the slot's attribute is one of these" rather than as conditions on four
    joined attribute tables: with those ORs across the joins, PostgreSQL without table
    statistics (a collection loaded a moment ago) could pick a join order that crosses the
    attribute table with itself, and one loading of the demo took over ten minutes."""
    names = Q()
    for word in words:
        names |= Q(name__icontains=word)
    matching = Attribute.objects.filter(names).values("id")
    condition = Q()
    for slot in EQUIPPED_FIELDS:
        condition |= Q(**{f"{slot}__in": matching})
    return condition


_ROLE_TEXT = {
    Role.TANK: ("Tanks", "Tank", "Every Tank of the collection: the cards that take the blows."),
    Role.STRIKER: ("Strikers", "Striker", "Every Striker of the collection: the cards that hit."),
    Role.SUPPORT: (
        "Supports",
        "Support",
        "Every Support of the collection: the cards that heal and shield.",
    ),
    Role.CONTROL: (
        "Controls",
        "Control",
        "Every Control of the collection: the cards that burn and disrupt.",
    ),
}
_ROLE_TEXT_RU = {
    Role.TANK: "Все карты Tank коллекции — те, что принимают удар на себя.",
    Role.STRIKER: "Все карты Striker коллекции — те, что бьют.",
    Role.SUPPORT: "Все карты Support коллекции — те, что лечат и защищают.",
    Role.CONTROL: "Все карты Control коллекции — те, что жгут и мешают.",
}

DEMO_POOLS: tuple[DemoPool, ...] = (
    DemoPool(
        "whole-collection",
        "The whole collection",
        "Вся коллекция",
        "Every card of the catalogue, Free starter cards apart.",
        "Все карты каталога, кроме стартовых карт Free.",
    ),
    *(
        DemoPool(
            f"{role.value}-cards",
            _ROLE_TEXT[role][0],
            f"Карты {_ROLE_TEXT[role][1]}",
            _ROLE_TEXT[role][2],
            _ROLE_TEXT_RU[role],
            Q(role=role.value),
        )
        for role in Role
    ),
    DemoPool(
        "night-sky",
        "Night sky",
        "Ночное небо",
        "A themed pool: every card wearing something midnight, lunar, nebula or stormy.",
        "Тематический пул: все карты, на которых есть что-то полуночное, лунное, "
        "туманное или грозовое (Midnight, Lunar, Nebula, Stormy).",
        _wears_any(NIGHT_SKY_WORDS),
    ),
)


def load_demo_pools() -> list[Pool]:
    """Create the demo pools — only when there is no pool at all (an edited or emptied
    list of pools is left as it is). Returns the pools created."""
    if Pool.objects.exists():
        return []
    created = []
    with transaction.atomic():
        for position, demo in enumerate(DEMO_POOLS):
            pool = Pool.objects.create(
                slug=demo.slug,
                name_en=demo.name_en,
                name_ru=demo.name_ru,
                description_en=demo.description_en,
                description_ru=demo.description_ru,
                position=position * 10,
            )
            tokens = Card.objects.collectible().filter(demo.cards).values_list("id", flat=True)
            pool.cards.set(list(tokens))
            created.append(pool)
        analyze(Pool, Pool.cards.through)
    return created


def curate_featured() -> int | None:
    """Take out of the featured pool the cards that break its power promise (the fewest
    ``packs.promise.removals`` finds); how many, or None when no removal keeps it."""
    pool = Pool.objects.filter(slug=FEATURED_POOL).first()
    run = selectors.latest_power_run()
    if pool is None or run is None:
        return None
    powers = selectors.pool_powers(run, pool)
    proposed = removals(powers.values())
    if proposed:
        pool.cards.remove(*Card.objects.filter(token__in=[int(t) for t in proposed]))
    return None if proposed is None else len(proposed)


def load_demo_openings(days: int = DEMO_DAYS, per_day: int = DEMO_OPENINGS_PER_DAY) -> int:
    """Openings of the ``days`` days before today, across the pools, their seeds revealed
    (the days have ended) — only when no earlier day has a ledger. How many were made."""
    today = selectors.utc_today()
    if DaySeed.objects.filter(day__lt=today).exists():
        return 0
    pools = [p for p in Pool.objects.all() if len(selectors.candidates(p))]
    if not pools:
        return 0
    made = 0
    first = today - dt.timedelta(days=days)
    for back in range(days, 0, -1):
        day = services.day_seed(today - dt.timedelta(days=back))
        for i in range(per_day):
            pool = pools[(i + back) % len(pools)]
            tag = f"demo-{day.day.isoformat()}-{i + 1}"
            opened = services.open_pack(pool, DEMO_SESSION, tag, tag, day=day)
            noon = dt.datetime.combine(day.day, dt.time(12, i), tzinfo=dt.UTC)
            Opening.objects.filter(pk=opened.opening.pk).update(created_at=noon)
            made += 1
    start = dt.datetime.combine(first, dt.time(0), tzinfo=dt.UTC)
    OddsVersion.objects.filter(number=1, created_at__gt=start).update(created_at=start)
    return made


def load_demo_packs(
    say: Callable[[str], None] = lambda line: None, *, per_tier: int = GAUNTLET_PER_TIER
) -> None:
    """The demo pools (when there are none), the power promise (when none is stored) with
    the featured pool curated to keep it, and earlier days' openings."""
    created = load_demo_pools()
    if created:
        say(f"Booster pools: {len(created)} created ({', '.join(p.slug for p in created)}).")
    if not PowerRun.objects.exists():
        if not Card.objects.collectible().exists():
            say("Power promise: no catalogue card to measure yet.")
            return
        run = services.compute_power(per_tier=per_tier)
        say(
            f"Power promise: {run.matches:,} matches against a gauntlet of "
            f"{len(run.gauntlet)} decks in {run.seconds:.1f} s."
        )
    if created:
        taken = curate_featured()
        if taken is not None:
            say(f"Featured pool {FEATURED_POOL}: {taken} cards taken out to keep its promise.")
    openings = load_demo_openings()
    if openings:
        say(f"Ledger: {openings} openings over the last {DEMO_DAYS} days, seeds revealed.")
