"""Why a search finds a card, or why not — and, for a card it does not find, the nearest
what-if that would make the search find it (issue 30).

The clauses are checked by ``cards.explain`` against the card's stored values. When a
failing clause is about something the card itself could change — what it wears from its
own wardrobe, its burned stickers, its GetGems rank — the what-ifs are tried nearest
first: one swap from the wardrobe, one rank, one sticker count (the values the query
names, and the card page's ways up), then a swap with a rank or a sticker count. Each is
derived (``explorer.whatif.apply``, ``engine.card.derive``) and checked against the whole
query, so a suggested permalink is known to match. At most ``MAX_TRIES`` derivations.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from cards.explain import (
    Check,
    Explained,
    derived_facts,
    explain,
    failing,
    holds,
    matches,
    stored_facts,
)
from cards.explain import checks as leaf_checks
from cards.explain import leaves as query_leaves
from cards.query import Query, Term
from core.links import token_path
from engine.card.derive import derive
from engine.card.rarity import paths_to
from engine.types import CardSpec, Rarity, Slot

from .whatif import MAX_BURNED, MAX_RANK, Catalogue, WhatIf, apply, suggestions

__all__ = ["MAX_TRIES", "Why", "nearest_whatif", "why"]

MAX_TRIES = 200  # rarity decisions one "why not" may spend looking for a what-if

# Clauses no what-if of the card can change: who it is and what it owns.
_FIXED_FIELDS = frozenset({"name", "token", "starter", "owns", "score"})


@dataclass(frozen=True, slots=True)
class Why:
    """A card against a search: whether the search finds it, the query as a tree of
    checked clauses, the clauses keeping it out, and the nearest what-if that would
    make it match (None: none within reach, or it matches)."""

    token: int
    matched: bool
    tree: Explained | None
    checks: list[Check]
    failed: list[Check]
    starter_left_out: bool  # the clauses hold, but a search leaves starters out unless asked
    whatif: WhatIf | None
    whatif_url: str


def why(card: CardSpec, query: Query, text: str, catalogue: Catalogue) -> Why:
    facts = stored_facts([card])[card.token]
    tree = explain(query.root, facts, text)
    matched = matches(query, facts)
    starter_left_out = not matched and holds(query.root, facts)
    failed = failing(tree)
    whatif = None
    if not matched and not starter_left_out and _changeable(query):
        whatif = nearest_whatif(card, query, catalogue)
    url = ""
    if whatif is not None:
        url = f"{token_path('explorer:card-detail', card.token)}?{whatif.query()}"
    return Why(
        token=card.token,
        matched=matched,
        tree=tree,
        checks=leaf_checks(query, facts, text),
        failed=failed,
        starter_left_out=starter_left_out,
        whatif=whatif,
        whatif_url=url,
    )


def _changeable(query: Query) -> bool:
    """Some clause is about what a what-if can change (not the name, token or wardrobe)."""
    for leaf in query_leaves(query.root):
        if not isinstance(leaf, Term):
            return True  # a word can match an attribute the card could wear
        if leaf.field not in _FIXED_FIELDS and not (leaf.field == "is" and leaf.value == "starter"):
            return True
    return False


def _numbers(query: Query, field: str) -> list[int | None]:
    """Values of ``field`` the query names, and one either side (what satisfies each
    comparison or its opposite)."""
    values: list[int | None] = []
    for leaf in query_leaves(query.root):
        if not isinstance(leaf, Term):
            continue
        if leaf.field == field:
            if leaf.value is None:
                values.append(None)
                continue
            number = int(leaf.value)  # type: ignore[call-overload]
            values.extend([number, number - 1, number + 1])
        elif leaf.field == "has" and leaf.value == ("rank" if field == "rank" else "stickers"):
            values.extend([None, 1] if field == "rank" else [0, 1])
    return values


def _candidates(card: CardSpec, query: Query, catalogue: Catalogue) -> Iterator[WhatIf]:
    swaps = [WhatIf({a.slot.value: a.name}) for a in card.wardrobe]
    ranks = []
    for value in _numbers(query, "rank"):
        if (value is None or 1 <= value <= MAX_RANK) and value != card.getgems_rank:
            ranks.append(WhatIf(rank=value))
    burned = []
    for value in _numbers(query, "burned"):
        if value is not None and 0 <= value <= MAX_BURNED and value != card.burned_stickers:
            burned.append(WhatIf(burned=value))
    # The card page's ways up towards every rarity the query names, where they only
    # change what the card can change itself (no attribute it does not own).
    owned = {a.key for a in card.owned}
    ways = []
    for leaf in query_leaves(query.root):
        if isinstance(leaf, Term) and leaf.field in ("rarity", "near") and leaf.value != "free":
            towards = paths_to(card, Rarity(str(leaf.value)))
            if towards is None:
                continue
            for found in suggestions(card, towards.paths, catalogue):
                equip = found.whatif.equip
                if all((Slot(slot), name) in owned for slot, name in equip.items()):
                    ways.append(found.whatif)
    singles = _unique([*swaps, *ranks, *burned, *ways])
    yield from singles
    changes = _unique([*ranks, *burned])
    for swap in swaps:
        for change in changes:
            yield swap.then(change)
    for rank in ranks:
        for stickers in burned:
            yield rank.then(stickers)


def _unique(whatifs: list[WhatIf]) -> list[WhatIf]:
    seen, kept = set(), []
    for whatif in whatifs:
        key = whatif.query()
        if key and key not in seen:
            seen.add(key)
            kept.append(whatif)
    return kept


def nearest_whatif(card: CardSpec, query: Query, catalogue: Catalogue) -> WhatIf | None:
    """The first what-if, nearest first, whose card the search would find (derived and
    checked), or None within ``MAX_TRIES`` derivations."""
    wants_near = any(
        isinstance(leaf, Term) and leaf.field == "near" for leaf in query_leaves(query.root)
    )
    spent = 0
    for whatif in _candidates(card, query, catalogue):
        changed = apply(card, whatif, catalogue)
        # A near: clause decides the what-if's card again for every swap of its wardrobe.
        spent += 1 + (len(changed.wardrobe) if wants_near else 0)
        if spent > MAX_TRIES:
            return None
        facts = derived_facts(changed, derive(changed), near=wants_near)
        if matches(query, facts):
            return whatif
    return None
