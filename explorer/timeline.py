"""Presenters of a card's history: its timeline, the site's changes by day, a card as it
was on a day, and the fingerprint of the inputs a card was derived from.

Each recorded change (``cards.models.CardChange``) becomes a row in the visitor's
language: the field, before → after, and each cause as a sentence.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards import asof, history
from cards.models import Card, CardChange
from cards.query import Query
from core.labels import NONE_LABEL, card_title, label_of, template_label
from engine.card.causes import FIELDS
from engine.data import RULES_VERSION
from engine.types import CardSpec, EffectKind, EffectSlot, Rarity, Role, Skill, Slot

from . import selectors

__all__ = [
    "AsOf",
    "ChangeRow",
    "ChangesPage",
    "Day",
    "Fingerprint",
    "HistoryPage",
    "as_of",
    "cause_sentence",
    "change_json",
    "change_rows",
    "changes_page",
    "fingerprint",
    "history_page",
]

CHANGES_PER_PAGE = 100
HISTORY_LIMIT = 500  # a card's newest changes on its page and in its JSON

FIELD_LABELS: Mapping[str, Any] = {
    "rarity": gettext_lazy("Rarity"),
    "role": gettext_lazy("Role"),
    "skill": gettext_lazy("Skill"),
    "active_skill": gettext_lazy("Active skill"),
    "template": gettext_lazy("Template"),
    "stats": gettext_lazy("Stats"),
    "effects": gettext_lazy("Effects"),
    "energy_cost": gettext_lazy("Energy cost"),
}
assert set(FIELD_LABELS) == set(FIELDS)


def value_label(field: str, value: Any) -> str:
    """A recorded value in the visitor's language."""
    if value is None:
        return str(NONE_LABEL)
    if field == "rarity":
        return label_of(Rarity, value)
    if field == "role":
        return label_of(Role, value)
    if field in ("skill", "active_skill"):
        return label_of(Skill, value)
    if field == "template":
        return template_label(str(value))
    if field == "stats" and isinstance(value, Mapping):
        return _("ATK %(atk)s · HP %(hp)s · DEF %(def)s · ability %(ability)s") % {
            key: value.get(key, "?") for key in ("atk", "hp", "def", "ability")
        }
    if field == "effects" and isinstance(value, list):
        parts = []
        for text in value:
            slot, kind, number = ([*str(text).split(":"), "", "", ""])[:3]
            parts.append(f"{label_of(EffectSlot, slot)}: {label_of(EffectKind, kind)} {number}")
        return "; ".join(parts) or str(NONE_LABEL)
    return str(value)


def cause_sentence(cause: Mapping[str, Any]) -> str:
    """One cause as a sentence ("Supply of Rusty Ring (paw): 12 → 13")."""
    kind, what = cause.get("kind"), cause.get("what")
    before, after = cause.get("before"), cause.get("after")
    if kind == "market" and what == "supply":
        return _("Market: supply of %(name)s (%(slot)s) %(before)s → %(after)s") % {
            "name": cause.get("attribute"),
            "slot": label_of(Slot, cause.get("slot")),
            "before": before,
            "after": after,
        }
    if kind == "market":
        return _("Market: GetGems rank %(before)s → %(after)s") % {
            "before": NONE_LABEL if before is None else f"#{before}",
            "after": NONE_LABEL if after is None else f"#{after}",
        }
    if kind == "card" and what == "equipped":
        return _("Card: %(slot)s %(before)s → %(after)s") % {
            "slot": label_of(Slot, cause.get("slot")),
            "before": before,
            "after": after,
        }
    if kind == "card":
        template = _("Card: came to own %(name)s (%(slot)s)") if after else None
        template = template or _("Card: no longer owns %(name)s (%(slot)s)")
        return template % {
            "name": cause.get("attribute"),
            "slot": label_of(Slot, cause.get("slot")),
        }
    if kind == "rules" and cause.get("constant"):
        return _("Rules version %(version)s: %(constant)s %(before)s → %(after)s") % {
            "version": cause.get("version"),
            "constant": cause.get("constant"),
            "before": before,
            "after": after,
        }
    return _("Rules version %(version)s") % {"version": cause.get("version")}


