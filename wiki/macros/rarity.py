"""Rarity tables (docs/rules.md §2): the rules, their tiers and what each rarity changes."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from core.labels import label, rule_label
from engine import data

from .registry import (
    Col,
    code,
    dash,
    num,
    rarity_cell,
    register_macro,
    signed,
    table,
    yes_no,
)

# ---------------------------------------------------------------------------
# §2 Rarity


def _by_rarity_at_least(tiers: Iterable) -> str:
    return "; ".join(f"{label(t.rarity)} ≥ {num(t.threshold)}" for t in tiers)


@register_macro("rarity_effects")
def rarity_effects(arg: str | None) -> str:
    """What each rarity changes: NRG cost, stat bonus range, signature effects, active skill."""
    rows = []
    for rarity in data.RARITY_ORDER:
        bonuses = [t.bonus(rarity) for t in data.TEMPLATES]
        if all(b == data.NO_BONUS for b in bonuses):
            bonus = _("none")
        else:
            parts = []
            for stat, values in (
                ("ATK", [b.atk for b in bonuses]),
                ("HP", [b.hp for b in bonuses]),
                (_("ability"), [b.ability for b in bonuses]),
            ):
                low, high = min(values), max(values)
                if high == 0:
                    continue
                span = signed(low) if low == high else f"{signed(low)}…{signed(high)}"
                parts.append(f"{stat} {span}")
            bonus = ", ".join(parts)
        allowance = data.SIGNATURE_ALLOWANCE[rarity]
        rows.append(
            (
                rarity_cell(rarity),
                num(data.ENERGY_COST[rarity]),
                bonus,
                _("up to %(n)s") % {"n": allowance} if allowance else _("none"),
                yes_no(rarity >= data.ACTIVE_SKILL_RARITY),
            )
        )
    return table(
        "rarity_effects",
        (
            Col(_("Rarity")),
            Col(_("Deploy cost (NRG)"), num=True),
            Col(_("Stat bonus (range over templates)")),
            Col(_("Signature effects")),
            Col(_("Active skill")),
        ),
        rows,
    )


@register_macro("rarity_rules")
def rarity_rules(arg: str | None) -> str:
    """The seven rarity rules, each with its key and its tiers."""

    def supply(t) -> str:
        return _("%(rarity)s: %(slots)s+ slots with effective supply ≤ %(supply)s") % {
            "rarity": label(t.rarity),
            "slots": t.min_slots,
            "supply": t.max_supply,
        }

    tiers = {
        "supply_count": "; ".join(supply(t) for t in data.SUPPLY_COUNT_TIERS),
        "wardrobe_score": _by_rarity_at_least(data.WARDROBE_SCORE_TIERS),
        "tier_badge": _("%(rarity)s: any equipped %(tier)s attribute")
        % {"rarity": label(data.TIER_BADGE_RARITY), "tier": label(data.TIER_BADGE_TIER)},
        "burned_stickers": _by_rarity_at_least(data.BURNED_STICKER_TIERS),
        "god_premium": "; ".join(
            (
                _("%(rarity)s: an equipped god attribute")
                if str(kind) == "god"
                else _("%(rarity)s: an equipped premium skin")
            )
            % {"rarity": label(rarity)}
            for kind, rarity in data.GOD_PREMIUM_TIERS
        ),
        "combo": _("the combo's own rarity, when every attribute of it is equipped"),
        "getgems_rank": "; ".join(
            _("%(rarity)s: rank ≤ %(rank)s") % {"rarity": label(t.rarity), "rank": t.threshold}
            for t in data.GETGEMS_RANK_TIERS
        ),
    }
    rows = [(rule_label(key), code(key), tiers.get(key, dash())) for key in data.RULE_KEYS]
    return table(
        "rarity_rules",
        (Col(_("Rule")), Col(_("Key")), Col(_("Gives"))),
        rows,
        caption=_("Final rarity = the highest result; a rule that finds nothing gives %(floor)s.")
        % {"floor": label(data.RULE_FLOOR)},
    )


@register_macro("supply_rule")
def supply_rule(arg: str | None) -> str:
    rows = [
        (rarity_cell(t.rarity), num(t.min_slots), num(t.max_supply))
        for t in data.SUPPLY_COUNT_TIERS
    ]
    rows.append((rarity_cell(data.RULE_FLOOR), _("otherwise"), dash()))
    substitutes = ", ".join(
        label(band.tier) for band in data.TIER_BANDS if band.tier in data.SUPPLY_SUBSTITUTE_TIERS
    )
    return table(
        "supply_rule",
        (
            Col(_("Rarity")),
            Col(_("Slots needed (at least)"), num=True),
            Col(_("Effective supply (at most)"), num=True),
        ),
        rows,
        caption=_(
            "A wardrobe attribute of the same slot with a lower supply counts instead "
            "when its tier is: %(tiers)s."
        )
        % {"tiers": substitutes},
    )


@register_macro("wardrobe_thresholds")
def wardrobe_thresholds(arg: str | None) -> str:
    rows = [(rarity_cell(t.rarity), f"≥ {num(t.threshold)}") for t in data.WARDROBE_SCORE_TIERS]
    lowest = data.WARDROBE_SCORE_TIERS[-1].threshold
    rows.append((rarity_cell(data.RULE_FLOOR), f"< {num(lowest)}"))
    return table(
        "wardrobe_thresholds",
        (Col(_("Rarity")), Col(_("Wardrobe score"), num=True)),
        rows,
        caption=_("Each distinct owned attribute adds %(points)s ÷ its supply.")
        % {"points": num(data.WARDROBE_POINTS)},
    )


@register_macro("sticker_thresholds")
def sticker_thresholds(arg: str | None) -> str:
    """Per burned-sticker count: the rarity rule, sticker power (ATK) and burn milestone (HP)."""
    top = max(
        [t.threshold for t in data.BURNED_STICKER_TIERS]
        + [m.burned for m in data.BURN_MILESTONES]
        + [data.STICKERS_PER_ATK * data.STICKER_ATK_CAP]
    )
    rows = []
    for burned in range(top + 1):
        rarity = next((t.rarity for t in data.BURNED_STICKER_TIERS if burned >= t.threshold), None)
        atk = min(burned // data.STICKERS_PER_ATK, data.STICKER_ATK_CAP)
        hp = next((m.hp for m in data.BURN_MILESTONES if burned >= m.burned), 0)
        count = f"{num(burned)}+" if burned == top else num(burned)
        rows.append((count, rarity_cell(rarity) if rarity else dash(), signed(atk), signed(hp)))
    return table(
        "sticker_thresholds",
        (
            Col(_("Burned stickers"), num=True),
            Col(_("Rarity from this rule")),
            Col(_("Sticker power (ATK)"), num=True),
            Col(_("Burn milestone (HP)"), num=True),
        ),
        rows,
    )


@register_macro("getgems_floor")
def getgems_floor(arg: str | None) -> str:
    rows = []
    low = 1
    for t in data.GETGEMS_RANK_TIERS:
        rows.append((f"{num(low)}–{num(t.threshold)}", rarity_cell(t.rarity)))
        low = t.threshold + 1
    rows.append((_("%(rank)s or lower, or no rank") % {"rank": num(low)}, _("no floor")))
    return table("getgems_floor", (Col(_("GetGems rank")), Col(_("Rarity at least"))), rows)
