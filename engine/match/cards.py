"""A card's combat profile (``MatchCard``) and the deck rules (§6: 1–4 distinct cards)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.data import (
    DECK_MAX,
    DECK_MIN,
    EFFECT_KINDS,
    ENERGY_COST,
    HERO_HP,
    HERO_HP_BONUS_PER_ROLE,
    MAX_HERO_HP_CEILING,
)
from engine.errors import InvalidDeckError
from engine.types import (
    Breakdown,
    Effect,
    EffectKind,
    EffectSlot,
    EffectSource,
    InvalidCardError,
    Rarity,
    Role,
    Skill,
)

# Effect kinds allowed per slot (engine.data.EFFECT_KINDS is the source).
_ALLOWED_SLOTS = {info.kind: info.slots for info in EFFECT_KINDS}


# ---------------------------------------------------------------------------
# Cards


@dataclass(frozen=True, slots=True)
class CardEffect:
    """A card's effect in one slot: a kind and its value (ability bonus included)."""

    kind: EffectKind
    value: int


@dataclass(frozen=True, slots=True)
class MatchCard:
    """A card's combat profile: what the match needs to know about one card.

    Build one from a derivation with ``MatchCard.from_breakdown`` or directly
    (tests and scenario tables do). ``skill`` is the active skill (None when
    the card has none); ``cost`` defaults to the rarity's NRG cost.

    >>> MatchCard("9", "Pup", Rarity.RARE, Role.TANK, atk=8, hp=22, def_=2).cost
    2
    >>> MatchCard("9", "Pup", Rarity.RARE, Role.TANK, atk=8, hp=0)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidCardError: hp: must be an integer ≥ 1
    """

    id: str
    name: str
    rarity: Rarity
    role: Role
    atk: int
    hp: int
    def_: int = 0
    skill: Skill | None = None
    deploy: CardEffect | None = None
    passive: CardEffect | None = None
    last_breath: CardEffect | None = None
    cost: int = 0
    # The effects as engine.types.Effect values (for engine.card.stats.apply_undercharge).
    effects: tuple[Effect, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise InvalidCardError("non_empty_string", "must be a non-empty string", field="id")
        if not isinstance(self.name, str):
            raise InvalidCardError("string", "must be a string", field="name")
        if not isinstance(self.rarity, Rarity):
            raise InvalidCardError("unknown_rarity", "must be a Rarity", field="rarity")
        if not isinstance(self.role, Role):
            raise InvalidCardError("unknown_role", "must be a Role", field="role")
        for name, low in (("atk", 0), ("hp", 1), ("def_", 0), ("cost", 0)):
            value = getattr(self, name)
            if type(value) is not int or value < low:
                raise InvalidCardError(
                    "min_int", f"must be an integer ≥ {low}", field=name.rstrip("_"), minimum=low
                )
        if self.skill is not None and not isinstance(self.skill, Skill):
            raise InvalidCardError("unknown_skill", "must be a Skill or null", field="skill")
        for slot in EffectSlot:
            effect = getattr(self, slot.value)
            if effect is None:
                continue
            if not isinstance(effect, CardEffect) or not isinstance(effect.kind, EffectKind):
                raise InvalidCardError("effect", "must be an effect", field=slot.value)
            if slot not in _ALLOWED_SLOTS[effect.kind]:
                raise InvalidCardError(
                    "effect_slot",
                    f"{effect.kind.value} cannot stand in the {slot.value} slot",
                    field=slot.value,
                    kind=effect.kind.value,
                )
            if type(effect.value) is not int or effect.value < 0:
                raise InvalidCardError(
                    "min_int", "must be an integer ≥ 0", field=f"{slot.value}.value", minimum=0
                )
        if self.cost == 0:
            object.__setattr__(self, "cost", ENERGY_COST[self.rarity])
        effects = tuple(
            Effect(slot, e.kind, e.value, 0, e.value, EffectSource.TEMPLATE)
            for slot in EffectSlot
            if (e := getattr(self, slot.value)) is not None
        )
        object.__setattr__(self, "effects", effects)

    @classmethod
    def from_breakdown(
        cls, breakdown: Breakdown, name: str, card_id: str | None = None
    ) -> MatchCard:
        """The combat profile of a derived card (``card_id`` defaults to the token).

        The active skill is ``breakdown.active_skill``: a collection card's
        Legendary rule, or the roll of a temporary card derived with
        ``engine.card.derive.derive(card, temporary_id=...)`` (docs/rules.md §4).
        """
        effects = {e.slot.value: CardEffect(e.kind, e.value) for e in breakdown.effects}
        stats = breakdown.stats
        return cls(
            id=card_id or str(breakdown.token),
            name=name,
            rarity=breakdown.rarity,
            role=breakdown.role,
            atk=stats.atk,
            hp=stats.hp,
            def_=stats.def_,
            skill=breakdown.active_skill,
            cost=breakdown.energy_cost,
            **effects,
        )


def validate_deck_ids(ids: Sequence[str]) -> None:
    """The deck rules that need only the cards' ids: 1–4 of them, none twice.

    A caller that knows only which cards were chosen (a form's tokens) checks them here
    before it loads any card; ``validate_deck`` runs the same checks on the cards.

    >>> validate_deck_ids(["1", "2", "3", "4", "5"])
    Traceback (most recent call last):
    ...
    engine.errors.InvalidDeckError: A deck holds at most 4 cards (this one has 5).
    """
    if len(ids) < DECK_MIN:
        raise InvalidDeckError("empty", minimum=DECK_MIN)
    if len(ids) > DECK_MAX:
        raise InvalidDeckError("too_many", maximum=DECK_MAX, count=len(ids))
    seen: set[str] = set()
    for card_id in ids:
        if card_id in seen:
            raise InvalidDeckError("duplicate", card=card_id)
        seen.add(card_id)


def validate_deck(deck: Sequence[MatchCard]) -> tuple[MatchCard, ...]:
    """A deck as a tuple, or InvalidDeckError: 1–4 cards, no card twice (by id).

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> validate_deck([pup, pup])
    Traceback (most recent call last):
    ...
    engine.errors.InvalidDeckError: A deck may hold each card only once (card 1 is there twice).
    """
    cards = tuple(deck)
    # An entry that is not a card gets an id no card can have, so it is never "twice".
    validate_deck_ids(
        [card.id if isinstance(card, MatchCard) else f"\x00{i}" for i, card in enumerate(cards)]
    )
    for i, card in enumerate(cards):
        if not isinstance(card, MatchCard):
            raise InvalidDeckError("invalid_card", index=i, number=i + 1)
    return cards


def hero_start_hp(deck: Iterable[MatchCard]) -> int:
    """Starting Hero HP: 30, +2 per Tank and +1 per Support in the deck, at most 90.

    >>> tank = MatchCard("1", "T", Rarity.COMMON, Role.TANK, atk=1, hp=1)
    >>> hero_start_hp([tank])
    32
    """
    bonus = sum(HERO_HP_BONUS_PER_ROLE.get(card.role, 0) for card in deck)
    return min(HERO_HP + bonus, MAX_HERO_HP_CEILING)
