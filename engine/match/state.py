"""The match's values: sides, boosts and event codes, the state of a match, its actions and
events.

>>> from engine.match import A, B, Boost, Commit, Pick
>>> Pick(A, 0), Commit(B).side.key, Boost(A, BOOST_KEYS[0]).boost
(Pick(side=<Side.A: 0>, card=0), 'b', <BoostKind.CHARGE: 'charge'>)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.data import (
    BOOSTS,
    WOUNDED_RAGE_THRESHOLD,
)
from engine.data import (
    Boost as _BoostSpec,
)
from engine.match.cards import MatchCard
from engine.types import (
    BoostKind,
    EffectKind,
    EndReason,
    Side,
    Skill,
    fast_init,
)

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
