"""The macro registry and the table helpers every family of wiki tables uses.

A macro is ``{{ name }}`` / ``{{ name arg }}`` alone on a line of a wiki page. Every
macro builds an HTML table from the engine's data (``engine.data``) or from the
live collection, in the active language, so the rules pages cannot drift from the
engine: no number in here is typed by hand.

Other apps add their own macros from their ``AppConfig.ready()``::

    from wiki.macros import Col, num, register_macro, table

    @register_macro("pool_odds", live=True)
    def pool_odds(arg: str | None) -> str:
        return table("pool_odds", [Col(_("Pool")), Col(_("Odds"), num=True)], rows)

A macro returns HTML, normally built by ``table`` (``wiki/partials/macro_table.html``,
which escapes every value); the renderer sanitises it like the rest of the page. ``live=True``
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

from django.template.loader import render_to_string
from django.utils.formats import number_format
from django.utils.safestring import SafeString
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


def error_box(message: str) -> SafeString:
    """The visible box that stands in for a table that cannot be built."""
    return render_to_string(f"{TEMPLATE}#error", {"message": message})


def note(text: str) -> SafeString:
    """A sentence in place of a table (an empty collection, say), styled as a caption."""
    return render_to_string(f"{TEMPLATE}#note", {"text": text})


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

#: The template of the tables (partials ``table``, ``note`` and ``error``).
TEMPLATE = "wiki/partials/macro_table.html"


@dataclass(frozen=True, slots=True)
class Col:
    """A table column: its header and whether it holds numbers (right-aligned)."""

    label: str
    num: bool = False


@dataclass(frozen=True, slots=True)
class Styled:
    """A cell shown as a styled name (``css``, e.g. a rarity's colour) or as ``code``."""

    text: str
    css: str = ""
    code: bool = False


Cell = str | int | SafeString | Styled


@dataclass(frozen=True, slots=True)
class CellView:
    """One cell as the template draws it: a row header (the first cell) or a value."""

    text: object
    num: bool
    header: bool
    css: str = ""
    code: bool = False

    @property
    def tag(self) -> str:
        return "th" if self.header else "td"


@dataclass(frozen=True, slots=True)
class TableView:
    name: str
    caption: str | None
    cols: tuple[Col, ...]
    rows: tuple[tuple[CellView, ...], ...]


def _cell(value: Cell, col: Col | None, header: bool) -> CellView:
    numeric = bool(col and col.num)
    if isinstance(value, Styled):
        return CellView(value.text, numeric, header, value.css, value.code)
    return CellView(value, numeric, header)


def table(
    name: str, cols: Sequence[Col], rows: Iterable[Sequence[Cell]], caption: str | None = None
) -> SafeString:
    """A ``<table>`` inside the wrappers the stylesheet and the sanitiser expect.

    The first cell of each row is its header; a cell under a ``num`` column is
    right-aligned. Plain values are escaped by the template; a ``Styled`` value keeps its
    style. (Rendered by ``wiki/partials/macro_table.html``.)
    """
    cols = tuple(cols)
    view = TableView(
        name=name,
        caption=caption or None,
        cols=cols,
        rows=tuple(
            tuple(
                _cell(value, cols[i] if i < len(cols) else None, header=i == 0)
                for i, value in enumerate(row)
            )
            for row in rows
        ),
    )
    return render_to_string(f"{TEMPLATE}#table", {"table": view})


def code(text: str) -> Styled:
    """A cell shown as code (a rule key, say)."""
    return Styled(text, code=True)


def num(value: int | Fraction | float, decimals: int = 0) -> str:
    return number_format(value, decimals, use_l10n=True, force_grouping=True)


def percent(value: Fraction | float) -> str:
    decimals = 0 if (value * 100) == int(value * 100) else 1
    # number_format cuts digits off; round first so 2/3 reads 66.7%, not 66.6%.
    return _("%(value)s%%") % {"value": num(round(float(value) * 100, decimals), decimals)}


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


def rarity_cell(value: object) -> Styled:
    """A rarity (``Rarity.EPIC`` or ``"epic"``) as the coloured name the tables show."""
    return Styled(label_of(Rarity, value), css=f"rarity rarity-{getattr(value, 'value', value)}")


def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def dash() -> str:
    return "—"
