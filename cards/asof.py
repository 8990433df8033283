"""``as:YYYY-MM-DD``: search the collection as it was on a day.

Only the cards something happened to since that day can answer differently: those with a
change recorded after it (``CardChange``), a GetGems rank recorded after it, or (when the
search asks about supply) an equipped attribute whose supply was recorded after it. Every
other card is searched as it is (by the database). For the changed cards, their
values on that day are their current ones rolled back through the recorded changes
(each field's first change after the day gives its value then), the rank and supplies
are the records of that day, and the search's tree is evaluated on them: the fields that
change with time in Python, the others (names, attributes worn, kinds, combos) by the
database, as the search would.
"""

from __future__ import annotations

import datetime
import operator
from collections.abc import Callable, Iterable
from typing import Any

from django.db.models import Max, Q

from . import history
from .models import (
    EQUIPPED_FIELDS,
    RARITY_RANK,
    Attribute,
    Card,
    CardChange,
    RankRecord,
    SupplyRecord,
)
from .query import SUPPLY_FIELDS, Node, Query, Term, Word, holds, walk

__all__ = ["as_of_condition", "facts_as_of", "matching"]

_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
# Query field → the fact it compares (facts_as_of's keys).
_FACT = {
    "role": "role",
    "skill": "skill_affinity",
    "active": "active_skill",
    "energy": "energy_cost",
    "atk": "atk",
    "hp": "hp",
    "def": "defense",
    "ability": "ability",
    "rank": "getgems_rank",
}
_SUPPLY_TERMS = frozenset({"supply", *SUPPLY_FIELDS})
# Recorded field → stored columns (engine.card.causes.FIELDS).
_COLUMNS = ("rarity", "role", "skill_affinity", "active_skill", "energy_cost", "atk", "hp")
_COLUMNS += ("defense", "ability", "getgems_rank", "starter")


def _asks_supply(query: Query) -> bool:
    return any(
        isinstance(leaf, Term) and leaf.field in _SUPPLY_TERMS for leaf, _ in walk(query.root)
    )


def _changed_since(day: datetime.date, supply: bool) -> set[int]:
    ids = set(CardChange.objects.filter(date__gt=day).values_list("card_id", flat=True))
    ids |= set(RankRecord.objects.filter(date__gt=day).values_list("card_id", flat=True))
    if supply:
        attributes = SupplyRecord.objects.filter(date__gt=day).values("attribute_id")
        equipping = Q()
        for field in EQUIPPED_FIELDS:
            equipping |= Q(**{f"{field}_id__in": attributes})
        ids |= set(Card.objects.filter(equipping).values_list("id", flat=True))
    return ids


def _latest(model, key: str, value: str, ids: Iterable[int], day: datetime.date) -> dict:
    """The value of each key's newest record on or before ``day``."""
    ids = list(ids)
    out: dict[int, Any] = {}
    for start in range(0, len(ids), 5000):
        chunk = ids[start : start + 5000]
        newest = (
            model.objects.filter(**{f"{key}__in": chunk}, date__lte=day)
            .values(key)
            .annotate(newest=Max("date"))
        )
        days = {row[key]: row["newest"] for row in newest}
        rows = model.objects.filter(**{f"{key}__in": list(days)}, date__in=set(days.values()))
        for k, d, v in rows.values_list(key, "date", value):
            if days.get(k) == d:
                out[k] = v
    return out


