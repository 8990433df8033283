"""Enums and frozen value types of the rules engine.

Inputs (`AttributeSpec`, `ComboSpec`, `CardSpec`) are frozen and validated on
construction; the result of a derivation is one frozen `Breakdown`
(see `engine.card.derive`). Enum values are the lowercase strings used in traces,
JSON and URLs.

>>> Rarity.RARE < Rarity.EPIC
True
>>> max(Rarity.COMMON, Rarity.LEGENDARY, Rarity.FREE)
<Rarity.LEGENDARY: 'legendary'>
>>> str(Slot.PAW)
'paw'
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar, cast

from engine.errors import InvalidCardError

_T = TypeVar("_T")

__all__ = [
    "AttributeKind",
    "AttributeSpec",
    "Beat",
    "BoostKind",
    "BotKind",
    "Breakdown",
    "CardSpec",
    "ComboSpec",
    "Effect",
    "EffectKind",
    "EffectSlot",
    "EffectSource",
    "EndReason",
    "InvalidCardError",
    "NextTier",
    "Rarity",
    "Requirement",
    "Role",
    "RoleVote",
    "RuleResult",
    "Side",
    "Skill",
    "SkillRow",
    "Slot",
    "StatLayer",
    "Stats",
    "SupplySlot",
    "TieBreakEntry",
    "Tier",
    "Trace",
    "TraceStep",
    "UnderchargeRow",
]


class _ValueEnum(enum.StrEnum):
    """An enum whose members are their lowercase value strings.

    Members compare and hash like those strings and serialise to JSON as
    them, so trace parameters can hold members directly.
    """


class Rarity(_ValueEnum):
    """Gameplay rarity, ordered ``FREE < COMMON < RARE < EPIC < LEGENDARY``.

    >>> sorted([Rarity.EPIC, Rarity.FREE, Rarity.RARE])
    [<Rarity.FREE: 'free'>, <Rarity.RARE: 'rare'>, <Rarity.EPIC: 'epic'>]
    >>> Rarity.COMMON.next()
    <Rarity.RARE: 'rare'>
    >>> Rarity.LEGENDARY.next() is None
    True
    >>> Rarity.RARE < "epic"
    True
    """

    FREE = "free"
    COMMON = "common"
    RARE = "rare"
    EPIC = "epic"
    LEGENDARY = "legendary"

    _rank_: int  # set on each member below: the order, read by the comparisons

    @property
    def rank(self) -> int:
        """Position in the order (FREE = 0 … LEGENDARY = 4)."""
        return _RARITY_RANK[self]

    def next(self) -> Rarity | None:
        """The tier above this one, or None for Legendary."""
        rank = _RARITY_RANK[self] + 1
        return _RARITIES[rank] if rank < len(_RARITIES) else None

    # Comparisons go by rank. A plain string is read as a rarity value (so
    # ``Rarity.RARE < "epic"``), never compared letter by letter.

    def __lt__(self, other: object) -> bool:
        return self._rank_ < _rank_of(other)

    def __le__(self, other: object) -> bool:
        return self._rank_ <= _rank_of(other)

    def __gt__(self, other: object) -> bool:
        return self._rank_ > _rank_of(other)

    def __ge__(self, other: object) -> bool:
        return self._rank_ >= _rank_of(other)


def _rank_of(other: object) -> int:
    if isinstance(other, Rarity):
        return other._rank_
    try:
        return _RARITY_RANK[Rarity(cast(str, other))]
    except ValueError:
        raise TypeError(f"cannot compare a Rarity with {other!r}") from None


_RARITIES: tuple[Rarity, ...] = tuple(Rarity)
_RARITY_RANK: dict[Rarity, int] = {r: i for i, r in enumerate(_RARITIES)}
for _rarity, _rank in _RARITY_RANK.items():
    _rarity._rank_ = _rank
del _rarity, _rank


class Slot(_ValueEnum):
    """An equipment slot of a card (definition order = display order)."""

    HEAD = "head"
    BODY = "body"
    PAW = "paw"
    BACKGROUND = "background"


class Skill(_ValueEnum):
    """A combat skill."""

    PIERCE = "pierce"
    SPEED = "speed"
    STEAL = "steal"
    ARCANE = "arcane"


class Role(_ValueEnum):
    """A card's role; it picks the template family and the signature effects."""

    TANK = "tank"
    STRIKER = "striker"
    SUPPORT = "support"
    CONTROL = "control"


