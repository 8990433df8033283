"""Statistics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.utils.translation import gettext as _

from cards.search import count_searches
from core.labels import label, label_of, rule_label
from core.links import route_path
from core.memo import shared
from engine.data import RULE_KEYS
from engine.types import Rarity, Role, Skill, Slot

from ..charts import BarChart, bar_chart
from ..selectors import SUPPLY_BUCKETS, rarest_attributes
from ..selectors import supply_distribution as supply_counts
from .common import attribute_query


@dataclass(frozen=True, slots=True)
class StatisticsPage:
    total: int
    catalogue: int
    starters: int
    starters_url: str
    charts: list[BarChart]
    supply_buckets: list[str]
    supply_rows: list[tuple[str, list[int]]]
    rarest: list[Any]


def _bar_queries() -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Each chart's bars as (label, css class, search): the bar counts what the search finds."""
    active = [(label(s), s.value, f"active:{s.value}") for s in Skill]
    active.append((label(None), "none", "active:none"))
    return [
        (
            _("Rarity"),
            [(label(r), r.value, f"r:{r.value}") for r in Rarity if r is not Rarity.FREE],
        ),
        (_("Role"), [(label(r), r.value, f"role:{r.value}") for r in Role]),
        (_("Skill affinity"), [(label(s), s.value, f"s:{s.value}") for s in Skill]),
        (_("Active skill"), active),
        (
            _("Rule that decided the rarity"),
            [(rule_label(key), key, f"decided:{key}") for key in RULE_KEYS],
        ),
        (
            _("Special attributes and facts"),
            [
                (_("a complete combo"), "combo", "is:combo"),
                (_("a god attribute"), "god", "is:god"),
                (_("a premium skin"), "premium", "is:premium"),
                (_("a GetGems rank"), "rank", "has:rank"),
                (_("burned stickers"), "stickers", "has:stickers"),
            ],
        ),
    ]


def statistics_page() -> StatisticsPage:
    """Distributions of the collection: every bar counts exactly what its link finds.

    The charts count the main catalogue, as every search does by default: starter (Free)
    cards are counted apart, with their own link (``is:starter``).
    """
    list_url = route_path("explorer:card-list")
    charts_spec = _bar_queries()
    counts, supply, rarest = statistics_figures()
    charts = []
    for index, (title, bars) in enumerate(charts_spec):
        rows = [
            (
                name,
                counts[f"c{index}_{position}"],
                css,
                f"{list_url}?{urlencode({'q': q})}",
            )
            for position, (name, css, q) in enumerate(bars)
        ]
        charts.append(bar_chart(title, rows, of=counts["catalogue"]))
    return StatisticsPage(
        total=counts["catalogue"] + counts["starters"],
        catalogue=counts["catalogue"],
        starters=counts["starters"],
        starters_url=f"{list_url}?{urlencode({'q': 'is:starter'})}",
        charts=charts,
        supply_buckets=[text for _upper, text in SUPPLY_BUCKETS],
        supply_rows=[(label_of(Slot, slot), counts_) for slot, counts_ in supply.items()],
        rarest=[
            RarestRow(
                attribute,
                f"{list_url}?{urlencode({'q': attribute_query(attribute.slot, attribute.name)})}",
                counts[f"owns_{position}"],
                f"{list_url}?{urlencode({'q': owns_query(attribute.name)})}",
            )
            for position, attribute in enumerate(rarest)
        ],
    )


@dataclass(frozen=True, slots=True)
class RarestRow:
    """A rare attribute: the search for the cards wearing it, and how many cards of the
    catalogue own it (worn or not) with the search that finds exactly those."""

    attribute: Any
    url: str
    owners: int
    owners_url: str


def owns_query(name: str) -> str:
    """The search for the cards owning an attribute, worn or not: ``owns="Qx Mitten"``."""
    return f'owns="{name.replace(chr(34), "")}"'


#: How long the statistics' figures are kept (a change of the collection makes a new key).
STATISTICS_SECONDS = 24 * 60 * 60


def statistics_figures() -> tuple[dict[str, int], dict, list]:
    """The statistics page's counts, supply table and rarest attributes, kept in the shared
    cache per collection version: counting every bar reads every card (seconds at a
    million), so it is done once per version — by the job that follows a recompute
    (``explorer.tasks.statistics_task``) or by the first view after a change — never per
    view."""

    def build() -> tuple[dict[str, int], dict, list]:
        searches = {"starters": "is:starter", "catalogue": ""}
        for index, (_title, bars) in enumerate(_bar_queries()):
            for position, (_label, _css, q) in enumerate(bars):
                searches[f"c{index}_{position}"] = q
        rarest = list(rarest_attributes())
        for position, attribute in enumerate(rarest):
            searches[f"owns_{position}"] = owns_query(attribute.name)
        return count_searches(searches), supply_counts(), rarest

    return shared("explorer:statistics", ("cards",), (), build, STATISTICS_SECONDS)