def facts_as_of(card_ids: Iterable[int], day: datetime.date) -> dict[int, dict[str, Any]]:
    """Each card's searchable values on ``day``: the stored ones rolled back through the
    changes recorded after it, that day's rank, and its equipped supplies that day."""
    ids = sorted(set(card_ids))
    facts: dict[int, dict[str, Any]] = {}
    equipped = [f"{slot}_id" for slot in EQUIPPED_FIELDS]
    for start in range(0, len(ids), 5000):
        rows = Card.objects.filter(id__in=ids[start : start + 5000]).values(
            "id", *_COLUMNS, *equipped
        )
        for row in rows:
            facts[row["id"]] = row
    rolled: set[tuple[int, str]] = set()
    changes = CardChange.objects.filter(card_id__in=ids, date__gt=day).order_by("date", "id")
    for card_id, field, before in changes.values_list("card_id", "field", "before"):
        if (card_id, field) in rolled:
            continue
        rolled.add((card_id, field))
        fact = facts[card_id]
        if field == "stats" and isinstance(before, dict):
            fact.update(atk=before.get("atk"), hp=before.get("hp"), defense=before.get("def"))
            fact["ability"] = before.get("ability")
        elif field == "skill":
            fact["skill_affinity"] = before
        elif field in fact:
            fact[field] = before
    for card_id, rank in _latest(RankRecord, "card_id", "getgems_rank", ids, day).items():
        facts[card_id]["getgems_rank"] = rank
    attributes = {fact[f] for fact in facts.values() for f in equipped}
    supply = dict(Attribute.objects.filter(id__in=attributes).values_list("id", "supply"))
    supply.update(_latest(SupplyRecord, "attribute_id", "supply", attributes, day))
    for fact in facts.values():
        for slot in EQUIPPED_FIELDS:
            fact[f"{slot}_supply"] = supply[fact[f"{slot}_id"]]
    return facts


def _compare(left: Any, op: str, right: Any) -> bool:
    if right is None or left is None:
        same = left is right
        return same if op == "=" else (not same if op == "!=" else False)
    return _OPS[op](left, right)


def _timely(term: Term, fact: dict[str, Any]) -> bool | None:
    """The term on the card's values that day; None when time does not change it."""
    field = term.field
    if field == "rarity":
        return _compare(RARITY_RANK[fact["rarity"]], term.op, RARITY_RANK[str(term.value)])
    if field in _FACT:
        return _compare(fact[_FACT[field]], term.op, term.value)
    if field == "undercharged":
        return fact["energy_cost"] > term.value
    if field == "supply":
        values = [fact[f"{slot}_supply"] for slot in EQUIPPED_FIELDS]
        if term.op == "!=":
            return term.value not in values
        return any(_compare(v, term.op, term.value) for v in values)
    if field in SUPPLY_FIELDS:
        return _compare(fact[field], term.op, term.value)
    if field == "is" and term.value == "legendary-skill":
        return fact["active_skill"] is not None
    if field == "has" and term.value == "rank":
        return fact["getgems_rank"] is not None
    return None


def matching(query: Query, facts: dict[int, dict[str, Any]]) -> set[int]:
    """The cards of ``facts`` that ``query``'s tree finds on those values."""
    from .search import condition  # the database's half of the search

    ids = list(facts)
    static: dict[int, set[int]] = {}

    def by_database(node: Node) -> set[int]:
        key = id(node)
        if key not in static:
            found = Card.objects.filter(id__in=ids).filter(condition(node))
            static[key] = set(found.values_list("id", flat=True))
        return static[key]

    def leaf_holds(leaf: Term | Word, card_id: int) -> bool:
        if isinstance(leaf, Term):
            answer = _timely(leaf, facts[card_id])
            if answer is not None:
                return answer
        return card_id in by_database(leaf)

    return {
        card_id
        for card_id in ids
        if holds(query.root, lambda leaf, card_id=card_id: leaf_holds(leaf, card_id))
    }


def as_of_condition(query: Query, found: Q) -> Q:
    """``found`` (what ``query`` finds today) turned into what it found on ``query.as_of``."""
    day = query.as_of
    if day is None or day >= history.today():
        return found
    changed = _changed_since(day, _asks_supply(query))
    if not changed:
        return found
    then = matching(query, facts_as_of(changed, day))
    starters = Q() if query.wants_free_cards else Q(starter=False)
    return (found & ~Q(id__in=changed)) | (Q(id__in=sorted(then)) & starters)
