"""What the match demo's templates show: typed view objects built from engine values.

The templates never look into engine values and compute nothing; everything they need
(labels in the visitor's language, percentages for the bars, which choice is picked, the
player's legal moves as form button values, every link) is prepared here. Names and
descriptions of rarities, roles, skills, effects and boosts come from ``core.labels``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from core.labels import describe, label, label_of
from engine.data import BOOSTS_PER_ROUND, DECK_MAX, NRG_CAP, WOUNDED_RAGE_THRESHOLD
from engine.match import (
    BOOST_KEYS,
    SIDES,
    A,
    B,
    Boost,
    Commit,
    Event,
    MatchCard,
    MatchState,
    Pick,
    Replay,
    legal_actions,
)
from engine.types import BoostKind, EffectKind, EffectSlot, Rarity, Role

from .forms import move_value
from .models import Match
from .narration import Line, narrate_all, reason_text, result_text

__all__ = [
    "BoardView",
    "BuilderEntry",
    "BuilderPage",
    "CardView",
    "Controls",
    "MatchLink",
    "MatchPage",
    "ReplayPage",
    "SideView",
    "board",
    "builder_page",
    "builder_url",
    "controls",
    "match_page",
    "replay_page",
]


# ---------------------------------------------------------------------------
# The board


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
    on_field: bool = False


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
    wounded_label: str = ""


@dataclass(frozen=True)
class PickChoice:
    """A card the player may pick: its button value, and whether it is the current pick
    or would enter Undercharged with the NRG the player has."""

    value: str
    card: CardView
    picked: bool
    short: bool


@dataclass(frozen=True)
class BoostChoice:
    value: str
    label: str
    description: str


@dataclass
class Controls:
    """The player's legal moves now, as form button values with what they show."""

    picks: list[PickChoice] = field(default_factory=list)
    boosts: list[BoostChoice] = field(default_factory=list)
    switches: list[tuple[str, CardView]] = field(default_factory=list)
    can_commit: bool = False
    must_pick: bool = False
    boosts_per_round: int = BOOSTS_PER_ROUND
    switch_label: str = ""


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


def _effects(card: MatchCard, passive_value: int | None = None) -> list[tuple[str, str]]:
    """(slot name, what it does) per filled effect slot (``passive_value``: this stay's)."""
    out = []
    for slot in EffectSlot:
        effect = getattr(card, slot.value)
        if effect is not None:
            value = (
                passive_value
                if slot is EffectSlot.PASSIVE and passive_value is not None
                else effect.value
            )
            out.append((label(slot), describe(effect.kind, n=value)))
    return out


