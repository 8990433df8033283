"""Booster pack tables (docs/rules.md §7): ``{{ pack_weights }}``.

Registered when ``wiki.macros`` is imported; built from ``engine.data.PACK_TIER_WEIGHT``
and ``engine.packs`` (no number typed here).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from .registry import Col, num, rarity_cell, register_macro, table


def _percent(chance: Fraction) -> str:
    """A chance as a percentage rounded (half up) to one decimal, none when it is whole.

    Computed exactly: the shared ``percent`` helper goes through a float and the number
    formatter cuts digits off (2/3 would read 66.6%).
    """
    tenths = Decimal(chance.numerator * 1000) / Decimal(chance.denominator)
    value = (tenths.quantize(Decimal(1), ROUND_HALF_UP) / 10).normalize()
    decimals = 0 if value == value.to_integral_value() else 1
    return _("%(value)s%%") % {"value": num(value, decimals)}


def _chance(weight: int, total: int, chance: Fraction) -> str:
    """``80/150 ≈ 53.3%`` (``=`` when the percentage is exact at one decimal)."""
    sign = "=" if (chance * 1000).denominator == 1 else "≈"
    return f"{num(weight)}/{num(total)} {sign} {_percent(chance)}"


@register_macro("pack_weights")
def pack_weights(arg: str | None) -> str:
    """Each pack tier's weight, and its chance on one pick when every tier is in the pool."""
    from engine import data
    from engine.packs import tier_odds

    odds = tier_odds(data.PACK_TIERS)
    total = sum(data.PACK_TIER_WEIGHT[tier] for tier in data.PACK_TIERS)
    rows = [
        (
            rarity_cell(tier),
            num(data.PACK_TIER_WEIGHT[tier]),
            _chance(data.PACK_TIER_WEIGHT[tier], total, odds[tier]),
        )
        for tier in data.PACK_TIERS
    ]
    rows.append((_("All tiers"), num(total), _percent(sum(odds.values(), Fraction(0)))))
    return table(
        "pack_weights",
        (
            Col(_("Rarity")),
            # In the draw a tier is a rarity: its own word in Russian (docs/glossary.md).
            Col(pgettext("booster draw", "Tier weight"), num=True),
            Col(_("Chance of the tier on one pick (every tier in the pool)"), num=True),
        ),
        rows,
        caption=_(
            "Free cards never enter a pool. A tier's chance is its weight divided by the sum "
            "of the weights of the tiers still in the pool; every card of the tier has the same "
            "share of it."
        ),
    )
