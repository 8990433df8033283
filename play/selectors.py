"""Read queries of the match demo: card search for the deck builder, suggestions,
and a session's matches."""

from __future__ import annotations

import random
from collections.abc import Iterable

from django.db.models import Q, QuerySet

from cards.models import Card, Role
from engine.data import DECK_MAX

from .models import Match

__all__ = [
    "SEARCH_LIMIT",
    "cards_by_tokens",
    "match_for_session",
    "parse_deck",
    "search_cards",
    "session_matches",
    "suggested_deck",
]

SEARCH_LIMIT = 24
PARSE_LIMIT = 16
_CARD_FIELDS = ("token", "name", "rarity", "role", "atk", "hp", "defense", "energy_cost",
                "active_skill")  # fmt: skip


def _cards() -> QuerySet[Card]:
    return Card.objects.only(*_CARD_FIELDS)


def search_cards(query: str, limit: int = SEARCH_LIMIT) -> list[Card]:
    """Cards whose name contains ``query`` (or whose token it is), strongest rarity first."""
    query = query.strip()[:100]
    cards = _cards()
    if query:
        condition = Q(name__icontains=query)
        digits = query.lstrip("#")
        if digits.isdigit():
            condition |= Q(token=int(digits))
        cards = cards.filter(condition)
    return list(cards.order_by("-rarity_rank", "token")[:limit])


def parse_deck(raw: str | Iterable[str]) -> list[int]:
    """Tokens from ``"12,45"`` (or a list of strings): distinct and positive, in order.

    Anything else is dropped: the builder's URLs are typed by hand too. At most
    ``PARSE_LIMIT`` tokens are kept (callers cut to a deck's four).
    """
    parts = raw.split(",") if isinstance(raw, str) else list(raw)
    tokens: list[int] = []
    for part in parts[: PARSE_LIMIT * 4]:
        part = str(part).strip()
        if part.isascii() and part.isdigit() and 0 < int(part) < 2**31 and int(part) not in tokens:
            tokens.append(int(part))
    return tokens[:PARSE_LIMIT]


def cards_by_tokens(tokens: list[int]) -> list[Card]:
    """Those cards, in the order given (unknown tokens left out): one query."""
    found = {c.token: c for c in _cards().filter(token__in=tokens)}
    return [found[t] for t in tokens if t in found]


def suggested_deck(rng: random.Random) -> list[Card]:
    """One card per role, drawn at random among the catalogue (two queries)."""
    rows = list(Card.objects.filter(starter=False).order_by("token").values_list("token", "role"))
    picks: list[int] = []
    for role in Role.values:
        tokens = [t for t, r in rows if r == role]
        if tokens:
            picks.append(rng.choice(tokens))
    if not picks and rows:
        picks = [t for t, _ in rng.sample(rows, min(DECK_MAX, len(rows)))]
    return cards_by_tokens(picks[:DECK_MAX])


def session_matches(session_key: str | None, limit: int = 10) -> list[Match]:
    """The session's latest matches (newest first)."""
    if not session_key:
        return []
    return list(
        Match.objects.filter(owner_session_key=session_key)
        .defer("deck_a", "deck_b", "actions")
        .order_by("-updated_at")[:limit]
    )


def match_for_session(public_id: object, session_key: str | None) -> Match | None:
    """The match if it belongs to this session, else None (the view answers 404)."""
    if not session_key:
        return None
    return Match.objects.filter(public_id=public_id, owner_session_key=session_key).first()
