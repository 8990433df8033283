"""The slab picture: an SVG of a graded case — the grade label on top, the card inside,
its element drawn on it. Colours come from the tier and the element; the rest is drawn
by ``templates/arena/partials/slab_case.svg``. No external images."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from engine.arena.slabs import Element, SlabTier

TIER_COLOURS = {
    SlabTier.COMMON: ("#5b6670", "#dde3e8"),
    SlabTier.UNCOMMON: ("#2f7d4a", "#d5f0dc"),
    SlabTier.RARE: ("#1f5fbf", "#d6e6ff"),
    SlabTier.EPIC: ("#7a2fbf", "#ecdcff"),
}
NO_VALUE_COLOURS = ("#8a8a8a", "#eeeeee")
ELEMENT_COLOURS = {
    Element.SUN: ("#f2a007", "#ffe7a8"),
    Element.MOON: ("#4a5dbd", "#dfe4ff"),
    Element.STAR: ("#c2358a", "#ffd9ee"),
}


@dataclass(frozen=True, slots=True)
class SlabArt:
    """What the SVG template needs (colours are CSS colour strings)."""

    uid: str
    title: str
    name: str
    grade: str
    year: int
    asset_id: str
    element: str
    element_label: str
    tier_label: str
    frame: str
    paper: str
    ink: str
    glow: str
    tilt: int


def slab_art(
    asset_id: str,
    name: str,
    grade: str,
    year: int,
    element: Element,
    element_label: str,
    tier: SlabTier | None,
    tier_label: str,
    title: str,
) -> SlabArt:
    """Colours and variants for one slab (the card's art tilts by its asset ID's hash).

    >>> art = slab_art("cc-1", "Mew", "9.5", 1999, Element.STAR, "Star", SlabTier.EPIC,
    ...                "epic", "Mew")
    >>> art.frame, art.ink
    ('#7a2fbf', '#c2358a')
    """
    frame, paper = TIER_COLOURS.get(tier, NO_VALUE_COLOURS) if tier else NO_VALUE_COLOURS
    ink, glow = ELEMENT_COLOURS[element]
    digest = hashlib.sha256(asset_id.encode("utf-8")).digest()
    return SlabArt(
        uid=digest.hex()[:10],
        title=title,
        name=name if len(name) <= 17 else name[:16] + "…",
        grade=grade,
        year=year,
        asset_id=asset_id if len(asset_id) <= 22 else asset_id[:21] + "…",
        element=element.value,
        element_label=element_label,
        tier_label=tier_label,
        frame=frame,
        paper=paper,
        ink=ink,
        glow=glow,
        tilt=(digest[1] % 21) - 10,
    )
