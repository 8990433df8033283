"""Why this card (or why not): the query as a tree of checked clauses."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from cards.explain import Explained
from cards.models import Card
from cards.query import Query
from cards.specs import card_spec
from core.links import route_path

from ..forms import WhyForm
from ..selectors import combos
from ..whatif import Catalogue
from ..why import Why, why
from .lists import list_query
from .rows import CardRow, rows_of


@dataclass(frozen=True, slots=True)
class WhyRow:
    """One node of the explained query, flattened: its depth, whether it holds, and its
    words (a group's "all of these", a clause's question and the card's value)."""

    depth: int
    ok: bool
    kind: str  # "and", "or", "not", "leaf"
    clause: str = ""
    sentence: str = ""
    said: str = ""


@dataclass(frozen=True, slots=True)
class WhyPage:
    form: WhyForm
    q: str
    errors: list[str]
    card: CardRow | None = None
    why: Why | None = None
    rows: list[WhyRow] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    verdict: str = ""
    list_url: str = ""

    @property
    def status(self) -> int:
        return 400 if self.errors else 200


def _why_rows(node: Explained | None, depth: int = 0) -> list[WhyRow]:
    if node is None:
        return []
    if node.kind == "leaf":
        assert node.check is not None
        found = node.check
        return [WhyRow(depth, node.ok, "leaf", found.clause, found.sentence, found.said)]
    rows = [WhyRow(depth, node.ok, node.kind)]
    for child in node.children:
        rows += _why_rows(child, depth + 1)
    return rows


def why_page(form: WhyForm, catalogue: Catalogue) -> WhyPage:
    """Whether the search ``q`` finds the card, clause by clause, and what would make it."""
    text = str(form.data.get("q", ""))
    list_url = f"{route_path('explorer:card-list')}?{list_query(text)}".rstrip("?")
    if not str(form.data.get("card", "")).strip():  # the empty form: nothing asked yet
        return WhyPage(form=form, q=text, errors=[], list_url=list_url)
    if not form.is_valid():
        errors = [message for messages in form.errors.values() for message in messages]
        return WhyPage(form=form, q=text, errors=errors, list_url=list_url)
    query: Query = form.cleaned_data["q"]
    spec = card_spec(form.cleaned_data["card"], combos=combos())
    found = why(spec, query, text, catalogue)
    card = rows_of(list(Card.objects.filter(token=spec.token).values_list("pk", flat=True)))
    if found.matched:
        verdict = _("This search finds this card.")
    elif found.starter_left_out:
        verdict = _(
            "Every clause holds, but this is a starter card: a search leaves starter cards "
            "out unless it asks for them (add is:starter)."
        )
    else:
        verdict = _("This search does not find this card.")
    return WhyPage(
        form=form,
        q=text,
        errors=[],
        card=card[0] if card else None,
        why=found,
        rows=_why_rows(found.tree),
        warnings=[w.message for w in query.warnings],
        verdict=verdict,
        list_url=list_url,
    )