def change_json(change: CardChange) -> dict[str, Any]:
    """A change as the API gives it."""
    return {
        "date": change.date.isoformat(),
        "field": change.field,
        "before": change.before,
        "after": change.after,
        "causes": change.causes,
    }


@dataclass(frozen=True, slots=True)
class ChangeRow:
    token: int
    card_title: str
    card_url: str
    field: str
    field_label: str
    before: str
    after: str
    causes: list[str]
    tier_change: bool


@dataclass(frozen=True, slots=True)
class Day:
    date: datetime.date
    label: str
    rows: list[ChangeRow]


def card_url(token: int) -> str:
    return reverse("explorer:card-detail", kwargs={"token": token})


def _row(change: CardChange, token: int, name: str) -> ChangeRow:
    return ChangeRow(
        token=token,
        card_title=card_title(name, token),
        card_url=card_url(token),
        field=change.field,
        field_label=str(FIELD_LABELS.get(change.field, change.field)),
        before=value_label(change.field, change.before),
        after=value_label(change.field, change.after),
        causes=[cause_sentence(c) for c in change.causes],
        tier_change=change.tier_change,
    )


def change_rows(changes: Iterable[CardChange]) -> list[Day]:
    """Changes (with ``card`` selected) grouped by day, in the order given."""
    days: list[Day] = []
    for change in changes:
        if not days or days[-1].date != change.date:
            days.append(Day(change.date, date_format(change.date, "DATE_FORMAT"), []))
        days[-1].rows.append(_row(change, change.card.token, change.card.name))
    return days


# ---------------------------------------------------------------------------
# The card: its fingerprint, as of a day, its history


@dataclass(frozen=True, slots=True)
class Fingerprint:
    sha256: str
    rules_version: str


def fingerprint(card: CardSpec) -> Fingerprint:
    return Fingerprint(inputs_sha256(card), RULES_VERSION)


def inputs_sha256(card: CardSpec) -> str:
    """``cards.history.fingerprint`` with the combos the English pages keep (no query)."""
    with translation.override("en"):
        english = selectors.combos()
    return history.fingerprint(card, combos=english)


@dataclass(frozen=True, slots=True)
class AsOf:
    """The card page asked for a past day: the card with that day's market data."""

    day: datetime.date
    label: str
    card: CardSpec
    today_url: str
    history_url: str


def as_of(card: CardSpec, day: datetime.date | None) -> AsOf | None:
    """The card as derived from ``day``'s inputs (None: today, nothing to say)."""
    if day is None:
        return None
    return AsOf(
        day=day,
        label=date_format(day, "DATE_FORMAT"),
        card=history.card_as_of(card, day),
        today_url=reverse("explorer:card-detail", kwargs={"token": card.token}),
        history_url=reverse("explorer:card-history", kwargs={"token": card.token}),
    )


@dataclass(frozen=True, slots=True)
class HistoryPage:
    title: str
    token: int
    card_url: str
    json_url: str
    days: list[Day]
    count: int
    fingerprint: Fingerprint


def history_page(card: CardSpec) -> HistoryPage:
    """A card's recorded changes, newest day first."""
    changes = (
        CardChange.objects.filter(card__token=card.token)
        .select_related("card")
        .order_by("-date", "-tier_change", "id")[:HISTORY_LIMIT]
    )
    days = change_rows(changes)
    return HistoryPage(
        title=_("History of %(card)s") % {"card": card_title(card.name, card.token)},
        token=card.token,
        card_url=reverse("explorer:card-detail", kwargs={"token": card.token}),
        json_url=reverse("api:card-history", kwargs={"token": card.token}),
        days=days,
        count=sum(len(d.rows) for d in days),
        fingerprint=fingerprint(card),
    )


