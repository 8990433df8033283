"""Template helpers shared by the site's apps."""

from django import template

from core.forms import shorten
from core.labels import card_title as _card_title
from core.labels import enum_label

register = template.Library()


@register.filter
def echo(value: object) -> str:
    """What a visitor typed, as a heading or a sentence repeats it: shortened with "…"."""
    return shorten(value)


@register.filter
def label(value: object, kind: str) -> str:
    """The translated name of an engine enum value: ``{{ card.rarity|label:"rarity" }}``."""
    return enum_label(kind, str(getattr(value, "value", value)) if value is not None else None)


@register.filter
def card_title(name: str, token: int) -> str:
    """A card's name with its token, once: "Sprocket #23" (``core.labels.card_title``)."""
    return _card_title(str(name), token)
