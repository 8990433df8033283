"""The paw-game match (docs/rules.md §6): frozen states, frozen actions, ordered events.

A match is a value. ``new_match`` builds the opening state from two decks;
``apply(state, action)`` returns ``(new_state, events)`` or raises
``IllegalActionError`` and leaves ``state`` as it was (states are frozen, so
nothing can change it). The rules use no randomness at all: the seed is
carried in the state for the bots (``engine.match.bots``) and for the record, so a
match is reproducible from its decks, its seed and its actions: ``replay``
rebuilds one (its final state, its log cut round by round, and the state after
each round), and a ``Recorder`` records one while it is played.

A round is played in four beats. During **Prepare** both players act in any
order: ``Pick`` a card (when they have none on the field), use up to two
``Boost`` s, then ``Commit``. The second ``Commit`` runs the other three beats
(**Commit**: cards enter and NRG is paid, Deploy effects fire; **Resolve**:
the cards trade blows; **Advance**: burn, +1 NRG) and opens the next round.

Sides are ``Side.A = 0`` and ``Side.B = 1`` (``engine.types.Side``); events and JSON name
them ``"a"`` and ``"b"``. Every event and every refusal carries the numbers it is about
(amounts, caps, the round limit, the Wounded Rage threshold), so the site words them
without knowing a rule number. The JSON forms of cards, actions and events are in
``engine.serialize``.

Where docs/rules.md §6 is silent, this engine decides (the wiki page should say so):

- Initiative is fixed when a round starts (lower Hero HP; a tie gives it to A on odd
  rounds and to B on even ones). It orders the Deploy effects, simultaneous Last
  Breaths and burn, and breaks a Speed tie.
- A player without a card on the field must pick one when any is left (Commit is
  refused otherwise); with none left they commit with an empty field.
- Boosts: Charge at 4 NRG and Hero Patch at 90 Hero HP are refused (they would do
  nothing). Rage and Guard Up need a card on the field or a picked one, and act on that
  card: Guard Up's DEF stays on it, Rage's +2 ATK is for its strikes this round only.
  A buff on a card ends when it leaves the field (docs/rules.md §6, settled): Rage does not
  pass to the card Switch brings in (``boost.switch`` carries the Rage that ended), and
  a Rage given to a picked card stays with that card if the pick changes (the new pick
  enters without it). Switch needs a card on the field and names the card that comes
  in; that card is deployed at Commit and pays its cost. A card keeps its HP and DEF
  when it leaves the field; its Deploy buffs and undercharge last only for that stay.
- Undercharge cuts ATK and the card's *current* DEF; numeric effects (Deploy, Passive,
  Last Breath) are weakened for that stay (``engine.card.stats.apply_undercharge``). Arcane
  applies only to the card's very first deployment, and an undercharged first
  deployment uses that chance up (the skill is off).
- Deploy effects fire after both cards have entered; a card destroyed by an earlier
  Deploy loses its own Deploy (its Last Breath still fires).
- Pierce and Steal are combat skills: they act on strikes only. A strike that lands
  any damage (DEF included, or the Hero) triggers Steal.
- The end is checked after each beat (Commit, Resolve, Advance): both Heroes at 0 after
  the same beat is a draw; a Hero at 0 cannot be healed. After round 200 the higher
  Hero HP wins and equal HP is a draw.
- Neither side with a card left is checked when a round ends (after its burn, before
  the NRG gain). Each side's unused Hero Patch is then counted: it is used there and
  then (+3 Hero HP, never above 90; one at 90 adds nothing and is not shown), one
  ``hero_patch.counted`` event each, A first; then the higher Hero HP wins, equal HP
  is a draw. The final state and the ``match.end`` event show the counted HP. When both
  happen in round 200, the decks being spent is the reason (the patches count).
- A deck is refused (``InvalidDeckError``) for its size first, then for a card given
  twice (two cards with the same id), then for an entry that is not a card.

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
>>> state.players[A].card_hp, state.players[A].card_def, state.players[B].card_hp
((10,), (0,), (4,))
>>> state.round, state.players[A].nrg
(2, 3)
>>> apply(state, Pick(A, 0))
Traceback (most recent call last):
...
engine.errors.IllegalActionError: You already have a card on the field; use Switch to change it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.card.stats import apply_undercharge, undercharge_tier
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
from engine.data import (
    Boost as _BoostSpec,
)
from engine.errors import DECK_ERROR_CODES, ILLEGAL_CODES, IllegalActionError, InvalidDeckError
from engine.types import (
    Beat,
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
    Side,
    Skill,
    Stats,
    fast_init,
)

__all__ = [
    "ACTION_TYPES",
    "BOOST_KEYS",
    "DECK_ERROR_CODES",
    "EVENT_CODES",
    "ILLEGAL_CODES",
    "SIDES",
    "A",
    "Action",
    "B",
    "Boost",
    "CardCurve",
    "CardEffect",
    "Commit",
    "Deployment",
    "EnergyCurve",
    "Event",
    "IllegalActionError",
    "InvalidDeckError",
    "MatchCard",
    "MatchState",
    "Pick",
    "PlayerState",
    "Recorder",
    "Replay",
    "Side",
    "Surrender",
    "apply",
    "beats",
    "energy_curve",
    "hero_start_hp",
    "is_legal",
    "legal_actions",
    "new_match",
    "opening_events",
    "out_of_cards",
    "refusal_of",
    "replay",
    "validate_deck",
    "validate_deck_ids",
]

A = Side.A
B = Side.B
SIDES = ("a", "b")  # how events, JSON and forms name the sides (Side.key)
_OTHER = (B, A)
_BOTH = (A, B)  # iterating a tuple is much cheaper than iterating the enum

# Boost keys, in the order docs/rules.md §6 lists them (the numbers live in engine.data.BOOSTS).
_BOOST: dict[str, _BoostSpec] = {b.key: b for b in BOOSTS}
BOOST_KEYS: tuple[BoostKind, ...] = tuple(b.key for b in BOOSTS)
CHARGE, SWITCH, RAGE, GUARD_UP, HERO_PATCH = BoostKind
assert tuple(BoostKind) == BOOST_KEYS, BOOST_KEYS

# Every event code the engine emits, with its parameters (the site words each one).
# ``side`` is the acting side; ``target`` the side hit. ``cap``, ``threshold`` and
# ``round_limit`` are the rule numbers the event is about.
EVENT_CODES: Mapping[str, tuple[str, ...]] = {
    "hero.start": ("side", "hp", "base", "tanks", "supports", "bonus", "ceiling"),
    "round.start": ("round", "initiative", "reason", "hp_a", "hp_b"),
    "prepare.pick": ("side", "card", "name"),
    "boost.charge": ("side", "amount", "nrg", "cap"),
    "boost.switch": ("side", "card", "name", "to", "to_name", "hp", "def", "rage"),
    "boost.rage": ("side", "card", "name", "amount"),
    "boost.guard_up": ("side", "card", "name", "amount", "def"),
    "boost.hero_patch": ("side", "amount", "hp", "cap"),
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
        "side", "card", "name", "atk", "rage", "wounded_rage", "threshold", "first_strike",
        "pierce", "target", "target_card", "target_name", "to_def", "to_hp", "def", "hp",
    ),
    "strike.hero": (
        "side", "card", "name", "atk", "rage", "wounded_rage", "threshold", "first_strike",
        "target", "hp",
    ),
    "strike.prevented": ("side", "card", "name"),
    "steal.heal": ("side", "card", "name", "amount", "hp"),
    "card.dies": ("side", "card", "name"),
    "nrg.gain": ("side", "amount", "nrg", "cap"),
    "round.end": ("round",),
    "hero_patch.counted": ("side", "amount", "hp", "cap"),
    "surrender": ("side",),
    "match.end": ("result", "reason", "round", "round_limit", "hp_a", "hp_b"),
}  # fmt: skip

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


# ---------------------------------------------------------------------------
# State


@fast_init
@dataclass(frozen=True, slots=True)
class Deployment:
    """A card on the field: which deck card, and its values for this deployment.

    ``atk`` is its ATK after the undercharge cut and Deploy buffs;
    ``passive`` and ``last_breath`` are its effect values for this stay on
    the field (undercharge and Arcane included); ``skill`` is None while
    undercharged; ``deficit`` is the NRG it entered short of its cost.
    """

    make: ClassVar[Callable[..., Deployment]]  # keyword-only factory, set by fast_init

    card: int
    atk: int
    passive: int
    last_breath: int
    skill: Skill | None
    deficit: int


@fast_init
@dataclass(frozen=True, slots=True)
class PlayerState:
    """One side: Hero, NRG, its cards' HP and DEF (by deck index) and this round's plan.

    ``deployed[i]`` says whether card ``i`` has entered the field before (Arcane);
    a card with ``card_hp[i] == 0`` is defeated. ``field`` is the active card;
    ``pick`` the card chosen to deploy at Commit. ``rage`` is this round's Rage and
    ``rage_card`` the deck card it was used on: it adds to that card's strikes only.
    """

    make: ClassVar[Callable[..., PlayerState]]  # keyword-only factory, set by fast_init

    hero_hp: int
    hero_start: int
    nrg: int
    card_hp: tuple[int, ...]
    card_def: tuple[int, ...]
    deployed: tuple[bool, ...]
    field: Deployment | None = None
    pick: int | None = None
    boosts_used: frozenset[BoostKind] = frozenset()
    boosts_round: int = 0
    rage: int = 0
    committed: bool = False
    rage_card: int | None = None

    def rage_of(self, card: int) -> int:
        """The Rage ATK card ``card`` strikes with this round (0 unless it was used on it)."""
        return self.rage if self.rage_card == card else 0

    @property
    def alive(self) -> tuple[int, ...]:
        """Deck indexes of the cards still in play."""
        return tuple(i for i, hp in enumerate(self.card_hp) if hp > 0)


@fast_init
@dataclass(frozen=True, slots=True)
class MatchState:
    """The whole match. ``winner`` is A, B or None (a draw, once ``over``).

    ``actions`` counts the actions applied so far (the demo's forms carry it
    to refuse stale submits); ``initiative`` is this round's holder.
    """

    make: ClassVar[Callable[..., MatchState]]  # keyword-only factory, set by fast_init

    decks: tuple[tuple[MatchCard, ...], tuple[MatchCard, ...]]
    players: tuple[PlayerState, PlayerState]
    seed: int = 0
    round: int = 1
    initiative: Side = A
    actions: int = 0
    over: bool = False
    winner: Side | None = None
    end_reason: EndReason | None = None

    @property
    def result(self) -> str | None:
        """``"a"``, ``"b"``, ``"draw"``, or None while the match runs."""
        if not self.over:
            return None
        return "draw" if self.winner is None else SIDES[self.winner]

    def current_atk(self, side: int) -> int:
        """ATK the side's active card would strike with now (0 without a card)."""
        p = self.players[side]
        dep = p.field
        if dep is None:
            return 0
        atk = dep.atk + p.rage_of(dep.card)
        passive = self.decks[side][dep.card].passive
        if (
            passive is not None
            and passive.kind is EffectKind.WOUNDED_RAGE
            and p.hero_hp <= WOUNDED_RAGE_THRESHOLD
        ):
            atk += dep.passive
        return atk


