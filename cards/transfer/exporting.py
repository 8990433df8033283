"""Export of the whole collection as one JSON file, entry by entry (stable order: the same
collection always gives the same bytes)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import IO, Any

from engine.serialize import card_to_json

from ..models import Attribute, Combo
from ..specs import iter_card_specs
from .reading import _SLOT_ORDER


def _attribute_json(slot: str, name: str, supply: int, kind: str) -> dict[str, Any]:
    return {"slot": slot, "name": name, "supply": supply, "kind": kind}


def export_collection(out: IO[str]) -> dict[str, int]:
    """Write the whole collection to ``out`` (one entry per line, stable order).

    Attributes in slot order then name, cards by token, combos by English name:
    the same collection always gives the same bytes.
    """
    attributes = sorted(
        Attribute.objects.values_list("slot", "name", "supply", "kind").iterator(chunk_size=10000),
        key=lambda row: (_SLOT_ORDER[row[0]], row[1]),
    )
    combos = []
    pairs: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for combo_id, slot, name in Combo.attributes.through.objects.values_list(
        "combo_id", "attribute__slot", "attribute__name"
    ):
        pairs[combo_id].append((slot, name))
    for combo in Combo.objects.order_by("name_en"):
        combos.append(
            {
                "name": {"en": combo.name_en, "ru": combo.name_ru or ""},
                "attributes": [
                    [slot, name]
                    for slot, name in sorted(
                        pairs[combo.id], key=lambda p: (_SLOT_ORDER[p[0]], p[1])
                    )
                ],
                "rarity": combo.rarity,
            }
        )

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    def write_list(name: str, items: Iterable[Any], last: bool = False) -> int:
        out.write(f'  "{name}": [')
        count = 0
        for item in items:
            out.write(("\n" if not count else ",\n") + "    " + dumps(item))
            count += 1
        out.write(("\n  ]" if count else "]") + ("\n" if last else ",\n"))
        return count

    def cards() -> Iterable[dict[str, Any]]:
        for batch in iter_card_specs(combos=()):
            for _pk, spec in batch:
                data = card_to_json(spec)
                data.pop("combos", None)
                yield data

    out.write("{\n")
    counts = {
        "attributes": write_list("attributes", (_attribute_json(*row) for row in attributes)),
        "cards": write_list("cards", cards()),
        "combos": write_list("combos", combos, last=True),
    }
    out.write("}\n")
    return counts