def _card_view(card: MatchCard, index: int, hp: int, def_: int) -> CardView:
    return CardView(
        index=index,
        name=card.name,
        rarity=card.rarity.value,
        rarity_label=label(card.rarity),
        role_label=label(card.role),
        cost=card.cost,
        atk=card.atk,
        hp=hp,
        hp_max=card.hp,
        def_=def_,
        skill=label(card.skill),
        effects=_effects(card),
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
        card = deck[dep.card]
        cards[dep.card].on_field = True
        field_view = replace(
            cards[dep.card],
            atk=state.current_atk(side),
            undercharged=dep.deficit,
            skill_off=dep.deficit > 0 and card.skill is not None,
            effects=_effects(card, dep.passive),
        )
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
        boosts_used=[label(k) for k in BOOST_KEYS if k in p.boosts_used],
        boosts_left=[label(k) for k in BOOST_KEYS if k not in p.boosts_used],
        committed=p.committed,
        rage=p.rage,
        picked=picked,
        wounded_label=label(EffectKind.WOUNDED_RAGE),
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
    out = Controls(switch_label=label(BoostKind.SWITCH))
    if state.over:
        return out
    p = state.players[A]
    for action in legal_actions(state, A):
        if isinstance(action, Pick):
            card = view.player.cards[action.card]
            out.picks.append(
                PickChoice(
                    move_value(action), card, picked=p.pick == action.card, short=card.cost > p.nrg
                )
            )
        elif isinstance(action, Boost) and action.boost is BoostKind.SWITCH:
            assert action.card is not None
            out.switches.append((move_value(action), view.player.cards[action.card]))
        elif isinstance(action, Boost):
            kind = BoostKind(action.boost)
            out.boosts.append(BoostChoice(move_value(action), label(kind), describe(kind)))
        elif isinstance(action, Commit):
            out.can_commit = True
    out.must_pick = p.field is None and p.pick is None and bool(out.picks)
    return out


# ---------------------------------------------------------------------------
# The deck builder


def builder_url(query: str = "", deck: Sequence[int] = (), page: int | None = None) -> str:
    """The builder's address for a search, a deck so far and a result page."""
    params: dict[str, Any] = {}
    if query:
        params["q"] = query
    if deck:
        params["deck"] = ",".join(str(t) for t in deck)
    if page and page > 1:
        params["page"] = page
    base = reverse("play:index")
    return f"{base}?{urlencode(params)}" if params else base


@dataclass(frozen=True)
class BuilderEntry:
    """A collection card in the builder: in the deck, addable, or neither (deck full)."""

    card: Any  # a cards.models.Card with the builder's fields
    rarity_label: str
    role_label: str
    in_deck: bool = False
    add_url: str | None = None
    remove_url: str | None = None


@dataclass(frozen=True)
class MatchLink:
    """One of the session's matches: where it goes (the board, or its replay once over)."""

    url: str
    round: int
    status: str
    status_label: str
    updated_at: datetime


@dataclass(frozen=True)
class BuilderPage:
    query: str
    deck: list[BuilderEntry]
    deck_count: int
    deck_max: int
    deck_full: bool
    deck_param: str
    results: list[BuilderEntry]
    suggestion: list[BuilderEntry]
    matches: list[MatchLink]
    page_number: int
    prev_url: str | None
    next_url: str | None


def _entry(card: Any, **links: Any) -> BuilderEntry:
    return BuilderEntry(
        card,
        label_of(Rarity, card.rarity),
        label_of(Role, card.role),
        **links,
    )


def builder_page(
    query: str,
    deck_cards: Sequence[Any],
    results: Sequence[Any],
    page: int,
    more: bool,
    suggestion: Sequence[Any],
    matches: Sequence[Match],
) -> BuilderPage:
    """The builder: the deck so far (at most a deck's cards), page ``page`` of the search
    results (``more``: another follows) with Add links while the deck has room, a
    suggested deck and the session's matches."""
    deck_cards = list(deck_cards)[:DECK_MAX]
    tokens = [c.token for c in deck_cards]
    full = len(tokens) >= DECK_MAX
    deck = [
        _entry(
            c,
            in_deck=True,
            remove_url=builder_url(query, [t for t in tokens if t != c.token], page),
        )
        for c in deck_cards
    ]
    rows = []
    for card in results:
        in_deck = card.token in tokens
        add = None if in_deck or full else builder_url(query, [*tokens, card.token], page)
        rows.append(_entry(card, in_deck=in_deck, add_url=add))
    return BuilderPage(
        query=query,
        deck=deck,
        deck_count=len(deck),
        deck_max=DECK_MAX,
        deck_full=full,
        deck_param=",".join(str(t) for t in tokens),
        results=rows,
        suggestion=[_entry(c) for c in suggestion],
        matches=[_match_link(m) for m in matches],
        page_number=page,
        prev_url=builder_url(query, tokens, page - 1) if page > 1 else None,
        next_url=builder_url(query, tokens, page + 1) if more else None,
    )


def _match_link(match: Match) -> MatchLink:
    name = "play:replay" if match.over else "play:match"
    return MatchLink(
        url=reverse(name, kwargs={"public_id": match.public_id}),
        round=match.rounds,
        status=match.status,
        status_label=match.get_status_display(),
        updated_at=match.updated_at,
    )


# ---------------------------------------------------------------------------
# A match and its replay


@dataclass(frozen=True)
class MatchPage:
    match: Match
    board: BoardView
    controls: Controls
    turn: int
    current_log: list[Line]
    previous_log: list[Line]
    previous_round: int
    result: str | None
    reason: str | None
    notice: str | None
    replay_url: str
    act_url: str


def _end(record: Replay) -> tuple[str | None, str | None]:
    """The result and the reason of a finished match, in words (None while it runs)."""
    state = record.state
    if not state.over:
        return None, None
    end: Event = record.log[-1]
    return result_text(state.result), reason_text(state.end_reason, end.params["round_limit"])


def match_page(match: Match, record: Replay, notice: str | None = None) -> MatchPage:
    """The match as it stands: the board, the player's moves, this round's log so far
    (round 1 with the opening) and the previous round's."""
    state = record.state
    view = board(state, reveal_bot=state.over)
    rounds = record.rounds
    current = narrate_all(rounds[-1], show_bot_picks=state.over)
    previous = narrate_all(rounds[-2]) if len(rounds) > 2 else []
    if len(rounds) == 2:  # round 1: show the opening too
        current = narrate_all(rounds[0]) + current
    result, reason = _end(record)
    return MatchPage(
        match=match,
        board=view,
        controls=controls(state, view),
        turn=state.actions,
        current_log=current,
        previous_log=previous,
        previous_round=state.round - 1,
        result=result,
        reason=reason,
        notice=notice,
        replay_url=reverse("play:replay", kwargs={"public_id": match.public_id}),
        act_url=reverse("play:act", kwargs={"public_id": match.public_id}),
    )


@dataclass(frozen=True)
class StepLink:
    url: str
    label: str
    current: bool


@dataclass(frozen=True)
class ReplayPage:
    match: Match
    board: BoardView
    lines: list[Line]
    step: int
    last: int
    step_label: str
    log_title: str
    board_title: str
    steps: list[StepLink]
    prev_url: str | None
    next_url: str | None
    result: str | None
    reason: str | None
    back_url: str | None
    error: str | None


def replay_page(
    match: Match, record: Replay, step: int | None, *, owner: bool, error: str | None = None
) -> ReplayPage:
    """Step ``step`` of the replay (None, or past the end: the last step): what happened
    in it and the board after it."""
    last = len(record.rounds) - 1
    step = last if step is None else max(0, min(step, last))
    base = reverse("play:replay", kwargs={"public_id": match.public_id})

    def url(n: int) -> str:
        return f"{base}?step={n}"

    if step == 0:
        step_label, log_title = _("The start"), _("Before round 1")
        board_title = _("The board at the start")
    else:
        step_label = _("Round %(round)s") % {"round": step}
        log_title = _("What happened in round %(round)s") % {"round": step}
        board_title = _("The board after round %(round)s") % {"round": step}
    result, reason = _end(record) if match.over else (None, None)
    return ReplayPage(
        match=match,
        board=board(record.snapshots[step], reveal_bot=True),
        lines=narrate_all(record.rounds[step], show_bot_picks=match.over),
        step=step,
        last=last,
        step_label=step_label,
        log_title=log_title,
        board_title=board_title,
        steps=[
            StepLink(url(n), _("Start") if n == 0 else str(n), n == step) for n in range(last + 1)
        ],
        prev_url=url(step - 1) if step > 0 else None,
        next_url=url(step + 1) if step < last else None,
        result=result,
        reason=reason,
        back_url=reverse("play:match", kwargs={"public_id": match.public_id})
        if owner and not match.over
        else None,
        error=error,
    )
