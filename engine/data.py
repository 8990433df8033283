"""Every rule number and data table of the engine, each in exactly one place.

The wiki renders its tables straight from this module, so the pages cannot
drift from the engine. Tables are tuples of small frozen dataclasses or dicts
keyed by enums; each carries a one-line comment naming the rule it implements
(section numbers refer to docs/rules.md).

>>> TIER_BANDS[0]
TierBand(tier=<Tier.UNIQUE: 'unique'>, max_supply=5, weight=3)
>>> ENERGY_COST[Rarity.LEGENDARY]
4
>>> len(KEYWORDS[Skill.ARCANE]) >= 20
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Final

from engine.types import (
    AttributeKind,
    BoostKind,
    EffectKind,
    EffectSlot,
    Rarity,
    Role,
    Skill,
    Slot,
    Tier,
)

# ---------------------------------------------------------------------------
# Rules version: named so that two sites can say which rules they derived with, and a
# deployment can record when the rules changed (cards.history, on ``manage.py recompute``).


@dataclass(frozen=True, slots=True)
class RuleChange:
    """One constant of this module changed by a rules version: its name, from, to."""

    constant: str
    before: str
    after: str


# The rules' version: raise it with every change of a number above or below.
RULES_VERSION: Final = "1.0"

# What RULES_VERSION changed against the version before it (empty for the first).
RULES_CHANGELOG: Final[tuple[RuleChange, ...]] = ()

# ---------------------------------------------------------------------------
# §1 Attribute tiers


@dataclass(frozen=True, slots=True)
class TierBand:
    """An attribute tier: supplies up to ``max_supply`` (None = no limit) and its weight."""

    tier: Tier
    max_supply: int | None
    weight: int


# §1: supply → tier, tested in this order (≤ 5 unique, 6–25 rare, > 25 base).
TIER_BANDS: Final = (
    TierBand(Tier.UNIQUE, 5, 3),
    TierBand(Tier.RARE, 25, 2),
    TierBand(Tier.BASE, None, 1),
)

# §1: tier → tier weight (derived from TIER_BANDS).
TIER_WEIGHT: Final = MappingProxyType({band.tier: band.weight for band in TIER_BANDS})

# ---------------------------------------------------------------------------
# §2 Rarity

# §2: the order of rarities, lowest first.
RARITY_ORDER: Final = tuple(Rarity)

# §2: the seven rarity rules, in the order they are evaluated and shown.
RULE_KEYS: Final = (
    "supply_count",
    "wardrobe_score",
    "tier_badge",
    "burned_stickers",
    "god_premium",
    "combo",
    "getgems_rank",
)

# §2: the only rule key of a starter card (which is always Free).
STARTER_RULE_KEY: Final = "starter"

# §2: the rarity of a starter card.
STARTER_RARITY: Final = Rarity.FREE

# §2: what a rule gives when it finds nothing (every non-starter card is at least this).
RULE_FLOOR: Final = Rarity.COMMON


@dataclass(frozen=True, slots=True)
class SupplyCountTier:
    """Supply count rule: ``min_slots`` slots with effective supply ≤ ``max_supply``."""

    rarity: Rarity
    min_slots: int
    max_supply: int


# §2.1: supply count tiers, highest first.
SUPPLY_COUNT_TIERS: Final = (
    SupplyCountTier(Rarity.LEGENDARY, 3, 3),
    SupplyCountTier(Rarity.EPIC, 2, 5),
)

# §2.1: tiers of wardrobe attributes that may stand in for the equipped supply.
SUPPLY_SUBSTITUTE_TIERS: Final = frozenset({Tier.RARE, Tier.UNIQUE})


@dataclass(frozen=True, slots=True)
class AtLeast:
    """A rule tier reached when a number is at least ``threshold``."""

    rarity: Rarity
    threshold: int


@dataclass(frozen=True, slots=True)
class AtMost:
    """A rule tier reached when a number is at most ``threshold``."""

    rarity: Rarity
    threshold: int


# §2.2: each distinct owned attribute adds WARDROBE_POINTS / supply to the score.
WARDROBE_POINTS: Final = 1000

# §2.2: wardrobe score tiers, highest first (compared exactly, as fractions).
WARDROBE_SCORE_TIERS: Final = (
    AtLeast(Rarity.LEGENDARY, 3000),
    AtLeast(Rarity.EPIC, 1500),
    AtLeast(Rarity.RARE, 500),
)

# §2.3: an equipped attribute of this tier gives the tier badge.
TIER_BADGE_TIER: Final = Tier.UNIQUE

# §2.3: the rarity the tier badge gives.
TIER_BADGE_RARITY: Final = Rarity.RARE

# §2.4: burned sticker tiers, highest first.
BURNED_STICKER_TIERS: Final = (
    AtLeast(Rarity.LEGENDARY, 6),
    AtLeast(Rarity.EPIC, 3),
    AtLeast(Rarity.RARE, 1),
)

# §2.5: the rarity an equipped god attribute / premium skin gives, highest first.
GOD_PREMIUM_TIERS: Final = (
    (AttributeKind.GOD, Rarity.LEGENDARY),
    (AttributeKind.PREMIUM, Rarity.EPIC),
)

# §2.7: GetGems rank floor tiers, highest first (no rank or a larger rank: no floor).
GETGEMS_RANK_TIERS: Final = (
    AtMost(Rarity.LEGENDARY, 5),
    AtMost(Rarity.EPIC, 80),
    AtMost(Rarity.RARE, 200),
)

# ---------------------------------------------------------------------------
# §3 Role

# §3: slot weights of role votes.
SLOT_WEIGHT: Final = MappingProxyType({Slot.PAW: 4, Slot.HEAD: 3, Slot.BODY: 2, Slot.BACKGROUND: 1})

# §3, §4: the order slots are scanned to break ties (role and skill).
SLOT_SCAN_ORDER: Final = (Slot.PAW, Slot.HEAD, Slot.BODY, Slot.BACKGROUND)

# §3: the role a primary skill votes for.
SKILL_ROLE: Final = MappingProxyType(
    {
        Skill.PIERCE: Role.TANK,
        Skill.SPEED: Role.STRIKER,
        Skill.STEAL: Role.SUPPORT,
        Skill.ARCANE: Role.CONTROL,
    }
)

# §3: no votes → first byte of SHA-256 of the sorted `slot:tier:name` lines, mod 4, indexes this.
ROLE_HASH_ORDER: Final = (Role.STRIKER, Role.CONTROL, Role.SUPPORT, Role.TANK)

# ---------------------------------------------------------------------------
# §4 Skills

# §4: hit priority; an attribute's first hit is its primary skill, the second its secondary.
SKILL_PRIORITY: Final = (Skill.ARCANE, Skill.SPEED, Skill.STEAL, Skill.PIERCE)

# fmt: off
# §4: keyword fragments per skill; a fragment hits a word of a name that starts with it.
KEYWORDS: Final = MappingProxyType(
    {
        # Magical gear.
        Skill.ARCANE: (
            "hex", "oracle", "scepter", "sceptre", "wand", "staff", "orb", "rune", "tome",
            "grimoire", "crystal", "amulet", "talisman", "totem", "potion", "spell", "wizard",
            "witch", "mystic", "arcan", "sigil", "halo", "enchant", "astral", "cauldron", "seer",
        ),
        # Fast weapons.
        Skill.SPEED: (
            "hook", "dagger", "katana", "knife", "claw", "dart", "arrow", "crossbow", "longbow",
            "sling", "whip", "rapier", "saber", "sabre", "shuriken", "kunai", "sickle",
            "boomerang", "stiletto", "dirk", "cutlass", "wing", "jet", "rocket", "sneaker",
            "skate",
        ),
        # Soft accessories.
        Skill.STEAL: (
            "bag", "candy", "mask", "scarf", "glove", "sock", "pouch", "purse", "ribbon",
            "bandana", "hood", "cape", "cloak", "shawl", "mitten", "pillow", "lollipop", "cookie",
            "coin", "jewel", "loot", "sack", "wallet", "plush",
        ),
        # Armor and heavy weapons.
        Skill.PIERCE: (
            "armor", "armour", "axe", "blade", "crown", "helm", "shield", "sword", "spear",
            "lance", "hammer", "mace", "plate", "chain", "spike", "gauntlet", "pike", "halberd",
            "anvil", "iron", "steel", "tusk", "horn", "club", "trident",
        ),
    }
)
# fmt: on

# §4: a role's default skill when no equipped attribute scores a point.
ROLE_DEFAULT_SKILL: Final = MappingProxyType(
    {
        Role.TANK: Skill.PIERCE,
        Role.STRIKER: Skill.SPEED,
        Role.SUPPORT: Skill.STEAL,
        Role.CONTROL: Skill.ARCANE,
    }
)

# §4: the rarity that makes the skill affinity the active skill (collection cards).
ACTIVE_SKILL_RARITY: Final = Rarity.LEGENDARY

# §4: temporary (non-NFT) cards: chance that the affinity is active, per rarity.
TEMPORARY_SKILL_CHANCE: Final = MappingProxyType(
    {
        Rarity.FREE: Fraction(0),
        Rarity.COMMON: Fraction(0),
        Rarity.RARE: Fraction(1, 5),
        Rarity.EPIC: Fraction(7, 20),
        Rarity.LEGENDARY: Fraction(1, 2),
    }
)

# §4: bytes of SHA-256(`skill:<card id>`) read (big-endian) for the temporary roll.
TEMPORARY_SKILL_HASH_BYTES: Final = 8

# ---------------------------------------------------------------------------
# §5 Effects


@dataclass(frozen=True, slots=True)
class EffectKindInfo:
    """An effect kind: its target and the slots it may stand in."""

    kind: EffectKind
    target: str  # "enemy_card", "enemy_hero", "own_hero" or "own_card"
    slots: tuple[EffectSlot, ...]


# fmt: off
# §5: effect kinds. Burn ticks at the end of each round; Wounded Rage holds while the
# own Hero is at or below WOUNDED_RAGE_THRESHOLD; Last Breath has damage and heal variants.
EFFECT_KINDS: Final = (
    EffectKindInfo(EffectKind.DAMAGE_CARD, "enemy_card", (EffectSlot.DEPLOY, EffectSlot.LAST_BREATH)),
    EffectKindInfo(EffectKind.DAMAGE_HERO, "enemy_hero", (EffectSlot.DEPLOY, EffectSlot.LAST_BREATH)),
    EffectKindInfo(EffectKind.HEAL_HERO, "own_hero", (EffectSlot.DEPLOY, EffectSlot.LAST_BREATH)),
    EffectKindInfo(EffectKind.SHIELD, "own_card", (EffectSlot.DEPLOY,)),
    EffectKindInfo(EffectKind.BUFF_ATK, "own_card", (EffectSlot.DEPLOY,)),
    EffectKindInfo(EffectKind.BURN, "enemy_hero", (EffectSlot.PASSIVE,)),
    EffectKindInfo(EffectKind.WOUNDED_RAGE, "own_card", (EffectSlot.PASSIVE,)),
)
# fmt: on

# §5: signature effects a rarity may add (only into empty slots).
SIGNATURE_ALLOWANCE: Final = MappingProxyType(
    {Rarity.FREE: 0, Rarity.COMMON: 0, Rarity.RARE: 1, Rarity.EPIC: 2, Rarity.LEGENDARY: 3}
)

# §5: the order a role's signatures fill the effect slots.
EFFECT_FILL_ORDER: Final = MappingProxyType(
    {
        Role.TANK: (EffectSlot.DEPLOY, EffectSlot.PASSIVE, EffectSlot.LAST_BREATH),
        Role.STRIKER: (EffectSlot.DEPLOY, EffectSlot.LAST_BREATH, EffectSlot.PASSIVE),
        Role.SUPPORT: (EffectSlot.PASSIVE, EffectSlot.DEPLOY, EffectSlot.LAST_BREATH),
        Role.CONTROL: (EffectSlot.PASSIVE, EffectSlot.LAST_BREATH, EffectSlot.DEPLOY),
    }
)


@dataclass(frozen=True, slots=True)
class Signature:
    """A signature effect: kind and base value for one slot of a role."""

    slot: EffectSlot
    kind: EffectKind
    value: int


# §5: the signature effect catalogue per role. Every template fills Deploy, so a role's
# catalogue covers Passive and Last Breath; the fill order decides which comes first.
SIGNATURES: Final = MappingProxyType(
    {
        Role.TANK: (
            Signature(EffectSlot.PASSIVE, EffectKind.WOUNDED_RAGE, 2),
            Signature(EffectSlot.LAST_BREATH, EffectKind.HEAL_HERO, 3),
        ),
        Role.STRIKER: (
            Signature(EffectSlot.PASSIVE, EffectKind.WOUNDED_RAGE, 3),
            Signature(EffectSlot.LAST_BREATH, EffectKind.DAMAGE_HERO, 3),
        ),
        Role.SUPPORT: (
            Signature(EffectSlot.PASSIVE, EffectKind.BURN, 1),
            Signature(EffectSlot.LAST_BREATH, EffectKind.HEAL_HERO, 4),
        ),
        Role.CONTROL: (
            Signature(EffectSlot.PASSIVE, EffectKind.BURN, 2),
            Signature(EffectSlot.LAST_BREATH, EffectKind.DAMAGE_CARD, 3),
        ),
    }
)

# ---------------------------------------------------------------------------
# §5 Templates and stats


@dataclass(frozen=True, slots=True)
class StatBonus:
    """A rarity bonus of a template."""

    atk: int
    hp: int
    ability: int


@dataclass(frozen=True, slots=True)
class Template:
    """A card template: base stats, rarity bonuses (Rare/Epic/Legendary) and its Deploy.

    The Deploy's base value is the template's ability value.
    """

    key: str
    role: Role
    atk: int
    hp: int
    def_: int
    ability: int
    rare: StatBonus
    epic: StatBonus
    legendary: StatBonus
    deploy: EffectKind

    def bonus(self, rarity: Rarity) -> StatBonus:
        """The bonus for ``rarity`` (zero for Common and Free)."""
        if rarity is Rarity.LEGENDARY:
            return self.legendary
        if rarity is Rarity.EPIC:
            return self.epic
        if rarity is Rarity.RARE:
            return self.rare
        return NO_BONUS


# §5: Common and Free add nothing.
NO_BONUS: Final = StatBonus(0, 0, 0)

_T, _B = Template, StatBonus
# fmt: off
# §5: the templates; Iron Pup is fixed by the rules, the others are house data.
TEMPLATES: Final = (
    # key              role          ATK  HP DEF AB  Rare          Epic          Legendary     Deploy
    _T("iron_pup",      Role.TANK,      8, 20, 2, 2, _B(0, 2, 0), _B(1, 2, 0), _B(2, 3, 1), EffectKind.SHIELD),
    _T("bulwark_hound", Role.TANK,      6, 24, 3, 2, _B(0, 3, 0), _B(1, 4, 0), _B(1, 6, 1), EffectKind.HEAL_HERO),
    _T("granite_guard", Role.TANK,      7, 22, 3, 1, _B(0, 2, 0), _B(1, 3, 0), _B(2, 4, 1), EffectKind.DAMAGE_CARD),
    _T("claw_dancer",   Role.STRIKER,  11, 14, 0, 2, _B(1, 0, 0), _B(2, 1, 0), _B(3, 2, 1), EffectKind.DAMAGE_CARD),
    _T("ember_fang",    Role.STRIKER,  12, 12, 0, 2, _B(1, 1, 0), _B(2, 1, 0), _B(3, 2, 1), EffectKind.DAMAGE_HERO),
    _T("swift_tail",    Role.STRIKER,  10, 15, 1, 2, _B(1, 0, 0), _B(1, 2, 0), _B(2, 3, 1), EffectKind.BUFF_ATK),
    _T("meadow_medic",  Role.SUPPORT,   6, 18, 1, 3, _B(0, 2, 0), _B(0, 3, 1), _B(1, 4, 1), EffectKind.HEAL_HERO),
    _T("lucky_whisker", Role.SUPPORT,   7, 16, 1, 2, _B(0, 2, 0), _B(1, 2, 0), _B(1, 3, 1), EffectKind.BUFF_ATK),
    _T("velvet_keeper", Role.SUPPORT,   5, 19, 2, 2, _B(0, 3, 0), _B(1, 3, 0), _B(1, 4, 1), EffectKind.SHIELD),
    _T("hex_weaver",    Role.CONTROL,   7, 16, 1, 2, _B(0, 1, 0), _B(1, 2, 0), _B(1, 3, 1), EffectKind.DAMAGE_CARD),
    _T("storm_caller",  Role.CONTROL,   8, 15, 0, 2, _B(1, 1, 0), _B(1, 2, 0), _B(2, 3, 1), EffectKind.DAMAGE_HERO),
    _T("frost_sage",    Role.CONTROL,   6, 17, 1, 3, _B(0, 2, 0), _B(0, 2, 1), _B(1, 3, 1), EffectKind.DAMAGE_CARD),
)
# fmt: on
del _T, _B

# §5: templates by key.
TEMPLATES_BY_KEY: Final = MappingProxyType({t.key: t for t in TEMPLATES})

# §5: a role's templates sorted by key (the template hash indexes this).
TEMPLATES_BY_ROLE: Final = MappingProxyType(
    {
        role: tuple(sorted((t for t in TEMPLATES if t.role is role), key=lambda t: t.key))
        for role in Role
    }
)

# §5 sticker power: +1 ATK per STICKERS_PER_ATK burned stickers, at most STICKER_ATK_CAP.
STICKERS_PER_ATK: Final = 2
STICKER_ATK_CAP: Final = 3

# §5 paw item: ATK added by the equipped paw attribute's tier.
PAW_ITEM_ATK: Final = MappingProxyType({Tier.UNIQUE: 2, Tier.RARE: 1, Tier.BASE: 0})


@dataclass(frozen=True, slots=True)
class BurnMilestone:
    """A burn milestone: at least ``burned`` stickers burned gives +``hp`` HP."""

    burned: int
    hp: int


# §5: burn milestones, highest first; only the highest reached applies.
BURN_MILESTONES: Final = (BurnMilestone(6, 4), BurnMilestone(3, 2))

# ---------------------------------------------------------------------------
# §5, §6 Energy

# §5: NRG cost of deploying a card, by rarity.
ENERGY_COST: Final = MappingProxyType(
    {Rarity.FREE: 1, Rarity.COMMON: 1, Rarity.RARE: 2, Rarity.EPIC: 3, Rarity.LEGENDARY: 4}
)


@dataclass(frozen=True, slots=True)
class UnderchargeTier:
    """Penalty of deploying with ``deficit`` NRG too little (the last tier covers more).

    ATK and DEF lose ``stat_cut_percent`` (rounded down); numeric effects lose
    ``effect_minus``, or are halved (rounded down) when ``halve_effects``; never below 0.
    """

    deficit: int
    stat_cut_percent: int
    effect_minus: int
    halve_effects: bool


# §6: undercharge penalties by deficit; the last row covers every larger deficit.
UNDERCHARGE: Final = (
    UnderchargeTier(1, 25, 1, False),
    UnderchargeTier(2, 40, 1, False),
    UnderchargeTier(3, 50, 0, True),
)

# ---------------------------------------------------------------------------
# §6 Match constants (the match engine lives elsewhere; the wiki shows these)

HERO_HP: Final = 30  # §6: a Hero's starting HP before deck bonuses
DECK_MIN: Final = 1  # §6: fewest distinct cards in a deck
DECK_MAX: Final = 4  # §6: most distinct cards in a deck
NRG_CAP: Final = 4  # §6: most NRG a player can hold
NRG_PER_ROUND: Final = 1  # §6: NRG both players gain each round
GOLD_INITIAL_PLAYER_ENERGY: Final = 3  # §6: NRG both players start with
MAX_HERO_HP_CEILING: Final = 90  # §6: Hero HP never goes above this
WOUNDED_RAGE_THRESHOLD: Final = 15  # §5, §6: Wounded Rage holds at or below this Hero HP

# §6: extra starting Hero HP per card of a role in the deck.
HERO_HP_BONUS_PER_ROLE: Final = MappingProxyType({Role.TANK: 2, Role.SUPPORT: 1})

STEAL_HERO_HEAL: Final = 2  # §6: Hero HP a Steal card heals each time it deals damage
ARCANE_EFFECT_BONUS: Final = 1  # §6: added to numeric Deploy/Passive values on first deploy
BOOSTS_PER_ROUND: Final = 2  # §6: most boosts a player may use in one round


@dataclass(frozen=True, slots=True)
class Boost:
    """A once-per-match boost: what it changes (``target``) and by how much."""

    key: BoostKind
    target: str  # "nrg", "atk_this_round", "def", "hero_hp" or "switch"
    amount: int


# §6: boosts, each usable once per match.
BOOSTS: Final = (
    Boost(BoostKind.CHARGE, "nrg", 1),
    Boost(BoostKind.SWITCH, "switch", 0),
    Boost(BoostKind.RAGE, "atk_this_round", 2),
    Boost(BoostKind.GUARD_UP, "def", 2),
    Boost(BoostKind.HERO_PATCH, "hero_hp", 3),
)

ROUND_LIMIT: Final = 200  # §6: the engine stops a match here, a draw decided by Hero HP

# ---------------------------------------------------------------------------
# §7 Booster packs (the draw kernel and the exact odds live in engine.packs)

# §7: tier weights of the booster draw. Free is absent: Free cards never enter a pool.
PACK_TIER_WEIGHT: Final = MappingProxyType(
    {Rarity.COMMON: 80, Rarity.RARE: 40, Rarity.EPIC: 20, Rarity.LEGENDARY: 10}
)

# §7: the tiers a pool may hold, in the order a tier roll walks them (rarity order, lowest first).
PACK_TIERS: Final = tuple(r for r in RARITY_ORDER if r in PACK_TIER_WEIGHT)

# ---------------------------------------------------------------------------
# §8 Slab arena: a separate game with its own enums (slab tier, element, bracket), so its
# stat book, team and bracket rules and match constants live in engine.arena.slabs, in the
# section headed "Data tables", each number once there.
