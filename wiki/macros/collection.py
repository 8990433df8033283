"""The live collection table (read on every view, see ``wiki.presenters``)."""

from __future__ import annotations

from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.labels import label
from engine import data

from .registry import (
    Col,
    MacroError,
    dash,
    note,
    num,
    percent,
    rarity_cell,
    register_macro,
    table,
)

# ---------------------------------------------------------------------------
# The live collection (read on every view: see wiki.presenters)


@register_macro("collection_stats", live=True)
def collection_stats(arg: str | None) -> str:
    """Cards by rarity (starter cards apart) and the active skills of the collection."""
    from django.apps import apps
    from django.db.models import Count

    try:
        card_model = apps.get_model("cards", "Card")
    except LookupError as exc:
        raise MacroError(_("The card collection is not available.")) from exc
    rows = card_model.objects.order_by().values("starter", "rarity", "active_skill")
    counts = rows.annotate(n=Count("pk"))
    by_rarity: dict[str, int] = {}
    with_skill: dict[str, int] = {}
    by_skill: dict[str, int] = {}
    starters = 0
    for row in counts:
        if row["starter"]:
            starters += row["n"]
            continue
        by_rarity[row["rarity"]] = by_rarity.get(row["rarity"], 0) + row["n"]
        if row["active_skill"]:
            with_skill[row["rarity"]] = with_skill.get(row["rarity"], 0) + row["n"]
            by_skill[row["active_skill"]] = by_skill.get(row["active_skill"], 0) + row["n"]
    total = sum(by_rarity.values())
    if not total and not starters:
        return note(_("The collection is empty."))
    rarity_rows = [
        (
            rarity_cell(rarity),
            num(by_rarity.get(str(rarity), 0)),
            percent(Fraction(by_rarity.get(str(rarity), 0), total)) if total else dash(),
            num(with_skill.get(str(rarity), 0)),
        )
        for rarity in data.RARITY_ORDER
        if str(rarity) != "free"
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
            starters,
        )
        % {"n": num(starters)},
    )
    skill_rows = [(label(skill), num(by_skill.get(str(skill), 0))) for skill in data.SKILL_PRIORITY]
    second = table(
        "collection_stats skills",
        (Col(_("Active skill")), Col(_("Cards"), num=True)),
        skill_rows,
    )
    return first + second
