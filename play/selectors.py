"""Read queries of the match demo: card search for the deck builder (the site's one
search: ``cards.search.search_cards`` of a ``cards.query.parse`` d query), the
session's booster binder (``cards.binders``), suggestions, and a session's matches."""

from __future__ import annotations

import random
from collections.abc import Collection
from uuid import UUID

from django.db.models import QuerySet

from cards import binders
from cards.models import Card
from cards.query import Query
from cards.search import search_cards as explorer_search
from engine.data import DECK_MAX
from engine.types import Role

from .models import Match

__all__ = [
    "SEARCH_LIMIT",
    "binder",
    "cards_by_tokens",
    "match_by_id",
    "match_for_session",
    "search_cards",
    "session_matches",
    "suggested_deck",
]

SEARCH_LIMIT = 24
_CARD_FIELDS = ("token", "name", "rarity", "role", "atk", "hp", "defense", "energy_cost",
                "active_skill")  # fmt: skip


def _cards() -> QuerySet[Card]:
    return Card.objects.only(*_CARD_FIELDS)


def search_cards(
    query: Query,
    *,
    within: Collection[int] | None = None,
    page: int = 1,
    per_page: int = SEARCH_LIMIT,
) -> tuple[list[Card], bool]:
    """One page of the cards the explorer finds for ``query`` (in its order: strongest
    rarity first unless it says ``sort:``), only those numbered in ``within`` when given
    (a binder), and whether another page follows (one query: a row more than a page is
    read instead of counting them all)."""
    cards = explorer_search(query).only(*_CARD_FIELDS)
    if within is not None:
        cards = cards.filter(token__in=list(within))
    start = (max(page, 1) - 1) * per_page
    rows = list(cards[start : start + per_page + 1])
    return rows[:per_page], len(rows) > per_page


def binder(session_key: str | None) -> list[int]:
    """The tokens of the session's booster binder (the cards it pulled), or none."""
    return binders.session_tokens(session_key)


def cards_by_tokens(tokens: list[int]) -> list[Card]:
    """Those cards, in the order given (unknown tokens left out): one query."""
    found = {c.token: c for c in _cards().filter(token__in=tokens)}
    return [found[t] for t in tokens if t in found]


def suggested_deck(rng: random.Random) -> list[Card]:
    """One card per role, drawn at random among the catalogue (two queries)."""
    rows = list(Card.objects.collectible().order_by("token").values_list("token", "role"))
    picks: list[int] = []
    for role in (r.value for r in Role):
        tokens = [t for t, r in rows if r == role]
        if tokens:
            picks.append(rng.choice(tokens))
    if not picks and rows:
        picks = [t for t, _ in rng.sample(rows, min(DECK_MAX, len(rows)))]
    return cards_by_tokens(picks[:DECK_MAX])


def session_matches(session_key: str | None, limit: int = 10) -> list[Match]:
    """The session's latest matches (newest first; those set aside included)."""
    if not session_key:
        return []
    return list(
        Match.objects.filter(owner_session_key=session_key)
        .defer("deck_a", "deck_b", "actions")
        .order_by("-updated_at")[:limit]
    )


def match_by_id(public_id: UUID) -> Match | None:
    """The match with this public id, whoever owns it (a replay permalink)."""
    return Match.objects.filter(public_id=public_id).first()


def match_for_session(public_id: object, session_key: str | None) -> Match | None:
    """The match if it belongs to this session, else None (the view answers 404)."""
    if not session_key:
        return None
    return Match.objects.filter(public_id=public_id, owner_session_key=session_key).first()
