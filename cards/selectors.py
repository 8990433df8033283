"""Read queries over the collection that other apps reuse (the wiki, the explorer).

Everything here reads the stored derived fields, so it is index-backed and never
calls the engine; for a card's live breakdown use ``cards.specs``.
"""

from __future__ import annotations

from typing import Any, TypedDict

from django.db.models import Count, Q

from engine.types import Rarity, Role, Skill

from .models import Card

__all__ = [
    "CollectionStats",
    "collection_stats",
]

# Rarities of the main catalogue (Free, the starter tier, is reported apart).
CATALOGUE_RARITIES: tuple[str, ...] = tuple(r.value for r in Rarity if r is not Rarity.FREE)
ROLES: tuple[str, ...] = tuple(r.value for r in Role)
SKILLS: tuple[str, ...] = tuple(s.value for s in Skill)


class CollectionStats(TypedDict):
    total: int
    catalogue: int
    free: int
    by_rarity: dict[str, int]
    by_role: dict[str, int]
    by_skill_affinity: dict[str, int]
    by_active_skill: dict[str, int]
    without_active_skill: int
    with_active_skill_by_rarity: dict[str, int]


def collection_stats() -> CollectionStats:
    """Counts over the whole collection, in one query.

    Returns a dict::

        {
            "total": 1000,          # every card, starters included
            "catalogue": 976,       # non-starter cards (the main rarity catalogue)
            "free": 24,             # starter cards: the Free tier, kept out of by_rarity
            "by_rarity": {"common": …, "rare": …, "epic": …, "legendary": 146},
            "by_role": {"tank": …, "striker": …, "support": …, "control": …},
            "by_skill_affinity": {"pierce": …, "speed": …, "steal": …, "arcane": …},
            "by_active_skill": {"pierce": 27, "speed": 8, "steal": 33, "arcane": 78},
            "without_active_skill": 854,
            "with_active_skill_by_rarity": {"common": 0, …, "legendary": 146},
        }

    ``by_rarity`` and ``with_active_skill_by_rarity`` count the catalogue only (every
    rarity present, zero included, lowest first); ``by_role``, ``by_skill_affinity``, ``by_active_skill`` and
    ``without_active_skill`` count every card, starters included (they play too).
    Keys are the lowercase enum values in the engine's order; name them with
    ``core.labels.label_of(Rarity, key)`` and friends.
    """
    aggregates: dict[str, Any] = {
        "total": Count("id"),
        "free": Count("id", filter=Q(starter=True)),
        "without_active_skill": Count("id", filter=Q(active_skill__isnull=True)),
    }
    for value in CATALOGUE_RARITIES:
        aggregates[f"rarity_{value}"] = Count("id", filter=Q(starter=False, rarity=value))
        aggregates[f"skilled_{value}"] = Count(
            "id", filter=Q(starter=False, rarity=value, active_skill__isnull=False)
        )
    for value in ROLES:
        aggregates[f"role_{value}"] = Count("id", filter=Q(role=value))
    for value in SKILLS:
        aggregates[f"skill_{value}"] = Count("id", filter=Q(skill_affinity=value))
        aggregates[f"active_{value}"] = Count("id", filter=Q(active_skill=value))
    row = Card.objects.aggregate(**aggregates)
    return {
        "total": row["total"],
        "catalogue": row["total"] - row["free"],
        "free": row["free"],
        "by_rarity": {v: row[f"rarity_{v}"] for v in CATALOGUE_RARITIES},
        "by_role": {v: row[f"role_{v}"] for v in ROLES},
        "by_skill_affinity": {v: row[f"skill_{v}"] for v in SKILLS},
        "by_active_skill": {v: row[f"active_{v}"] for v in SKILLS},
        "without_active_skill": row["without_active_skill"],
        "with_active_skill_by_rarity": {v: row[f"skilled_{v}"] for v in CATALOGUE_RARITIES},
    }
