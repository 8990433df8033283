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
from django.utils.translation import ngettext, pgettext

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


# ---------------------------------------------------------------------------
# §2 Rarity


@register_macro("rarity_effects")
def rarity_effects(arg: str | None) -> str:
    """What each rarity changes: NRG cost, stat bonus range, signature effects, active skill."""
    from engine import data

    rows = []
    for rarity in _rarities():
        bonuses = [t.bonus(rarity) for t in data.TEMPLATES]
        if all(b == data.NO_BONUS for b in bonuses):
            bonus = _("none")
        else:
            parts = []
            for label, values in (
                ("ATK", [b.atk for b in bonuses]),
                ("HP", [b.hp for b in bonuses]),
                (_("ability"), [b.ability for b in bonuses]),
            ):
                low, high = min(values), max(values)
                if high == 0:
                    continue
                span = signed(low) if low == high else f"{signed(low)}…{signed(high)}"
                parts.append(f"{label} {span}")
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
    from engine import data

    def supply(t) -> str:
        return _("%(rarity)s: %(slots)s+ slots with effective supply ≤ %(supply)s") % {
            "rarity": rarity_name(t.rarity),
            "slots": t.min_slots,
            "supply": t.max_supply,
        }

    tiers = {
        "supply_count": "; ".join(supply(t) for t in data.SUPPLY_COUNT_TIERS),
        "wardrobe_score": _by_rarity_at_least(data.WARDROBE_SCORE_TIERS),
        "tier_badge": _("%(rarity)s: any equipped %(tier)s attribute")
        % {"rarity": rarity_name(data.TIER_BADGE_RARITY), "tier": tier_name(data.TIER_BADGE_TIER)},
        "burned_stickers": _by_rarity_at_least(data.BURNED_STICKER_TIERS),
        "god_premium": "; ".join(
            (
                _("%(rarity)s: an equipped god attribute")
                if str(kind) == "god"
                else _("%(rarity)s: an equipped premium skin")
            )
            % {"rarity": rarity_name(rarity)}
            for kind, rarity in data.GOD_PREMIUM_TIERS
        ),
        "combo": _("the combo's own rarity, when every attribute of it is equipped"),
        "getgems_rank": "; ".join(
            _("%(rarity)s: rank ≤ %(rank)s")
            % {"rarity": rarity_name(t.rarity), "rank": t.threshold}
            for t in data.GETGEMS_RANK_TIERS
        ),
    }
    rows = [
        (rule_name(key), format_html("<code>{}</code>", key), tiers.get(key, dash()))
        for key in data.RULE_KEYS
    ]
    return table(
        "rarity_rules",
        (Col(_("Rule")), Col(_("Key")), Col(_("Gives"))),
        rows,
        caption=_("Final rarity = the highest result; a rule that finds nothing gives %(floor)s.")
        % {"floor": rarity_name(data.RULE_FLOOR)},
    )


