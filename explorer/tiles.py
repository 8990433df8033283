"""A card's tile, written once per row: the Jinja2 global ``kept_tile``.

A list page shows the same cards search after search (the first pages of the sorts and
the rarities), and each tile was the ``tile`` macro of
``templates/jinja2/explorer/partials/card_tile.html`` rendered again (≈ 12 µs, a tenth of
a first view of the card list). A tile depends only on its row — a frozen
``explorer.presenters.CardRow``, itself kept per collection version and language, whose
links and labels are in its language — on ``small`` and on the template's language, so
it is kept by those (the last 8,192; a changed ``.mo`` drops them, as it drops the rows).
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, pass_environment
from markupsafe import Markup

from core.narration import Kept

__all__ = ["kept_tile"]

TEMPLATE = "explorer/partials/card_tile.html"

_TILES: Kept[tuple[Any, bool, str | None], Markup] = Kept(8192)


@pass_environment
def kept_tile(environment: Environment, card: Any, small: bool = False) -> Markup:
    """``tile(card, small)`` of the card tile template, in the rendering template's
    language, kept by its arguments."""
    key = (card, small, getattr(environment, "language", None))
    html = _TILES.get(key)
    if html is None:
        macro = environment.get_template(TEMPLATE).module.tile  # type: ignore[attr-defined]
        html = _TILES.keep(key, Markup(macro(card, small=small)))
    return html