class AttributeKind(_ValueEnum):
    """What an attribute is besides its supply."""

    NORMAL = "normal"
    GOD = "god"
    PREMIUM = "premium"


class Tier(_ValueEnum):
    """Attribute tier, derived from supply (see ``engine.data.TIER_BANDS``)."""

    BASE = "base"
    RARE = "rare"
    UNIQUE = "unique"


class EffectSlot(_ValueEnum):
    """The three effect slots of a card, in display order."""

    DEPLOY = "deploy"
    PASSIVE = "passive"
    LAST_BREATH = "last_breath"


class EffectKind(_ValueEnum):
    """What an effect does; targets and allowed slots are in ``engine.data.EFFECT_KINDS``."""

    DAMAGE_CARD = "damage_card"
    DAMAGE_HERO = "damage_hero"
    HEAL_HERO = "heal_hero"
    SHIELD = "shield"
    BUFF_ATK = "buff_atk"
    BURN = "burn"
    WOUNDED_RAGE = "wounded_rage"


class EffectSource(_ValueEnum):
    """Where a card's effect came from."""

    TEMPLATE = "template"
    SIGNATURE = "signature"


class BoostKind(_ValueEnum):
    """A once-per-match boost of the paw game (docs/rules.md §6), in the order the rules list them."""

    CHARGE = "charge"
    SWITCH = "switch"
    RAGE = "rage"
    GUARD_UP = "guard_up"
    HERO_PATCH = "hero_patch"


class EndReason(_ValueEnum):
    """Why a paw-game match ended (docs/rules.md §6)."""

    HERO_DEFEATED = "hero_defeated"  # a Hero fell to 0
    BOTH_DEFEATED = "both_defeated"  # both fell in the same beat: a draw
    SURRENDER = "surrender"
    DECKS_EXHAUSTED = "decks_exhausted"  # no card left on either side: Hero HP decides
    ROUND_LIMIT = "round_limit"  # the engine's round cap: Hero HP decides


class Beat(_ValueEnum):
    """A part of a paw-game match log: the opening, then each round's four beats
    (docs/rules.md §6), in the order they are played (``engine.match.beats`` cuts a log)."""

    OPENING = "opening"  # each Hero's starting HP, before round 1
    PREPARE = "prepare"  # picks, boosts and commits
    COMMIT = "commit"  # new cards enter and pay, Deploy effects fire
    RESOLVE = "resolve"  # strikes, deaths, Last Breaths
    ADVANCE = "advance"  # burn, the end of the round, +1 NRG


class BotKind(_ValueEnum):
    """The bots that can play a side of a match (``engine.match.bots.BOTS``), weakest first."""

    RANDOM = "random"  # any legal action
    GREEDY = "greedy"  # sensible rules of thumb, one action at a time
    LOOKAHEAD = "lookahead"  # plays out each plan for this round against a likely reply


class Side(enum.IntEnum):
    """A side of a paw-game match: ``A = 0`` and ``B = 1`` (they index the state's pairs).

    Events, JSON and forms name a side by its ``key``, ``"a"`` or ``"b"``.

    >>> Side.B.key, Side.from_key("a"), Side.A.other
    ('b', <Side.A: 0>, <Side.B: 1>)
    """

    A = 0
    B = 1

    @property
    def key(self) -> str:
        """``"a"`` or ``"b"``: how events, JSON and forms name the side."""
        return _SIDE_KEYS[self]

    @property
    def other(self) -> Side:
        """The opponent."""
        return _SIDE_LIST[1 - self]

    @classmethod
    def from_key(cls, key: str) -> Side:
        """The side named ``"a"`` or ``"b"`` (ValueError for anything else)."""
        try:
            return _SIDE_LIST[_SIDE_KEYS.index(key)]
        except ValueError:
            raise ValueError(f"no side {key!r}") from None


