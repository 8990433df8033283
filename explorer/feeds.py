"""Atom feeds of the collection's history (``django.contrib.syndication``): every recorded
change, and any card search followed as the cards entering and leaving it."""

from __future__ import annotations

import datetime
from typing import Any
from urllib.parse import urlencode

from django.contrib.syndication.views import Feed
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from cards.models import CardChange
from cards.query import Query
from core.cache import cached_page

from . import timeline
from .forms import SearchFeedForm, first_error, message_of

FEED_ITEMS = 100


def _moment(day: datetime.date) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time.min, tzinfo=datetime.UTC)


class ChangesFeed(Feed):
    """The newest recorded changes of the collection, changes of tier first each day."""

    feed_type = Atom1Feed

    def title(self) -> str:
        return _("Card Codex: card changes")

    def subtitle(self) -> str:
        return _(
            "Each change of a card's rarity, role, skill, template, stats, effects or energy cost, with its causes."
        )

    def link(self) -> str:
        return reverse("explorer:changes")

    def items(self) -> list[CardChange]:
        return list(timeline.latest_changes(FEED_ITEMS))

    def item_title(self, item: CardChange) -> str:
        row = timeline.change_rows([item])[0].rows[0]
        return _("%(card)s — %(field)s: %(before)s → %(after)s") % {
            "card": row.card_title,
            "field": row.field_label,
            "before": row.before,
            "after": row.after,
        }

    def item_description(self, item: CardChange) -> str:
        return "; ".join(timeline.cause_sentence(c) for c in item.causes)

    def item_link(self, item: CardChange) -> str:
        return reverse("explorer:card-history", kwargs={"token": item.card.token})

    def item_guid(self, item: CardChange) -> str:
        return f"card-change-{item.pk}"

    item_guid_is_permalink = False

    def item_pubdate(self, item: CardChange) -> datetime.datetime:
        return _moment(item.date)

    def item_updateddate(self, item: CardChange) -> datetime.datetime:
        return _moment(item.date)


class SearchFeed(Feed):
    """The cards entering and leaving one search, each entry with its cause."""

    feed_type = Atom1Feed

    def __init__(self, text: str, query: Query) -> None:
        super().__init__()
        self.text, self.query = text, query

    def title(self) -> str:
        return _("Card Codex: cards entering and leaving “%(q)s”") % {"q": self.text}

    def link(self) -> str:
        return f"{reverse('explorer:card-list')}?{_encode(self.text)}"

    def items(self) -> list[timeline.SearchEntry]:
        return timeline.search_entries(self.query)[:FEED_ITEMS]

    def item_title(self, item: timeline.SearchEntry) -> str:
        return item.title

    def item_description(self, item: timeline.SearchEntry) -> str:
        return "; ".join([item.headline, *item.causes])

    def item_link(self, item: timeline.SearchEntry) -> str:
        return item.url

    def item_guid(self, item: timeline.SearchEntry) -> str:
        return f"search-{item.key}"

    item_guid_is_permalink = False

    def item_pubdate(self, item: timeline.SearchEntry) -> datetime.datetime:
        return _moment(item.date)


def _encode(text: str) -> str:
    return urlencode({"q": text})


@require_safe
@cached_page(depends_on=("cards",), params=tuple(SearchFeedForm.base_fields))
def search_feed(request: HttpRequest) -> HttpResponse:
    """``?q=<search>``: an Atom feed of the cards entering and leaving that search."""
    form = SearchFeedForm(request.GET)
    if not form.is_valid():
        error = first_error(form)
        context: dict[str, Any] = {
            "message": message_of(error) if error else "",
            "card_url": reverse("explorer:changes"),
        }
        return render(request, "explorer/bad_day.html", context, status=400)
    text = str(form.data.get("q", ""))
    return SearchFeed(text, form.cleaned_data["q"])(request)


__all__ = ["ChangesFeed", "SearchFeed", "search_feed"]
