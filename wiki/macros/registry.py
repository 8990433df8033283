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
from django.utils.translation import pgettext

from core.labels import enum_label, template_label

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


# Enum labels come from core.labels, the one place that names the engine's vocabulary
# (rarities, roles and skills stay in Latin letters in Russian, as do slots and tiers,
# as the seeds write them).
def rarity_name(value: object) -> str:
    return enum_label("rarity", str(value))


def rarity_cell(value: object) -> SafeString:
    return format_html('<span class="rarity rarity-{}">{}</span>', str(value), rarity_name(value))


def role_name(value: object) -> str:
    return enum_label("role", str(value))


def skill_name(value: object) -> str:
    return enum_label("skill", str(value))


def slot_name(value: object) -> str:
    return enum_label("slot", str(value))


def tier_name(value: object) -> str:
    return enum_label("tier", str(value))


def effect_slot_name(value: object) -> str:
    return enum_label("effect_slot", str(value))


def effect_name(value: object) -> str:
    labels = {
        "damage_card": pgettext("effect", "Damage enemy card"),
        "damage_hero": pgettext("effect", "Damage enemy Hero"),
        "heal_hero": pgettext("effect", "Heal own Hero"),
        "shield": pgettext("effect", "Shield own card"),
        "buff_atk": pgettext("effect", "Buff own card"),
        "burn": pgettext("effect", "Burn"),
        "wounded_rage": pgettext("effect", "Wounded Rage"),
    }
    return labels.get(str(value), str(value))


def effect_description(kind: object, value: int | str = "N") -> str:
    from engine import data

    params = {"n": value, "threshold": data.WOUNDED_RAGE_THRESHOLD}
    texts = {
        "damage_card": _("The enemy card takes %(n)s damage."),
        "damage_hero": _("The enemy Hero loses %(n)s HP."),
        "heal_hero": _("Your Hero gains %(n)s HP."),
        "shield": _("This card gets +%(n)s DEF."),
        "buff_atk": _("This card gets +%(n)s ATK."),
        "burn": _("The enemy Hero loses %(n)s HP at the end of each round."),
        "wounded_rage": _("+%(n)s ATK while your Hero has %(threshold)s HP or less."),
    }
    text = texts.get(str(kind))
    return text % params if text else str(kind)


def target_name(value: str) -> str:
    labels = {
        "enemy_card": _("enemy card"),
        "enemy_hero": _("enemy Hero"),
        "own_hero": _("own Hero"),
        "own_card": _("this card"),
    }
    return labels.get(value, value)


def template_name(key: str) -> str:
    """Template names are proper names (``iron_pup`` → “Iron Pup”), the same in every language."""
    return template_label(key)


def rule_name(key: str) -> str:
    return enum_label("rule", key)


def yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def dash() -> str:
    return "—"


def _rarities() -> tuple:
    from engine import data

    return tuple(data.RARITY_ORDER)


def _roles() -> tuple:
    from engine.types import Role

    return tuple(Role)


def _by_rarity_at_least(tiers: Iterable) -> str:
    return "; ".join(f"{rarity_name(t.rarity)} ≥ {num(t.threshold)}" for t in tiers)
