"""What the match templates show: plain view objects built from engine states.

The templates never look into engine values; everything they need (labels in the
visitor's language, percentages for the HP bars, the player's legal moves as form
button values) is prepared here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from core.labels import enum_label
from engine.data import NRG_CAP, WOUNDED_RAGE_THRESHOLD
from engine.match import (
    BOOST_KEYS,
    SIDES,
    A,
    B,
    Boost,
    Commit,
    MatchCard,
    MatchState,
    Pick,
    legal_actions,
)
from engine.types import EffectKind

from .narration import boost_label, effect_label, skill_label, slot_label

__all__ = [
    "BoardView",
    "CardView",
    "Controls",
    "SideView",
    "board",
    "controls",
    "rarity_label",
    "role_label",
]


def rarity_label(value: str) -> str:
    return enum_label("rarity", value)


def role_label(value: str) -> str:
    return enum_label("role", value)


@dataclass
class CardView:
    index: int
    name: str
    rarity: str
    rarity_label: str
    role_label: str
    cost: int
    atk: int
    hp: int
    hp_max: int
    def_: int
    skill: str
    effects: list[tuple[str, str]]
    alive: bool
    hp_pct: int
    undercharged: int = 0
    skill_off: bool = False


@dataclass
class SideView:
    side: str
    label: str
    hero_label: str
    hero_hp: int
    hero_start: int
    hero_pct: int
    hero_level: str
    wounded: bool
    nrg: int
    pips: list[dict[str, int | bool]]
    pips_width: int
    field: CardView | None
    cards: list[CardView]
    boosts_used: list[str]
    boosts_left: list[str]
    committed: bool
    rage: int
    picked: CardView | None = None


@dataclass
class Controls:
    """The player's legal moves now, as (form value, label) pairs."""

    picks: list[tuple[str, CardView]] = field(default_factory=list)
    boosts: list[tuple[str, str]] = field(default_factory=list)
    switches: list[tuple[str, CardView]] = field(default_factory=list)
    can_commit: bool = False
    must_pick: bool = False


@dataclass
class BoardView:
    round: int
    initiative_label: str
    over: bool
    sides: list[SideView]
    player: SideView
    bot: SideView


def _pct(value: int, whole: int) -> int:
    if whole <= 0:
        return 0
    return max(0, min(100, round(100 * value / whole)))


def _card_view(card: MatchCard, index: int, hp: int, def_: int) -> CardView:
    effects = []
    for slot in ("deploy", "passive", "last_breath"):
        effect = getattr(card, slot)
        if effect is not None:
            effects.append((slot_label(slot), effect_label(effect.kind.value, effect.value)))
    return CardView(
        index=index,
        name=card.name,
        rarity=card.rarity.value,
        rarity_label=rarity_label(card.rarity.value),
        role_label=role_label(card.role.value),
        cost=card.cost,
        atk=card.atk,
        hp=hp,
        hp_max=card.hp,
        def_=def_,
        skill=skill_label(card.skill.value if card.skill else None),
        effects=effects,
        alive=hp > 0,
        hp_pct=_pct(hp, card.hp),
    )


def _side_view(state: MatchState, side: int, *, reveal_pick: bool) -> SideView:
    p = state.players[side]
    deck = state.decks[side]
    cards = [_card_view(c, i, p.card_hp[i], p.card_def[i]) for i, c in enumerate(deck)]
    field_view = None
    if p.field is not None:
        dep = p.field
        base = cards[dep.card]
        field_view = CardView(**{**base.__dict__})
        field_view.atk = state.current_atk(side)
        field_view.undercharged = dep.deficit
        field_view.skill_off = dep.deficit > 0 and deck[dep.card].skill is not None
        passive = deck[dep.card].passive
        if passive is not None:
            field_view.effects = [
                (label, text)
                if label != slot_label("passive")
                else (label, effect_label(passive.kind.value, dep.passive))
                for label, text in field_view.effects
            ]
    picked = cards[p.pick] if (p.pick is not None and reveal_pick) else None
    start = p.hero_start
    hp = p.hero_hp
    level = "ok" if hp > start / 2 else ("warn" if hp > WOUNDED_RAGE_THRESHOLD / 2 else "danger")
    return SideView(
        side=SIDES[side],
        label=_("You") if side == A else _("Bot"),
        hero_label=_("Your Hero") if side == A else _("Bot's Hero"),
        hero_hp=hp,
        hero_start=start,
        hero_pct=_pct(hp, max(start, 1)),
        hero_level=level,
        wounded=hp <= WOUNDED_RAGE_THRESHOLD
        and any(c.passive is not None and c.passive.kind is EffectKind.WOUNDED_RAGE for c in deck),
        nrg=p.nrg,
        pips=[{"cx": 6 + 12 * i, "on": i < p.nrg} for i in range(NRG_CAP)],
        pips_width=12 * NRG_CAP,
        field=field_view,
        cards=cards,
        boosts_used=[boost_label(k) for k in BOOST_KEYS if k in p.boosts_used],
        boosts_left=[boost_label(k) for k in BOOST_KEYS if k not in p.boosts_used],
        committed=p.committed,
        rage=p.rage,
        picked=picked,
    )


def board(state: MatchState, *, reveal_bot: bool = False) -> BoardView:
    """The board as the player sees it (the bot's pending pick stays hidden)."""
    player = _side_view(state, A, reveal_pick=True)
    bot = _side_view(state, B, reveal_pick=reveal_bot)
    return BoardView(
        round=state.round,
        initiative_label=_("you") if state.initiative == A else _("the bot"),
        over=state.over,
        sides=[player, bot],
        player=player,
        bot=bot,
    )


def controls(state: MatchState, view: BoardView) -> Controls:
    """The player's legal moves, as button values for the action form."""
    out = Controls()
    if state.over:
        return out
    p = state.players[A]
    for action in legal_actions(state, A):
        if isinstance(action, Pick):
            out.picks.append((f"pick:{action.card}", view.player.cards[action.card]))
        elif isinstance(action, Boost) and action.boost == "switch":
            assert action.card is not None
            out.switches.append((f"boost:switch:{action.card}", view.player.cards[action.card]))
        elif isinstance(action, Boost):
            out.boosts.append((f"boost:{action.boost}", boost_label(action.boost)))
        elif isinstance(action, Commit):
            out.can_commit = True
    out.must_pick = p.field is None and p.pick is None and bool(out.picks)
    return out