# ---------------------------------------------------------------------------
# Actions and events


@dataclass(frozen=True, slots=True)
class Pick:
    """Choose deck card ``card`` to deploy at Commit (free to change until then)."""

    side: Side
    card: int


@dataclass(frozen=True, slots=True)
class Boost:
    """Use a boost now. ``card`` is the card Switch brings in (other boosts: None)."""

    side: Side
    boost: BoostKind
    card: int | None = None


@dataclass(frozen=True, slots=True)
class Commit:
    """Lock this round's plan."""

    side: Side


@dataclass(frozen=True, slots=True)
class Surrender:
    """Give up: the other side wins."""

    side: Side


Action = Pick | Boost | Commit | Surrender
ACTION_TYPES = {"pick": Pick, "boost": Boost, "commit": Commit, "surrender": Surrender}
_ACTION_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


@fast_init
@dataclass(frozen=True, slots=True)
class Event:
    """One state change: a stable ``code`` (see ``EVENT_CODES``) and JSON-ready ``params``."""

    code: str
    params: Mapping[str, Any]


# ---------------------------------------------------------------------------
# Starting a match


def new_match(
    deck_a: Sequence[MatchCard], deck_b: Sequence[MatchCard], seed: int = 0
) -> MatchState:
    """The opening state: both Heroes at their starting HP, 3 NRG each, round 1.

    Raises InvalidDeckError naming the side (``params["side"]``) when a deck is bad.
    """
    decks = []
    for side, deck in zip(Side, (deck_a, deck_b), strict=True):
        try:
            decks.append(validate_deck(deck))
        except InvalidDeckError as exc:
            exc.params["side"] = side.key
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
    return MatchState(
        decks=(decks[A], decks[B]),
        players=(players[A], players[B]),
        seed=seed,
        initiative=ini,
    )


