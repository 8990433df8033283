"""Card rows: one card as every list shows it (grid tile, checklist row, text block)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.urls import get_script_prefix
from django.utils.translation import get_language, ngettext

from core.labels import card_title, label, label_of
from core.links import token_path
from core.memo import table
from engine.types import Rarity, Role, Skill, Slot

from ..selectors import list_rows


@dataclass(frozen=True, slots=True)
class CardRow:
    token: int
    title: str
    url: str
    picture_url: str
    rarity: str
    rarity_label: str
    role_label: str
    affinity_label: str
    active_label: str  # empty without an active skill
    energy: int
    atk: int
    hp: int
    def_: int
    ability: int
    rank: int | None
    burned: int
    score: object
    starter: bool
    attributes: tuple[tuple[str, str], ...]  # (slot label, attribute name)

    @property
    def attribute_names(self) -> list[str]:
        """The names alone, for the grid's tile (one ``join`` rather than a loop)."""
        return [name for _slot, name in self.attributes]

    @property
    def burned_text(self) -> str:
        """The text display's "3 burned stickers" (worded only where it is shown)."""
        return ngettext(
            "%(counter)s burned sticker", "%(counter)s burned stickers", self.burned
        ) % {"counter": self.burned}


def card_row(values: Mapping[str, Any]) -> CardRow:
    """A card as a list row, from its ``selectors.ROW_FIELDS`` (``list_rows``)."""
    token = values["token"]
    active = values["active_skill"]
    return CardRow(
        token=token,
        title=card_title(values["name"], token),
        url=token_path("explorer:card-detail", token),
        picture_url=token_path("explorer:card-picture", token),
        rarity=values["rarity"],
        rarity_label=label_of(Rarity, values["rarity"]),
        role_label=label_of(Role, values["role"]),
        affinity_label=label_of(Skill, values["skill_affinity"]),
        active_label=label_of(Skill, active) if active else "",
        energy=values["energy_cost"],
        atk=values["atk"],
        hp=values["hp"],
        def_=values["defense"],
        ability=values["ability"],
        rank=values["getgems_rank"],
        burned=values["burned_stickers"],
        score=values["wardrobe_score"],
        starter=values["starter"],
        attributes=tuple((label(slot), values[f"{slot.value}__name"]) for slot in Slot),
    )


#: Card rows kept per language in each process (≈ 1.5 KB each; a new version of the
#: collection starts afresh).
ROWS_KEPT = 4096


def rows_of(ids: list[int]) -> list[CardRow]:
    """The rows of these cards, in this order. Kept in this process per collection version
    and language, since search after search shows the same cards again (the first pages
    of the sorts and the rarities), and reading a card with its four attributes and
    wording its row cost more than the search itself. The cards not kept are read in one
    query."""
    if not ids:
        return []
    kept = table(f"explorer:rows:{get_language()}:{get_script_prefix()}", ("cards",), ROWS_KEPT)
    rows = {pk: row for pk in ids if (row := kept.get(pk)) is not None}
    missing = [pk for pk in ids if pk not in rows]
    for values in list_rows(missing) if missing else ():
        rows[values["pk"]] = kept.keep(values["pk"], card_row(values))
    return [rows[pk] for pk in ids if pk in rows]


def card_rows(queryset: Any, limit: int) -> list[CardRow]:
    """The first ``limit`` cards of a search as rows (the ids, then the rows not kept)."""
    return rows_of(list(queryset.values_list("pk", flat=True)[:limit]))
