"""A card's link preview: its tags' text and its 1200×630 picture (``core.previews``).

The preview is the card's own, whatever what-if the page shows: the page's canonical
address is the card's, and so is what a chat unfolds.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from cards.art import RARITY_FRAME, card_art
from core.labels import card_title, label
from core.links import token_path
from core.previews import LinkPreview, preview_svg
from engine.card.derive import derive
from engine.types import Breakdown, CardSpec, Slot

from . import narration


def card_kind(breakdown: Breakdown) -> str:
    """ "Legendary Tank"."""
    return pgettext("card preview", "%(rarity)s %(role)s") % {
        "rarity": label(breakdown.rarity),
        "role": label(breakdown.role),
    }


def card_preview(card: CardSpec, breakdown: Breakdown | None = None) -> LinkPreview:
    """The card page's preview: "Legendary Tank — Legendary because of …"."""
    breakdown = breakdown or derive(card)
    title = card_title(card.name, card.token)
    return LinkPreview(
        title=title,
        description=f"{card_kind(breakdown)} — {narration.one_line_answer(breakdown)}",
        image=token_path("explorer:card-preview", card.token),
        image_alt=_("Picture of %(name)s") % {"name": title},
        kind="article",
        oembed=True,
    )


def card_preview_svg(card: CardSpec) -> str:
    """The 1200×630 picture: the card's own SVG, its name, kind and why."""
    breakdown = derive(card)
    rarity = breakdown.rarity.value
    art = card_art(
        card.token, card.name, rarity, {slot.value: card.attribute(slot).name for slot in Slot}
    )
    picture = render_to_string("explorer/partials/card_art.svg", {"art": art})
    return preview_svg(
        picture,
        card_title(card.name, card.token),
        card_kind(breakdown),
        narration.one_line_answer(breakdown),
        accent=RARITY_FRAME.get(rarity, RARITY_FRAME["common"])[0],
        site=_("Card Codex"),
    )
