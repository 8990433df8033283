"""The paw-game match (RULES.md §6): frozen states, frozen actions, ordered events.

A match is a value. ``new_match`` builds the opening state from two decks;
``apply(state, action)`` returns ``(new_state, events)`` or raises
``IllegalActionError`` and leaves ``state`` as it was (states are frozen, so
nothing can change it). The rules use no randomness at all: the seed is
carried in the state for the bots (``engine.bots``) and for the record, so a
match is reproducible from its decks, its seed and its actions.

A round is played in four beats. During **Prepare** both players act in any
order: ``Pick`` a card (when they have none on the field), use up to two
``Boost`` s, then ``Commit``. The second ``Commit`` runs the other three beats
(**Commit**: cards enter and NRG is paid, Deploy effects fire; **Resolve**:
the cards trade blows; **Advance**: burn, +1 NRG) and opens the next round.

Sides are ``A = 0`` and ``B = 1``; events name them ``"a"`` and ``"b"``.

Where RULES.md §6 is silent, this engine decides (the wiki page should say so):

- Initiative is fixed when a round starts (lower Hero HP; a tie gives it to A on odd
  rounds and to B on even ones). It orders the Deploy effects, simultaneous Last
  Breaths and burn, and breaks a Speed tie.
- A player without a card on the field must pick one when any is left (Commit is
  refused otherwise); with none left they commit with an empty field.
- Boosts: Charge at 4 NRG and Hero Patch at 90 Hero HP are refused (they would do
  nothing). Rage (+2 ATK) belongs to the player for this round; Rage and Guard Up need a
  card on the field or a picked one (Guard Up then shields the picked card). Switch
  needs a card on the field and names the card that comes in; that card is deployed at
  Commit and pays its cost. A card keeps its HP and DEF when it leaves the field; its
  Deploy buffs and undercharge last only for that stay.
- Undercharge cuts ATK and the card's *current* DEF; numeric effects (Deploy, Passive,
  Last Breath) are weakened for that stay (``engine.stats.apply_undercharge``). Arcane
  applies only to the card's very first deployment, and an undercharged first
  deployment uses that chance up (the skill is off).
- Deploy effects fire after both cards have entered; a card destroyed by an earlier
  Deploy loses its own Deploy (its Last Breath still fires).
- Pierce and Steal are combat skills: they act on strikes only. A strike that lands
  any damage (DEF included, or the Hero) triggers Steal.
- The end is checked after each beat (Commit, Resolve, Advance): both Heroes at 0 after
  the same beat is a draw; a Hero at 0 cannot be healed. After round 200, or as soon as
  neither side has a card left (nothing could change any more), the higher Hero HP
  wins and equal HP is a draw.

>>> from engine.types import Rarity, Role
>>> pup = MatchCard("1", "Iron Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20, def_=2)
>>> fang = MatchCard("2", "Ember Fang", Rarity.COMMON, Role.STRIKER, atk=12, hp=12)
>>> state = new_match((pup,), (fang,), seed=7)
>>> state.players[A].hero_hp, state.players[B].hero_hp, state.players[A].nrg
(32, 30, 3)
>>> state, _ = apply(state, Pick(A, 0))
>>> state, _ = apply(state, Commit(A))
>>> state, _ = apply(state, Pick(B, 0))
>>> state, events = apply(state, Commit(B))
>>> [e.code for e in events if e.code.startswith("strike")]
['strike.order', 'strike.card', 'strike.card']
>>> state.card_hp(A, 0), state.card_def(A, 0), state.card_hp(B, 0)
(10, 0, 4)
>>> state.round, state.players[A].nrg
(2, 3)
>>> apply(state, Pick(A, 0))
Traceback (most recent call last):
...
engine.match.IllegalActionError: You already have a card on the field; use Switch to change it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.data import (
    ARCANE_EFFECT_BONUS,
    BOOSTS,
    BOOSTS_PER_ROUND,
    DECK_MAX,
    DECK_MIN,
    EFFECT_KINDS,
    ENERGY_COST,
    GOLD_INITIAL_PLAYER_ENERGY,
    HERO_HP,
    HERO_HP_BONUS_PER_ROLE,
    MAX_HERO_HP_CEILING,
    NRG_CAP,
    NRG_PER_ROUND,
    ROUND_LIMIT,
    STEAL_HERO_HEAL,
    WOUNDED_RAGE_THRESHOLD,
)
from engine.stats import apply_undercharge, undercharge_tier
from engine.types import (
    BoostKind,
    Breakdown,
    Effect,
    EffectKind,
    EffectSlot,
    EffectSource,
    EndReason,
    InvalidCardError,
    Rarity,
    Role,
    Skill,
    Stats,
)

__all__ = [
    "ACTION_TYPES",
    "BOOST_KEYS",
    "END_REASONS",
    "EVENT_CODES",
    "SIDES",
    "A",
    "Action",
    "B",
    "Boost",
    "CardEffect",
    "Commit",
    "Deployment",
    "Event",
    "IllegalActionError",
    "InvalidDeckError",
    "MatchCard",
    "MatchState",
    "Pick",
    "PlayerState",
    "Surrender",
    "action_from_json",
    "action_to_json",
    "apply",
    "card_from_json",
    "card_to_json",
    "hero_start_hp",
    "is_legal",
    "legal_actions",
    "new_match",
    "opening_events",
    "replay",
    "validate_deck",
]

A = 0
B = 1
SIDES = ("a", "b")  # how events, JSON and forms name the sides

# Boost keys, in the order RULES.md §6 lists them (the numbers live in engine.data.BOOSTS).
_BOOST = {b.key: b for b in BOOSTS}
BOOST_KEYS: tuple[str, ...] = tuple(b.key for b in BOOSTS)
CHARGE, SWITCH, RAGE, GUARD_UP, HERO_PATCH = BoostKind
assert tuple(BoostKind) == BOOST_KEYS, BOOST_KEYS

# Why a match ended: a Hero fell, both fell in the same beat, a surrender, both decks
# spent (no card left on either side), or the round cap. The last two go to the higher Hero HP.
END_REASONS: tuple[str, ...] = tuple(EndReason)

# Every event code the engine emits, with its parameters (play/narration.py words them).
EVENT_CODES: Mapping[str, tuple[str, ...]] = {
    "hero.start": ("side", "hp", "base", "tanks", "supports", "bonus", "ceiling"),
    "round.start": ("round", "initiative", "reason", "hp_a", "hp_b"),
    "prepare.pick": ("side", "card", "name"),
    "boost.charge": ("side", "amount", "nrg"),
    "boost.switch": ("side", "card", "name", "to", "to_name", "hp", "def"),
    "boost.rage": ("side", "amount"),
    "boost.guard_up": ("side", "card", "name", "amount", "def"),
    "boost.hero_patch": ("side", "amount", "hp"),
    "commit": ("side",),
    "deploy": ("side", "card", "name", "cost", "paid", "nrg", "atk", "hp", "def"),
    "deploy.undercharged": (
        "side", "card", "name", "deficit", "cut_percent", "effect_minus", "halved", "atk", "def",
    ),
    "arcane.bonus": ("side", "card", "name", "bonus"),
    "deploy.lost": ("side", "card", "name"),
    "effect.no_target": ("side", "card", "name", "slot", "kind"),
    "effect.damage_card": (
        "side", "card", "name", "slot", "target", "target_card", "target_name",
        "amount", "to_def", "to_hp", "def", "hp",
    ),
    "effect.damage_hero": ("side", "card", "name", "slot", "target", "amount", "hp"),
    "effect.heal_hero": ("side", "card", "name", "slot", "amount", "hp"),
    "effect.shield": ("side", "card", "name", "slot", "amount", "def"),
    "effect.buff_atk": ("side", "card", "name", "slot", "amount", "atk"),
    "effect.burn": ("side", "card", "name", "slot", "target", "amount", "hp"),
    "strike.order": ("mode", "first"),
    "strike.card": (
        "side", "card", "name", "atk", "rage", "wounded_rage", "first_strike", "pierce",
        "target", "target_card", "target_name", "to_def", "to_hp", "def", "hp",
    ),
    "strike.hero": (
        "side", "card", "name", "atk", "rage", "wounded_rage", "first_strike", "target", "hp",
    ),
    "strike.prevented": ("side", "card", "name"),
    "steal.heal": ("side", "card", "name", "amount", "hp"),
    "card.dies": ("side", "card", "name"),
    "nrg.gain": ("side", "amount", "nrg"),
    "round.end": ("round",),
    "surrender": ("side",),
    "match.end": ("result", "reason", "round", "hp_a", "hp_b"),
}  # fmt: skip

# Effect kinds allowed per slot (engine.data.EFFECT_KINDS is the source).
_ALLOWED_SLOTS = {info.kind: info.slots for info in EFFECT_KINDS}


# ---------------------------------------------------------------------------
# Errors


class InvalidDeckError(ValueError):
    """A deck that breaks §6: 1–4 distinct cards.

    ``code`` is stable (``empty``, ``too_many``, ``duplicate``, ``invalid_card``),
    ``params`` holds its numbers; ``str(error)`` is one readable line.

    >>> validate_deck(())
    Traceback (most recent call last):
    ...
    engine.match.InvalidDeckError: A deck needs at least 1 card.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        self.message = message
        self.params = params
        super().__init__(message)


