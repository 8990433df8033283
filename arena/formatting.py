"""Money, shares and small word helpers in the visitor's language (no rules here)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.utils.formats import number_format
from django.utils.translation import gettext as _

__all__ = ["either", "listing", "money", "percent"]


def money(amount: Decimal | str | int | None) -> str:
    """US dollars: ``$2,000``, ``$49.99`` (``$2 000``, ``$49,99`` in Russian); whole
    amounts without cents."""
    if amount is None:
        return "—"
    value = Decimal(str(amount))
    cents = 0 if value == value.to_integral_value() else 2
    return "$" + number_format(value, decimal_pos=cents, use_l10n=True, force_grouping=True)


def percent(part: int, whole: int, decimals: int = 1) -> str:
    """``part/whole`` as a percentage (``—`` when ``whole`` is 0)."""
    if not whole:
        return "—"
    share = Fraction(part, whole) * 100
    return number_format(float(share), decimal_pos=decimals, use_l10n=True) + " %"


def listing(items: list[str]) -> str:
    """Items for a sentence: "a, b and c"."""
    items = [str(i) for i in items]
    if len(items) < 2:
        return "".join(items)
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def either(items: list[str]) -> str:
    """Items as alternatives: "a or b", "a, b or c"."""
    items = [str(i) for i in items]
    if len(items) < 2:
        return "".join(items)
    return _("%(a)s or %(b)s") % {"a": ", ".join(items[:-1]), "b": items[-1]}
