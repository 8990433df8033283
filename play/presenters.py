"""What the match demo's templates show: typed view objects built from engine values.

The templates never look into engine values and compute nothing; everything they need
(labels in the visitor's language, percentages for the bars, which choice is picked, the
player's legal moves as form button values, what each boost does and costs and why it
cannot be used now, every link) is prepared here. Names and descriptions of rarities,
roles, skills, effects, boosts, beats and bots come from ``core.labels``; the numbers
(NRG, caps, the energy curve) from the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.anchors import section_url
from core.labels import describe, label, label_of
from core.links import token_path
from engine.data import (
    BOOSTS_PER_ROUND,
    DECK_MAX,
    MAX_HERO_HP_CEILING,
    NRG_CAP,
    WOUNDED_RAGE_THRESHOLD,
)
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
    beats,
    energy_curve,
    legal_actions,
    out_of_cards,
    refusal_of,
)
from engine.types import BoostKind, BotKind, EffectKind, EffectSlot, Rarity, Role

from .forms import SOURCES, move_value
from .models import Match
from .narration import Line, narrate, narrate_all, reason_text, refusal, result_text

# Where the wiki explains each boost: its own heading under "Boosts"
# (wiki/content/how-a-match-works.*.md; the Russian page keeps the Latin names, so the
# ids are the same in both languages). A test checks each anchor exists on the page.
BOOST_SECTIONS: dict[BoostKind, tuple[str, str]] = {
    kind: ("how-a-match-works", kind.value.replace("_", "-")) for kind in BoostKind
}

__all__ = [
    "BOOST_SECTIONS",
    "BoardView",
    "BoostView",
    "BuilderEntry",
    "BuilderPage",
    "CardView",
    "Controls",
    "EnergyView",
    "LogPage",
    "MatchLink",
    "MatchPage",
    "ReplayPage",
    "SideView",
    "SurrenderPage",
    "board",
    "builder_page",
    "builder_url",
    "controls",
    "log_page",
    "match_page",
    "replay_page",
    "surrender_page",
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
    hero_ceiling: int
    hero_pct: int  # HP up to the start, as a share of the ceiling (the bar's main part)
    hero_above_pct: int  # HP healed above the start, as a share of the ceiling
    hero_above: int  # HP above the start (healing past it, up to the ceiling)
    hero_start_pct: int  # where the start sits on the bar
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
    rage_card: str = ""


@dataclass(frozen=True)
class PickChoice:
    """A card the player may pick: its button value, and whether it is the current pick
    or would enter Undercharged with the NRG the player has."""

    value: str
    card: CardView
    picked: bool
    short: bool


@dataclass(frozen=True)
class SwitchChoice:
    """A card Switch may bring in: its button value, the card, and whether it would
    enter Undercharged with the NRG the player has."""

    value: str
    card: CardView
    short: bool


@dataclass(frozen=True)
class BoostView:
    """One of the five boosts: what it does, what it costs, whether it can be used now
    (``value`` is the button value then; Switch has one ``switches`` entry per card it
    may bring in), and why not otherwise (``state``: used, limit or blocked)."""

    key: str
    label: str
    description: str
    cost: str
    state: str  # "ready", "used" (this match), "limit" (this round) or "blocked" (now)
    status: str  # the state in a few words
    note: str  # why it cannot be used now ("" otherwise)
    rule_url: str
    value: str | None = None
    switches: tuple[SwitchChoice, ...] = ()


@dataclass
class Controls:
    """The player's legal moves now, as form button values with what they show."""

    picks: list[PickChoice] = field(default_factory=list)
    boosts: list[BoostView] = field(default_factory=list)
    can_commit: bool = False
    must_pick: bool = False
    boosts_per_round: int = BOOSTS_PER_ROUND
    boosts_left_this_round: int = BOOSTS_PER_ROUND
    boost_summary: str = ""
    out_of_cards: bool = False


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
    ceiling = MAX_HERO_HP_CEILING
    level = "ok" if hp > start / 2 else ("warn" if hp > WOUNDED_RAGE_THRESHOLD / 2 else "danger")
    base_pct = _pct(min(hp, start), ceiling)
    return SideView(
        side=SIDES[side],
        label=_("You") if side == A else _("Bot"),
        hero_label=_("Your Hero") if side == A else _("Bot's Hero"),
        hero_hp=hp,
        hero_start=start,
        hero_ceiling=ceiling,
        hero_pct=base_pct,
        hero_above_pct=max(0, _pct(hp, ceiling) - base_pct),
        hero_above=max(0, hp - start),
        hero_start_pct=_pct(start, ceiling),
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
        rage_card=deck[p.rage_card].name if p.rage and p.rage_card is not None else "",
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


def _boost_cost(kind: BoostKind) -> str:
    """What using the boost costs: a boost of the round's limit (and for Switch, the
    incoming card's NRG)."""
    if kind is BoostKind.SWITCH:
        return ngettext(
            "Cost: one of this round's %(n)s boost; the card coming in pays its NRG.",
            "Cost: one of this round's %(n)s boosts; the card coming in pays its NRG.",
            BOOSTS_PER_ROUND,
        ) % {"n": BOOSTS_PER_ROUND}
    return ngettext(
        "Cost: one of this round's %(n)s boost.",
        "Cost: one of this round's %(n)s boosts.",
        BOOSTS_PER_ROUND,
    ) % {"n": BOOSTS_PER_ROUND}


def _boost_views(state: MatchState, view: BoardView) -> list[BoostView]:
    p = state.players[A]
    out = []
    for kind in BOOST_KEYS:
        common = {
            "key": kind.value,
            "label": label(kind),
            "description": describe(kind),
            "cost": _boost_cost(kind),
            "rule_url": section_url(*BOOST_SECTIONS[kind]),
        }
        if kind in p.boosts_used:
            out.append(BoostView(**common, state="used", status=_("Used in this match"), note=""))
            continue
        if kind is BoostKind.SWITCH:
            switches = tuple(
                SwitchChoice(
                    move_value(a), view.player.cards[a.card], p.nrg < state.decks[A][a.card].cost
                )
                for a in legal_actions(state, A)
                if isinstance(a, Boost) and a.boost is BoostKind.SWITCH and a.card is not None
            )
            error = None if switches else refusal_of(state, Boost(A, kind, -1))
            if switches:
                out.append(
                    BoostView(
                        **common,
                        state="ready",
                        status=_("Available"),
                        note="",
                        switches=switches,
                    )
                )
                continue
        else:
            error = refusal_of(state, Boost(A, kind))
            if error is None:
                out.append(
                    BoostView(
                        **common,
                        state="ready",
                        status=_("Available"),
                        note="",
                        value=move_value(Boost(A, kind)),
                    )
                )
                continue
        assert error is not None
        limit = error.code == "boost_limit"
        note = refusal(error.code, error.params)
        out.append(
            BoostView(
                **common,
                state="limit" if limit else "blocked",
                status=_("Not this round") if limit else _("Not now"),
                note=note,
            )
        )
    return out


def controls(state: MatchState, view: BoardView) -> Controls:
    """The player's legal moves, as button values for the action form, and every boost
    with what it does, costs and whether it can be used now."""
    out = Controls()
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
        elif isinstance(action, Commit):
            out.can_commit = True
    out.boosts = _boost_views(state, view)
    left = BOOSTS_PER_ROUND - p.boosts_round
    out.boosts_left_this_round = left
    unused = sum(1 for b in out.boosts if b.state != "used")
    out.boost_summary = ngettext(
        "%(left)s of %(n)s boosts left this round; %(unused)s unused in the match.",
        "%(left)s of %(n)s boosts left this round; %(unused)s unused in the match.",
        BOOSTS_PER_ROUND,
    ) % {"left": left, "n": BOOSTS_PER_ROUND, "unused": unused}
    out.must_pick = p.field is None and p.pick is None and bool(out.picks)
    out.out_of_cards = out_of_cards(state, A)
    return out


# ---------------------------------------------------------------------------
# The deck builder


def builder_url(
    query: str = "",
    deck: Sequence[int] = (),
    page: int | None = None,
    *,
    bot: str = "",
    source: str = "",
) -> str:
    """The builder's address for a search, a deck so far, a result page, a bot and a deck
    source (the defaults — greedy, the collection — stay out of it)."""
    params: dict[str, Any] = {}
    if query:
        params["q"] = query
    if deck:
        params["deck"] = ",".join(str(t) for t in deck)
    if page and page > 1:
        params["page"] = page
    if bot and bot != BotKind.GREEDY:
        params["bot"] = bot
    if source and source != SOURCES[0]:
        params["source"] = source
    base = reverse("play:index")
    return f"{base}?{urlencode(params)}" if params else base


@dataclass(frozen=True)
class BuilderEntry:
    """A collection card in the builder: in the deck, addable, or neither (deck full);
    ``detail_url`` is its breakdown in the explorer."""

    card: Any  # a cards.models.Card with the builder's fields
    rarity_label: str
    role_label: str
    detail_url: str
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
    bot_label: str = ""


@dataclass(frozen=True)
class BotChoice:
    """A bot the player may face: its name, what it does, the builder address that
    chooses it, and whether it is the one chosen."""

    value: str
    label: str
    description: str
    url: str
    chosen: bool


@dataclass(frozen=True)
class CurveCell:
    """One round of a card's row in the energy curve: short by ``deficit`` NRG (0: fully
    charged), or not a round the card can enter in (``na``)."""

    deficit: int
    na: bool = False


@dataclass(frozen=True)
class CurveRow:
    name: str
    cost: int
    cells: list[CurveCell]
    summary: str


@dataclass(frozen=True)
class EnergyView:
    """The deck's energy curve as the match will meet it (``engine.match.energy_curve``),
    in words: the NRG of each round, each card against it, and the warnings."""

    rounds: list[int]
    nrg: list[int]
    rows: list[CurveRow]
    caption: str
    warnings: list[str]


@dataclass(frozen=True)
class BuilderPage:
    query: str
    query_error: str | None
    deck: list[BuilderEntry]
    deck_count: int
    deck_max: int
    deck_full: bool
    deck_param: str
    energy: EnergyView | None
    results: list[BuilderEntry]
    suggestion: list[BuilderEntry]
    matches: list[MatchLink]
    page_number: int
    prev_url: str | None
    next_url: str | None
    bot: str
    bot_label: str
    bots: list[BotChoice]
    source: str
    binder_count: int
    binder_url: str | None
    collection_url: str | None
    search_help_url: str


def _entry(card: Any, **links: Any) -> BuilderEntry:
    return BuilderEntry(
        card,
        label_of(Rarity, card.rarity),
        label_of(Role, card.role),
        token_path("explorer:card-detail", card.token),
        **links,
    )


def _energy_view(cards: Sequence[Any]) -> EnergyView | None:
    """The energy curve of the deck's cards (``energy_cost`` each), worded."""
    if not cards:
        return None
    curve = energy_curve([c.energy_cost for c in cards])
    opener = cards[curve.opener]
    rows = []
    for entry, row in zip(cards, curve.cards, strict=True):
        first = row.card == curve.opener
        cells = [
            CurveCell(d, na=(r == 1) != first)
            for r, d in zip(curve.rounds, row.deficits, strict=True)
        ]
        if first and row.ready:
            summary = _("Opens in round 1 fully charged.")
        elif first:
            summary = ngettext(
                "Opens in round 1, %(n)s NRG short: Undercharged.",
                "Opens in round 1, %(n)s NRG short: Undercharged.",
                row.deficits[0],
            ) % {"n": row.deficits[0]}
        elif row.ready is not None:
            summary = _("Fully charged if it enters in round %(round)s or later.") % {
                "round": row.ready
            }
        else:
            summary = _("Undercharged in every round shown.")
        rows.append(CurveRow(entry.name, row.cost, cells, summary))
    warnings = []
    if curve.all_short:
        warnings.append(
            ngettext(
                "Every card in this deck costs more than the %(start)s NRG you start with: "
                "whichever card you deploy first enters Undercharged (ATK and DEF cut, "
                "effects weakened, skill off), unless Charge makes up the difference.",
                "Every card in this deck costs more than the %(start)s NRG you start with: "
                "whichever card you deploy first enters Undercharged (ATK and DEF cut, "
                "effects weakened, skill off), unless Charge makes up the difference.",
                curve.start,
            )
            % {"start": curve.start}
        )
    last = curve.rounds[-1]
    late = [r for r in curve.cards if r.card != curve.opener and (r.ready or last) > 2]
    if late:
        worst = max(late, key=lambda r: (r.ready or last, -r.card))
        warnings.append(
            _(
                "After the first card has paid, NRG comes back only +%(gain)s a round: if "
                "it falls early, the next card enters short — %(name)s (%(cost)s NRG) is "
                "fully charged only from round %(round)s."
            )
            % {
                "gain": curve.gain,
                "name": cards[worst.card].name,
                "cost": worst.cost,
                "round": worst.ready or last,
            }
        )
    caption = _(
        "You start with %(start)s NRG and gain +%(gain)s a round, up to %(cap)s. Round 1 "
        "opens with your cheapest card, %(name)s (%(paid)s NRG paid); the other rows show "
        "how short each card would be entering in a later round."
    ) % {
        "start": curve.start,
        "gain": curve.gain,
        "cap": curve.cap,
        "name": opener.name,
        "paid": curve.opener_paid,
    }
    return EnergyView(list(curve.rounds), list(curve.nrg), rows, caption, warnings)


def builder_page(
    query: str,
    deck_cards: Sequence[Any],
    results: Sequence[Any],
    page: int,
    more: bool,
    suggestion: Sequence[Any],
    matches: Sequence[Match],
    *,
    bot: str = BotKind.GREEDY.value,
    source: str = SOURCES[0],
    binder_count: int = 0,
    query_error: str | None = None,
) -> BuilderPage:
    """The builder: the deck so far (at most a deck's cards) with its energy curve, page
    ``page`` of the search results (``more``: another follows) with Add links while the
    deck has room, a suggested deck, the bot to face, the deck source (the collection or
    the session's binder of ``binder_count`` cards) and the session's matches."""
    deck_cards = list(deck_cards)[:DECK_MAX]
    tokens = [c.token for c in deck_cards]
    full = len(tokens) >= DECK_MAX

    def url(deck: Sequence[int] = tokens, number: int | None = page, **change: str) -> str:
        return builder_url(
            query,
            deck,
            number,
            bot=change.get("bot", bot),
            source=change.get("source", source),
        )

    deck = [
        _entry(c, in_deck=True, remove_url=url([t for t in tokens if t != c.token]))
        for c in deck_cards
    ]
    rows = []
    for card in results:
        in_deck = card.token in tokens
        add = None if in_deck or full else url([*tokens, card.token])
        rows.append(_entry(card, in_deck=in_deck, add_url=add))
    return BuilderPage(
        query=query,
        query_error=query_error,
        deck=deck,
        deck_count=len(deck),
        deck_max=DECK_MAX,
        deck_full=full,
        deck_param=",".join(str(t) for t in tokens),
        energy=_energy_view(deck_cards),
        results=rows,
        suggestion=[_entry(c) for c in suggestion],
        matches=[_match_link(m) for m in matches],
        page_number=page,
        prev_url=url(number=page - 1) if page > 1 else None,
        next_url=url(number=page + 1) if more else None,
        bot=bot,
        bot_label=label_of(BotKind, bot),
        bots=[
            BotChoice(k.value, label(k), describe(k), url(bot=k.value), k.value == bot)
            for k in BotKind
        ],
        source=source,
        binder_count=binder_count,
        binder_url=url(number=None, source="binder")
        if binder_count and source != "binder"
        else None,
        collection_url=url(number=None, source="collection") if source == "binder" else None,
        search_help_url=reverse("explorer:search-help"),
    )


def _match_link(match: Match) -> MatchLink:
    name = "play:replay" if match.over else "play:match"
    return MatchLink(
        url=reverse(name, kwargs={"public_id": match.public_id}),
        round=match.rounds,
        status=match.status,
        status_label=match.get_status_display(),
        updated_at=match.updated_at,
        bot_label=label_of(BotKind, match.bot),
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
    log_url: str
    act_url: str
    surrender_url: str
    finish_url: str
    rematch_url: str
    bot_label: str
    bot_description: str
    abandoned: bool


def _urls(match: Match) -> dict[str, str]:
    kwargs = {"public_id": match.public_id}
    return {
        "replay_url": reverse("play:replay", kwargs=kwargs),
        "log_url": reverse("play:log", kwargs=kwargs),
        "act_url": reverse("play:act", kwargs=kwargs),
        "surrender_url": reverse("play:surrender", kwargs=kwargs),
        "finish_url": reverse("play:finish", kwargs=kwargs),
        "rematch_url": reverse("play:rematch", kwargs=kwargs),
    }


def _end(record: Replay) -> tuple[str | None, str | None]:
    """The result and the reason of a finished match, in words (None while it runs)."""
    state = record.state
    if not state.over:
        return None, None
    end: Event = record.log[-1]
    return result_text(state.result), reason_text(state.end_reason, end.params["round_limit"])


def match_page(match: Match, record: Replay, notice: str | None = None) -> MatchPage:
    """The match as it stands: the board, the player's moves, this round's log so far
    (round 1 with the opening) and the previous round's. A match set aside shows its
    board and log, without moves."""
    state = record.state
    view = board(state, reveal_bot=state.over or match.abandoned)
    rounds = record.rounds
    current = narrate_all(rounds[-1], show_bot_picks=state.over)
    previous = narrate_all(rounds[-2]) if len(rounds) > 2 else []
    if len(rounds) == 2:  # round 1: show the opening too
        current = narrate_all(rounds[0]) + current
    result, reason = _end(record)
    kind = BotKind(match.bot) if match.bot in set(BotKind) else BotKind.GREEDY
    moves = controls(state, view) if not match.abandoned else Controls()
    return MatchPage(
        match=match,
        board=view,
        controls=moves,
        turn=state.actions,
        current_log=current,
        previous_log=previous,
        previous_round=state.round - 1,
        result=result,
        reason=reason,
        notice=notice,
        bot_label=label(kind),
        bot_description=describe(kind),
        abandoned=match.abandoned,
        **_urls(match),
    )


@dataclass(frozen=True)
class SurrenderPage:
    """ "Are you sure?" before a surrender, for a browser without JavaScript."""

    match: Match
    board: BoardView
    turn: int
    surrender_url: str
    back_url: str


def surrender_page(match: Match, record: Replay) -> SurrenderPage:
    state = record.state
    return SurrenderPage(
        match=match,
        board=board(state),
        turn=state.actions,
        surrender_url=reverse("play:surrender", kwargs={"public_id": match.public_id}),
        back_url=reverse("play:match", kwargs={"public_id": match.public_id}),
    )


@dataclass(frozen=True)
class LogStep:
    """One event of the whole log: its sentence, its anchor id and permalink."""

    id: str
    url: str
    line: Line


@dataclass(frozen=True)
class BeatLog:
    key: str
    label: str
    steps: list[LogStep]


@dataclass(frozen=True)
class RoundLog:
    id: str
    url: str
    title: str
    beats: list[BeatLog]
    board_url: str


@dataclass(frozen=True)
class LogPage:
    match: Match
    rounds: list[RoundLog]
    result: str | None
    reason: str | None
    back_url: str | None
    replay_url: str
    contents: list[tuple[str, str]]


def log_page(match: Match, record: Replay, *, owner: bool) -> LogPage:
    """The whole log, round by round and beat by beat; each event has a stable id
    (``r<step>-<n>``: the step, and the event's place in it, hidden bot picks counted)
    and a permalink to it on this page."""
    base = reverse("play:log", kwargs={"public_id": match.public_id})
    replay = reverse("play:replay", kwargs={"public_id": match.public_id})
    reveal = match.over
    rounds = []
    for step, events in enumerate(record.rounds):
        at = 0
        beat_logs = []
        for beat, part in beats(events):
            steps = []
            for event in part:
                line = narrate(event, show_bot_picks=reveal)
                anchor = f"r{step}-{at}"
                at += 1
                if line is not None:
                    steps.append(LogStep(anchor, f"{base}#{anchor}", line))
            if steps:
                beat_logs.append(BeatLog(beat.value, label(beat), steps))
        title = _("Before round 1") if step == 0 else _("Round %(round)s") % {"round": step}
        rounds.append(
            RoundLog(
                f"round-{step}", f"{base}#round-{step}", title, beat_logs, f"{replay}?step={step}"
            )
        )
    result, reason = _end(record) if match.over else (None, None)
    return LogPage(
        match=match,
        rounds=rounds,
        result=result,
        reason=reason,
        back_url=reverse("play:match", kwargs={"public_id": match.public_id})
        if owner and not match.over
        else None,
        replay_url=replay,
        contents=[(r.title, f"#{r.id}") for r in rounds],
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
    log_url: str


def replay_page(
    match: Match, record: Replay, step: int | None, *, owner: bool, error: str | None = None
) -> ReplayPage:
    """Step ``step`` of the replay (None: the start; past the end: the last step): what
    happened in it and the board after it. A match in progress replays up to its last
    finished round: the round being played is not a step yet (its state holds the bot's
    hidden pick), and no board of it reveals the bot."""
    last = len(record.rounds) - 1
    if not match.over:
        last = max(0, last - 1)
    step = 0 if step is None else max(0, min(step, last))
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
        board=board(record.snapshots[step], reveal_bot=match.over),
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
        log_url=reverse("play:log", kwargs={"public_id": match.public_id}) + f"#round-{step}",
    )