@register_macro("supply_rule")
def supply_rule(arg: str | None) -> str:
    from engine import data

    rows = [
        (rarity_cell(t.rarity), num(t.min_slots), num(t.max_supply))
        for t in data.SUPPLY_COUNT_TIERS
    ]
    rows.append((rarity_cell(data.RULE_FLOOR), _("otherwise"), dash()))
    substitutes = ", ".join(
        tier_name(band.tier)
        for band in data.TIER_BANDS
        if band.tier in data.SUPPLY_SUBSTITUTE_TIERS
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
    from engine import data

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
    from engine import data

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
        label = f"{num(burned)}+" if burned == top else num(burned)
        rows.append((label, rarity_cell(rarity) if rarity else dash(), signed(atk), signed(hp)))
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
    from engine import data

    rows = []
    low = 1
    for t in data.GETGEMS_RANK_TIERS:
        rows.append((f"{num(low)}–{num(t.threshold)}", rarity_cell(t.rarity)))
        low = t.threshold + 1
    rows.append((_("%(rank)s or lower, or no rank") % {"rank": num(low)}, _("no floor")))
    return table("getgems_floor", (Col(_("GetGems rank")), Col(_("Rarity at least"))), rows)


# ---------------------------------------------------------------------------
# §1, §3, §4 Attributes, roles, skills


@register_macro("attribute_tiers")
def attribute_tiers(arg: str | None) -> str:
    from engine import data

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
                tier_name(band.tier),
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
    from engine import data

    bands = data.TIER_BANDS
    rows = [
        (
            slot_name(slot),
            num(data.SLOT_WEIGHT[slot]),
            *(num(data.SLOT_WEIGHT[slot] * band.weight) for band in bands),
        )
        for slot in data.SLOT_SCAN_ORDER
    ]
    cols = [Col(_("Slot")), Col(_("Slot weight"), num=True)]
    cols += [
        Col(
            _("Vote, %(tier)s (×%(weight)s)") % {"tier": tier_name(b.tier), "weight": b.weight},
            num=True,
        )
        for b in bands
    ]
    return table("slot_weights", cols, rows)


@register_macro("skill_keywords")
def skill_keywords(arg: str | None) -> str:
    from engine import data

    rows = [
        (
            skill_name(skill),
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
    from engine import data

    rows = [
        (
            skill_name(skill),
            role_name(data.SKILL_ROLE[skill]),
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
    from engine import data

    rows = [
        (num(i), role_name(role), skill_name(data.ROLE_DEFAULT_SKILL[role]))
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
    from engine import data

    rows = [
        (
            rarity_cell(rarity),
            percent(data.TEMPORARY_SKILL_CHANCE[rarity]),
            yes_no(rarity >= data.ACTIVE_SKILL_RARITY),
        )
        for rarity in _rarities()
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
    from engine import data

    if arg:
        template = data.TEMPLATES_BY_KEY.get(arg)
        if template is None:
            raise MacroError(_("No template has the key “%(key)s”.") % {"key": arg})
        rows = []
        for rarity in _rarities():
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
                "template": template_name(template.key),
                "role": role_name(template.role),
                "effect": effect_name(template.deploy),
            },
        )
    rows = [
        (
            template_name(t.key),
            role_name(t.role),
            num(t.atk),
            num(t.hp),
            num(t.def_),
            num(t.ability),
            _bonus_triple(t.rare),
            _bonus_triple(t.epic),
            _bonus_triple(t.legendary),
            effect_name(t.deploy),
        )
        for role in _roles()
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
            Col(rarity_name("rare"), num=True),
            Col(rarity_name("epic"), num=True),
            Col(rarity_name("legendary"), num=True),
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
    from engine import data

    rows = [
        (
            role_name(role),
            effect_slot_name(sig.slot),
            effect_name(sig.kind),
            num(sig.value),
            effect_description(sig.kind, sig.value),
        )
        for role in _roles()
        for sig in data.SIGNATURES[role]
    ]
    allowance = ", ".join(f"{rarity_name(r)} {data.SIGNATURE_ALLOWANCE[r]}" for r in _rarities())
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
    from engine import data

    rows = [
        (role_name(role), *(effect_slot_name(s) for s in data.EFFECT_FILL_ORDER[role]))
        for role in _roles()
    ]
    width = max(len(v) for v in data.EFFECT_FILL_ORDER.values())
    cols = [Col(_("Role"))] + [Col(_("Slot %(n)s") % {"n": i + 1}) for i in range(width)]
    return table("fill_order", cols, rows)


@register_macro("effect_kinds")
def effect_kinds(arg: str | None) -> str:
    from engine import data

    rows = [
        (
            effect_name(info.kind),
            target_name(info.target),
            ", ".join(effect_slot_name(s) for s in info.slots),
            effect_description(info.kind),
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
    from engine import data

    rows = [(rarity_cell(r), num(data.ENERGY_COST[r])) for r in _rarities()]
    return table("energy_costs", (Col(_("Rarity")), Col(_("Deploy cost (NRG)"), num=True)), rows)


@register_macro("undercharge")
def undercharge(arg: str | None) -> str:
    from engine import data

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


# ---------------------------------------------------------------------------
# §6 Match


@register_macro("match_constants")
def match_constants(arg: str | None) -> str:
    from engine import data

    rows = [
        (_("Hero HP at the start (before deck bonuses)"), num(data.HERO_HP)),
        (_("Hero HP ceiling"), num(data.MAX_HERO_HP_CEILING)),
        (_("Cards in a deck (all different)"), f"{num(data.DECK_MIN)}–{num(data.DECK_MAX)}"),
        (_("NRG at the start"), num(data.GOLD_INITIAL_PLAYER_ENERGY)),
        (_("NRG gained each round"), signed(data.NRG_PER_ROUND)),
        (_("Most NRG you can hold"), num(data.NRG_CAP)),
        (_("Boosts per round (each once per match)"), num(data.BOOSTS_PER_ROUND)),
        (_("Wounded Rage: own Hero HP at most"), num(data.WOUNDED_RAGE_THRESHOLD)),
        (_("Steal: Hero HP per hit that deals damage"), signed(data.STEAL_HERO_HEAL)),
        (
            _("Arcane: bonus to Deploy and Passive values (first deployment)"),
            signed(data.ARCANE_EFFECT_BONUS),
        ),
        (_("Round at which the engine stops a match (draw by Hero HP)"), num(data.ROUND_LIMIT)),
    ]
    return table("match_constants", (Col(_("Rule")), Col(_("Value"), num=True)), rows)


@register_macro("hero_lives")
def hero_lives(arg: str | None) -> str:
    from engine import data

    rows = [
        (role_name(role), signed(data.HERO_HP_BONUS_PER_ROLE.get(role, 0))) for role in _roles()
    ]
    return table(
        "hero_lives",
        (Col(_("Each card of this role in your deck")), Col(_("Starting Hero HP"), num=True)),
        rows,
        caption=_("Start: %(base)s HP plus the bonuses of your deck, never above %(ceiling)s.")
        % {"base": data.HERO_HP, "ceiling": data.MAX_HERO_HP_CEILING},
    )


@register_macro("boosts")
def boosts(arg: str | None) -> str:
    from engine import data

    names = {
        "charge": pgettext("boost", "Charge"),
        "switch": pgettext("boost", "Switch"),
        "rage": pgettext("boost", "Rage"),
        "guard_up": pgettext("boost", "Guard Up"),
        "hero_patch": pgettext("boost", "Hero Patch"),
    }
    effects = {
        "nrg": _("+%(n)s NRG (up to %(cap)s)"),
        "switch": _("Return the active card to the deck (it keeps its damage) and pick another."),
        "atk_this_round": _("+%(n)s ATK this round"),
        "def": _("+%(n)s DEF"),
        "hero_hp": _("+%(n)s Hero HP (up to %(ceiling)s)"),
    }
    params = {"cap": data.NRG_CAP, "ceiling": data.MAX_HERO_HP_CEILING}
    rows = [
        (
            names.get(b.key, b.key),
            effects.get(b.target, b.target) % {**params, "n": b.amount},
        )
        for b in data.BOOSTS
    ]
    return table(
        "boosts",
        (Col(_("Boost")), Col(_("Effect"))),
        rows,
        caption=ngettext(
            "Up to %(n)s boost per round; each boost once per match.",
            "Up to %(n)s boosts per round; each boost once per match.",
            data.BOOSTS_PER_ROUND,
        )
        % {"n": data.BOOSTS_PER_ROUND},
    )


# ---------------------------------------------------------------------------
# The live collection (read on every view: see wiki.presenters)


@register_macro("collection_stats", live=True)
def collection_stats(arg: str | None) -> str:
    """Cards by rarity (starter cards apart) and the active skills of the collection."""
    from django.apps import apps
    from django.db.models import Count

    try:
        card_model = apps.get_model("cards", "Card")
    except LookupError as exc:
        raise MacroError(_("The card collection is not available.")) from exc
    rows = card_model.objects.order_by().values("starter", "rarity", "active_skill")
    counts = rows.annotate(n=Count("pk"))
    by_rarity: dict[str, int] = {}
    with_skill: dict[str, int] = {}
    by_skill: dict[str, int] = {}
    starters = 0
    for row in counts:
        if row["starter"]:
            starters += row["n"]
            continue
        by_rarity[row["rarity"]] = by_rarity.get(row["rarity"], 0) + row["n"]
        if row["active_skill"]:
            with_skill[row["rarity"]] = with_skill.get(row["rarity"], 0) + row["n"]
            by_skill[row["active_skill"]] = by_skill.get(row["active_skill"], 0) + row["n"]
    total = sum(by_rarity.values())
    if not total and not starters:
        return format_html('<p class="macro-caption">{}</p>', _("The collection is empty."))
    rarity_rows = [
        (
            rarity_cell(rarity),
            num(by_rarity.get(str(rarity), 0)),
            percent(Fraction(by_rarity.get(str(rarity), 0), total)) if total else dash(),
            num(with_skill.get(str(rarity), 0)),
        )
        for rarity in _rarities()
        if str(rarity) != "free"
    ]
    rarity_rows.append(
        (_("Total"), num(total), percent(1) if total else dash(), num(sum(with_skill.values())))
    )
    first = table(
        "collection_stats",
        (
            Col(_("Rarity")),
            Col(_("Cards"), num=True),
            Col(_("Share"), num=True),
            Col(_("With an active skill"), num=True),
        ),
        rarity_rows,
        caption=ngettext(
            "The collection today; %(n)s starter (Free) card is not counted.",
            "The collection today; %(n)s starter (Free) cards are not counted.",
            starters,
        )
        % {"n": num(starters)},
    )
    from engine import data

    skill_rows = [
        (skill_name(skill), num(by_skill.get(str(skill), 0))) for skill in data.SKILL_PRIORITY
    ]
    second = table(
        "collection_stats skills",
        (Col(_("Active skill")), Col(_("Cards"), num=True)),
        skill_rows,
    )
    return first + second


# ---------------------------------------------------------------------------
# Tables kept in their own modules; importing them registers their macros.

from wiki import macros_arena, macros_packs  # noqa: E402, F401  (booster packs §7, slab arena §8)
