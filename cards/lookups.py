"""Two PostgreSQL lookups that let the planner choose how to answer a card search.

``id IN (SELECT …)`` under an ``OR`` becomes a *hashed subplan*: PostgreSQL reads every
match first (20,000 rows for a pet's name at a million cards) before it can test the
first card of the page. Said of the row itself, the same conditions can be tested while
the sort's index is walked (a page of a common word reads a few thousand index entries),
and each one still has an index for a rare word (the planner ORs their bitmaps):

* ``name__words``: the row's name against the word index, the very expression of the
  GIN index ``cards.search_index`` creates;
* ``<slot>__any_of``: ``slot_id = ANY(ARRAY(subquery))``, answered by the slot's
  foreign-key index when the attributes are few.

Only a word uses them (``cards.search``): a kind, an exact name or a supply alone is a
UNION of slot look-ups, which PostgreSQL answers well at the top of a query (the array's
size is unknown when the plan is made, so ``is:god`` would walk the whole list). SQLite
keeps the ``IN`` shapes everywhere (its planner reads them through the indexes).
"""

from __future__ import annotations

from django.db.models import Lookup

from .query import SLOT_FIELDS

__all__ = ["AnyOf", "NameWords", "register"]


class AnyOf(Lookup):
    """``column = ANY(ARRAY(subquery))`` (PostgreSQL)."""

    lookup_name = "any_of"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} = ANY(ARRAY{rhs})", [*lhs_params, *rhs_params]


class NameWords(Lookup):
    """The name's words match a tsquery (``cards.search_index.ts_query``), PostgreSQL."""

    lookup_name = "words"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return (
            f"to_tsvector('simple'::regconfig, COALESCE({lhs}, '')) "
            f"@@ to_tsquery('simple'::regconfig, {rhs})",
            [*lhs_params, *rhs_params],
        )


def register() -> None:
    """Register the lookups on the card's fields that use them (``CardsConfig.ready``)."""
    from .models import Card

    for slot in SLOT_FIELDS:
        Card._meta.get_field(slot).register_lookup(AnyOf)
    Card._meta.get_field("name").register_lookup(NameWords)