_SIDE_KEYS = ("a", "b")
_SIDE_LIST = (Side.A, Side.B)


def fast_init(cls: type[_T]) -> type[_T]:
    """Give a frozen, slotted dataclass a faster ``__init__`` and a ``make`` factory.

    The generated frozen ``__init__`` goes through ``object.__setattr__`` per
    field; the one made here calls the slot descriptors directly, which makes
    building the many small result values of a derivation about 40 % cheaper.
    ``cls.make(field=…, …)`` (keyword-only, same defaults) fills a new instance the
    same way without going through the class call at all: the match builds its
    states with it on the hot path (a third cheaper again). It is the engine's one
    constructor trick; the classes stay ordinary frozen dataclasses. Only for classes
    without ``__post_init__`` or default factories.

    >>> Stats.make(atk=1, hp=2, def_=0, ability=0) == Stats(1, 2, 0, 0)
    True
    """
    fields = dataclasses.fields(cast(Any, cls))
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has __post_init__")
    namespace: dict[str, object] = {"_new": object.__new__, "_cls": cls}
    params = []
    lines = []
    for f in fields:
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} has a default factory")
        else:
            params.append(f.name)
        lines.append(f"    _set_{f.name}(self, {f.name})")
    body = "\n".join(lines)
    source = (
        f"def __init__(self, {', '.join(params)}):\n{body}\n"
        f"def make(*, {', '.join(params)}):\n    self = _new(_cls)\n{body}\n    return self\n"
    )
    exec(source, namespace)  # the source is built from the class's own field names
    init = cast(Callable[..., None], namespace["__init__"])
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    make = cast(Callable[..., _T], namespace["make"])
    make.__qualname__ = f"{cls.__qualname__}.make"
    # Set on the class by name: a class that calls ``make`` declares it as a ClassVar.
    setattr(cls, "__init__", init)  # noqa: B010
    setattr(cls, "make", staticmethod(make))  # noqa: B010
    return cls


def _is_int(value: object) -> bool:
    return type(value) is int


@dataclass(frozen=True, slots=True)
class AttributeSpec:
    """One attribute: a slot, a name, a supply (print count ≥ 1) and a kind.

    Two attributes are the same attribute when slot and name are equal.

    >>> AttributeSpec(Slot.PAW, "Qx Mitten", 12)
    AttributeSpec(slot=<Slot.PAW: 'paw'>, name='Qx Mitten', supply=12, kind=<AttributeKind.NORMAL: 'normal'>)
    >>> AttributeSpec(Slot.PAW, "Qx Mitten", 0)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCardError: supply: must be an integer ≥ 1
    """

    slot: Slot
    name: str
    supply: int
    kind: AttributeKind = AttributeKind.NORMAL

    def __post_init__(self) -> None:
        if not isinstance(self.slot, Slot):
            raise InvalidCardError("unknown_slot", "must be a Slot", field="slot")
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidCardError("non_empty_string", "must be a non-empty string", field="name")
        if not _is_int(self.supply) or self.supply < 1:
            raise InvalidCardError("min_int", "must be an integer ≥ 1", field="supply", minimum=1)
        if not isinstance(self.kind, AttributeKind):
            raise InvalidCardError("unknown_kind", "must be an AttributeKind", field="kind")

    @property
    def key(self) -> tuple[Slot, str]:
        """Identity of the attribute: (slot, name)."""
        return (self.slot, self.name)


