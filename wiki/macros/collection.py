"""The live collection table, ``{{ collection_stats }}``: read on every view (see
``wiki.presenters``), from ``cards.selectors.collection_stats`` (one query)."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cards.selectors import collection_stats as read_collection_stats
from core.labels import label
from engine import data
from engine.types import Rarity

from .registry import Col, dash, note, num, percent, rarity_cell, register_macro, table


@register_macro("collection_stats", live=True)
def collection_stats(arg: str | None) -> str:
    """Cards by rarity (starter cards apart) and the active skills of the collection."""
    stats = read_collection_stats()
    if not stats["total"]:
        return note(_("The collection is empty."))
    total, by_rarity = stats["catalogue"], stats["by_rarity"]
    with_skill = stats["with_active_skill_by_rarity"]
    rarity_rows = [
        (
            rarity_cell(rarity),
            num(by_rarity.get(rarity.value, 0)),
            percent(Fraction(by_rarity.get(rarity.value, 0), total)) if total else dash(),
            num(with_skill.get(rarity.value, 0)),
        )
        for rarity in data.RARITY_ORDER
        if rarity is not Rarity.FREE
    ]
    rarity_rows.append(
        (_("Total"), num(total), percent(1) if total else dash(), num(sum(with_skill.values())))
    )
    first = table(
        "collection_stats",
        (
            Col(_("Rarity")),
            Col(_("Cards"), num=True),
            Col(_("Share"), num=True),
            Col(_("With an active skill"), num=True),
        ),
        rarity_rows,
        caption=ngettext(
            "The collection today; %(n)s starter (Free) card is not counted.",
            "The collection today; %(n)s starter (Free) cards are not counted.",
            stats["free"],
        )
        % {"n": num(stats["free"])},
    )
    # Starter cards are Free, and Free cards never have an active skill: every card counts.
    by_skill = stats["by_active_skill"]
    skill_rows = [
        (label(skill), num(by_skill.get(skill.value, 0))) for skill in data.SKILL_PRIORITY
    ]
    second = table(
        "collection_stats skills",
        (Col(_("Active skill")), Col(_("Cards"), num=True)),
        skill_rows,
    )
    return first + second