class IllegalActionError(ValueError):
    """An action the rules do not allow now. The state it was applied to is unchanged.

    ``code`` is stable (see ``ILLEGAL_CODES``), ``params`` holds its
    parameters (JSON-ready); ``str(error)`` is a sentence a player can read.
    """

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(ILLEGAL_CODES[code].format(**params))


# Stable codes of illegal actions, each with its readable English message.
ILLEGAL_CODES: Mapping[str, str] = {
    "bad_action": "That is not an action of this game.",
    "bad_side": "There is no side {side!r} in this match.",
    "match_over": "The match is over.",
    "already_committed": "You have already committed this round.",
    "card_on_field": "You already have a card on the field; use Switch to change it.",
    "unknown_card": "Your deck has no card number {card}.",
    "card_defeated": "That card has been defeated.",
    "pick_required": "Pick a card to deploy before you commit.",
    "unknown_boost": "There is no boost called {boost!r}.",
    "boost_used": "You have already used {boost} in this match.",
    "boost_limit": "You may use at most {limit} boosts per round.",
    "nrg_full": "Your NRG is already at the cap of {cap}.",
    "hero_hp_full": "Your Hero is already at {cap} HP.",
    "no_card_on_field": "Switch needs a card on the field.",
    "no_card": "{boost} needs a card on the field or a picked card.",
    "switch_target": "Switch needs another card that is still in play.",
}


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
    engine.types.InvalidCardError: hp: must be an integer ≥ 1
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
    # The effects as engine.types.Effect values (for engine.stats.apply_undercharge).
    effects: tuple[Effect, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id:
            raise InvalidCardError("id", "non_empty_string", "must be a non-empty string")
        if not isinstance(self.name, str):
            raise InvalidCardError("name", "string", "must be a string")
        if not isinstance(self.rarity, Rarity):
            raise InvalidCardError("rarity", "unknown_rarity", "must be a Rarity")
        if not isinstance(self.role, Role):
            raise InvalidCardError("role", "unknown_role", "must be a Role")
        for name, low in (("atk", 0), ("hp", 1), ("def_", 0), ("cost", 0)):
            value = getattr(self, name)
            if type(value) is not int or value < low:
                raise InvalidCardError(
                    name.rstrip("_"), "min_int", f"must be an integer ≥ {low}", minimum=low
                )
        if self.skill is not None and not isinstance(self.skill, Skill):
            raise InvalidCardError("skill", "unknown_skill", "must be a Skill or null")
        for slot in EffectSlot:
            effect = getattr(self, slot.value)
            if effect is None:
                continue
            if not isinstance(effect, CardEffect) or not isinstance(effect.kind, EffectKind):
                raise InvalidCardError(slot.value, "effect", "must be an effect")
            if slot not in _ALLOWED_SLOTS[effect.kind]:
                raise InvalidCardError(
                    slot.value,
                    "effect_slot",
                    f"{effect.kind.value} cannot stand in the {slot.value} slot",
                    kind=effect.kind.value,
                )
            if type(effect.value) is not int or effect.value < 0:
                raise InvalidCardError(
                    f"{slot.value}.value", "min_int", "must be an integer ≥ 0", minimum=0
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
        ``engine.derive.derive(card, temporary_id=...)`` (RULES.md §4).
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

    def effect(self, slot: EffectSlot) -> CardEffect | None:
        """The effect in ``slot`` (None when empty)."""
        return getattr(self, slot.value)


def card_to_json(card: MatchCard) -> dict[str, Any]:
    """A combat profile as JSON-ready data (the demo stores decks this way).

    >>> card_to_json(MatchCard("3", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20))["cost"]
    1
    """

    def eff(e: CardEffect | None) -> dict[str, Any] | None:
        return None if e is None else {"kind": e.kind.value, "value": e.value}

    return {
        "id": card.id,
        "name": card.name,
        "rarity": card.rarity.value,
        "role": card.role.value,
        "atk": card.atk,
        "hp": card.hp,
        "def": card.def_,
        "skill": card.skill.value if card.skill else None,
        "deploy": eff(card.deploy),
        "passive": eff(card.passive),
        "last_breath": eff(card.last_breath),
        "cost": card.cost,
    }


def card_from_json(data: Mapping[str, Any]) -> MatchCard:
    """The inverse of ``card_to_json`` (InvalidCardError on bad data).

    >>> card = MatchCard("3", "Pup", Rarity.EPIC, Role.CONTROL, atk=7, hp=16, def_=1,
    ...                  skill=Skill.ARCANE, passive=CardEffect(EffectKind.BURN, 2))
    >>> card_from_json(card_to_json(card)) == card
    True
    """
    if not isinstance(data, Mapping):
        raise InvalidCardError("", "object", "must be an object")
    try:

        def eff(key: str) -> CardEffect | None:
            raw = data.get(key)
            if raw is None:
                return None
            return CardEffect(EffectKind(raw["kind"]), raw["value"])

        skill = data.get("skill")
        return MatchCard(
            id=str(data["id"]),
            name=data.get("name", ""),
            rarity=Rarity(data["rarity"]),
            role=Role(data["role"]),
            atk=data["atk"],
            hp=data["hp"],
            def_=data.get("def", 0),
            skill=Skill(skill) if skill else None,
            deploy=eff("deploy"),
            passive=eff("passive"),
            last_breath=eff("last_breath"),
            cost=data.get("cost", 0),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, InvalidCardError):
            raise
        raise InvalidCardError("", "card", f"is not a match card ({exc})") from None


def validate_deck(deck: Sequence[MatchCard]) -> tuple[MatchCard, ...]:
    """A deck as a tuple, or InvalidDeckError: 1–4 cards, no card twice (by id).

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> validate_deck([pup, pup])
    Traceback (most recent call last):
    ...
    engine.match.InvalidDeckError: A deck may hold each card only once (card 1 is there twice).
    """
    cards = tuple(deck)
    if len(cards) < DECK_MIN:
        raise InvalidDeckError("empty", f"A deck needs at least {DECK_MIN} card.", minimum=DECK_MIN)
    if len(cards) > DECK_MAX:
        raise InvalidDeckError(
            "too_many",
            f"A deck holds at most {DECK_MAX} cards (this one has {len(cards)}).",
            maximum=DECK_MAX,
            count=len(cards),
        )
    seen: set[str] = set()
    for i, card in enumerate(cards):
        if not isinstance(card, MatchCard):
            raise InvalidDeckError("invalid_card", f"Card {i + 1} is not a card.", index=i)
        if card.id in seen:
            raise InvalidDeckError(
                "duplicate",
                f"A deck may hold each card only once (card {card.id} is there twice).",
                card=card.id,
            )
        seen.add(card.id)
    return cards


def hero_start_hp(deck: Iterable[MatchCard]) -> int:
    """Starting Hero HP: 30, +2 per Tank and +1 per Support in the deck, at most 90.

    >>> tank = MatchCard("1", "T", Rarity.COMMON, Role.TANK, atk=1, hp=1)
    >>> hero_start_hp([tank])
    32
    """
    bonus = sum(HERO_HP_BONUS_PER_ROLE.get(card.role, 0) for card in deck)
    return min(HERO_HP + bonus, MAX_HERO_HP_CEILING)


# ---------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class Deployment:
    """A card on the field: which deck card, and its values for this deployment.

    ``atk`` is its ATK after the undercharge cut and Deploy buffs;
    ``passive`` and ``last_breath`` are its effect values for this stay on
    the field (undercharge and Arcane included); ``skill`` is None while
    undercharged; ``deficit`` is the NRG it entered short of its cost.
    """

    card: int
    atk: int
    passive: int
    last_breath: int
    skill: Skill | None
    deficit: int


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One side: Hero, NRG, its cards' HP and DEF (by deck index) and this round's plan.

    ``deployed[i]`` says whether card ``i`` has entered the field before (Arcane);
    a card with ``card_hp[i] == 0`` is defeated. ``field`` is the active card;
    ``pick`` the card chosen to deploy at Commit.
    """

    hero_hp: int
    hero_start: int
    nrg: int
    card_hp: tuple[int, ...]
    card_def: tuple[int, ...]
    deployed: tuple[bool, ...]
    field: Deployment | None = None
    pick: int | None = None
    boosts_used: frozenset[str] = frozenset()
    boosts_round: int = 0
    rage: int = 0
    committed: bool = False

    @property
    def alive(self) -> tuple[int, ...]:
        """Deck indexes of the cards still in play."""
        return tuple(i for i, hp in enumerate(self.card_hp) if hp > 0)


@dataclass(frozen=True, slots=True)
class MatchState:
    """The whole match. ``winner`` is A, B or None (a draw, once ``over``).

    ``actions`` counts the actions applied so far (the demo's forms carry it
    to refuse stale submits); ``initiative`` is this round's holder.
    """

    decks: tuple[tuple[MatchCard, ...], tuple[MatchCard, ...]]
    players: tuple[PlayerState, PlayerState]
    seed: int = 0
    round: int = 1
    initiative: int = A
    actions: int = 0
    over: bool = False
    winner: int | None = None
    end_reason: str | None = None

    @property
    def result(self) -> str | None:
        """``"a"``, ``"b"``, ``"draw"``, or None while the match runs."""
        if not self.over:
            return None
        return "draw" if self.winner is None else SIDES[self.winner]

    def card(self, side: int, index: int) -> MatchCard:
        """Card ``index`` of ``side``'s deck."""
        return self.decks[side][index]

    def card_hp(self, side: int, index: int) -> int:
        """Current HP of a deck card."""
        return self.players[side].card_hp[index]

    def card_def(self, side: int, index: int) -> int:
        """Current DEF (shield) of a deck card."""
        return self.players[side].card_def[index]

    def current_atk(self, side: int) -> int:
        """ATK the side's active card would strike with now (0 without a card)."""
        p = self.players[side]
        dep = p.field
        if dep is None:
            return 0
        atk = dep.atk + p.rage
        passive = self.decks[side][dep.card].passive
        if (
            passive is not None
            and passive.kind is EffectKind.WOUNDED_RAGE
            and p.hero_hp <= WOUNDED_RAGE_THRESHOLD
        ):
            atk += dep.passive
        return atk


def _fast_constructor(cls: type) -> Any:
    """A positional constructor for a frozen slots dataclass that fills the slots through
    their descriptors: the same value as ``cls(...)`` (no validation runs either way), at
    about half the cost of the generated ``__init__`` (which calls ``object.__setattr__``
    per field). Used on the hot path only; the classes stay ordinary frozen dataclasses."""
    names = cls.__slots__
    namespace = {"_new": object.__new__, "_cls": cls}
    namespace.update({f"_s{i}": getattr(cls, name).__set__ for i, name in enumerate(names)})
    body = "; ".join(f"_s{i}(o, {name})" for i, name in enumerate(names))
    source = f"def make({', '.join(names)}):\n    o = _new(_cls); {body}\n    return o\n"
    exec(source, namespace)  # the source is built from the class's own slot names
    return namespace["make"]


_PlayerState = _fast_constructor(PlayerState)
_MatchState = _fast_constructor(MatchState)
_Deployment = _fast_constructor(Deployment)


# ---------------------------------------------------------------------------
# Actions and events


@dataclass(frozen=True, slots=True)
class Pick:
    """Choose deck card ``card`` to deploy at Commit (free to change until then)."""

    side: int
    card: int


@dataclass(frozen=True, slots=True)
class Boost:
    """Use a boost now. ``card`` is the card Switch brings in (other boosts: None)."""

    side: int
    boost: str
    card: int | None = None


@dataclass(frozen=True, slots=True)
class Commit:
    """Lock this round's plan."""

    side: int


@dataclass(frozen=True, slots=True)
class Surrender:
    """Give up: the other side wins."""

    side: int


Action = Pick | Boost | Commit | Surrender
ACTION_TYPES = {"pick": Pick, "boost": Boost, "commit": Commit, "surrender": Surrender}
_ACTION_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


@dataclass(frozen=True, slots=True)
class Event:
    """One state change: a stable ``code`` (see ``EVENT_CODES``) and JSON-ready ``params``."""

    code: str
    params: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        return cls(data["code"], dict(data["params"]))


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as JSON-ready data.

    >>> action_to_json(Boost(B, "switch", 2))
    {'type': 'boost', 'side': 'b', 'boost': 'switch', 'card': 2}
    """
    data: dict[str, Any] = {"type": _ACTION_NAMES[type(action)], "side": SIDES[action.side]}
    if isinstance(action, Pick):
        data["card"] = action.card
    elif isinstance(action, Boost):
        data["boost"] = action.boost
        if action.card is not None:
            data["card"] = action.card
    return data


def action_from_json(data: Any) -> Action:
    """The inverse of ``action_to_json``; IllegalActionError("bad_action") on anything else.

    >>> action_from_json({"type": "pick", "side": "a", "card": 1})
    Pick(side=0, card=1)
    >>> action_from_json({"type": "pick", "side": "a", "card": "1"})
    Traceback (most recent call last):
    ...
    engine.match.IllegalActionError: That is not an action of this game.
    """
    if not isinstance(data, Mapping) or data.get("side") not in SIDES:
        raise IllegalActionError("bad_action")
    side = SIDES.index(data["side"])
    kind = data.get("type")
    card = data.get("card")
    if card is not None and type(card) is not int:
        raise IllegalActionError("bad_action")
    if kind == "pick" and card is not None:
        return Pick(side, card)
    if kind == "boost" and isinstance(data.get("boost"), str):
        return Boost(side, data["boost"], card)
    if kind == "commit":
        return Commit(side)
    if kind == "surrender":
        return Surrender(side)
    raise IllegalActionError("bad_action")


# ---------------------------------------------------------------------------
# Starting a match


def new_match(
    deck_a: Sequence[MatchCard], deck_b: Sequence[MatchCard], seed: int = 0
) -> MatchState:
    """The opening state: both Heroes at their starting HP, 3 NRG each, round 1.

    Raises InvalidDeckError naming the side (``params["side"]``) when a deck is bad.
    """
    decks = []
    for side, deck in enumerate((deck_a, deck_b)):
        try:
            decks.append(validate_deck(deck))
        except InvalidDeckError as exc:
            exc.params["side"] = SIDES[side]
            raise
    players = tuple(
        PlayerState(
            hero_hp=hero_start_hp(deck),
            hero_start=hero_start_hp(deck),
            nrg=GOLD_INITIAL_PLAYER_ENERGY,
            card_hp=tuple(c.hp for c in deck),
            card_def=tuple(c.def_ for c in deck),
            deployed=(False,) * len(deck),
        )
        for deck in decks
    )
    ini, _ = _initiative(players[A].hero_hp, players[B].hero_hp, 1)
    return MatchState(decks=(decks[A], decks[B]), players=players, seed=seed, initiative=ini)  # type: ignore[arg-type]


def _initiative(hp_a: int, hp_b: int, round_: int) -> tuple[int, str]:
    """Initiative holder: the lower Hero HP; a tie alternates, A holding odd rounds."""
    if hp_a < hp_b:
        return A, "lower_hp"
    if hp_b < hp_a:
        return B, "lower_hp"
    return (A if round_ % 2 == 1 else B), "tie"


def opening_events(state: MatchState) -> tuple[Event, ...]:
    """The events that open a match log: each Hero's starting HP, then round 1."""
    events = []
    for side in (A, B):
        deck = state.decks[side]
        tanks = sum(c.role is Role.TANK for c in deck)
        supports = sum(c.role is Role.SUPPORT for c in deck)
        base_bonus = sum(HERO_HP_BONUS_PER_ROLE.get(c.role, 0) for c in deck)
        events.append(
            Event(
                "hero.start",
                {
                    "side": SIDES[side],
                    "hp": state.players[side].hero_start,
                    "base": HERO_HP,
                    "tanks": tanks,
                    "supports": supports,
                    "bonus": base_bonus,
                    "ceiling": HERO_HP + base_bonus > MAX_HERO_HP_CEILING,
                },
            )
        )
    _, reason = _initiative(state.players[A].hero_hp, state.players[B].hero_hp, state.round)
    hp_a, hp_b = state.players[A].hero_hp, state.players[B].hero_hp
    events.append(_round_start_event(state.round, state.initiative, reason, hp_a, hp_b))
    return tuple(events)


def _round_start_event(round_: int, ini: int, reason: str, hp_a: int, hp_b: int) -> Event:
    return Event(
        "round.start",
        {"round": round_, "initiative": SIDES[ini], "reason": reason, "hp_a": hp_a, "hp_b": hp_b},
    )


# ---------------------------------------------------------------------------
# Legality


def _violation(state: MatchState, action: Any) -> tuple[str, dict[str, Any]] | None:
    """Why ``action`` is illegal in ``state`` (code, params), or None when it is legal."""
    kind = type(action)
    if kind not in _ACTION_NAMES:
        return "bad_action", {}
    side = action.side
    if type(side) is not int or side not in (A, B):
        return "bad_side", {"side": side}
    if state.over:
        return "match_over", {}
    if kind is Surrender:
        return None
    p = state.players[side]
    if p.committed:
        return "already_committed", {}
    if kind is Commit:
        if p.field is None and p.pick is None and max(p.card_hp) > 0:
            return "pick_required", {}
        return None
    if kind is Pick:
        if p.field is not None:
            return "card_on_field", {}
        card = action.card
        if type(card) is not int or not 0 <= card < len(p.card_hp):
            return "unknown_card", {"card": card}
        if p.card_hp[card] <= 0:
            return "card_defeated", {"card": card}
        return None
    # Boost
    boost = action.boost
    if boost not in _BOOST:
        return "unknown_boost", {"boost": boost}
    if boost in p.boosts_used:
        return "boost_used", {"boost": boost}
    if p.boosts_round >= BOOSTS_PER_ROUND:
        return "boost_limit", {"limit": BOOSTS_PER_ROUND}
    if boost == CHARGE:
        if p.nrg >= NRG_CAP:
            return "nrg_full", {"cap": NRG_CAP}
    elif boost == HERO_PATCH:
        if p.hero_hp >= MAX_HERO_HP_CEILING:
            return "hero_hp_full", {"cap": MAX_HERO_HP_CEILING}
    elif boost == SWITCH:
        if p.field is None:
            return "no_card_on_field", {"boost": boost}
        card = action.card
        if (
            type(card) is not int
            or not 0 <= card < len(p.card_hp)
            or card == p.field.card
            or p.card_hp[card] <= 0
        ):
            return "switch_target", {"card": card}
    elif p.field is None and p.pick is None:  # Rage, Guard Up
        return "no_card", {"boost": boost}
    if boost != SWITCH and action.card is not None:
        return "bad_action", {}
    return None


def is_legal(state: MatchState, action: Action) -> bool:
    """Whether ``apply(state, action)`` would succeed."""
    return _violation(state, action) is None


def legal_actions(state: MatchState, side: int, *, surrender: bool = False) -> list[Action]:
    """Every legal action of ``side`` now (Surrender only when asked for).

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> [str(a.boost) if isinstance(a, Boost) else a for a in legal_actions(new_match((pup,), (pup,)), A)]
    [Pick(side=0, card=0), 'charge', 'hero_patch']
    """
    if state.over or state.players[side].committed:
        return []
    p = state.players[side]
    candidates: list[Action] = [Pick(side, i) for i in range(len(p.card_hp))]
    for key in BOOST_KEYS:
        if key == SWITCH:
            candidates.extend(Boost(side, key, i) for i in range(len(p.card_hp)))
        else:
            candidates.append(Boost(side, key))
    candidates.append(Commit(side))
    if surrender:
        candidates.append(Surrender(side))
    return [a for a in candidates if _violation(state, a) is None]


# ---------------------------------------------------------------------------
# Applying actions


def apply(state: MatchState, action: Action) -> tuple[MatchState, tuple[Event, ...]]:
    """Apply one action: the new state and the events it caused, in order.

    Raises IllegalActionError (the state is a frozen value, so it is unchanged).
    """
    problem = _violation(state, action)
    if problem is not None:
        raise IllegalActionError(problem[0], **problem[1])
    kind = type(action)
    side = action.side
    p = state.players[side]
    n = state.actions + 1
    if kind is Commit:
        other = state.players[1 - side]
        if not other.committed:
            players = _set(state.players, side, _player(p, committed=True))
            return _state(state, players, n), (Event("commit", {"side": SIDES[side]}),)
        w = _Work(state)
        w.events.append(Event("commit", {"side": SIDES[side]}))
        w.play_round()
        return w.freeze(n), tuple(w.events)
    if kind is Pick:
        card = action.card
        players = _set(state.players, side, _player(p, pick=card))
        name = state.decks[side][card].name
        ev = Event("prepare.pick", {"side": SIDES[side], "card": card, "name": name})
        return _state(state, players, n), (ev,)
    if kind is Surrender:
        winner = 1 - side
        new = MatchState(
            state.decks,
            state.players,
            state.seed,
            state.round,
            state.initiative,
            n,
            True,
            winner,
            "surrender",
        )
        return new, (
            Event("surrender", {"side": SIDES[side]}),
            _end_event(
                SIDES[winner],
                "surrender",
                state.round,
                state.players[A].hero_hp,
                state.players[B].hero_hp,
            ),
        )
    return _boost(state, action, p, n)


def _player(
    p: PlayerState,
    *,
    hero_hp: int | None = None,
    nrg: int | None = None,
    card_def: tuple[int, ...] | None = None,
    field: Any = False,
    pick: Any = False,
    boosts_used: frozenset[str] | None = None,
    boosts_round: int | None = None,
    rage: int | None = None,
    committed: bool | None = None,
) -> PlayerState:
    """``p`` with some fields changed (a lean ``dataclasses.replace``)."""
    return _PlayerState(
        p.hero_hp if hero_hp is None else hero_hp,
        p.hero_start,
        p.nrg if nrg is None else nrg,
        p.card_hp,
        p.card_def if card_def is None else card_def,
        p.deployed,
        p.field if field is False else field,
        p.pick if pick is False else pick,
        p.boosts_used if boosts_used is None else boosts_used,
        p.boosts_round if boosts_round is None else boosts_round,
        p.rage if rage is None else rage,
        p.committed if committed is None else committed,
    )


def _set(players: tuple[PlayerState, PlayerState], side: int, p: PlayerState) -> Any:
    return (p, players[B]) if side == A else (players[A], p)


def _state(state: MatchState, players: Any, actions: int) -> MatchState:
    return _MatchState(
        state.decks, players, state.seed, state.round, state.initiative, actions, False, None, None
    )


def _boost(
    state: MatchState, action: Boost, p: PlayerState, n: int
) -> tuple[MatchState, tuple[Event, ...]]:
    key = action.boost
    side = action.side
    s = SIDES[side]
    amount = _BOOST[key].amount
    used = p.boosts_used | {key}
    count = p.boosts_round + 1
    if key == CHARGE:
        nrg = min(NRG_CAP, p.nrg + amount)
        new = _player(p, nrg=nrg, boosts_used=used, boosts_round=count)
        ev = Event("boost.charge", {"side": s, "amount": nrg - p.nrg, "nrg": nrg})
    elif key == HERO_PATCH:
        hp = min(MAX_HERO_HP_CEILING, p.hero_hp + amount)
        new = _player(p, hero_hp=hp, boosts_used=used, boosts_round=count)
        ev = Event("boost.hero_patch", {"side": s, "amount": hp - p.hero_hp, "hp": hp})
    elif key == RAGE:
        new = _player(p, rage=p.rage + amount, boosts_used=used, boosts_round=count)
        ev = Event("boost.rage", {"side": s, "amount": amount})
    elif key == GUARD_UP:
        card = p.field.card if p.field is not None else p.pick
        assert card is not None
        defs = list(p.card_def)
        defs[card] += amount
        new = _player(p, card_def=tuple(defs), boosts_used=used, boosts_round=count)
        name = state.decks[side][card].name
        ev = Event(
            "boost.guard_up",
            {"side": s, "card": card, "name": name, "amount": amount, "def": defs[card]},
        )
    else:  # Switch: the active card goes back to the deck, keeping its damage.
        assert p.field is not None and action.card is not None
        old = p.field.card
        new = _player(p, field=None, pick=action.card, boosts_used=used, boosts_round=count)
        deck = state.decks[side]
        ev = Event(
            "boost.switch",
            {
                "side": s,
                "card": old,
                "name": deck[old].name,
                "to": action.card,
                "to_name": deck[action.card].name,
                "hp": p.card_hp[old],
                "def": p.card_def[old],
            },
        )
    return _state(state, _set(state.players, side, new), n), (ev,)


def _end_event(result: str, reason: str, round_: int, hp_a: int, hp_b: int) -> Event:
    return Event(
        "match.end",
        {"result": result, "reason": reason, "round": round_, "hp_a": hp_a, "hp_b": hp_b},
    )


def replay(
    deck_a: Sequence[MatchCard],
    deck_b: Sequence[MatchCard],
    seed: int,
    actions: Iterable[Action],
) -> tuple[MatchState, tuple[Event, ...]]:
    """Rebuild a match from its decks, seed and actions: the final state and the whole log."""
    state = new_match(deck_a, deck_b, seed)
    log = list(opening_events(state))
    for action in actions:
        state, events = apply(state, action)
        log.extend(events)
    return state, tuple(log)


# ---------------------------------------------------------------------------
# The Commit, Resolve and Advance beats, on a mutable working copy


class _Side:
    """A mutable copy of one PlayerState while a round resolves."""

    __slots__ = (
        "atk",
        "card",
        "deck",
        "deficit",
        "defs",
        "deployed",
        "dp",
        "field",
        "hero",
        "hp",
        "lb",
        "nrg",
        "pass_kind",
        "passive",
        "pick",
        "rage",
        "skill",
        "src",
        "start",
    )

    def __init__(self, p: PlayerState, deck: tuple[MatchCard, ...]) -> None:
        self.src = p
        self.deck = deck
        self.hero = p.hero_hp
        self.start = p.hero_start
        self.nrg = p.nrg
        self.hp = list(p.card_hp)
        self.defs = list(p.card_def)
        self.deployed = p.deployed
        self.pick = p.pick
        self.rage = p.rage
        dep = p.field
        self.field = dep is not None
        if dep is not None:
            self.card = dep.card
            self.atk = dep.atk
            self.passive = dep.passive
            self.lb = dep.last_breath
            self.skill = dep.skill
            self.deficit = dep.deficit
            passive = deck[dep.card].passive
            self.pass_kind = passive.kind if passive is not None else None
        else:
            self.card = -1
            self.atk = self.passive = self.lb = self.deficit = 0
            self.skill = None
            self.pass_kind = None
        self.dp = None  # the Deploy value of a card that entered this round

    def deployment(self) -> Deployment | None:
        if not self.field:
            return None
        return _Deployment(self.card, self.atk, self.passive, self.lb, self.skill, self.deficit)


class _Work:
    """A round being resolved: two mutable sides and the event list."""

    __slots__ = ("events", "ini", "over", "reason", "round", "sides", "state", "winner")

    def __init__(self, state: MatchState) -> None:
        self.state = state
        self.sides = (
            _Side(state.players[A], state.decks[A]),
            _Side(state.players[B], state.decks[B]),
        )
        self.events: list[Event] = []
        self.ini = state.initiative
        self.round = state.round
        self.over = False
        self.winner: int | None = None
        self.reason: str | None = None

    def freeze(self, actions: int) -> MatchState:
        state = self.state
        players = []
        for side in (A, B):
            w = self.sides[side]
            src = w.src
            players.append(
                _PlayerState(
                    w.hero,
                    w.start,
                    w.nrg,
                    tuple(w.hp),
                    tuple(w.defs),
                    w.deployed,
                    w.deployment(),
                    None,
                    src.boosts_used,
                    src.boosts_round if self.over else 0,
                    w.rage if self.over else 0,
                    False,
                )
            )
        return _MatchState(
            state.decks,
            (players[A], players[B]),
            state.seed,
            self.round,
            self.ini,
            actions,
            self.over,
            self.winner,
            self.reason,
        )

    # -- the round --------------------------------------------------------

    def play_round(self) -> None:
        order = (self.ini, 1 - self.ini)
        # 2 Commit: newly picked cards enter and pay; then Deploy fires, initiative first.
        entered = [side for side in order if self._enter(side)]
        for side in entered:
            self._deploy_effect(side)
        if self._check_end():
            return
        # 3 Resolve.
        self._resolve(order)
        if self._check_end():
            return
        # 4 Advance: burn, initiative order; then +1 NRG each.
        for side in order:
            w = self.sides[side]
            if w.field and w.pass_kind is EffectKind.BURN:
                self._hero_damage(side, "effect.burn", EffectSlot.PASSIVE, w.passive)
        if self._check_end():
            return
        self.events.append(Event("round.end", {"round": self.round}))
        a_cards = max(self.sides[A].hp) > 0
        b_cards = max(self.sides[B].hp) > 0
        if self.round >= ROUND_LIMIT or not (a_cards or b_cards):
            # The round cap, or both decks spent (nothing can happen any more):
            # the higher Hero HP wins, equal HP is a draw.
            a, b = self.sides[A].hero, self.sides[B].hero
            reason = "decks_exhausted" if not (a_cards or b_cards) else "round_limit"
            self._finish(A if a > b else B if b > a else None, reason)
            return
        for side in (A, B):
            w = self.sides[side]
            gain = min(NRG_CAP, w.nrg + NRG_PER_ROUND) - w.nrg
            w.nrg += gain
            self.events.append(
                Event("nrg.gain", {"side": SIDES[side], "amount": gain, "nrg": w.nrg})
            )
        self.round += 1
        self.ini, reason = _initiative(self.sides[A].hero, self.sides[B].hero, self.round)
        for w in self.sides:
            w.pick = None
        a, b = self.sides[A].hero, self.sides[B].hero
        self.events.append(_round_start_event(self.round, self.ini, reason, a, b))

    def _finish(self, winner: int | None, reason: str) -> None:
        self.over = True
        self.winner = winner
        self.reason = reason
        result = "draw" if winner is None else SIDES[winner]
        a, b = self.sides[A].hero, self.sides[B].hero
        self.events.append(_end_event(result, reason, self.round, a, b))

    def _check_end(self) -> bool:
        a_down = self.sides[A].hero <= 0
        b_down = self.sides[B].hero <= 0
        if not (a_down or b_down):
            return False
        if a_down and b_down:
            self._finish(None, "both_defeated")
        else:
            self._finish(B if a_down else A, "hero_defeated")
        return True

    def _enter(self, side: int) -> bool:
        """The picked card enters the field and pays its cost (Undercharged when short)."""
        w = self.sides[side]
        i = w.pick
        if i is None or w.field:
            return False
        card = w.deck[i]
        paid = min(card.cost, w.nrg)
        deficit = card.cost - paid
        w.nrg -= paid
        first = not w.deployed[i]
        if first:
            deployed = list(w.deployed)
            deployed[i] = True
            w.deployed = tuple(deployed)
        w.field = True
        w.card = i
        w.deficit = deficit
        deploy, passive, last_breath = card.deploy, card.passive, card.last_breath
        w.pass_kind = passive.kind if passive else None
        tier = None
        if deficit:
            # Undercharged: engine.stats has the one formula (ATK and current DEF cut,
            # numeric effects weakened); the active skill is off.
            tier = undercharge_tier(deficit)
            stats = Stats(card.atk, card.hp, w.defs[i], 0)
            row = apply_undercharge(stats, card.effects, paid, card.cost)
            values = dict(row.effects)
            w.atk = row.atk
            w.defs[i] = row.def_
            w.skill = None
            w.dp = values.get(EffectSlot.DEPLOY)
            w.passive = values.get(EffectSlot.PASSIVE, 0)
            w.lb = values.get(EffectSlot.LAST_BREATH, 0)
            arcane = 0
        else:
            w.skill = skill = card.skill
            arcane = ARCANE_EFFECT_BONUS if (skill is Skill.ARCANE and first) else 0
            w.atk = card.atk
            w.dp = deploy.value + arcane if deploy else None
            w.passive = passive.value + arcane if passive else 0
            w.lb = last_breath.value if last_breath else 0
        s = SIDES[side]
        ev = self.events
        ev.append(
            Event(
                "deploy",
                {
                    "side": s,
                    "card": i,
                    "name": card.name,
                    "cost": card.cost,
                    "paid": paid,
                    "nrg": w.nrg,
                    "atk": w.atk,
                    "hp": w.hp[i],
                    "def": w.defs[i],
                },
            )
        )
        if tier is not None:
            ev.append(
                Event(
                    "deploy.undercharged",
                    {
                        "side": s,
                        "card": i,
                        "name": card.name,
                        "deficit": deficit,
                        "cut_percent": tier.stat_cut_percent,
                        "effect_minus": 0 if tier.halve_effects else tier.effect_minus,
                        "halved": tier.halve_effects,
                        "atk": w.atk,
                        "def": w.defs[i],
                    },
                )
            )
        if arcane:
            ev.append(
                Event("arcane.bonus", {"side": s, "card": i, "name": card.name, "bonus": arcane})
            )
        return True

    def _deploy_effect(self, side: int) -> None:
        w = self.sides[side]
        value = w.dp
        w.dp = None
        if value is None:
            return
        if not w.field:  # destroyed by an earlier Deploy before its own could fire
            card = w.deck[w.pick]  # type: ignore[index]
            self.events.append(
                Event("deploy.lost", {"side": SIDES[side], "card": w.pick, "name": card.name})
            )
            return
        effect = w.deck[w.card].deploy
        assert effect is not None
        self._effect(side, w.card, EffectSlot.DEPLOY, effect.kind, value)

    def _effect(self, side: int, i: int, slot: EffectSlot, kind: EffectKind, value: int) -> None:
        """Fire one Deploy or Last Breath effect of card ``i`` of ``side``."""
        w = self.sides[side]
        name = w.deck[i].name
        s = SIDES[side]
        if kind is EffectKind.DAMAGE_CARD:
            enemy = self.sides[1 - side]
            if not enemy.field:
                self.events.append(
                    Event(
                        "effect.no_target",
                        {
                            "side": s,
                            "card": i,
                            "name": name,
                            "slot": slot.value,
                            "kind": kind.value,
                        },
                    )
                )
                return
            t = enemy.card
            to_def, to_hp = _hit(enemy, t, value, pierce=False)
            self.events.append(
                Event(
                    "effect.damage_card",
                    {
                        "side": s,
                        "card": i,
                        "name": name,
                        "slot": slot.value,
                        "target": SIDES[1 - side],
                        "target_card": t,
                        "target_name": enemy.deck[t].name,
                        "amount": value,
                        "to_def": to_def,
                        "to_hp": to_hp,
                        "def": enemy.defs[t],
                        "hp": enemy.hp[t],
                    },
                )
            )
            if enemy.hp[t] <= 0:
                self._die(1 - side)
        elif kind is EffectKind.DAMAGE_HERO:
            self._hero_damage(side, "effect.damage_hero", slot, value, card=i)
        elif kind is EffectKind.HEAL_HERO:
            healed = _heal(w, value)
            self.events.append(
                Event(
                    "effect.heal_hero",
                    {
                        "side": s,
                        "card": i,
                        "name": name,
                        "slot": slot.value,
                        "amount": healed,
                        "hp": w.hero,
                    },
                )
            )
        elif kind is EffectKind.SHIELD:
            w.defs[i] += value
            self.events.append(
                Event(
                    "effect.shield",
                    {
                        "side": s,
                        "card": i,
                        "name": name,
                        "slot": slot.value,
                        "amount": value,
                        "def": w.defs[i],
                    },
                )
            )
        elif kind is EffectKind.BUFF_ATK:
            w.atk += value
            self.events.append(
                Event(
                    "effect.buff_atk",
                    {
                        "side": s,
                        "card": i,
                        "name": name,
                        "slot": slot.value,
                        "amount": value,
                        "atk": w.atk,
                    },
                )
            )

    def _hero_damage(
        self, side: int, code: str, slot: EffectSlot, value: int, card: int | None = None
    ) -> None:
        w = self.sides[side]
        enemy = self.sides[1 - side]
        i = w.card if card is None else card
        enemy.hero = max(0, enemy.hero - value)
        self.events.append(
            Event(
                code,
                {
                    "side": SIDES[side],
                    "card": i,
                    "name": w.deck[i].name,
                    "slot": slot.value,
                    "target": SIDES[1 - side],
                    "amount": value,
                    "hp": enemy.hero,
                },
            )
        )

    def _die(self, side: int) -> None:
        """Side's active card is at 0 HP: it leaves the field, then its Last Breath fires."""
        w = self.sides[side]
        i = w.card
        card = w.deck[i]
        w.field = False
        w.card = -1
        w.pass_kind = None
        self.events.append(Event("card.dies", {"side": SIDES[side], "card": i, "name": card.name}))
        if card.last_breath is not None:
            self._effect(side, i, EffectSlot.LAST_BREATH, card.last_breath.kind, w.lb)

    def _strike_atk(self, side: int) -> tuple[int, int]:
        """(ATK this strike, the Wounded Rage part of it)."""
        w = self.sides[side]
        wounded = (
            w.passive
            if w.pass_kind is EffectKind.WOUNDED_RAGE and w.hero <= WOUNDED_RAGE_THRESHOLD
            else 0
        )
        return w.atk + w.rage + wounded, wounded

    def _strike(self, side: int, atk: int, wounded: int, first: bool) -> None:
        """Side's active card strikes with ``atk``: the enemy card, or the enemy Hero."""
        w = self.sides[side]
        enemy = self.sides[1 - side]
        i = w.card
        s = SIDES[side]
        if enemy.field:
            t = enemy.card
            pierce = w.skill is Skill.PIERCE
            to_def, to_hp = _hit(enemy, t, atk, pierce)
            dealt = to_def + to_hp
            self.events.append(
                Event(
                    "strike.card",
                    {
                        "side": s,
                        "card": i,
                        "name": w.deck[i].name,
                        "atk": atk,
                        "rage": w.rage,
                        "wounded_rage": wounded,
                        "first_strike": first,
                        "pierce": pierce,
                        "target": SIDES[1 - side],
                        "target_card": t,
                        "target_name": enemy.deck[t].name,
                        "to_def": to_def,
                        "to_hp": to_hp,
                        "def": enemy.defs[t],
                        "hp": enemy.hp[t],
                    },
                )
            )
        else:
            dealt = min(atk, enemy.hero)
            enemy.hero -= dealt
            self.events.append(
                Event(
                    "strike.hero",
                    {
                        "side": s,
                        "card": i,
                        "name": w.deck[i].name,
                        "atk": atk,
                        "rage": w.rage,
                        "wounded_rage": wounded,
                        "first_strike": first,
                        "target": SIDES[1 - side],
                        "hp": enemy.hero,
                    },
                )
            )
        if dealt > 0 and w.skill is Skill.STEAL:
            healed = _heal(w, STEAL_HERO_HEAL)
            self.events.append(
                Event(
                    "steal.heal",
                    {"side": s, "card": i, "name": w.deck[i].name, "amount": healed, "hp": w.hero},
                )
            )

    def _resolve(self, order: tuple[int, int]) -> None:
        a, b = self.sides
        if not a.field and not b.field:
            return
        if not (a.field and b.field):  # one card, an open Hero
            side = A if a.field else B
            atk, wounded = self._strike_atk(side)
            self._strike(side, atk, wounded, False)
            return
        speed_a = a.skill is Skill.SPEED
        speed_b = b.skill is Skill.SPEED
        if speed_a != speed_b or speed_a:
            first = (A if speed_a else B) if speed_a != speed_b else order[0]
            mode = "first_strike" if speed_a != speed_b else "speed_initiative"
            self.events.append(Event("strike.order", {"mode": mode, "first": SIDES[first]}))
            second = 1 - first
            atk, wounded = self._strike_atk(first)
            self._strike(first, atk, wounded, True)
            target = self.sides[second]
            if target.field and target.hp[target.card] <= 0:
                i = target.card
                self._die(second)
                self.events.append(
                    Event(
                        "strike.prevented",
                        {"side": SIDES[second], "card": i, "name": target.deck[i].name},
                    )
                )
                return
            atk, wounded = self._strike_atk(second)
            self._strike(second, atk, wounded, False)
            striker = self.sides[first]
            if striker.field and striker.hp[striker.card] <= 0:
                self._die(first)
            return
        # Neither has Speed: simultaneous, with the values at the start of the step.
        self.events.append(Event("strike.order", {"mode": "simultaneous", "first": None}))
        atk_a, wounded_a = self._strike_atk(A)
        atk_b, wounded_b = self._strike_atk(B)
        for side, atk, wounded in ((A, atk_a, wounded_a), (B, atk_b, wounded_b)):
            self._strike(side, atk, wounded, False)
        dead = [side for side in order if self.sides[side].hp[self.sides[side].card] <= 0]
        # Both leave the field first, then the Last Breaths fire in initiative order.
        dying = []
        for side in dead:
            w = self.sides[side]
            i = w.card
            w.field = False
            w.card = -1
            w.pass_kind = None
            self.events.append(
                Event("card.dies", {"side": SIDES[side], "card": i, "name": w.deck[i].name})
            )
            dying.append((side, i))
        for side, i in dying:
            lb = self.sides[side].deck[i].last_breath
            if lb is not None:
                self._effect(side, i, EffectSlot.LAST_BREATH, lb.kind, self.sides[side].lb)


def _hit(target: _Side, i: int, amount: int, pierce: bool) -> tuple[int, int]:
    """Card damage: DEF first (a shield that is used up), the rest to HP; Pierce skips DEF."""
    to_def = 0 if pierce else min(target.defs[i], amount)
    target.defs[i] -= to_def
    to_hp = min(target.hp[i], amount - to_def)
    target.hp[i] -= to_hp
    return to_def, to_hp


def _heal(w: _Side, amount: int) -> int:
    """Heal a Hero up to the 90 ceiling; a fallen Hero (0 HP) stays down. Returns the gain."""
    if w.hero <= 0:
        return 0
    new = min(MAX_HERO_HP_CEILING, w.hero + amount)
    gained = new - w.hero
    w.hero = new
    return gained
