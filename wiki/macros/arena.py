"""Slab arena tables (docs/rules.md §8): ``{{ slab_stat_book }}`` and ``{{ slab_brackets }}``.

Registered when ``wiki.macros`` is imported; every number comes from ``engine.arena.slabs``
(the stat book's data tables), none is typed here. Slab tiers and bracket names stay in
Latin letters in Russian, as the leagues page writes them ("тир epic", "rookie").
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from core import labels

from .registry import Col, dash, num, register_macro, signed, table


def money(amount: Decimal) -> str:
    """US dollars in the page's number format: ``$2,000``, ``$49.99`` (``$2 000``, ``$49,99``)."""
    cents = 0 if amount == amount.to_integral_value() else 2
    return f"${num(amount, cents)}"


def _value_ranges(bands) -> list[str]:
    """``$0 – $49.99``, …, ``$2,000 and up`` for bands bounded by ``below`` (None: no bound)."""
    from engine.arena import slabs

    labels, low = [], Decimal(0)
    for band in bands:
        if band.below is None:
            labels.append(_("%(amount)s and up") % {"amount": money(low)})
        else:
            labels.append(f"{money(low)} – {money(band.below - slabs.USD_CENT)}")
            low = band.below
    return labels


def _either(items: list[str]) -> str:
    """``a or b``; ``a, b or c`` for more."""
    if len(items) < 2:
        return "".join(items)
    return _("%(a)s or %(b)s") % {"a": ", ".join(items[:-1]), "b": items[-1]}


def _grade(value: Decimal) -> str:
    return num(value) if value == value.to_integral_value() else num(value, 1)


def _grade_labels() -> list[tuple[str, int]]:
    """(grades, attack) per attack band: ``10``, ``9 or 9.5``, …, ``7.5 or lower``."""
    from engine.arena import slabs

    steps = int((slabs.GRADE_MAX - slabs.GRADE_MIN) / slabs.GRADE_STEP)
    grades = [slabs.GRADE_MIN + i * slabs.GRADE_STEP for i in range(steps + 1)]
    rows = []
    for band in slabs.ATTACK_BY_GRADE:
        mine = [g for g in grades if band.min_grade is None or g >= band.min_grade]
        grades = [g for g in grades if g not in mine]
        if not mine:
            continue
        if band.min_grade is None and len(mine) > 2:
            label = _("%(grade)s or lower") % {"grade": _grade(max(mine))}
        elif len(mine) == 1:
            label = _grade(mine[0])
        elif len(mine) == 2:
            label = _("%(a)s or %(b)s") % {"a": _grade(mine[0]), "b": _grade(mine[1])}
        else:
            label = f"{_grade(min(mine))} – {_grade(max(mine))}"
        rows.append((label, band.attack))
    return rows


def _year_labels() -> list[tuple[str, int]]:
    """(years, armor) per armor band: ``2003 or earlier``, ``2004 – 2015``, ``2016 or later``."""
    from engine.arena import slabs

    rows, previous = [], None
    for band in slabs.ARMOR_BY_YEAR:
        if previous is None and band.max_year is not None:
            label = _("%(year)s or earlier") % {"year": band.max_year}
        elif band.max_year is None:
            label = _("%(year)s or later") % {"year": (previous or 0) + 1}
        else:
            label = f"{previous + 1} – {band.max_year}"
        rows.append((label, band.armor))
        previous = band.max_year
    return rows


@register_macro("slab_stat_book")
def slab_stat_book(arg: str | None) -> str:
    """The stat book: HP and tier from value, attack from grade, armor from year, elements, damage."""
    from engine.arena import slabs

    hp = table(
        "slab_stat_book hp",
        (Col(_("Daily value")), Col("HP", num=True)),
        [
            (label, num(band.hp))
            for label, band in zip(_value_ranges(slabs.HP_BY_VALUE), slabs.HP_BY_VALUE, strict=True)
        ],
        caption=_("HP from value"),
    )
    tier_rows = []
    for label, band in zip(_value_ranges(slabs.TIER_BY_VALUE), slabs.TIER_BY_VALUE, strict=True):
        power = band.power
        tier_rows.append(
            (
                label,
                labels.label(band.tier),
                _("attack %(bonus)s") % {"bonus": signed(power.bonus)} if power else _("none"),
                num(power.cost) if power else dash(),
                num(band.ko_points),
            )
        )
    tiers = table(
        "slab_stat_book tiers",
        (
            Col(_("Daily value")),
            Col(_("Tier")),
            Col(_("Power move")),
            Col(_("Power move cost (energy)"), num=True),
            Col(_("KO points"), num=True),
        ),
        tier_rows,
        caption=_("Tier from value"),
    )
    attack = table(
        "slab_stat_book attack",
        (Col(_("Grade")), Col(_("Attack"), num=True)),
        [(label, num(value)) for label, value in _grade_labels()],
        caption=_("Attack from grade (half grades round down)"),
    )
    armor = table(
        "slab_stat_book armor",
        (Col(_("Year")), Col(_("Armor (damage removed per hit)"), num=True)),
        [(label, num(value)) for label, value in _year_labels()],
        caption=_("Armor from year"),
    )
    modulus = len(slabs.ELEMENT_BY_HASH)
    elements = table(
        "slab_stat_book elements",
        (
            Col(_("First byte of SHA-256 of the asset ID, mod %(n)s") % {"n": modulus}, num=True),
            Col(_("Element")),
            Col(_("Beats")),
            Col(_("Damage bonus against it"), num=True),
        ),
        [
            (
                num(i),
                labels.label(element),
                labels.label(slabs.ELEMENT_BEATS[element]),
                signed(slabs.ELEMENT_BONUS),
            )
            for i, element in enumerate(slabs.ELEMENT_BY_HASH)
        ],
        caption=_("Elements: fixed by the asset ID, the same in every match"),
    )
    moves = table(
        "slab_stat_book damage",
        (
            Col(_("Move")),
            Col(_("Move damage")),
            Col(pgettext("slab arena", "Energy cost"), num=True),
        ),
        [
            (_("Basic attack"), _("attack"), num(slabs.BASIC_ATTACK_COST)),
            (_("Power move"), _("attack + the tier's bonus"), _("the tier's cost")),
        ],
        caption=_("damage = max(%(min)s, move damage + element bonus − target armor)")
        % {"min": slabs.MIN_DAMAGE},
    )
    return hp + tiers + attack + armor + elements + moves


@register_macro("slab_brackets")
def slab_brackets(arg: str | None) -> str:
    """Each bracket's cap on the team's total value."""
    from engine.arena import slabs

    rows = [
        (labels.label(b.bracket), money(b.cap) if b.cap is not None else _("no cap"))
        for b in slabs.BRACKETS
    ]
    limited = [labels.label(t) for t in slabs.SlabTier if t in slabs.TEAM_LIMITED_TIERS]
    return table(
        "slab_brackets",
        (Col(_("Bracket")), Col(_("Total team value, at most"), num=True)),
        rows,
        caption=_(
            "A team is %(size)s different slabs, at most %(most)s of them %(tiers)s; it may "
            "enter every bracket whose cap its total value fits under."
        )
        % {
            "size": slabs.TEAM_SIZE,
            "most": slabs.TEAM_LIMITED_MAX,
            "tiers": _either(limited),
        },
    )
