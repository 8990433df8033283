"""The demo collection: deterministic, believable, and exact where the wiki is exact.

``generate(seed, size)`` builds a collection in engine terms (pure Python, one
``random.Random(seed)``, no database); ``write_collection`` stores it.

The old wiki's 1,000-card set (seed 001, "Under the hood") has 146 Legendary
cards whose active skills are Arcane 78, Steal 33, Pierce 27 and Speed 8, and 854
other cards without one. The generator holds that *by construction*, for any
seed: it first decides which cards are Legendary and with which skill (other
sizes scale the same shares), then builds each card to fit its plan —

* a Legendary card takes one route to Legendary (three or four equipped
  attributes with supply ≤ 3; a wardrobe worth ≥ 3,000; a god attribute; six or
  more burned stickers; a Legendary combo) and wears attributes whose names give
  its skill strictly more points than any other skill (docs/rules.md §4, so no
  tie-break is involved);
* every other card keeps clear of every Legendary rule: at most two slots own an
  attribute with supply ≤ 3, its wardrobe stays under 3,000, no god attribute or
  Legendary-combo attribute is drawn for it, at most five burned stickers, and no
  GetGems rank ≤ 5 (ranks 1–5 go to Legendary cards).

Each card is then derived by the engine to confirm its plan (a card that missed
would be drafted again; with the default seed none is). Everything else is
random: the attribute catalogues (names mixing the engine's keyword fragments with
neutral words, long-tail supplies, a few god and premium attributes), which card
draws which copy (a card can only own a copy that exists: owners ≤ supply),
wardrobe sizes, ranks, stickers, names.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.card.derive import derive
from engine.card.fragility import RANK_RULES
from engine.card.skills import keyword_skills
from engine.data import (
    BURNED_STICKER_TIERS,
    GETGEMS_RANK_TIERS,
    KEYWORDS,
    SKILL_PRIORITY,
    SUPPLY_COUNT_TIERS,
    WARDROBE_POINTS,
    WARDROBE_SCORE_TIERS,
)
from engine.types import AttributeKind, AttributeSpec, CardSpec, ComboSpec, Rarity, Skill, Slot

from .specs import derived_fields

__all__ = [
    "DEFAULT_SEED",
    "DEFAULT_SIZE",
    "DemoCollection",
    "GenerationError",
    "generate",
    "legendary_plan",
    "starter_count",
]

DEFAULT_SEED = 2026
DEFAULT_SIZE = 1000

# The old wiki's 1,000-card set: Legendary cards per active skill (seed 001).
REFERENCE_SIZE = 1000
REFERENCE_ACTIVE_SKILLS: tuple[tuple[Skill, int], ...] = (
    (Skill.ARCANE, 78),
    (Skill.STEAL, 33),
    (Skill.PIERCE, 27),
    (Skill.SPEED, 8),
)
MIN_STARTERS = 20

SLOTS: tuple[Slot, ...] = tuple(Slot)


def _legendary(tiers) -> Any:
    return next(t for t in tiers if t.rarity is Rarity.LEGENDARY)


# The Legendary thresholds, read from the engine's tables (docs/rules.md §2).
_SUPPLY_TIER = _legendary(SUPPLY_COUNT_TIERS)
SCARCE_SUPPLY = _SUPPLY_TIER.max_supply  # 3 slots at or below this supply: Legendary (§2.1)
SCARCE_SLOTS_BELOW_LEGENDARY = _SUPPLY_TIER.min_slots - 1
LEGENDARY_SCORE = _legendary(WARDROBE_SCORE_TIERS).threshold  # wardrobe score (§2.2)
LEGENDARY_STICKERS = _legendary(BURNED_STICKER_TIERS).threshold  # burned stickers (§2.4)
LEGENDARY_RANKS = _legendary(GETGEMS_RANK_TIERS).threshold  # GetGems ranks 1..this (§2.7)

# Supply bands of the catalogue: ≤ 3 (the supply-count rule), 4–5 (rest of the
# unique tier), 6–25 (rare tier), > 25 (base tier).
BANDS = ("scarce", "unique", "rare", "base")
_BAND_MAX_POINTS = {"scarce": 1000, "unique": 250, "rare": 1000 / 6, "base": 1000 / 26}

MAX_DRAFTS = 20  # attempts per card before giving up (never needed with the default seed)


class GenerationError(RuntimeError):
    """The generator could not build a card to its plan (a bug, or engine data changed)."""


# ---------------------------------------------------------------------------
# Vocabulary

_NEUTRAL_ADJECTIVES = (
    "Velvet", "Golden", "Rusty", "Neon", "Pastel", "Frosty", "Cosmic", "Lucky", "Tiny",
    "Royal", "Sleepy", "Electric", "Crimson", "Jade", "Midnight", "Retro", "Glitch", "Qx",
    "Zen", "Silver", "Shadow", "Sunny", "Paper", "Pixel", "Cozy", "Wild", "Misty", "Amber",
    "Coral", "Lunar", "Solar", "Ruby", "Ivory", "Copper", "Bronze", "Polar", "Tropical",
    "Vintage", "Feral", "Gentle", "Brave", "Quiet", "Dusty", "Fuzzy", "Glossy", "Snowy",
    "Stormy", "Tidal", "Woolly", "Zesty", "Bubblegum", "Marble", "Minty", "Patchwork",
    "Plaid", "Knitted", "Starlit", "Moss", "Honey", "Ashen",
)  # fmt: skip
_SLOT_NOUNS: dict[Slot, tuple[str, ...]] = {
    Slot.HEAD: (
        "Cap", "Beanie", "Fedora", "Beret", "Bucket Hat", "Headband", "Visor", "Earmuffs",
        "Top Hat", "Bow", "Goggles", "Sombrero", "Antenna", "Headphones", "Bonnet", "Turban",
        "Propeller Hat", "Tricorn", "Flower Wreath", "Pom-Pom",
    ),
    Slot.BODY: (
        "Sweater", "Jacket", "Vest", "Tee", "Overalls", "Kimono", "Tuxedo", "Poncho",
        "Raincoat", "Apron", "Jersey", "Parka", "Tunic", "Suspenders", "Pajamas", "Dungarees",
        "Harness", "Cardigan", "Bathrobe", "Life Vest",
    ),
    Slot.PAW: (
        "Ring", "Bracelet", "Watch", "Bell", "Flower", "Balloon", "Umbrella", "Lantern",
        "Teacup", "Paintbrush", "Yo-Yo", "Fishing Rod", "Compass", "Spoon", "Pinwheel", "Kite",
        "Maraca", "Rattle", "Tambourine", "Magnifier",
    ),
    Slot.BACKGROUND: (
        "Sky", "Meadow", "Forest", "Desert", "Ocean", "Sunset", "City", "Nebula", "Aurora",
        "Lagoon", "Tundra", "Bamboo Grove", "Canyon", "Harbor", "Rooftop", "Volcano", "Glacier",
        "Orchard", "Arcade", "Lighthouse",
    ),
}  # fmt: skip
# Keyword fragments that read better, as the last word of a name, as another word
# starting with them; fragments in _ADJECTIVE_ONLY are never the last word.
_WORD_FORMS = {
    "arcan": "Arcana", "helm": "Helmet", "gauntlet": "Gauntlets", "horn": "Horns",
    "chain": "Chainmail", "sneaker": "Sneakers", "skate": "Skates", "wing": "Wings",
    "jet": "Jetpack", "glove": "Gloves", "sock": "Socks", "rune": "Runestone",
}  # fmt: skip
_ADJECTIVE_ONLY = frozenset(
    ("hex", "enchant", "spell", "arcan", "astral", "mystic", "spike", "iron", "steel")
)
# Keyword fragments as the first word of a name ("Hexed Hood", "Rocket Sky").
_MODIFIER_FORMS = {
    "hex": "Hexed", "enchant": "Enchanted", "spell": "Spellbound", "arcan": "Arcane",
    "astral": "Astral", "mystic": "Mystic", "oracle": "Oracle", "wizard": "Wizard",
    "witch": "Witch", "seer": "Seer", "crystal": "Crystal", "rune": "Rune", "sigil": "Sigil",
    "totem": "Totem", "potion": "Potion", "halo": "Halo",
    "wing": "Winged", "claw": "Clawed", "hook": "Hooked", "rocket": "Rocket", "jet": "Jet",
    "candy": "Candy", "cookie": "Cookie", "plush": "Plush", "jewel": "Jeweled", "coin": "Coin",
    "loot": "Loot", "cloak": "Cloaked", "mask": "Masked", "hood": "Hooded", "ribbon": "Ribboned",
    "spike": "Spiked", "iron": "Iron", "steel": "Steel", "armor": "Armored", "horn": "Horned",
    "crown": "Crowned", "shield": "Shielded", "chain": "Chain",
}  # fmt: skip
# Where a keyword's item is usually worn (fragments not listed fit any slot).
_SLOT_FRAGMENTS: dict[Slot, frozenset[str]] = {
    Slot.HEAD: frozenset((
        "crown", "helm", "hood", "mask", "halo", "bandana", "horn", "wizard", "witch", "oracle",
        "seer", "sigil",
    )),
    Slot.BODY: frozenset((
        "armor", "armour", "cape", "cloak", "scarf", "shawl", "plate", "chain", "ribbon",
        "amulet", "talisman", "wing", "shield", "gauntlet", "jewel",
    )),
    Slot.PAW: frozenset((
        "dagger", "katana", "knife", "claw", "wand", "staff", "orb", "sword", "axe", "hammer",
        "mace", "spear", "lance", "pike", "halberd", "trident", "bag", "candy", "mitten", "glove",
        "purse", "wallet", "lollipop", "cookie", "hook", "whip", "rapier", "saber", "sabre",
        "shuriken", "kunai", "sickle", "boomerang", "stiletto", "dirk", "cutlass", "dart",
        "arrow", "crossbow", "longbow", "sling", "scepter", "sceptre", "tome", "grimoire",
        "potion", "club", "plush", "pillow", "sneaker", "skate", "sock", "coin", "tusk",
    )),
    Slot.BACKGROUND: frozenset((
        "rune", "totem", "cauldron", "crystal", "anvil", "rocket", "loot", "sack", "jet",
    )),
}  # fmt: skip
_GOD_ADJECTIVES = ("Celestial", "Divine", "Eternal", "Primordial", "Sacred")
_PREMIUM_ADJECTIVES = ("Gilded", "Diamond", "Platinum", "Holographic", "Prismatic")
_PET_NAMES = (
    "Biscuit", "Mochi", "Pixel", "Nugget", "Pepper", "Ziggy", "Waffles", "Luna", "Bean",
    "Tofu", "Maple", "Sprocket", "Noodle", "Clover", "Pudding", "Gizmo", "Juniper", "Marble",
    "Pickle", "Rascal", "Sushi", "Tango", "Velcro", "Widget", "Yuzu", "Bramble", "Cinder",
    "Dumpling", "Ember", "Fig", "Ginger", "Hazel", "Inky", "Jelly", "Kiwi", "Lentil", "Miso",
    "Nimbus", "Olive", "Poppy", "Quill", "Sage", "Truffle", "Umber", "Violet", "Wasabi",
    "Yeti", "Zephyr", "Pumpkin", "Comet",
)  # fmt: skip


@dataclass(frozen=True)
class _ComboTheme:
    name_en: str
    name_ru: str
    rarity: Rarity
    items: tuple[tuple[Slot, str], ...]
    supply: tuple[int, int]  # range of each item's supply


# Legendary combos (one per skill: their items name that skill or none) and a few
# Epic and Rare ones; the engine's keyword data decides which skill each item has.
_COMBO_THEMES = (
    _ComboTheme("Archmage Regalia", "Регалии архимага", Rarity.LEGENDARY,
                ((Slot.HEAD, "Starlit Wizard Hat"), (Slot.PAW, "Oracle Staff")), (8, 20)),
    _ComboTheme("Wind Runner", "Бегущий по ветру", Rarity.LEGENDARY,
                ((Slot.PAW, "Comet Katana"), (Slot.BACKGROUND, "Jetstream Sky")), (8, 20)),
    _ComboTheme("Velvet Thief", "Бархатный вор", Rarity.LEGENDARY,
                ((Slot.HEAD, "Velvet Mask"), (Slot.PAW, "Loot Sack")), (8, 20)),
    _ComboTheme("Iron Vanguard", "Железный авангард", Rarity.LEGENDARY,
                ((Slot.HEAD, "Vanguard Helmet"), (Slot.BODY, "Iron Plate")), (8, 20)),
    _ComboTheme("Pirate Captain", "Капитан пиратов", Rarity.EPIC,
                ((Slot.HEAD, "Pirate Tricorn"), (Slot.PAW, "Rusty Hook")), (12, 40)),
    _ComboTheme("Sweet Tooth", "Сладкоежка", Rarity.EPIC,
                ((Slot.BODY, "Cookie Sweater"), (Slot.PAW, "Candy Bag")), (15, 45)),
    _ComboTheme("Picnic Day", "День пикника", Rarity.RARE,
                ((Slot.BODY, "Plaid Vest"), (Slot.BACKGROUND, "Sunny Meadow")), (30, 90)),
    _ComboTheme("Winter Walk", "Зимняя прогулка", Rarity.RARE,
                ((Slot.HEAD, "Knitted Beanie"), (Slot.BODY, "Woolly Scarf"),
                 (Slot.PAW, "Qx Mitten")), (20, 60)),
)  # fmt: skip
# Names from the project's examples, always in the catalogue.
_FIXED_ITEMS = ((Slot.HEAD, "Hexed Hood", (8, 20)), (Slot.PAW, "Velvet Bag", (40, 120)))


def _primary(name: str) -> Skill | None:
    skills = keyword_skills(name)
    return skills[0] if skills else None


def _keyword_words() -> tuple[
    dict[Skill, dict[Slot, tuple[str, ...]]], dict[Skill, tuple[str, ...]]
]:
    """Per skill: last words by slot and first words, each hitting that skill and no other."""
    nouns: dict[Skill, dict[Slot, tuple[str, ...]]] = {}
    modifiers: dict[Skill, tuple[str, ...]] = {}
    for skill in SKILL_PRIORITY:
        per_slot: dict[Slot, list[str]] = {slot: [] for slot in SLOTS}
        for fragment in KEYWORDS[skill]:
            word = _WORD_FORMS.get(fragment, fragment.capitalize())
            if fragment in _ADJECTIVE_ONLY or keyword_skills(word) != (skill,):
                continue
            homes = [s for s in SLOTS if fragment in _SLOT_FRAGMENTS[s]] or list(SLOTS)
            for slot in homes:
                per_slot[slot].append(word)
        everywhere = sorted({w for ws in per_slot.values() for w in ws})
        nouns[skill] = {slot: tuple(per_slot[slot] or everywhere) for slot in SLOTS}
        modifiers[skill] = tuple(
            word
            for fragment, word in _MODIFIER_FORMS.items()
            if fragment in KEYWORDS[skill] and keyword_skills(word) == (skill,)
        )
    return nouns, modifiers


def _neutral(words: Iterable[str]) -> tuple[str, ...]:
    return tuple(w for w in words if not keyword_skills(w))


# ---------------------------------------------------------------------------
# Plan


def starter_count(size: int) -> int:
    """Starter (Free) cards in a collection of ``size``: 2.5 %, at least 20."""
    return min(size, max(MIN_STARTERS, round(size * 0.025)))


def legendary_plan(size: int) -> dict[Skill, int]:
    """How many Legendary cards of each active skill a collection of ``size`` gets.

    The reference shares scaled (largest remainder), capped by the non-starter cards.

    >>> legendary_plan(1000)
    {<Skill.ARCANE: 'arcane'>: 78, <Skill.STEAL: 'steal'>: 33, <Skill.PIERCE: 'pierce'>: 27, <Skill.SPEED: 'speed'>: 8}
    >>> sum(legendary_plan(100_000).values())
    14600
    """
    reference_total = sum(n for _, n in REFERENCE_ACTIVE_SKILLS)
    total = min(round(size * reference_total / REFERENCE_SIZE), size - starter_count(size))
    exact = [(skill, total * n / reference_total) for skill, n in REFERENCE_ACTIVE_SKILLS]
    counts = {skill: math.floor(share) for skill, share in exact}
    left = total - sum(counts.values())
    by_remainder = sorted(exact, key=lambda item: -(item[1] - math.floor(item[1])))
    for skill, _ in by_remainder[:left]:
        counts[skill] += 1
    return counts


# ---------------------------------------------------------------------------
# Result


@dataclass(frozen=True)
class DemoCombo:
    spec: ComboSpec
    name_ru: str


@dataclass(frozen=True)
class DemoCollection:
    """A generated collection in engine terms, with each card's stored derived fields."""

    seed: int
    size: int
    attributes: tuple[AttributeSpec, ...]
    combos: tuple[DemoCombo, ...]
    cards: tuple[CardSpec, ...]
    derived: tuple[dict[str, Any], ...]
    report: dict[str, Any]


