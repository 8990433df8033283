"""Translated names for the engine's vocabulary (rarities, roles, skills, slots, effects, …).

The engine speaks in lowercase values (``"legendary"``, ``"paw"``); this is the one place
that turns them into words for the page — the explorer, the wiki's tables and the match
demo all use it. Rarity, role and skill names are game terms and
stay in Latin letters in Russian too, as the game's own Russian pages write them.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

ENUM_LABELS: dict[str, dict[str, object]] = {
    "rarity": {
        "free": pgettext_lazy("rarity", "Free"),
        "common": pgettext_lazy("rarity", "Common"),
        "rare": pgettext_lazy("rarity", "Rare"),
        "epic": pgettext_lazy("rarity", "Epic"),
        "legendary": pgettext_lazy("rarity", "Legendary"),
    },
    "role": {
        "tank": pgettext_lazy("role", "Tank"),
        "striker": pgettext_lazy("role", "Striker"),
        "support": pgettext_lazy("role", "Support"),
        "control": pgettext_lazy("role", "Control"),
    },
    "skill": {
        "pierce": pgettext_lazy("skill", "Pierce"),
        "speed": pgettext_lazy("skill", "Speed"),
        "steal": pgettext_lazy("skill", "Steal"),
        "arcane": pgettext_lazy("skill", "Arcane"),
    },
    "slot": {
        "head": pgettext_lazy("slot", "head"),
        "body": pgettext_lazy("slot", "body"),
        "paw": pgettext_lazy("slot", "paw"),
        "background": pgettext_lazy("slot", "background"),
    },
    "tier": {
        "base": pgettext_lazy("attribute tier", "base"),
        "rare": pgettext_lazy("attribute tier", "rare"),
        "unique": pgettext_lazy("attribute tier", "unique"),
    },
    "kind": {
        "normal": pgettext_lazy("attribute kind", "normal"),
        "god": pgettext_lazy("attribute kind", "god"),
        "premium": pgettext_lazy("attribute kind", "premium skin"),
    },
    "effect_slot": {
        "deploy": pgettext_lazy("effect slot", "Deploy"),
        "passive": pgettext_lazy("effect slot", "Passive"),
        "last_breath": pgettext_lazy("effect slot", "Last Breath"),
    },
    "effect_kind": {
        "damage_card": _("damage the enemy card"),
        "damage_hero": _("damage the enemy Hero"),
        "heal_hero": _("heal your Hero"),
        "shield": _("shield your card (+DEF)"),
        "buff_atk": _("buff your card (+ATK)"),
        "burn": _("burn (enemy Hero loses HP each round)"),
        "wounded_rage": _("Wounded Rage (+ATK while your Hero is low)"),
    },
    "boost": {
        "charge": pgettext_lazy("boost", "Charge"),
        "switch": pgettext_lazy("boost", "Switch"),
        "rage": pgettext_lazy("boost", "Rage"),
        "guard_up": pgettext_lazy("boost", "Guard Up"),
        "hero_patch": pgettext_lazy("boost", "Hero Patch"),
    },
    "rule": {
        "supply_count": _("Supply count"),
        "wardrobe_score": _("Wardrobe score"),
        "tier_badge": _("Tier badge"),
        "burned_stickers": _("Burned stickers"),
        "god_premium": _("God or premium attribute"),
        "combo": _("Special combo"),
        "getgems_rank": _("GetGems rank floor"),
        "starter": _("Starter card"),
    },
}
# Query fields whose values are enums of another name.
ENUM_LABELS["active"] = ENUM_LABELS["skill"]

NONE_LABEL = _("none")


def enum_label(kind: str, value: str | None) -> str:
    """The visitor-language name of an engine enum value (the value itself if unknown)."""
    if value is None:
        return str(NONE_LABEL)
    return str(ENUM_LABELS.get(kind, {}).get(value, value))


def template_label(key: str) -> str:
    """A template's name: a proper name, written the same in every language (Iron Pup)."""
    return key.replace("_", " ").title()