@dataclass(frozen=True, slots=True)
class ComboSpec:
    """A named set of attributes; when all are equipped the combo's rarity applies.

    ``attributes`` is a tuple of (slot, name) pairs, at most one per slot.

    >>> ComboSpec("Pirate", ((Slot.HEAD, "Tricorn"), (Slot.PAW, "Hook")), Rarity.EPIC).rarity
    <Rarity.EPIC: 'epic'>
    """

    name: str
    attributes: tuple[tuple[Slot, str], ...]
    rarity: Rarity

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidCardError("non_empty_string", "must be a non-empty string", field="name")
        attrs = tuple((slot, name) for slot, name in self.attributes)
        if not attrs:
            raise InvalidCardError(
                "non_empty_list", "must list at least one attribute", field="attributes"
            )
        seen: set[Slot] = set()
        for i, (slot, name) in enumerate(attrs):
            if not isinstance(slot, Slot):
                raise InvalidCardError("unknown_slot", "must be a Slot", field=f"attributes[{i}]")
            if slot in seen:
                raise InvalidCardError(
                    "duplicate_slot",
                    "names a slot twice",
                    field=f"attributes[{i}]",
                    slot=slot.value,
                )
            if not isinstance(name, str) or not name.strip():
                raise InvalidCardError(
                    "non_empty_string", "must name an attribute", field=f"attributes[{i}]"
                )
            seen.add(slot)
        object.__setattr__(self, "attributes", attrs)
        if not isinstance(self.rarity, Rarity) or self.rarity is Rarity.FREE:
            raise InvalidCardError(
                "combo_rarity", "must be common, rare, epic or legendary", field="rarity"
            )


_SLOT_ORDER: dict[Slot, int] = {s: i for i, s in enumerate(Slot)}


@dataclass(frozen=True, slots=True)
class CardSpec:
    """A card as the rules see it (frozen input of ``engine.card.derive``).

    ``equipped`` holds exactly one attribute per slot (stored in ``Slot`` order,
    whatever order it was given in). ``wardrobe`` holds the other owned
    attributes; an entry equal to an equipped one is dropped, so the equipped
    four are always owned. ``combos`` are the combos the rules know about.

    >>> card = CardSpec(
    ...     token=7, name="Pup #7",
    ...     equipped=(AttributeSpec(Slot.PAW, "Dagger", 40), AttributeSpec(Slot.HEAD, "Cap", 900),
    ...               AttributeSpec(Slot.BODY, "Vest", 500), AttributeSpec(Slot.BACKGROUND, "Sky", 800)),
    ... )
    >>> [a.slot.value for a in card.equipped]
    ['head', 'body', 'paw', 'background']
    >>> card.attribute(Slot.PAW).name
    'Dagger'
    """

    token: int
    name: str
    equipped: tuple[AttributeSpec, ...]
    wardrobe: tuple[AttributeSpec, ...] = ()
    getgems_rank: int | None = None
    burned_stickers: int = 0
    starter: bool = False
    combos: tuple[ComboSpec, ...] = ()

    def __post_init__(self) -> None:
        if not _is_int(self.token) or self.token < 1:
            raise InvalidCardError("min_int", "must be an integer ≥ 1", field="token", minimum=1)
        if not isinstance(self.name, str):
            raise InvalidCardError("string", "must be a string", field="name")
        equipped = self.equipped
        if isinstance(equipped, Mapping):
            equipped = tuple(equipped.values())
        by_slot: dict[Slot, AttributeSpec] = {}
        for attr in equipped:
            if not isinstance(attr, AttributeSpec):
                raise InvalidCardError(
                    "attribute", "must hold AttributeSpec values", field="equipped"
                )
            if attr.slot in by_slot:
                raise InvalidCardError(
                    "duplicate_slot", "is equipped twice", field=f"equipped.{attr.slot.value}"
                )
            by_slot[attr.slot] = attr
        for slot in Slot:
            if slot not in by_slot:
                raise InvalidCardError("missing", "is missing", field=f"equipped.{slot.value}")
        object.__setattr__(self, "equipped", tuple(by_slot[s] for s in Slot))
        object.__setattr__(self, "wardrobe", _normalise_wardrobe(by_slot, self.wardrobe))
        rank = self.getgems_rank
        if rank is not None and (not _is_int(rank) or rank < 1):
            raise InvalidCardError(
                "min_int_or_null", "must be an integer ≥ 1 or null", field="getgems_rank", minimum=1
            )
        if not _is_int(self.burned_stickers) or self.burned_stickers < 0:
            raise InvalidCardError(
                "min_int", "must be an integer ≥ 0", field="burned_stickers", minimum=0
            )
        if type(self.starter) is not bool:
            raise InvalidCardError("boolean", "must be true or false", field="starter")
        combos = tuple(self.combos)
        for i, combo in enumerate(combos):
            if not isinstance(combo, ComboSpec):
                raise InvalidCardError("combo", "must be a ComboSpec", field=f"combos[{i}]")
        object.__setattr__(self, "combos", combos)

    def attribute(self, slot: Slot) -> AttributeSpec:
        """The attribute equipped in ``slot``."""
        return self.equipped[_SLOT_ORDER[slot]]

    @property
    def owned(self) -> tuple[AttributeSpec, ...]:
        """Every distinct owned attribute: the equipped four, then the wardrobe."""
        return self.equipped + self.wardrobe


