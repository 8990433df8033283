"""Match tables (docs/rules.md §6): the match constants, starting Hero HP and the boosts."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.labels import describe, label
from engine import data
from engine.types import BoostKind, Role

from .registry import (
    Col,
    num,
    register_macro,
    signed,
    table,
)

# ---------------------------------------------------------------------------
# §6 Match


def _boost_amount(key: BoostKind) -> int:
    return next(b.amount for b in data.BOOSTS if b.key is key)


@register_macro("match_constants")
def match_constants(arg: str | None) -> str:
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
        (
            _("No card left on either side: each unused Hero Patch counts (Hero HP)"),
            signed(_boost_amount(BoostKind.HERO_PATCH)),
        ),
        (
            _("Round after which the engine stops a match (the higher Hero HP wins)"),
            num(data.ROUND_LIMIT),
        ),
    ]
    return table("match_constants", (Col(_("Rule")), Col(_("Value"), num=True)), rows)


@register_macro("hero_lives")
def hero_lives(arg: str | None) -> str:
    rows = [(label(role), signed(data.HERO_HP_BONUS_PER_ROLE.get(role, 0))) for role in tuple(Role)]
    return table(
        "hero_lives",
        (Col(_("Each card of this role in your deck")), Col(_("Starting Hero HP"), num=True)),
        rows,
        caption=_("Start: %(base)s HP plus the bonuses of your deck, never above %(ceiling)s.")
        % {"base": data.HERO_HP, "ceiling": data.MAX_HERO_HP_CEILING},
    )


@register_macro("boosts")
def boosts(arg: str | None) -> str:
    rows = [
        (
            label(b.key),
            describe(b.key, amount=b.amount),
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