# ---------------------------------------------------------------------------
# The builder


@dataclass
class _Draft:
    """One card being built: what it owns and the copies it took (to undo a draft)."""

    equipped: dict[Slot, AttributeSpec] = field(default_factory=dict)
    extras: list[AttributeSpec] = field(default_factory=list)
    taken: list[tuple[tuple[Slot, str, Skill | None], AttributeSpec]] = field(default_factory=list)
    god: AttributeSpec | None = None
    combo: tuple[str, list[AttributeSpec]] | None = None
    burned: int = 0

    @property
    def owned(self) -> list[AttributeSpec]:
        return [*self.equipped.values(), *self.extras]

    def owns(self, attribute: AttributeSpec) -> bool:
        slot, name = attribute.slot, attribute.name
        return any(a.name == name and a.slot is slot for a in self.owned)

    def score(self) -> float:
        return sum(WARDROBE_POINTS / a.supply for a in self.owned)

    def scarce_slots(self) -> set[Slot]:
        return {a.slot for a in self.owned if a.supply <= SCARCE_SUPPLY}


class _Builder:
    def __init__(self, seed: int, size: int) -> None:
        if size < 1:
            raise ValueError("size must be at least 1")
        self.rng = random.Random(seed)
        self.seed, self.size = seed, size
        self.scale = max(1.0, size / REFERENCE_SIZE)
        self.skill_nouns, self.modifiers = _keyword_words()
        self.adjectives = _neutral(_NEUTRAL_ADJECTIVES)
        self.nouns = {slot: _neutral(nouns) for slot, nouns in _SLOT_NOUNS.items()}
        self.catalogue: dict[tuple[Slot, str], AttributeSpec] = {}
        self.bags: dict[tuple[Slot, str, Skill | None], list[AttributeSpec]] = {}
        self.gods: list[AttributeSpec] = []  # one entry per free copy
        self.combos: list[DemoCombo] = []
        self.combo_copies: dict[str, list[list[AttributeSpec]]] = {}
        self.minted = 0
        self.redraws = 0
        self.routes: Counter[str] = Counter()

    # -- catalogue -----------------------------------------------------------

    def _band_supply(self, band: str) -> int:
        rng = self.rng
        if band == "scarce":
            return rng.choices((1, 2, 3), (1, 3, 6))[0]
        if band == "unique":
            return rng.choice((4, 5))
        if band == "rare":
            return rng.randint(6, 25)
        cap = max(1000, self.size // 3)
        return min(cap, 26 + int((rng.paretovariate(1.6) - 1) * 40 * math.sqrt(self.scale)))

    def _name(self, slot: Slot, category: Skill | None, adjectives: Sequence[str] = ()) -> str:
        """A fresh name for ``slot`` whose primary skill is ``category`` (None: no keyword)."""
        rng = self.rng
        adjectives = adjectives or self.adjectives
        for attempt in range(200):
            nouns = self.nouns[slot]
            if category is None:
                name = f"{rng.choice(adjectives)} {rng.choice(nouns)}"
            else:
                modifiers = self.modifiers[category]
                lower = SKILL_PRIORITY[SKILL_PRIORITY.index(category) + 1 :]
                form = rng.random()
                if slot is Slot.BACKGROUND and modifiers and form < 0.85:
                    form = 0.3  # backgrounds read best as "Rocket Sky", "Rune Canyon"
                if form < 0.15 and modifiers and lower:  # "Hexed Hood": primary first
                    word = rng.choice(self.skill_nouns[rng.choice(lower)][slot])
                    name = f"{rng.choice(modifiers)} {word}"
                elif form < 0.45 and modifiers:
                    name = f"{rng.choice(modifiers)} {rng.choice(nouns)}"
                else:
                    name = (
                        f"{rng.choice(adjectives)} {rng.choice(self.skill_nouns[category][slot])}"
                    )
            if attempt >= 20:  # the two-word names are running out (large collections)
                name = f"{rng.choice(self.adjectives)} {name}"
            if attempt >= 150:
                name = f"{name} {_roman(attempt - 149)}"
            if (slot, name) not in self.catalogue and _primary(name) is category:
                return name
        raise GenerationError(f"no fresh {category} name for {slot}")

    def _add(self, spec: AttributeSpec, band: str | None) -> AttributeSpec:
        """Put an attribute in the catalogue and its copies in the draw bags (band None: none)."""
        self.catalogue[spec.key] = spec
        if band is not None:
            bag = self.bags.setdefault((spec.slot, band, _primary(spec.name)), [])
            bag.extend([spec] * spec.supply)
        return spec

    def _new(self, slot: Slot, band: str, category: Skill | None, kind=AttributeKind.NORMAL):
        adjectives = {
            AttributeKind.GOD: _GOD_ADJECTIVES,
            AttributeKind.PREMIUM: _PREMIUM_ADJECTIVES,
        }.get(kind, ())
        name = self._name(slot, category, adjectives)
        return AttributeSpec(slot, name, self._band_supply(band), kind)

    def build_catalogue(self) -> None:
        rng, size = self.rng, self.size
        categories: list[Skill | None] = [None, *SKILL_PRIORITY]
        weights = (9, 3, 3, 3, 3)
        for theme in _COMBO_THEMES:
            items = []
            for slot, name in theme.items:
                spec = AttributeSpec(slot, name, rng.randint(*theme.supply))
                # Legendary combo items are kept for the cards that wear the whole combo.
                self._add(spec, None if theme.rarity is Rarity.LEGENDARY else "rare")
                items.append(spec)
            combo = ComboSpec(theme.name_en, tuple(a.key for a in items), theme.rarity)
            self.combos.append(DemoCombo(combo, theme.name_ru))
            if theme.rarity is Rarity.LEGENDARY:
                copies = min(a.supply for a in items)
                self.combo_copies[theme.name_en] = [items] * copies
        for slot, name, supply in _FIXED_ITEMS:
            spec = AttributeSpec(slot, name, rng.randint(*supply))
            self._add(spec, "rare" if spec.supply <= 25 else "base")
        per_band = {
            "scarce": max(8, round(size / 35)),
            "unique": max(4, round(size / 120)),
            "rare": max(10, round(size / 40)),
        }
        for slot in SLOTS:
            for band, count in per_band.items():
                for _ in range(count):
                    self._add(self._new(slot, band, rng.choices(categories, weights)[0]), band)
            # Base items until every card could own about two of this slot, with room to spare.
            demand, copies = 2.2 * size, 0
            while copies < demand:
                spec = self._add(
                    self._new(slot, "base", rng.choices(categories, weights)[0]), "base"
                )
                copies += spec.supply
            for _ in range(2):  # premium skins: Epic when equipped; a short print run
                spec = self._new(slot, "rare", rng.choice(categories), AttributeKind.PREMIUM)
                self._add(AttributeSpec(slot, spec.name, rng.randint(6, 12), spec.kind), "rare")
            for _ in range(2):  # god attributes: Legendary when equipped, kept for that route
                spec = self._add(
                    self._new(slot, rng.choice(("scarce", "unique")), rng.choice(categories),
                              AttributeKind.GOD),
                    None,
                )  # fmt: skip
                self.gods.extend([spec] * spec.supply)

    # -- drawing copies ------------------------------------------------------

    def _draw(
        self,
        draft: _Draft,
        slot: Slot,
        bands: Sequence[str],
        categories: Sequence[Skill | None],
    ) -> AttributeSpec:
        """Take one free copy of an attribute of ``slot`` in these bands and skill categories."""
        rng, bags = self.rng, self.bags
        # The non-empty bags that fit, weighted by their copies (running totals: what
        # ``choices`` would build from the weights; nothing changes them until a copy is taken).
        keys: list[tuple[Slot, str, Skill | None]] = []
        totals: list[int] = []
        total = 0
        for b in bands:
            for c in categories:
                bag = bags.get((slot, b, c))
                if bag:
                    keys.append((slot, b, c))
                    total += len(bag)
                    totals.append(total)
        for _ in range(12):
            if not keys:
                break
            key = rng.choices(keys, cum_weights=totals)[0]
            bag = bags[key]
            i = rng.randrange(len(bag))
            spec = bag[i]
            if draft.owns(spec):
                continue
            bag[i] = bag[-1]
            bag.pop()
            draft.taken.append((key, spec))
            return spec
        # Nothing left that fits: print a new attribute (its other copies join the bags).
        band, category = rng.choice(list(bands)), rng.choice(list(categories))
        spec = self._new(slot, band, category)
        self._add(spec, band)
        self.minted += 1
        key = (slot, band, category)
        self.bags[key].remove(spec)
        draft.taken.append((key, spec))
        return spec

    def _undo(self, draft: _Draft) -> None:
        """Give back every copy a failed draft took."""
        for key, spec in draft.taken:
            self.bags.setdefault(key, []).append(spec)
        if draft.god is not None:
            self.gods.append(draft.god)
        if draft.combo is not None:
            self.combo_copies[draft.combo[0]].append(draft.combo[1])

    # -- cards ---------------------------------------------------------------

    def _extras_count(self) -> int:
        r = self.rng.random()
        if r < 0.3:
            return 0
        if r < 0.65:
            return self.rng.randint(1, 2)
        if r < 0.9:
            return self.rng.randint(3, 6)
        return self.rng.randint(7, 14)

    def _stickers(self, legendary: bool) -> int:
        r = self.rng.random()
        if r < (0.8 if legendary else 0.86):
            return 0
        below = range(1, LEGENDARY_STICKERS)  # 1-5: a sticker or two is common, five is rare
        return self.rng.choices(below, [2 ** (len(below) - i) for i in range(len(below))])[0]

    def draft_starter(self) -> _Draft:
        draft = _Draft()
        for slot in SLOTS:
            draft.equipped[slot] = self._draw(draft, slot, ("base",), [None, *SKILL_PRIORITY])
        return draft

    def draft_common(self) -> _Draft:
        """A non-Legendary card: clear of every Legendary rule by construction."""
        draft = _Draft()
        everything = [None, *SKILL_PRIORITY]

        def allowed(slot: Slot) -> list[str]:
            margin = LEGENDARY_SCORE - draft.score()
            bands = [b for b in BANDS if _BAND_MAX_POINTS[b] < margin - 1]
            scarce = draft.scarce_slots()
            if slot not in scarce and len(scarce) >= SCARCE_SLOTS_BELOW_LEGENDARY:
                bands = [b for b in bands if b != "scarce"]
            return bands

        for slot in self.rng.sample(SLOTS, len(SLOTS)):
            draft.equipped[slot] = self._draw(draft, slot, allowed(slot), everything)
        for _ in range(self._extras_count()):
            slot = self.rng.choice(SLOTS)
            bands = allowed(slot)
            if bands:  # none when the wardrobe is a hair under 3,000: it stays as it is
                draft.extras.append(self._draw(draft, slot, bands, everything))
        draft.burned = self._stickers(legendary=False)
        return draft

    def draft_legendary(self, skill: Skill) -> _Draft:
        """A Legendary card whose equipped names give ``skill`` the most points."""
        rng = self.rng
        draft = _Draft()
        route = rng.choices(
            ("supply", "wardrobe", "god", "stickers", "combo"), (35, 15, 10, 25, 15)
        )[0]
        fits = (skill, None)
        if route == "god":
            free = [g for g in self.gods if _primary(g.name) in fits]
            if free:
                god = rng.choice(free)
                self.gods.remove(god)
                draft.god = draft.equipped[god.slot] = god
            else:
                route = "stickers"
        if route == "combo":
            combo = next(
                (c for c in self.combos if c.spec.rarity is Rarity.LEGENDARY
                 and self.combo_copies[c.spec.name]
                 and all(_primary(name) in fits for _, name in c.spec.attributes)),
                None,
            )  # fmt: skip
            if combo is not None:
                items = self.combo_copies[combo.spec.name].pop()
                draft.combo = (combo.spec.name, items)
                for item in items:
                    draft.equipped[item.slot] = item
            else:
                route = "stickers"
        self.routes[route] += 1

        # Skill points: the fixed items' plus enough free slots naming the skill.
        free_slots = [s for s in SLOTS if s not in draft.equipped]
        rng.shuffle(free_slots)
        points = Counter(_primary(a.name) for a in draft.equipped.values())
        need = max(0, 1 - points[skill])
        more = rng.choices(range(len(free_slots) + 1), (1, 6, 4, 2, 1)[: len(free_slots) + 1])[0]
        n_skill = max(need, min(more, len(free_slots)))
        plan: dict[Slot, Skill | None] = {}
        for slot in free_slots[:n_skill]:
            plan[slot] = skill
        total = points[skill] + n_skill
        for slot in free_slots[n_skill:]:
            others = [s for s in SKILL_PRIORITY if s is not skill and points[s] + 1 < total]
            pick = rng.random()
            if others and pick < 0.35:
                plan[slot] = rng.choice(others)
                points[plan[slot]] += 1
            else:
                plan[slot] = skill if pick > 0.9 else None
        scarce_slots: set[Slot] = set()
        if route == "supply":  # nothing is fixed on this route: all four slots are free
            scarce_slots = set(rng.sample(free_slots, rng.choice((3, 3, 3, 4))))
        for slot in SLOTS:
            if slot in draft.equipped:
                continue
            bands = ("scarce",) if slot in scarce_slots else BANDS
            draft.equipped[slot] = self._draw(draft, slot, bands, [plan[slot]])
        everything = [None, *SKILL_PRIORITY]
        if route == "wardrobe":
            while draft.score() < LEGENDARY_SCORE:
                slot = rng.choice(SLOTS)
                draft.extras.append(self._draw(draft, slot, ("scarce", "unique"), everything))
        for _ in range(self._extras_count()):
            slot = rng.choice(SLOTS)
            draft.extras.append(self._draw(draft, slot, BANDS, everything))
        if route == "stickers":
            draft.burned = rng.randint(LEGENDARY_STICKERS, 2 * LEGENDARY_STICKERS)
        elif not draft.burned:
            draft.burned = self._stickers(legendary=True)
        return draft

    def spec(self, token: int, name: str, draft: _Draft, starter: bool, rank: int | None):
        return CardSpec(
            token=token,
            name=name,
            equipped=tuple(draft.equipped[s] for s in SLOTS),
            wardrobe=tuple(draft.extras),
            getgems_rank=rank,
            burned_stickers=draft.burned,
            starter=starter,
            combos=tuple(c.spec for c in self.combos),
        )


def _roman(n: int) -> str:
    numerals = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    out = ""
    for value, letters in numerals:
        while n >= value:
            out, n = out + letters, n - value
    return out


#: From this many cards, the derivation runs in several processes (``derive_all``).
PARALLEL_FROM = 20_000

# What a card derives to without its GetGems rank: its rarity and active skill.
Outcome = tuple[Rarity, Skill | None]


def _derive_chunk(specs: Sequence[CardSpec]) -> list[tuple[dict[str, Any], Outcome]]:
    out = []
    for spec in specs:
        result = derive(spec)
        unranked = result
        # The rank feeds only its own rarity rule (the rarity is the best rule's): without
        # it, only a card whose rarity the rank alone decided derives to something else.
        if spec.getgems_rank is not None and set(result.decided_by) <= RANK_RULES:
            unranked = derive(dataclasses.replace(spec, getgems_rank=None))
        out.append((derived_fields(result, spec), (unranked.rarity, unranked.active_skill)))
    return out


def derive_all(
    specs: Sequence[CardSpec], *, processes: int | None = None
) -> list[tuple[dict[str, Any], Outcome]]:
    """Each card's stored fields (``derived_fields``) and its ``Outcome`` unranked (what
    the plan is checked on), in order; at ``PARALLEL_FROM`` cards or more, in
    ``processes`` worker processes (default: one per core) — the engine is pure, so the
    result is the same whichever process derives a card."""
    import os

    count = processes if processes is not None else (os.cpu_count() or 1)
    if count <= 1 or len(specs) < PARALLEL_FROM:
        return _derive_chunk(specs)
    import multiprocessing

    step = 5_000
    chunks = [specs[i : i + step] for i in range(0, len(specs), step)]
    with multiprocessing.get_context("fork").Pool(count) as pool:
        return [item for part in pool.imap(_derive_chunk, chunks) for item in part]


def _on_plan(outcome: Outcome, skill: Skill | None) -> bool:
    """Whether a card planned for ``skill`` (None: no Legendary) derives to its plan."""
    rarity, active = outcome
    return active is skill and (rarity is Rarity.LEGENDARY) == (skill is not None)


@dataclass
class _Run:
    """One pass of the generator: the builder with its catalogue, the plan, the drafts."""

    builder: _Builder
    size: int
    n_starters: int
    plan: dict[Skill, int]
    planned: dict[int, Skill]
    drafts: dict[int, _Draft] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)

    @classmethod
    def start(cls, seed: int, size: int) -> _Run:
        builder = _Builder(seed, size)
        rng = builder.rng
        builder.build_catalogue()
        n_starters = starter_count(size)
        plan = legendary_plan(size)
        regular_tokens = list(range(n_starters + 1, size + 1))
        skills = [skill for skill, n in plan.items() for _ in range(n)]
        legendary_tokens = rng.sample(regular_tokens, len(skills))
        rng.shuffle(skills)
        planned = dict(zip(legendary_tokens, skills, strict=True))
        return cls(builder, size, n_starters, plan, planned)

    def draft(self, *, check: bool) -> None:
        """Draft every card in token order. With ``check``, derive each draft at once and
        draft a card again while it misses its plan; without, take every first draft (the
        same cards as with ``check`` when none misses: deriving draws no random number)."""
        builder, rng = self.builder, self.builder.rng
        for token in range(1, self.size + 1):
            starter = token <= self.n_starters
            name = f"Starter Pup #{token}" if starter else f"{rng.choice(_PET_NAMES)} #{token}"
            self.names[token] = name
            skill = self.planned.get(token)
            for _attempt in range(MAX_DRAFTS):
                if starter:
                    draft = builder.draft_starter()
                elif skill is None:
                    draft = builder.draft_common()
                else:
                    draft = builder.draft_legendary(skill)
                if not check or starter:
                    break
                result = derive(builder.spec(token, name, draft, starter, None))
                if _on_plan((result.rarity, result.active_skill), skill):
                    break
                builder.redraws += 1
                builder._undo(draft)
            else:
                raise GenerationError(f"card #{token} missed its plan {MAX_DRAFTS} times")
            self.drafts[token] = draft

    def cards(self) -> list[CardSpec]:
        """The cards with their GetGems ranks: most non-starter cards, ordered by a noisy
        wardrobe value; ranks 1-5 (a Legendary floor) go to Legendary cards only."""
        rng, drafts, planned = self.builder.rng, self.drafts, self.planned
        regular_tokens = range(self.n_starters + 1, self.size + 1)
        ranked = [t for t in regular_tokens if rng.random() < 0.85]
        value = {t: drafts[t].score() * rng.lognormvariate(0, 0.6) for t in ranked}
        ranked.sort(key=lambda t: (-value[t], t))
        # When fewer Legendary cards are ranked than there are Legendary ranks, the unused
        # ranks stay free (a small collection): no other card may take one.
        top = [t for t in ranked if t in planned][:LEGENDARY_RANKS]
        rest = [t for t in ranked if t not in top]
        ranks = {t: i for i, t in enumerate(top, start=1)}
        ranks.update({t: i for i, t in enumerate(rest, start=LEGENDARY_RANKS + 1)})
        return [
            self.builder.spec(
                token, self.names[token], drafts[token], token <= self.n_starters, ranks.get(token)
            )
            for token in range(1, self.size + 1)
        ]