def _normalise_wardrobe(
    by_slot: Mapping[Slot, AttributeSpec], wardrobe: Iterable[AttributeSpec]
) -> tuple[AttributeSpec, ...]:
    """Drop duplicates of owned attributes, reject conflicting copies, sort by slot then name."""
    seen: dict[tuple[Slot, str], AttributeSpec] = {a.key: a for a in by_slot.values()}
    extra: list[AttributeSpec] = []
    for i, attr in enumerate(wardrobe):
        if not isinstance(attr, AttributeSpec):
            raise InvalidCardError("attribute", "must be an AttributeSpec", field=f"wardrobe[{i}]")
        known = seen.get(attr.key)
        if known is None:
            seen[attr.key] = attr
            extra.append(attr)
        elif known != attr:
            raise InvalidCardError(
                "conflicting_attribute",
                "conflicts with another owned attribute of the same slot and name",
                field=f"wardrobe[{i}]",
                slot=attr.slot.value,
                name=attr.name,
            )
    extra.sort(key=lambda a: (_SLOT_ORDER[a.slot], a.name))
    return tuple(extra)


# ---------------------------------------------------------------------------
# Results


@fast_init
@dataclass(frozen=True, slots=True)
class TraceStep:
    """One step of a derivation: a stable ``code``, its ``params`` and its ``value``.

    ``params`` is a read-only mapping of JSON-ready values (str, int, bool,
    None, tuples and mappings of those); enum values appear as their lowercase
    strings. The codes and their parameters are listed in ``engine.card.trace.CODES``.
    """

    code: str
    params: Mapping[str, Any]
    value: Any = None


Trace = tuple[TraceStep, ...]
"""An ordered tuple of trace steps."""


@fast_init
@dataclass(frozen=True, slots=True)
class SupplySlot:
    """Supply count evidence for one slot: the supply that counts and where it came from.

    ``substitute`` is the lower-supply rare/unique wardrobe attribute that
    stands in for the equipped one, or None.
    """

    slot: Slot
    attribute: AttributeSpec
    effective_supply: int
    substitute: AttributeSpec | None


@fast_init
@dataclass(frozen=True, slots=True)
class Requirement:
    """The smallest change that lifts one rule to ``target``.

    ``need`` says what kind of change it is (see ``engine.card.trace.NEEDS``);
    ``params`` holds its numbers as JSON-ready values.
    """

    rule: str
    target: Rarity
    need: str
    params: Mapping[str, Any]


@fast_init
@dataclass(frozen=True, slots=True)
class NextTier:
    """The card's next rarity and, per rule that can give it, the change needed."""

    target: Rarity
    paths: tuple[Requirement, ...]


@fast_init
@dataclass(frozen=True, slots=True)
class RuleResult:
    """A rarity rule's verdict: its rarity, its evidence and its own next step.

    A rule that finds nothing gives Common. ``next_tier`` is the smallest change
    that lifts this rule above its result; None when the rule is at its highest
    tier or cannot rise (e.g. no combo is known). ``evidence`` per rule:

    - supply_count: ``slots`` (a ``SupplySlot`` per slot, in slot order),
      ``matched`` ((max_supply, (slot, …)), …) per tier of ``SUPPLY_COUNT_TIERS``;
    - wardrobe_score: ``score`` (Fraction), ``display`` (one decimal, rounded
      down), ``attributes`` (every distinct owned ``AttributeSpec``);
    - tier_badge: ``attributes`` (equipped unique-tier attributes);
    - burned_stickers: ``burned``;
    - god_premium: ``god``, ``premium`` (equipped attributes of that kind);
    - combo: ``matched`` (fully equipped ``ComboSpec``s), ``known`` (count);
    - getgems_rank: ``rank`` (int or None);
    - starter: nothing.
    """

    key: str
    rarity: Rarity
    evidence: Mapping[str, Any]
    next_tier: Requirement | None


