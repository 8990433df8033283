"""Card tables (docs/rules.md §1, §3–§5): attribute tiers, roles, skills, templates, effects, energy."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.labels import describe, label, template_label
from engine import data
from engine.types import Rarity, Role

from .registry import (
    Col,
    MacroError,
    dash,
    num,
    percent,
    rarity_cell,
    register_macro,
    signed,
    table,
    yes_no,
)

# ---------------------------------------------------------------------------
# §1, §3, §4 Attributes, roles, skills


# engine.data names effect targets with plain strings, not an engine enum, so core.labels
# cannot key them yet; they move there when the engine gives them an enum.
_TARGETS = {
    "enemy_card": gettext_lazy("enemy card"),
    "enemy_hero": gettext_lazy("enemy Hero"),
    "own_hero": gettext_lazy("own Hero"),
    "own_card": gettext_lazy("this card"),
}


def _target_name(value: str) -> str:
    return str(_TARGETS.get(value, value))


@register_macro("attribute_tiers")
def attribute_tiers(arg: str | None) -> str:
    rows = []
    low = 1
    for band in data.TIER_BANDS:
        if band.max_supply is None:
            supply = _("more than %(n)s") % {"n": num(low - 1)}
        elif low == 1:
            supply = f"≤ {num(band.max_supply)}"
        else:
            supply = f"{num(low)}–{num(band.max_supply)}"
        low = (band.max_supply or 0) + 1
        rows.append(
            (
                label(band.tier),
                supply,
                num(band.weight),
                signed(data.PAW_ITEM_ATK.get(band.tier, 0)),
                yes_no(band.tier is data.TIER_BADGE_TIER),
            )
        )
    return table(
        "attribute_tiers",
        (
            Col(_("Tier")),
            Col(_("Supply")),
            Col(_("Tier weight"), num=True),
            Col(_("Paw item ATK"), num=True),
            Col(_("Gives the tier badge")),
        ),
        rows,
    )


@register_macro("slot_weights")
def slot_weights(arg: str | None) -> str:
    """Slot weight and the vote weight (slot × tier) for each tier."""
    bands = data.TIER_BANDS
    rows = [
        (
            label(slot),
            num(data.SLOT_WEIGHT[slot]),
            *(num(data.SLOT_WEIGHT[slot] * band.weight) for band in bands),
        )
        for slot in data.SLOT_SCAN_ORDER
    ]
    cols = [Col(_("Slot")), Col(_("Slot weight"), num=True)]
    cols += [
        Col(
            _("Vote, %(tier)s (×%(weight)s)") % {"tier": label(b.tier), "weight": b.weight},
            num=True,
        )
        for b in bands
    ]
    return table("slot_weights", cols, rows)


@register_macro("skill_keywords")
def skill_keywords(arg: str | None) -> str:
    rows = [
        (
            label(skill),
            num(i + 1),
            num(len(data.KEYWORDS[skill])),
            ", ".join(data.KEYWORDS[skill]),
        )
        for i, skill in enumerate(data.SKILL_PRIORITY)
    ]
    return table(
        "skill_keywords",
        (
            Col(_("Skill")),
            Col(_("Priority"), num=True),
            Col(_("Fragments"), num=True),
            Col(_("Keyword fragments")),
        ),
        rows,
        caption=_("A fragment hits a word of an attribute name that starts with it."),
    )


@register_macro("skill_roles")
def skill_roles(arg: str | None) -> str:
    """Which role a primary skill votes for, and each role's default skill."""
    rows = [
        (
            label(skill),
            label(data.SKILL_ROLE[skill]),
            yes_no(data.ROLE_DEFAULT_SKILL[data.SKILL_ROLE[skill]] is skill),
        )
        for skill in data.SKILL_PRIORITY
    ]
    return table(
        "skill_roles",
        (Col(_("Primary skill")), Col(_("Votes for")), Col(_("Default skill of that role"))),
        rows,
    )


@register_macro("role_defaults")
def role_defaults(arg: str | None) -> str:
    """The hash fallback order and each role's default skill."""
    rows = [
        (num(i), label(role), label(data.ROLE_DEFAULT_SKILL[role]))
        for i, role in enumerate(data.ROLE_HASH_ORDER)
    ]
    return table(
        "role_defaults",
        (
            Col(_("First hash byte mod %(n)s") % {"n": len(data.ROLE_HASH_ORDER)}, num=True),
            Col(_("Role")),
            Col(_("Default skill")),
        ),
        rows,
    )


@register_macro("temporary_skill_chances")
def temporary_skill_chances(arg: str | None) -> str:
    rows = [
        (
            rarity_cell(rarity),
            percent(data.TEMPORARY_SKILL_CHANCE[rarity]),
            yes_no(rarity >= data.ACTIVE_SKILL_RARITY),
        )
        for rarity in data.RARITY_ORDER
    ]
    return table(
        "temporary_skill_chances",
        (
            Col(_("Rarity")),
            Col(_("Temporary card: chance of an active skill"), num=True),
            Col(_("Collection card: active skill")),
        ),
        rows,
    )


# ---------------------------------------------------------------------------
# §5 Templates, stats, effects, energy


def _bonus_text(bonus) -> str:
    parts = [f"ATK {signed(bonus.atk)}", f"HP {signed(bonus.hp)}"]
    if bonus.ability:
        parts.append(f"{_('ability')} {signed(bonus.ability)}")
    return ", ".join(parts)


