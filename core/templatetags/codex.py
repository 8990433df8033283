"""Template helpers shared by the site's apps."""

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from core.labels import enum_label

register = template.Library()


@register.filter
def label(value: object, kind: str) -> str:
    """The translated name of an engine enum value: ``{{ card.rarity|label:"rarity" }}``."""
    return enum_label(kind, str(getattr(value, "value", value)) if value is not None else None)


@register.simple_tag
def card_art(art: object) -> str:
    """A card's picture (``explorer.art.CardArt``) as inline SVG: the one Jinja2 template
    ``explorer/partials/card_art.svg``, which the card page and the picture file use too."""
    return mark_safe(
        render_to_string("explorer/partials/card_art.svg", {"art": art}, using="jinja2")
    )


@register.simple_tag
def card_tiles(cards: object) -> str:
    """Cards (``explorer.presenters.CardRow``) as the small tiles of the home page and the
    site search: the Jinja2 ``explorer/partials/card_tiles.html``, whose tile is the card
    list's too."""
    return mark_safe(
        render_to_string("explorer/partials/card_tiles.html", {"cards": cards}, using="jinja2")
    )


@register.filter
def card_title(name: str, token: int) -> str:
    """A card's name with its token, once: "Sprocket #23" (demo names already carry it)."""
    suffix = f"#{token}"
    return name if str(name).endswith(suffix) else f"{name} {suffix}"
