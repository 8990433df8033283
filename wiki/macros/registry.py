"""Live tables for wiki pages: ``{{ name }}`` / ``{{ name arg }}`` alone on a line.

Every macro builds an HTML table from the engine's data (``engine.data``) or from the
live collection, in the active language, so the rules pages cannot drift from the
engine: no number in here is typed by hand.

Other apps add their own macros from their ``AppConfig.ready()``::

    from wiki.macros import register_macro

    @register_macro("pool_odds", live=True)
    def pool_odds(arg: str | None) -> str:
        ...  # return HTML (escape everything that is not markup)

A macro returns HTML; the renderer sanitises it like the rest of the page. ``live=True``
marks macros that read the database: they are rendered on every view instead of being
cached with the page. A macro raises ``MacroError`` for a bad argument (shown on the page
as an error box).

>>> "rarity_effects" in registered_macros()
True
>>> get_macro("no_such_macro") is None
True
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from core.labels import label_of
from engine.types import Rarity

logger = logging.getLogger(__name__)

MacroFunc = Callable[[str | None], str]


class MacroError(ValueError):
    """A macro cannot render (for instance an unknown argument); the message is shown."""


@dataclass(frozen=True, slots=True)
class Macro:
    name: str
    func: MacroFunc
    live: bool = False


_REGISTRY: dict[str, Macro] = {}


def register_macro(name: str, *, live: bool = False) -> Callable[[MacroFunc], MacroFunc]:
    """Register ``func(arg) -> html`` as the macro ``{{ name [arg] }}``."""

    def decorator(func: MacroFunc) -> MacroFunc:
        _REGISTRY[name] = Macro(name, func, live)
        return func

    return decorator


def unregister_macro(name: str) -> None:
    """Forget a macro (tests, or an app that replaces one)."""
    _REGISTRY.pop(name, None)


def get_macro(name: str) -> Macro | None:
    return _REGISTRY.get(name)


def registered_macros() -> list[str]:
    return sorted(_REGISTRY)


def error_box(message: str) -> str:
    return format_html(
        '<div class="macro-error"><strong>{}</strong> {}</div>', _("Table error:"), message
    )


def render_macro(macro: Macro, arg: str | None) -> str:
    """The macro's HTML, or a visible error box (never an exception) when it fails."""
    try:
        return str(macro.func(arg))
    except MacroError as exc:
        return error_box(str(exc))
    except Exception:
        logger.exception("Macro %s failed", macro.name)
        return error_box(_("The table “%(name)s” could not be built.") % {"name": macro.name})


# ---------------------------------------------------------------------------
# Building blocks

Cell = str | int | SafeString


@dataclass(frozen=True, slots=True)
class Col:
    """A table column: its header and whether it holds numbers (right-aligned)."""

    label: str
    num: bool = False


def table(
    name: str, cols: Sequence[Col], rows: Iterable[Sequence[Cell]], caption: str | None = None
) -> str:
    """A ``<table>`` inside the wrappers the stylesheet and the sanitiser expect."""
    head = format_html_join(
        "",
        '<th scope="col"{}>{}</th>',
        ((mark_safe(' class="num"') if c.num else "", c.label) for c in cols),
    )
    body_rows = []
    for row in rows:
        cells = []
        for i, value in enumerate(row):
            cls = ' class="num"' if i < len(cols) and cols[i].num else ""
            tag = "th" if i == 0 else "td"
            scope = ' scope="row"' if i == 0 else ""
            cells.append(f"<{tag}{scope}{cls}>{conditional_escape(value)}</{tag}>")
        body_rows.append("<tr>" + "".join(cells) + "</tr>")
    cap = format_html("<caption>{}</caption>", caption) if caption else ""
    return (
        f'<div class="macro" title="{conditional_escape(name)}"><div class="table-wrap">'
        f'<table class="macro-table">{cap}<thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body_rows)}</tbody></table></div></div>"
    )


def num(value: int | Fraction | float, decimals: int = 0) -> str:
    return number_format(value, decimals, use_l10n=True, force_grouping=True)


def percent(value: Fraction | float) -> str:
    decimals = 0 if (value * 100) == int(value * 100) else 1
    # number_format cuts digits off; round first so 2/3 reads 66.7%, not 66.6%.
    return _("%(value)s%%") % {"value": num(round(float(value) * 100, decimals), decimals)}


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


def rarity_cell(value: object) -> SafeString:
    """A rarity (``Rarity.EPIC`` or ``"epic"``) as the coloured name the tables show."""
    return format_html(
        '<span class="rarity rarity-{}">{}</span>',
        getattr(value, "value", value),
        label_of(Rarity, value),
    )


def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def dash() -> str:
    return "—"