@fast_init
@dataclass(frozen=True, slots=True)
class RoleVote:
    """One equipped attribute's vote for a role."""

    slot: Slot
    name: str
    skill: Skill
    role: Role
    slot_weight: int
    tier: Tier
    tier_weight: int
    weight: int


@fast_init
@dataclass(frozen=True, slots=True)
class SkillRow:
    """One equipped attribute in the skill score table.

    ``hits`` pairs each hit skill (priority order) with the (word, fragment)
    matches that hit it.
    """

    slot: Slot
    name: str
    tier: Tier
    hits: tuple[tuple[Skill, tuple[tuple[str, str], ...]], ...]
    primary: Skill | None
    secondary: Skill | None
    points: int


@fast_init
@dataclass(frozen=True, slots=True)
class TieBreakEntry:
    """One attribute looked at by the skill tie-break scan."""

    slot: Slot
    name: str
    tier: Tier
    equipped: bool
    primary: Skill | None
    secondary: Skill | None
    picked: Skill | None


@fast_init
@dataclass(frozen=True, slots=True)
class Stats:
    """Card stats. ``def_`` is DEF (a shield); ``ability`` the ability value."""

    atk: int
    hp: int
    def_: int
    ability: int


@fast_init
@dataclass(frozen=True, slots=True)
class StatLayer:
    """One layer of the stats computation: what it adds (deltas)."""

    layer: str
    atk: int
    hp: int
    def_: int
    ability: int


@fast_init
@dataclass(frozen=True, slots=True)
class Effect:
    """An effect in one of the card's slots: ``value = base + bonus``."""

    slot: EffectSlot
    kind: EffectKind
    base: int
    bonus: int
    value: int
    source: EffectSource


@fast_init
@dataclass(frozen=True, slots=True)
class UnderchargeRow:
    """What the card is when deployed with ``nrg`` energy (below its cost)."""

    nrg: int
    deficit: int
    stat_cut_percent: int
    atk: int
    def_: int
    effects: tuple[tuple[EffectSlot, int], ...]
    skill_active: bool


@fast_init
@dataclass(frozen=True, slots=True)
class Breakdown:
    """Everything derived about a card, with the trace that explains it.

    ``rules`` is in rule order (``engine.data.RULE_KEYS``; a starter card has
    only ``starter``). ``role_source`` is ``"votes"``, ``"tie_break"`` or
    ``"hash"``; ``skill_source`` is ``"score"``, ``"tie_break"`` or
    ``"role_default"``. ``effects`` holds only filled slots, in slot order.
    """

    token: int
    rarity: Rarity
    decided_by: tuple[str, ...]
    rules: tuple[RuleResult, ...]
    wardrobe_score: Fraction | None
    next_tier: NextTier | None
    role: Role
    role_source: str
    role_votes: tuple[RoleVote, ...]
    role_totals: tuple[tuple[Role, int], ...]
    skill_affinity: Skill
    skill_source: str
    skill_table: tuple[SkillRow, ...]
    skill_scores: tuple[tuple[Skill, int], ...]
    skill_tie_break: tuple[TieBreakEntry, ...]
    active_skill: Skill | None
    template: str
    stat_layers: tuple[StatLayer, ...]
    stats: Stats
    effects: tuple[Effect, ...]
    energy_cost: int
    undercharge: tuple[UnderchargeRow, ...]
    trace: Trace

    def rule(self, key: str) -> RuleResult:
        """The result of the rule ``key`` (KeyError if the card has no such rule)."""
        for result in self.rules:
            if result.key == key:
                return result
        raise KeyError(key)

    def effect(self, slot: EffectSlot) -> Effect | None:
        """The effect in ``slot``, or None when the slot is empty."""
        for eff in self.effects:
            if eff.slot is slot:
                return eff
        return None