def _bonus_triple(bonus) -> str:
    """A compact ``ATK / HP / ability`` bonus cell for the all-templates table."""
    return " / ".join(signed(v) for v in (bonus.atk, bonus.hp, bonus.ability))


@register_macro("template_stats")
def template_stats(arg: str | None) -> str:
    """Every template (no argument), or one template's stats at each rarity."""
    if arg:
        template = data.TEMPLATES_BY_KEY.get(arg)
        if template is None:
            raise MacroError(_("No template has the key “%(key)s”.") % {"key": arg})
        rows = []
        for rarity in data.RARITY_ORDER:
            b = template.bonus(rarity)
            rows.append(
                (
                    rarity_cell(rarity),
                    num(template.atk + b.atk),
                    num(template.hp + b.hp),
                    num(template.def_),
                    num(template.ability + b.ability),
                    _bonus_text(b) if b != data.NO_BONUS else dash(),
                )
            )
        return table(
            f"template_stats {arg}",
            (
                Col(_("Rarity")),
                Col("ATK", num=True),
                Col("HP", num=True),
                Col("DEF", num=True),
                Col(_("Ability value"), num=True),
                Col(_("Rarity bonus")),
            ),
            rows,
            caption=_(
                "%(template)s (%(role)s), before stickers, paw item and burn milestones; Deploy: %(effect)s."
            )
            % {
                "template": template_label(template.key),
                "role": label(template.role),
                "effect": label(template.deploy),
            },
        )
    rows = [
        (
            template_label(t.key),
            label(t.role),
            num(t.atk),
            num(t.hp),
            num(t.def_),
            num(t.ability),
            _bonus_triple(t.rare),
            _bonus_triple(t.epic),
            _bonus_triple(t.legendary),
            label(t.deploy),
        )
        for role in tuple(Role)
        for t in data.TEMPLATES_BY_ROLE[role]
    ]
    return table(
        "template_stats",
        (
            Col(_("Template")),
            Col(_("Role")),
            Col("ATK", num=True),
            Col("HP", num=True),
            Col("DEF", num=True),
            Col(_("Ability value"), num=True),
            Col(label(Rarity.RARE), num=True),
            Col(label(Rarity.EPIC), num=True),
            Col(label(Rarity.LEGENDARY), num=True),
            Col(_("Deploy effect")),
        ),
        rows,
        caption=_(
            "Rarity bonuses read ATK / HP / ability value; Common and Free add nothing. "
            "Within a role, the token number picks the template."
        ),
    )


@register_macro("signature_effects")
def signature_effects(arg: str | None) -> str:
    rows = [
        (
            label(role),
            label(sig.slot),
            label(sig.kind),
            num(sig.value),
            describe(sig.kind, n=sig.value),
        )
        for role in tuple(Role)
        for sig in data.SIGNATURES[role]
    ]
    allowance = ", ".join(f"{label(r)} {data.SIGNATURE_ALLOWANCE[r]}" for r in data.RARITY_ORDER)
    return table(
        "signature_effects",
        (
            Col(_("Role")),
            Col(_("Slot")),
            Col(_("Effect")),
            Col(_("Base value"), num=True),
            Col(_("What it does")),
        ),
        rows,
        caption=_(
            "Signature effects allowed: %(allowance)s. The ability value bonus is added to the value."
        )
        % {"allowance": allowance},
    )


@register_macro("fill_order")
def fill_order(arg: str | None) -> str:
    rows = [
        (label(role), *(label(s) for s in data.EFFECT_FILL_ORDER[role])) for role in tuple(Role)
    ]
    width = max(len(v) for v in data.EFFECT_FILL_ORDER.values())
    cols = [Col(_("Role"))] + [Col(_("Slot %(n)s") % {"n": i + 1}) for i in range(width)]
    return table("fill_order", cols, rows)


@register_macro("effect_kinds")
def effect_kinds(arg: str | None) -> str:
    rows = [
        (
            label(info.kind),
            _target_name(info.target),
            ", ".join(label(s) for s in info.slots),
            describe(info.kind, n="N"),
        )
        for info in data.EFFECT_KINDS
    ]
    return table(
        "effect_kinds",
        (Col(_("Effect")), Col(_("Target")), Col(_("Slots")), Col(_("What it does"))),
        rows,
    )


@register_macro("energy_costs")
def energy_costs(arg: str | None) -> str:
    rows = [(rarity_cell(r), num(data.ENERGY_COST[r])) for r in data.RARITY_ORDER]
    return table("energy_costs", (Col(_("Rarity")), Col(_("Deploy cost (NRG)"), num=True)), rows)


@register_macro("undercharge")
def undercharge(arg: str | None) -> str:
    rows = []
    last = len(data.UNDERCHARGE) - 1
    for i, tier in enumerate(data.UNDERCHARGE):
        deficit = f"{num(tier.deficit)}+" if i == last else num(tier.deficit)
        if tier.halve_effects:
            effects = _("halved (rounded down)")
        elif tier.effect_minus:
            effects = signed(-tier.effect_minus)
        else:
            effects = _("unchanged")
        rows.append((deficit, f"−{num(tier.stat_cut_percent)}%", effects, _("off")))
    return table(
        "undercharge",
        (
            Col(_("NRG short"), num=True),
            Col(_("ATK and DEF"), num=True),
            Col(_("Numeric effects")),
            Col(_("Active skill")),
        ),
        rows,
        caption=_("Stats are rounded down and never drop below 0."),
    )