def generate(
    seed: int = DEFAULT_SEED, size: int = DEFAULT_SIZE, *, processes: int | None = None
) -> DemoCollection:
    """Build a demo collection of ``size`` cards from ``seed`` (pure; no database); the
    derivation of a large one runs in ``processes`` processes (``derive_all``).

    Every card is drafted first and checked against its plan afterwards, with the final
    derivation (in parallel). Deriving draws no random number, so when every first draft
    meets its plan (by construction, nearly always) the collection is the one a check
    card by card gives; when one misses, the collection is built again with that check,
    which drafts the card again."""
    run = _Run.start(seed, size)
    run.draft(check=False)
    cards = run.cards()
    results = derive_all(cards, processes=processes)
    if not all(
        spec.starter or _on_plan(outcome, run.planned.get(spec.token))
        for spec, (_fields, outcome) in zip(cards, results, strict=True)
    ):
        run = _Run.start(seed, size)
        run.draft(check=True)
        cards = run.cards()
        results = derive_all(cards, processes=processes)
    builder, plan, planned = run.builder, run.plan, run.planned
    derived = [fields for fields, _outcome in results]
    for spec, fields in zip(cards, derived, strict=True):
        skill = planned.get(spec.token)
        legendary = fields["rarity"] == Rarity.LEGENDARY.value
        active = fields["active_skill"]
        if active != (skill.value if skill else None) or legendary != (skill is not None):
            raise GenerationError(f"card #{spec.token} left its plan once ranked")

    owned = Counter(a.key for spec in cards for a in spec.owned)
    over = [k for k, n in owned.items() if n > builder.catalogue[k].supply]
    if over:
        raise GenerationError(f"more owners than copies: {over[:3]}")
    report = {
        "starters": run.n_starters,
        "legendary": {s.value: n for s, n in plan.items()},
        "routes": dict(sorted(builder.routes.items())),
        "attributes": len(builder.catalogue),
        "minted": builder.minted,
        "redraws": builder.redraws,
        "owned": sum(owned.values()),
    }
    return DemoCollection(
        seed=seed,
        size=size,
        attributes=tuple(
            sorted(builder.catalogue.values(), key=lambda a: (SLOTS.index(a.slot), a.name))
        ),
        combos=tuple(builder.combos),
        cards=tuple(cards),
        derived=tuple(derived),
        report=report,
    )
