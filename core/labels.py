"""The one vocabulary: the engine's enum members in the visitor's language.

The engine speaks in enum members (``Rarity.LEGENDARY``, ``Slot.PAW``, ``BoostKind.RAGE``);
this module is the only place that names them for a page — the explorer, the wiki's
tables, the match demo, the admin and the models' choices all read it. Each member has one
name (``LABELS``) and, where the site explains it, one description (``DESCRIPTIONS``, a
sentence whose numbers come from the engine's data, never typed here).

Rarity, role and skill names are game terms and stay in Latin letters in Russian, as the
game's own Russian pages write them (docs/glossary.md lists every term and its one
Russian form).

>>> from engine.types import Rarity, Slot
>>> label(Rarity.LEGENDARY), label_of(Slot, "paw"), label(None)
('Legendary', 'paw', 'none')
>>> describe(EffectKind.WOUNDED_RAGE, n=3)
'+3 ATK while your Hero has 15 HP or less.'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from django.utils.functional import Promise, lazy
from django.utils.text import capfirst
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from core.memo import Kept
from engine import data
from engine.arena.bots import ArenaBot
from engine.arena.match import ArenaEnd
from engine.arena.slabs import Bracket, Element, SlabMove, SlabTier
from engine.packs import CheckSkip, PowerFlag, PromiseStep
from engine.types import (
    AttributeKind,
    Beat,
    BoostKind,
    BotKind,
    EffectKind,
    EffectSlot,
    EffectSource,
    EndReason,
    Rarity,
    Role,
    Skill,
    Slot,
    Tier,
)

__all__ = [
    "DESCRIPTIONS",
    "ENUMS",
    "LABELS",
    "NONE_LABEL",
    "RULE_LABELS",
    "choices",
    "describe",
    "enum_label",
    "label",
    "label_of",
    "result_text",
    "rule_label",
    "template_label",
]

E = TypeVar("E", bound=enum.Enum)

LABELS: Mapping[type[enum.Enum], Mapping[enum.Enum, Promise]] = MappingProxyType(
    {
        Rarity: {
            Rarity.FREE: pgettext_lazy("rarity", "Free"),
            Rarity.COMMON: pgettext_lazy("rarity", "Common"),
            Rarity.RARE: pgettext_lazy("rarity", "Rare"),
            Rarity.EPIC: pgettext_lazy("rarity", "Epic"),
            Rarity.LEGENDARY: pgettext_lazy("rarity", "Legendary"),
        },
        Role: {
            Role.TANK: pgettext_lazy("role", "Tank"),
            Role.STRIKER: pgettext_lazy("role", "Striker"),
            Role.SUPPORT: pgettext_lazy("role", "Support"),
            Role.CONTROL: pgettext_lazy("role", "Control"),
        },
        Skill: {
            Skill.PIERCE: pgettext_lazy("skill", "Pierce"),
            Skill.SPEED: pgettext_lazy("skill", "Speed"),
            Skill.STEAL: pgettext_lazy("skill", "Steal"),
            Skill.ARCANE: pgettext_lazy("skill", "Arcane"),
        },
        Slot: {
            Slot.HEAD: pgettext_lazy("slot", "head"),
            Slot.BODY: pgettext_lazy("slot", "body"),
            Slot.PAW: pgettext_lazy("slot", "paw"),
            Slot.BACKGROUND: pgettext_lazy("slot", "background"),
        },
        Tier: {
            Tier.BASE: pgettext_lazy("attribute tier", "base"),
            Tier.RARE: pgettext_lazy("attribute tier", "rare"),
            Tier.UNIQUE: pgettext_lazy("attribute tier", "unique"),
        },
        AttributeKind: {
            AttributeKind.NORMAL: pgettext_lazy("attribute kind", "normal"),
            AttributeKind.GOD: pgettext_lazy("attribute kind", "god"),
            AttributeKind.PREMIUM: pgettext_lazy("attribute kind", "premium skin"),
        },
        EffectSlot: {
            EffectSlot.DEPLOY: pgettext_lazy("effect slot", "Deploy"),
            EffectSlot.PASSIVE: pgettext_lazy("effect slot", "Passive"),
            EffectSlot.LAST_BREATH: pgettext_lazy("effect slot", "Last Breath"),
        },
        EffectSource: {
            EffectSource.TEMPLATE: pgettext_lazy("effect source", "template"),
            EffectSource.SIGNATURE: pgettext_lazy("effect source", "signature"),
        },
        EffectKind: {
            EffectKind.DAMAGE_CARD: pgettext_lazy("effect", "Damage enemy card"),
            EffectKind.DAMAGE_HERO: pgettext_lazy("effect", "Damage enemy Hero"),
            EffectKind.HEAL_HERO: pgettext_lazy("effect", "Heal own Hero"),
            EffectKind.SHIELD: pgettext_lazy("effect", "Shield own card"),
            EffectKind.BUFF_ATK: pgettext_lazy("effect", "Buff own card"),
            EffectKind.BURN: pgettext_lazy("effect", "Burn"),
            EffectKind.WOUNDED_RAGE: pgettext_lazy("effect", "Wounded Rage"),
        },
        BoostKind: {
            BoostKind.CHARGE: pgettext_lazy("boost", "Charge"),
            BoostKind.SWITCH: pgettext_lazy("boost", "Switch"),
            BoostKind.RAGE: pgettext_lazy("boost", "Rage"),
            BoostKind.GUARD_UP: pgettext_lazy("boost", "Guard Up"),
            BoostKind.HERO_PATCH: pgettext_lazy("boost", "Hero Patch"),
        },
        EndReason: {
            EndReason.HERO_DEFEATED: pgettext_lazy("end reason", "a Hero fell"),
            EndReason.BOTH_DEFEATED: pgettext_lazy("end reason", "both Heroes fell"),
            EndReason.SURRENDER: pgettext_lazy("end reason", "surrender"),
            EndReason.DECKS_EXHAUSTED: pgettext_lazy("end reason", "no cards left"),
            EndReason.ROUND_LIMIT: pgettext_lazy("end reason", "round limit"),
        },
        SlabTier: {
            SlabTier.COMMON: pgettext_lazy("slab tier", "common"),
            SlabTier.UNCOMMON: pgettext_lazy("slab tier", "uncommon"),
            SlabTier.RARE: pgettext_lazy("slab tier", "rare"),
            SlabTier.EPIC: pgettext_lazy("slab tier", "epic"),
        },
        Element: {
            Element.SUN: pgettext_lazy("slab element", "Sun"),
            Element.MOON: pgettext_lazy("slab element", "Moon"),
            Element.STAR: pgettext_lazy("slab element", "Star"),
        },
        Bracket: {
            Bracket.ROOKIE: pgettext_lazy("slab bracket", "rookie"),
            Bracket.PRO: pgettext_lazy("slab bracket", "pro"),
            Bracket.ELITE: pgettext_lazy("slab bracket", "elite"),
            Bracket.OPEN: pgettext_lazy("slab bracket", "open"),
        },
        SlabMove: {
            SlabMove.BASIC: pgettext_lazy("slab move", "basic attack"),
            SlabMove.POWER: pgettext_lazy("slab move", "power move"),
        },
        PowerFlag: {
            PowerFlag.WEAK: pgettext_lazy("power flag", "weak for its tier"),
            PowerFlag.DOMINANT: pgettext_lazy("power flag", "strong beyond its tier"),
        },
        PromiseStep: {
            PromiseStep.MODEST: pgettext_lazy("promise step", "modest"),
            PromiseStep.STEEP: pgettext_lazy("promise step", "too steep"),
            PromiseStep.NOT_RISING: pgettext_lazy("promise step", "not rising"),
        },
        CheckSkip: {
            CheckSkip.ONE_OUTCOME: pgettext_lazy("check skip", "one outcome"),
            CheckSkip.TOO_FEW_PACKS: pgettext_lazy("check skip", "too few packs"),
        },
        ArenaEnd: {
            ArenaEnd.POINTS: pgettext_lazy("arena end", "winning score reached"),
            ArenaEnd.FORFEIT: pgettext_lazy("arena end", "forfeit on timeouts"),
            ArenaEnd.SURRENDER: pgettext_lazy("arena end", "surrender"),
            ArenaEnd.TURN_LIMIT_POINTS: pgettext_lazy("arena end", "turn limit: more points"),
            ArenaEnd.TURN_LIMIT_HP: pgettext_lazy("arena end", "turn limit: larger share of HP"),
            ArenaEnd.TURN_LIMIT_DRAW: pgettext_lazy("arena end", "turn limit: draw"),
        },
        ArenaBot: {
            ArenaBot.RANDOM: pgettext_lazy("arena bot", "Random bot"),
            ArenaBot.GREEDY: pgettext_lazy("arena bot", "Brawler"),
            ArenaBot.PLANNER: pgettext_lazy("arena bot", "Tactician"),
        },
        Beat: {
            Beat.OPENING: pgettext_lazy("match beat", "Before round 1"),
            Beat.PREPARE: pgettext_lazy("match beat", "Prepare"),
            Beat.COMMIT: pgettext_lazy("match beat", "Commit"),
            Beat.RESOLVE: pgettext_lazy("match beat", "Resolve"),
            Beat.ADVANCE: pgettext_lazy("match beat", "Advance"),
        },
        BotKind: {
            BotKind.RANDOM: pgettext_lazy("bot", "Random"),
            BotKind.GREEDY: pgettext_lazy("bot", "Greedy"),
            BotKind.LOOKAHEAD: pgettext_lazy("bot", "Lookahead"),
        },
    }
)
"""One name per engine enum member, by enum (members of different enums may share a value,
``Rarity.COMMON`` and ``SlabTier.COMMON`` both being ``"common"``, so one flat dict would
mix them up)."""

DESCRIPTIONS: Mapping[type[enum.Enum], Mapping[enum.Enum, Promise]] = MappingProxyType(
    {
        EffectKind: {
            EffectKind.DAMAGE_CARD: _("The enemy card takes %(n)s damage."),
            EffectKind.DAMAGE_HERO: _("The enemy Hero loses %(n)s HP."),
            EffectKind.HEAL_HERO: _("Your Hero gains %(n)s HP."),
            EffectKind.SHIELD: _("This card gets +%(n)s DEF."),
            EffectKind.BUFF_ATK: _("This card gets +%(n)s ATK."),
            EffectKind.BURN: _("The enemy Hero loses %(n)s HP at the end of each round."),
            EffectKind.WOUNDED_RAGE: _("+%(n)s ATK while your Hero has %(threshold)s HP or less."),
        },
        BoostKind: {
            BoostKind.CHARGE: _("+%(amount)s NRG at once (up to the cap of %(cap)s)."),
            BoostKind.SWITCH: _(
                "Your card goes back to the deck, keeping its damage, and another comes in; "
                "it pays its NRG cost when it enters."
            ),
            BoostKind.RAGE: _(
                "+%(amount)s ATK for your card's strike this round; it ends if the card "
                "leaves the field."
            ),
            BoostKind.GUARD_UP: _(
                "+%(amount)s DEF for your card on the field or the one you picked."
            ),
            BoostKind.HERO_PATCH: _("+%(amount)s HP for your Hero (up to %(ceiling)s)."),
        },
        ArenaBot: {
            ArenaBot.RANDOM: _("Plays a random legal move (used in tests)."),
            ArenaBot.GREEDY: _("Hits as hard as it can right away and never saves energy."),
            ArenaBot.PLANNER: _(
                "Saves energy for its power move when that pays more per energy point, and "
                "swaps out a slab about to be knocked out."
            ),
        },
        BotKind: {
            BotKind.RANDOM: _("Plays any legal move: an easy opponent."),
            BotKind.GREEDY: _(
                "Plays by rules of thumb: the strongest card it can pay for, boosts when they "
                "turn a blow."
            ),
            BotKind.LOOKAHEAD: _(
                "Tries every plan it has for the round against your likely reply and plays "
                "the one that turns out best: the strongest."
            ),
        },
    }
)
"""What a member does, with ``%(name)s`` places for its numbers (see ``describe``)."""

# The numbers a description always shows, from the engine's data tables.
_BOOST_AMOUNT = {boost.key: boost.amount for boost in data.BOOSTS}
_DEFAULTS: Mapping[tuple[type[enum.Enum], enum.Enum], Mapping[str, Any]] = {
    (EffectKind, EffectKind.WOUNDED_RAGE): {"threshold": data.WOUNDED_RAGE_THRESHOLD},
    (BoostKind, BoostKind.CHARGE): {"amount": _BOOST_AMOUNT[BoostKind.CHARGE], "cap": data.NRG_CAP},
    (BoostKind, BoostKind.RAGE): {"amount": _BOOST_AMOUNT[BoostKind.RAGE]},
    (BoostKind, BoostKind.GUARD_UP): {"amount": _BOOST_AMOUNT[BoostKind.GUARD_UP]},
    (BoostKind, BoostKind.HERO_PATCH): {
        "amount": _BOOST_AMOUNT[BoostKind.HERO_PATCH],
        "ceiling": data.MAX_HERO_HP_CEILING,
    },
}

# The rarity rules (docs/rules.md §2) are keyed by the engine's rule keys, which are strings.
RULE_LABELS: Mapping[str, Promise] = MappingProxyType(
    {
        "supply_count": _("Supply count"),
        "wardrobe_score": _("Wardrobe score"),
        "tier_badge": _("Tier badge"),
        "burned_stickers": _("Burned stickers"),
        "god_premium": _("God or premium attribute"),
        "combo": _("Special combo"),
        "getgems_rank": _("GetGems rank floor"),
        "starter": _("Starter card"),
    }
)

# The enum behind each kind name that templates, query fields and trace parameters use.
ENUMS: Mapping[str, type[enum.Enum]] = MappingProxyType(
    {
        "rarity": Rarity,
        "role": Role,
        "skill": Skill,
        "active": Skill,
        "slot": Slot,
        "tier": Tier,
        "kind": AttributeKind,
        "effect_slot": EffectSlot,
        "effect_kind": EffectKind,
        "effect_source": EffectSource,
        "boost": BoostKind,
        "end_reason": EndReason,
        "slab_tier": SlabTier,
        "element": Element,
        "bracket": Bracket,
        "slab_move": SlabMove,
        "arena_end": ArenaEnd,
        "arena_bot": ArenaBot,
    }
)

NONE_LABEL = _("none")


# Names by (language, enum, member): a card page asks ≈ 120 of them, each a catalogue look-up
# otherwise. (The enum is in the key: StrEnum members of two enums can be equal.) Dropped
# when a translation catalogue changes (``core.memo``).
_NAMES: Kept[tuple[str | None, type[enum.Enum], enum.Enum], str] = Kept(4096)


def card_title(name: str, token: int) -> str:
    """A card's display title, its name with its token once: "Sprocket #23" (demo names
    carry the token already). ``Card.__str__``, the presenters and the ``card_title``
    template filter all use it.

    >>> card_title("Sprocket", 23), card_title("Pup #7", 7)
    ('Sprocket #23', 'Pup #7')
    """
    suffix = f"#{token}"
    return name if name.endswith(suffix) else f"{name} {suffix}"


def label(member: enum.Enum | None) -> str:
    """The visitor-language name of an engine enum member (``none`` for None)."""
    if member is None:
        return str(NONE_LABEL)
    key = (get_language(), type(member), member)
    name = _NAMES.get(key)
    if name is None:
        name = _NAMES.keep(key, str(LABELS[type(member)][member]))
    return name


def label_of(enum_cls: type[E], value: object) -> str:
    """The name of ``enum_cls(value)`` — for values read from JSON, traces or the database.

    An unknown value is shown as it is (it is data, not a crash); None is "none".
    """
    if value is None:
        return str(NONE_LABEL)
    try:
        return label(enum_cls(getattr(value, "value", value)))
    except (ValueError, KeyError):
        return str(value)


def enum_label(kind: str, value: object) -> str:
    """The name of a value of the enum called ``kind`` in ``ENUMS`` (``"rarity"``, ``"slot"``)."""
    if kind == "rule":
        return rule_label(str(value)) if value is not None else str(NONE_LABEL)
    enum_cls = ENUMS.get(kind)
    if enum_cls is None:
        return str(NONE_LABEL) if value is None else str(value)
    return label_of(enum_cls, value)


def result_text(result: str | None) -> str:
    """The result of a match against the bot, the player being side ``a`` (a state's
    ``result``: ``"a"``, ``"b"``, ``"draw"``; None while it runs). The card match and the
    slab arena say it alike.

    >>> result_text("a"), result_text("draw")
    ('You win!', 'A draw.')
    """
    if result == "a":
        return str(_("You win!"))
    if result == "b":
        return str(_("The bot wins."))
    if result == "draw":
        return str(_("A draw."))
    return str(_("The match is on."))


def rule_label(key: str) -> str:
    """The name of a rarity rule key (``"supply_count"`` → "Supply count")."""
    return str(RULE_LABELS.get(key, key))


def describe(member: enum.Enum, **numbers: Any) -> str:
    """What ``member`` does, its numbers filled in (the engine's own, plus ``numbers``)."""
    params = {**_DEFAULTS.get((type(member), member), {}), **numbers}
    return str(DESCRIPTIONS[type(member)][member]) % params


_capfirst_lazy = lazy(lambda text: capfirst(str(text)), str)


def choices(enum_cls: type[enum.Enum]) -> list[tuple[str, Promise]]:
    """Model-field choices for an engine enum: its values, named as on the pages."""
    names = LABELS[enum_cls]
    return [(member.value, _capfirst_lazy(names[member])) for member in enum_cls]


def template_label(key: str) -> str:
    """A template's name: a proper name, written the same in every language (Iron Pup)."""
    return key.replace("_", " ").title()