def _initiative(hp_a: int, hp_b: int, round_: int) -> tuple[Side, str]:
    """Initiative holder: the lower Hero HP; a tie alternates, A holding odd rounds."""
    if hp_a < hp_b:
        return A, "lower_hp"
    if hp_b < hp_a:
        return B, "lower_hp"
    return (A if round_ % 2 == 1 else B), "tie"


def opening_events(state: MatchState) -> tuple[Event, ...]:
    """The events that open a match log: each Hero's starting HP, then round 1."""
    events = []
    for side in Side:
        deck = state.decks[side]
        tanks = sum(c.role is Role.TANK for c in deck)
        supports = sum(c.role is Role.SUPPORT for c in deck)
        base_bonus = sum(HERO_HP_BONUS_PER_ROLE.get(c.role, 0) for c in deck)
        events.append(
            Event(
                "hero.start",
                {
                    "side": side.key,
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


def _end_event(result: str, reason: EndReason, round_: int, hp_a: int, hp_b: int) -> Event:
    return Event(
        "match.end",
        {
            "result": result,
            "reason": reason,
            "round": round_,
            "round_limit": ROUND_LIMIT,
            "hp_a": hp_a,
            "hp_b": hp_b,
        },
    )


# ---------------------------------------------------------------------------
# Legality


def _violation(state: MatchState, action: Any) -> tuple[str, dict[str, Any]] | None:
    """Why ``action`` is illegal in ``state`` (code, params), or None when it is legal."""
    kind = type(action)
    if kind not in _ACTION_NAMES:
        return "bad_action", {}
    side = action.side
    if side.__class__ not in (Side, int) or side not in (A, B):
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
    if boost.__class__ not in (BoostKind, str) or boost not in _BOOST:
        return "unknown_boost", {"boost": boost}
    boost = _BOOST[boost].key
    if boost in p.boosts_used:
        return "boost_used", {"boost": boost}
    if p.boosts_round >= BOOSTS_PER_ROUND:
        return "boost_limit", {"limit": BOOSTS_PER_ROUND}
    if boost is CHARGE:
        if p.nrg >= NRG_CAP:
            return "nrg_full", {"cap": NRG_CAP}
    elif boost is HERO_PATCH:
        if p.hero_hp >= MAX_HERO_HP_CEILING:
            return "hero_hp_full", {"cap": MAX_HERO_HP_CEILING}
    elif boost is SWITCH:
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
    if boost is not SWITCH and action.card is not None:
        return "bad_action", {}
    return None


def is_legal(state: MatchState, action: Action) -> bool:
    """Whether ``apply(state, action)`` would succeed."""
    return _violation(state, action) is None


def refusal_of(state: MatchState, action: Action) -> IllegalActionError | None:
    """The error ``apply(state, action)`` would raise, or None when it is legal (a page
    says why a boost cannot be used now without trying it).

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> refusal_of(new_match((pup,), (pup,)), Boost(A, BoostKind.RAGE)).code
    'no_card'
    """
    problem = _violation(state, action)
    return None if problem is None else IllegalActionError(problem[0], **problem[1])


def legal_actions(state: MatchState, side: int, *, surrender: bool = False) -> list[Action]:
    """Every legal action of ``side`` now (Surrender only when asked for).

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> [str(a.boost) if isinstance(a, Boost) else a for a in legal_actions(new_match((pup,), (pup,)), A)]
    [Pick(side=<Side.A: 0>, card=0), 'charge', 'hero_patch']
    """
    if state.over:
        return []
    if state.players[side].committed:  # a surrender is still taken after the commit
        return [Surrender(Side(side))] if surrender else []
    side = Side(side)
    p = state.players[side]
    candidates: list[Action] = [Pick(side, i) for i in range(len(p.card_hp))]
    for key in BOOST_KEYS:
        if key is SWITCH:
            candidates.extend(Boost(side, key, i) for i in range(len(p.card_hp)))
        else:
            candidates.append(Boost(side, key))
    candidates.append(Commit(side))
    if surrender:
        candidates.append(Surrender(side))
    return [a for a in candidates if is_legal(state, a)]


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
    if type(action) is Pick:
        card = action.card
        players = _set(state.players, side, _player(p, pick=card))
        name = state.decks[side][card].name
        ev = Event("prepare.pick", {"side": SIDES[side], "card": card, "name": name})
        return _state(state, players, n), (ev,)
    if kind is Surrender:
        winner = _OTHER[side]
        reason = EndReason.SURRENDER
        new = MatchState(
            decks=state.decks,
            players=state.players,
            seed=state.seed,
            round=state.round,
            initiative=state.initiative,
            actions=n,
            over=True,
            winner=winner,
            end_reason=reason,
        )
        hp_a, hp_b = state.players[A].hero_hp, state.players[B].hero_hp
        return new, (
            Event("surrender", {"side": SIDES[side]}),
            _end_event(SIDES[winner], reason, state.round, hp_a, hp_b),
        )
    assert type(action) is Boost  # every other kind returned above
    return _boost(state, action, p, n)


def _player(
    p: PlayerState,
    *,
    hero_hp: int | None = None,
    nrg: int | None = None,
    card_def: tuple[int, ...] | None = None,
    field: Any = False,
    pick: Any = False,
    boosts_used: frozenset[BoostKind] | None = None,
    boosts_round: int | None = None,
    rage: int | None = None,
    committed: bool | None = None,
    rage_card: Any = False,
) -> PlayerState:
    """``p`` with some fields changed (a lean ``dataclasses.replace``)."""
    return PlayerState.make(
        hero_hp=p.hero_hp if hero_hp is None else hero_hp,
        hero_start=p.hero_start,
        nrg=p.nrg if nrg is None else nrg,
        card_hp=p.card_hp,
        card_def=p.card_def if card_def is None else card_def,
        deployed=p.deployed,
        field=p.field if field is False else field,
        pick=p.pick if pick is False else pick,
        boosts_used=p.boosts_used if boosts_used is None else boosts_used,
        boosts_round=p.boosts_round if boosts_round is None else boosts_round,
        rage=p.rage if rage is None else rage,
        committed=p.committed if committed is None else committed,
        rage_card=p.rage_card if rage_card is False else rage_card,
    )


def _set(players: tuple[PlayerState, PlayerState], side: int, p: PlayerState) -> Any:
    return (p, players[B]) if side == A else (players[A], p)


def _state(state: MatchState, players: Any, actions: int) -> MatchState:
    """The running ``state`` after an action of Prepare: new players and action count."""
    return MatchState.make(
        decks=state.decks,
        players=players,
        seed=state.seed,
        round=state.round,
        initiative=state.initiative,
        actions=actions,
    )


def _boost(
    state: MatchState, action: Boost, p: PlayerState, n: int
) -> tuple[MatchState, tuple[Event, ...]]:
    boost = _BOOST[action.boost]
    key = boost.key
    side = action.side
    s = SIDES[side]
    amount = boost.amount
    used = p.boosts_used | {key}
    count = p.boosts_round + 1
    if key is CHARGE:
        nrg = min(NRG_CAP, p.nrg + amount)
        new = _player(p, nrg=nrg, boosts_used=used, boosts_round=count)
        params = {"side": s, "amount": nrg - p.nrg, "nrg": nrg, "cap": NRG_CAP}
        ev = Event("boost.charge", params)
    elif key is HERO_PATCH:
        hp = min(MAX_HERO_HP_CEILING, p.hero_hp + amount)
        new = _player(p, hero_hp=hp, boosts_used=used, boosts_round=count)
        params = {"side": s, "amount": hp - p.hero_hp, "hp": hp, "cap": MAX_HERO_HP_CEILING}
        ev = Event("boost.hero_patch", params)
    elif key is RAGE:  # on the card on the field, or else the picked one: it is that card's
        card = p.field.card if p.field is not None else p.pick
        assert card is not None
        new = _player(p, rage=amount, rage_card=card, boosts_used=used, boosts_round=count)
        name = state.decks[side][card].name
        ev = Event("boost.rage", {"side": s, "card": card, "name": name, "amount": amount})
    elif key is GUARD_UP:
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
    else:  # Switch: the active card goes back to the deck, keeping its damage; its Rage ends.
        assert p.field is not None and action.card is not None
        old = p.field.card
        rage = p.rage_of(old)
        new = _player(
            p,
            field=None,
            pick=action.card,
            boosts_used=used,
            boosts_round=count,
            rage=p.rage - rage,
            rage_card=None if rage else p.rage_card,
        )
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
                "rage": rage,
            },
        )
    return _state(state, _set(state.players, side, new), n), (ev,)


# ---------------------------------------------------------------------------
# Replays and records


@dataclass(frozen=True, slots=True)
class Replay:
    """A match as a record: its current (or final) state, its actions and its log by step.

    Step 0 is the opening (each Hero's starting HP); step ``r`` ≥ 1 is round ``r``, from
    its ``round.start``. ``rounds[k]`` holds the events of step ``k`` and
    ``snapshots[k]`` the state at the end of it: the state in which round ``k + 1``
    began, or, for the last step, the current state (the final one once the match is
    over). Both have one entry per step. A record made without a log (``Recorder(…,
    log=False)``, the simulator's fast path) has empty ``log``, ``rounds`` and
    ``snapshots``.

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> record = replay((pup,), (pup,), 0, [Pick(A, 0), Commit(A), Pick(B, 0), Commit(B)])
    >>> len(record.rounds), [s.round for s in record.snapshots], record.rounds[1][0].code
    (3, [1, 2, 2], 'round.start')
    """

    state: MatchState
    actions: tuple[Action, ...]
    log: tuple[Event, ...]
    rounds: tuple[tuple[Event, ...], ...]
    snapshots: tuple[MatchState, ...]


class Recorder:
    """A match being played or rebuilt: ``play(action)`` applies it and records it.

    ``state`` is the current state. With ``log=True`` the recorder keeps the event log,
    where each step starts, and a snapshot at the end of each step (see ``Replay``);
    ``record()`` freezes all that into a ``Replay``. ``Recorder.resume(replay)`` goes on
    from a replay (a stored match the player moves in).

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> recorder = Recorder(new_match((pup,), (pup,)))
    >>> [e.code for e in recorder.play(Surrender(B))]
    ['surrender', 'match.end']
    >>> recorder.record().state.result
    'a'
    """

    __slots__ = ("_snapshots", "_starts", "actions", "log", "logging", "state")

    def __init__(self, state: MatchState, *, log: bool = True) -> None:
        self.state = state
        self.actions: list[Action] = []
        self.logging = log
        self.log: list[Event] = list(opening_events(state)) if log else []
        # Where each step after the opening starts in the log (at its round.start), and
        # the state at the end of each finished step (the last step's is ``state``).
        self._starts: list[int] = [len(self.log) - 1] if log else []
        self._snapshots: list[MatchState] = [state] if log else []

    @classmethod
    def resume(cls, record: Replay) -> Recorder:
        """A recorder that goes on from ``record`` (one made with its log)."""
        if not record.rounds:
            raise ValueError("only a record made with its log can be resumed")
        recorder = cls(record.state, log=False)
        recorder.actions = list(record.actions)
        recorder.logging = True
        recorder.log = list(record.log)
        at = 0
        for events in record.rounds[:-1]:
            at += len(events)
            recorder._starts.append(at)
        recorder._snapshots = list(record.snapshots[:-1])
        return recorder

    def play(self, action: Action) -> tuple[Event, ...]:
        """Apply ``action`` to the current state and record it; its events.

        Raises IllegalActionError (nothing is recorded then).
        """
        before = self.state
        self.state, events = apply(before, action)
        self.actions.append(action)
        if self.logging:
            log = self.log
            for event in events:
                if event.code == "round.start":
                    self._starts.append(len(log))
                log.append(event)
            if self.state.round != before.round:
                self._snapshots.append(self.state)
        return events

    def record(self) -> Replay:
        """What has been played so far, frozen."""
        log = tuple(self.log)
        if not self.logging:
            return Replay(self.state, tuple(self.actions), log, (), ())
        bounds = [0, *self._starts, len(log)]
        rounds = tuple(log[bounds[i] : bounds[i + 1]] for i in range(len(bounds) - 1))
        snapshots = (*self._snapshots, self.state)
        return Replay(self.state, tuple(self.actions), log, rounds, snapshots)


def replay(
    deck_a: Sequence[MatchCard],
    deck_b: Sequence[MatchCard],
    seed: int,
    actions: Iterable[Action],
) -> Replay:
    """Rebuild a match from its decks, seed and actions: final state, log by round, snapshots.

    Raises InvalidDeckError for a bad deck and IllegalActionError for an action the
    rules refuse.
    """
    recorder = Recorder(new_match(deck_a, deck_b, seed))
    for action in actions:
        recorder.play(action)
    return recorder.record()


# ---------------------------------------------------------------------------
# Reading a match: its beats, a side with nothing left, a deck's energy curve

# The events that open the Resolve and the Advance beat (the Commit beat opens right
# after the Commit that completes the round; only Advance has burn and round.end).
_RESOLVE_OPENERS = frozenset({"strike.order", "strike.card", "strike.hero"})
_ADVANCE_OPENERS = frozenset({"effect.burn", "round.end"})


def beats(events: Sequence[Event]) -> tuple[tuple[Beat, tuple[Event, ...]], ...]:
    """A step of a log (``Replay.rounds[k]``) cut into its beats, in order; a beat in
    which nothing happened is left out. Step 0 is the opening.

    Prepare runs to the second ``commit`` (the one that plays the round); the Commit beat
    follows up to the first strike; Resolve up to burn or the round's end; Advance is the
    rest (burn, ``round.end``, counted Hero Patches, ``nrg.gain``). A ``match.end``
    stays in the beat after which the end was checked.

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> record = replay((pup,), (pup,), 0, [Pick(A, 0), Commit(A), Pick(B, 0), Commit(B)])
    >>> [(str(beat), len(part)) for beat, part in beats(record.rounds[1])]
    [('prepare', 5), ('commit', 2), ('resolve', 3), ('advance', 3)]
    >>> [str(beat) for beat, _ in beats(record.rounds[0])]
    ['opening']
    """
    if not events:
        return ()
    if events[0].code == "hero.start":
        return ((Beat.OPENING, tuple(events)),)
    out: list[tuple[Beat, list[Event]]] = []
    beat = Beat.PREPARE
    commits = 0
    for event in events:
        code = event.code
        if beat is Beat.PREPARE and commits >= 2:
            beat = Beat.COMMIT
        if beat is Beat.COMMIT and code in _RESOLVE_OPENERS:
            beat = Beat.RESOLVE
        if beat in (Beat.COMMIT, Beat.RESOLVE) and code in _ADVANCE_OPENERS:
            beat = Beat.ADVANCE
        if not out or out[-1][0] is not beat:
            out.append((beat, []))
        out[-1][1].append(event)
        if code == "commit":
            commits += 1
    return tuple((beat, tuple(part)) for beat, part in out)


def out_of_cards(state: MatchState, side: int) -> bool:
    """Whether ``side`` has no card left, on the field or in the deck, in a running match:
    nothing it does can change what the other side's cards do to its Hero (it can only
    commit, and use its Hero Patch), so the rest of the match can be played out at once
    (``engine.match.bots.play_out``).

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> out_of_cards(new_match((pup,), (pup,)), A)
    False
    """
    return not state.over and max(state.players[side].card_hp) <= 0


@dataclass(frozen=True, slots=True)
class CardCurve:
    """One card of a deck against the energy curve: its cost, how many NRG it would be
    short entering in each round shown (0: fully charged), and the first of those rounds
    in which it enters fully charged (None: none of them)."""

    card: int
    cost: int
    deficits: tuple[int, ...]
    ready: int | None


@dataclass(frozen=True, slots=True)
class EnergyCurve:
    """How a deck's NRG costs meet the NRG a match gives (docs/rules.md §6: ``start`` NRG in
    round 1, +``gain`` each round, at most ``cap``), as ``energy_curve`` plays it.

    ``rounds`` are the rounds shown (1, 2, …); ``nrg[r]`` the NRG at the Prepare of
    ``rounds[r]`` when the ``opener`` enters in round 1 (a card must be picked then) and
    nothing else is spent; ``cards`` follow the deck's order (the opener's deficits count
    round 1, every other card's the rounds after it). ``all_short`` says that every card
    costs more than the NRG of round 1: whichever card opens enters Undercharged (unless
    Charge makes up the gap).
    """

    start: int
    gain: int
    cap: int
    rounds: tuple[int, ...]
    nrg: tuple[int, ...]
    opener: int
    opener_paid: int
    cards: tuple[CardCurve, ...]
    all_short: bool


def energy_curve(costs: Sequence[int]) -> EnergyCurve:
    """The energy curve of a deck with these NRG costs (in deck order).

    The cheapest card opens (the first of them on a tie): a card must be picked in round
    1, and it pays what it can of its cost. The rounds shown run until NRG is back at the
    cap after that payment (at least two).

    >>> curve = energy_curve([4, 4, 4, 4])
    >>> curve.all_short, curve.opener, curve.rounds, curve.nrg
    (True, 0, (1, 2, 3, 4, 5), (3, 1, 2, 3, 4))
    >>> curve.cards[0].deficits[0], curve.cards[1].deficits, curve.cards[1].ready
    (1, (0, 3, 2, 1, 0), 5)
    >>> energy_curve([1, 3]).nrg, energy_curve([1, 3]).cards[1].ready
    ((3, 3, 4), 2)
    """
    costs = tuple(costs)
    if not costs:
        raise InvalidDeckError("empty", minimum=DECK_MIN)
    start, gain, cap = GOLD_INITIAL_PLAYER_ENERGY, NRG_PER_ROUND, NRG_CAP
    opener = min(range(len(costs)), key=lambda i: (costs[i], i))
    paid = min(costs[opener], start)
    nrg = [start]
    level = start - paid
    while True:
        level = min(cap, level + gain)
        nrg.append(level)
        if level >= cap or len(nrg) > cap // max(gain, 1) + 2:
            break
    rounds = tuple(range(1, len(nrg) + 1))
    cards = []
    for i, cost in enumerate(costs):
        if i == opener:
            deficits = (max(0, cost - start), *(0,) * (len(nrg) - 1))
            ready = 1 if cost <= start else None
        else:
            deficits = (0, *(max(0, cost - n) for n in nrg[1:]))
            ready = next((r for r, n in zip(rounds[1:], nrg[1:], strict=True) if n >= cost), None)
        cards.append(CardCurve(i, cost, deficits, ready))
    return EnergyCurve(
        start=start,
        gain=gain,
        cap=cap,
        rounds=rounds,
        nrg=tuple(nrg),
        opener=opener,
        opener_paid=paid,
        cards=tuple(cards),
        all_short=all(c > start for c in costs),
    )


# ---------------------------------------------------------------------------
# The Commit, Resolve and Advance beats, on a mutable working copy


class _Side:
    """A mutable copy of one PlayerState while a round resolves (the same field names;
    the active card's ``Deployment`` is spread out: ``on_field``, ``card``, ``atk``,
    ``passive``, ``last_breath``, ``skill``, ``deficit``)."""

    __slots__ = (
        "atk",
        "boosts_round",
        "boosts_used",
        "card",
        "card_def",
        "card_hp",
        "deck",
        "deficit",
        "deploy_value",
        "deployed",
        "hero_hp",
        "hero_start",
        "last_breath",
        "nrg",
        "on_field",
        "pass_kind",
        "passive",
        "pick",
        "rage",
        "rage_card",
        "skill",
    )

    def __init__(self, p: PlayerState, deck: tuple[MatchCard, ...]) -> None:
        self.deck = deck
        self.hero_hp = p.hero_hp
        self.hero_start = p.hero_start
        self.nrg = p.nrg
        self.card_hp = list(p.card_hp)
        self.card_def = list(p.card_def)
        self.deployed = p.deployed
        self.pick: int | None = p.pick
        self.boosts_used = p.boosts_used
        self.boosts_round = p.boosts_round
        self.rage = p.rage
        self.rage_card = p.rage_card
        dep = p.field
        self.on_field = dep is not None
        if dep is not None:
            self.card = dep.card
            self.atk = dep.atk
            self.passive = dep.passive
            self.last_breath = dep.last_breath
            self.skill = dep.skill
            self.deficit = dep.deficit
            passive = deck[dep.card].passive
            self.pass_kind = passive.kind if passive is not None else None
        else:
            self.card = -1
            self.atk = self.passive = self.last_breath = self.deficit = 0
            self.skill = None
            self.pass_kind = None
        self.deploy_value: int | None = None  # the Deploy value of a card entering this round

    def freeze(self, over: bool) -> PlayerState:
        """The side after the round: its plan (pick, boost count, Rage) cleared unless the
        match is over (then it stays as it was when the match ended)."""
        field = (
            Deployment.make(
                card=self.card,
                atk=self.atk,
                passive=self.passive,
                last_breath=self.last_breath,
                skill=self.skill,
                deficit=self.deficit,
            )
            if self.on_field
            else None
        )
        return PlayerState.make(
            hero_hp=self.hero_hp,
            hero_start=self.hero_start,
            nrg=self.nrg,
            card_hp=tuple(self.card_hp),
            card_def=tuple(self.card_def),
            deployed=self.deployed,
            field=field,
            pick=None,
            boosts_used=self.boosts_used,
            boosts_round=self.boosts_round if over else 0,
            rage=self.rage if over else 0,
            committed=False,
            rage_card=self.rage_card if over else None,
        )


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
        self.winner: Side | None = None
        self.reason: EndReason | None = None

    def freeze(self, actions: int) -> MatchState:
        """The state after the round, ``actions`` actions into the match."""
        state = self.state
        over = self.over
        a, b = self.sides
        return MatchState.make(
            decks=state.decks,
            players=(a.freeze(over), b.freeze(over)),
            seed=state.seed,
            round=self.round,
            initiative=self.ini,
            actions=actions,
            over=over,
            winner=self.winner,
            end_reason=self.reason,
        )

    # -- the round --------------------------------------------------------

    def play_round(self) -> None:
        order = (self.ini, _OTHER[self.ini])
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
            if w.on_field and w.pass_kind is EffectKind.BURN:
                self._hero_damage(side, "effect.burn", EffectSlot.PASSIVE, w.passive)
        if self._check_end():
            return
        self.events.append(Event("round.end", {"round": self.round}))
        a_cards = max(self.sides[A].card_hp) > 0
        b_cards = max(self.sides[B].card_hp) > 0
        if not (a_cards or b_cards):
            # Both decks spent: only a Hero Patch could change a Hero's HP, so the unused
            # ones count now; then the higher Hero HP wins, equal HP is a draw.
            for side in _BOTH:
                self._count_hero_patch(side)
            self._finish_on_hero_hp(EndReason.DECKS_EXHAUSTED)
            return
        if self.round >= ROUND_LIMIT:
            self._finish_on_hero_hp(EndReason.ROUND_LIMIT)
            return
        for side in _BOTH:
            w = self.sides[side]
            gain = min(NRG_CAP, w.nrg + NRG_PER_ROUND) - w.nrg
            w.nrg += gain
            self.events.append(
                Event(
                    "nrg.gain", {"side": SIDES[side], "amount": gain, "nrg": w.nrg, "cap": NRG_CAP}
                )
            )
        self.round += 1
        self.ini, reason = _initiative(self.sides[A].hero_hp, self.sides[B].hero_hp, self.round)
        for w in self.sides:
            w.pick = None
        a, b = self.sides[A].hero_hp, self.sides[B].hero_hp
        self.events.append(_round_start_event(self.round, self.ini, reason, a, b))

    def _count_hero_patch(self, side: Side) -> None:
        """Use ``side``'s Hero Patch at the end of a match with no cards left, if unused."""
        w = self.sides[side]
        if HERO_PATCH in w.boosts_used:
            return
        hp = min(MAX_HERO_HP_CEILING, w.hero_hp + _BOOST[HERO_PATCH].amount)
        if hp == w.hero_hp:
            return  # at the ceiling: the patch would add nothing
        amount = hp - w.hero_hp
        w.hero_hp = hp
        w.boosts_used = w.boosts_used | {HERO_PATCH}
        self.events.append(
            Event(
                "hero_patch.counted",
                {"side": side.key, "amount": amount, "hp": hp, "cap": MAX_HERO_HP_CEILING},
            )
        )

    def _finish_on_hero_hp(self, reason: EndReason) -> None:
        a, b = self.sides[A].hero_hp, self.sides[B].hero_hp
        self._finish(A if a > b else B if b > a else None, reason)

    def _finish(self, winner: Side | None, reason: EndReason) -> None:
        self.over = True
        self.winner = winner
        self.reason = reason
        result = "draw" if winner is None else SIDES[winner]
        a, b = self.sides[A].hero_hp, self.sides[B].hero_hp
        self.events.append(_end_event(result, reason, self.round, a, b))

    def _check_end(self) -> bool:
        a_down = self.sides[A].hero_hp <= 0
        b_down = self.sides[B].hero_hp <= 0
        if not (a_down or b_down):
            return False
        if a_down and b_down:
            self._finish(None, EndReason.BOTH_DEFEATED)
        else:
            self._finish(B if a_down else A, EndReason.HERO_DEFEATED)
        return True

    def _enter(self, side: int) -> bool:
        """The picked card enters the field and pays its cost (Undercharged when short)."""
        w = self.sides[side]
        i = w.pick
        if i is None or w.on_field:
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
        w.on_field = True
        w.card = i
        w.deficit = deficit
        deploy, passive, last_breath = card.deploy, card.passive, card.last_breath
        w.pass_kind = passive.kind if passive else None
        tier = None
        if deficit:
            # Undercharged: engine.card.stats has the one formula (ATK and current DEF cut,
            # numeric effects weakened); the active skill is off.
            tier = undercharge_tier(deficit)
            stats = Stats(card.atk, card.hp, w.card_def[i], 0)
            row = apply_undercharge(stats, card.effects, paid, card.cost)
            values = dict(row.effects)
            w.atk = row.atk
            w.card_def[i] = row.def_
            w.skill = None
            w.deploy_value = values.get(EffectSlot.DEPLOY)
            w.passive = values.get(EffectSlot.PASSIVE, 0)
            w.last_breath = values.get(EffectSlot.LAST_BREATH, 0)
            arcane = 0
        else:
            w.skill = skill = card.skill
            arcane = ARCANE_EFFECT_BONUS if (skill is Skill.ARCANE and first) else 0
            w.atk = card.atk
            w.deploy_value = deploy.value + arcane if deploy else None
            w.passive = passive.value + arcane if passive else 0
            w.last_breath = last_breath.value if last_breath else 0
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
                    "hp": w.card_hp[i],
                    "def": w.card_def[i],
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
                        "def": w.card_def[i],
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
        value = w.deploy_value
        w.deploy_value = None
        if value is None:
            return
        if not w.on_field:  # destroyed by an earlier Deploy before its own could fire
            assert w.pick is not None  # it was picked to enter this round
            card = w.deck[w.pick]
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
            if not enemy.on_field:
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
                        "def": enemy.card_def[t],
                        "hp": enemy.card_hp[t],
                    },
                )
            )
            if enemy.card_hp[t] <= 0:
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
                        "hp": w.hero_hp,
                    },
                )
            )
        elif kind is EffectKind.SHIELD:
            w.card_def[i] += value
            self.events.append(
                Event(
                    "effect.shield",
                    {
                        "side": s,
                        "card": i,
                        "name": name,
                        "slot": slot.value,
                        "amount": value,
                        "def": w.card_def[i],
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
        enemy.hero_hp = max(0, enemy.hero_hp - value)
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
                    "hp": enemy.hero_hp,
                },
            )
        )

    def _die(self, side: int) -> None:
        """Side's active card is at 0 HP: it leaves the field, then its Last Breath fires."""
        i = self._leave(side)
        if self.sides[side].deck[i].last_breath is not None:
            self._last_breath(side, i)

    def _leave(self, side: int) -> int:
        """Side's active card, defeated, leaves the field (``card.dies``); its deck index."""
        w = self.sides[side]
        i = w.card
        w.on_field = False
        w.card = -1
        w.pass_kind = None
        self.events.append(
            Event("card.dies", {"side": SIDES[side], "card": i, "name": w.deck[i].name})
        )
        return i

    def _last_breath(self, side: int, i: int) -> None:
        w = self.sides[side]
        effect = w.deck[i].last_breath
        if effect is not None:
            self._effect(side, i, EffectSlot.LAST_BREATH, effect.kind, w.last_breath)

    def _strike_atk(self, side: int) -> tuple[int, int]:
        """(ATK this strike, the Wounded Rage part of it)."""
        w = self.sides[side]
        wounded = (
            w.passive
            if w.pass_kind is EffectKind.WOUNDED_RAGE and w.hero_hp <= WOUNDED_RAGE_THRESHOLD
            else 0
        )
        return w.atk + self._rage(w) + wounded, wounded

    @staticmethod
    def _rage(w: _Side) -> int:
        """The Rage of the side's active card (Rage belongs to the card it was used on)."""
        return w.rage if w.rage_card == w.card else 0

    def _strike(self, side: int, atk: int, wounded: int, first: bool) -> None:
        """Side's active card strikes with ``atk``: the enemy card, or the enemy Hero."""
        w = self.sides[side]
        enemy = self.sides[1 - side]
        i = w.card
        s = SIDES[side]

        def striker() -> dict[str, Any]:  # what both strikes say of the striking card
            return {
                "side": s,
                "card": i,
                "name": w.deck[i].name,
                "atk": atk,
                "rage": self._rage(w),
                "wounded_rage": wounded,
                "threshold": WOUNDED_RAGE_THRESHOLD,
                "first_strike": first,
            }

        if enemy.on_field:
            t = enemy.card
            pierce = w.skill is Skill.PIERCE
            to_def, to_hp = _hit(enemy, t, atk, pierce)
            dealt = to_def + to_hp
            self.events.append(
                Event(
                    "strike.card",
                    {
                        **striker(),
                        "pierce": pierce,
                        "target": SIDES[1 - side],
                        "target_card": t,
                        "target_name": enemy.deck[t].name,
                        "to_def": to_def,
                        "to_hp": to_hp,
                        "def": enemy.card_def[t],
                        "hp": enemy.card_hp[t],
                    },
                )
            )
        else:
            dealt = min(atk, enemy.hero_hp)
            enemy.hero_hp -= dealt
            self.events.append(
                Event(
                    "strike.hero",
                    {
                        **striker(),
                        "target": SIDES[1 - side],
                        "hp": enemy.hero_hp,
                    },
                )
            )
        if dealt > 0 and w.skill is Skill.STEAL:
            healed = _heal(w, STEAL_HERO_HEAL)
            self.events.append(
                Event(
                    "steal.heal",
                    {
                        "side": s,
                        "card": i,
                        "name": w.deck[i].name,
                        "amount": healed,
                        "hp": w.hero_hp,
                    },
                )
            )

    def _resolve(self, order: tuple[int, int]) -> None:
        a, b = self.sides
        if not a.on_field and not b.on_field:
            return
        if not (a.on_field and b.on_field):  # one card, an open Hero
            side = A if a.on_field else B
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
            if target.on_field and target.card_hp[target.card] <= 0:
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
            if striker.on_field and striker.card_hp[striker.card] <= 0:
                self._die(first)
            return
        # Neither has Speed: simultaneous, with the values at the start of the step.
        self.events.append(Event("strike.order", {"mode": "simultaneous", "first": None}))
        atk_a, wounded_a = self._strike_atk(A)
        atk_b, wounded_b = self._strike_atk(B)
        for side, atk, wounded in ((A, atk_a, wounded_a), (B, atk_b, wounded_b)):
            self._strike(side, atk, wounded, False)
        dead = [side for side in order if self.sides[side].card_hp[self.sides[side].card] <= 0]
        # Both leave the field first, then the Last Breaths fire in initiative order.
        dying = [(side, self._leave(side)) for side in dead]
        for gone, i in dying:
            self._last_breath(gone, i)


def _hit(target: _Side, i: int, amount: int, pierce: bool) -> tuple[int, int]:
    """Card damage: DEF first (a shield that is used up), the rest to HP; Pierce skips DEF."""
    to_def = 0 if pierce else min(target.card_def[i], amount)
    target.card_def[i] -= to_def
    to_hp = min(target.card_hp[i], amount - to_def)
    target.card_hp[i] -= to_hp
    return to_def, to_hp


def _heal(w: _Side, amount: int) -> int:
    """Heal a Hero up to the 90 ceiling; a fallen Hero (0 HP) stays down. Returns the gain."""
    if w.hero_hp <= 0:
        return 0
    new = min(MAX_HERO_HP_CEILING, w.hero_hp + amount)
    gained = new - w.hero_hp
    w.hero_hp = new
    return gained