def card_history_json(token: int) -> dict[str, Any] | None:
    """``{"token": …, "changes": [...]}``, newest first; None when there is no such card."""
    card_id = Card.objects.filter(token=token).values_list("id", flat=True).first()
    if card_id is None:
        return None
    changes = CardChange.objects.filter(card_id=card_id).order_by("-date", "-tier_change", "id")
    return {"token": token, "changes": [change_json(c) for c in changes[:HISTORY_LIMIT]]}


# ---------------------------------------------------------------------------
# The site's changes, by day


@dataclass(frozen=True, slots=True)
class ChangesPage:
    days: list[Day]
    page: Page
    previous_url: str
    next_url: str
    feed_url: str


def _ordered() -> Any:
    return CardChange.objects.select_related("card").order_by(
        "-date", "-tier_change", "card__token", "id"
    )


def changes_page(number: int) -> ChangesPage:
    """Every recorded change, newest day first, each day's changes of tier first."""
    paginator = Paginator(_ordered(), CHANGES_PER_PAGE)
    page = paginator.get_page(number)
    base = reverse("explorer:changes")
    return ChangesPage(
        days=change_rows(page.object_list),
        page=page,
        previous_url=f"{base}?page={page.previous_page_number()}" if page.has_previous() else "",
        next_url=f"{base}?page={page.next_page_number()}" if page.has_next() else "",
        feed_url=reverse("explorer:changes-feed"),
    )


def latest_changes(limit: int = 50) -> Sequence[CardChange]:
    """The newest changes (the feed's entries)."""
    return list(_ordered()[:limit])


# ---------------------------------------------------------------------------
# A search followed as a feed: the cards entering and leaving it, with the cause


FEED_DAYS = 14  # the newest days with changes a search feed looks at
FEED_CARDS = 2000  # at most this many changed cards a day are checked against the search


@dataclass(frozen=True, slots=True)
class SearchEntry:
    """A card that entered (or left) a search on a day, and why."""

    key: str
    date: datetime.date
    token: int
    title: str
    entered: bool
    headline: str
    causes: list[str]
    url: str


def search_entries(query: Query) -> list[SearchEntry]:
    """The cards that entered or left ``query``'s results on each of the newest days with
    changes, newest first: each card's values the day before and that day, searched."""
    days = list(
        CardChange.objects.order_by("-date").values_list("date", flat=True).distinct()[:FEED_DAYS]
    )
    entries: list[SearchEntry] = []
    for day in days:
        changes: dict[int, list[CardChange]] = {}
        for change in (
            CardChange.objects.filter(date=day)
            .select_related("card")
            .order_by("-tier_change", "card_id", "id")
        ):
            if change.card_id in changes or len(changes) < FEED_CARDS:
                changes.setdefault(change.card_id, []).append(change)
        before = asof.facts_as_of(changes, day - datetime.timedelta(days=1))
        after = asof.facts_as_of(changes, day)
        was, now = asof.matching(query, before), asof.matching(query, after)
        if not query.wants_free_cards:
            was = {i for i in was if not before[i]["starter"]}
            now = {i for i in now if not after[i]["starter"]}
        for card_id in sorted(was ^ now, key=lambda i: changes[i][0].card.token):
            entries.append(_entry(day, changes[card_id], card_id in now))
    return entries


def _entry(day: datetime.date, changes: list[CardChange], entered: bool) -> SearchEntry:
    card = changes[0].card
    title = card_title(card.name, card.token)
    template = _("%(card)s entered the search") if entered else _("%(card)s left the search")
    first = changes[0]
    return SearchEntry(
        key=f"{day.isoformat()}-{card.token}-{'in' if entered else 'out'}",
        date=day,
        token=card.token,
        title=template % {"card": title},
        entered=entered,
        headline=_("%(field)s: %(before)s → %(after)s")
        % {
            "field": FIELD_LABELS.get(first.field, first.field),
            "before": value_label(first.field, first.before),
            "after": value_label(first.field, first.after),
        },
        causes=list(dict.fromkeys(cause_sentence(c) for ch in changes for c in ch.causes)),
        url=card_url(card.token),
    )
