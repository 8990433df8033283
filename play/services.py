"""Writes of the match demo: start a match (or a rematch), play the player's action (and
the bot's reply), finish a match the player can no longer change, clean up, and run the
balance report.

The player is side A, the bot side B (random, greedy or lookahead: ``Match.bot``). The
bot prepares and commits at the start of each round (its boosts show at once; its pick
stays hidden until the cards enter), so the player's Commit is the one that resolves
the round. A session keeps at most ``limits.ACTIVE_MATCHES_PER_SESSION`` matches in
progress: a new one sets the oldest aside.
"""

from __future__ import annotations

import random
import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations_with_replacement
from typing import Any

from django.db import transaction
from django.utils import timezone

from cards.models import Card
from cards.specs import card_specs, iter_card_specs
from core import versions
from engine.card.derive import derive
from engine.data import DECK_MAX
from engine.match import (
    A,
    Action,
    B,
    IllegalActionError,
    MatchCard,
    MatchState,
    Recorder,
    Replay,
    new_match,
    out_of_cards,
    replay,
    validate_deck_ids,
)
from engine.match.bots import PlayOutBot, card_strength, make_bot, play_out, take_turn
from engine.match.simulate import Series, Tally, play_match
from engine.serialize import (
    action_from_json,
    action_to_json,
    match_card_from_json,
    match_card_to_json,
)
from engine.types import BotKind, Rarity

from . import limits
from .models import BalanceReport, Match, MatchStatus

__all__ = [
    "CardsLeftError",
    "DeckError",
    "Loaded",
    "StaleActionError",
    "Started",
    "choose_bot_deck",
    "cleanup",
    "finish_match",
    "load",
    "play_move",
    "rematch",
    "run_balance_report",
    "start_match",
]

BOT_NAME = BotKind.GREEDY.value  # the bot when none is chosen
# How many collection cards of the same rarity the bot looks at for each card of yours.
BOT_CANDIDATES_PER_CARD = 8


class DeckError(ValueError):
    """The cards chosen cannot make a deck for a reason of the site's own (a card that is
    not in the collection, a catalogue too small): ``code`` says why. The engine's deck
    rules raise ``engine.match.InvalidDeckError``, with the same ``code``/``params``."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code)


class StaleActionError(ValueError):
    """The form was made for an earlier point of the match (or sent twice)."""


class CardsLeftError(ValueError):
    """ "Finish the match" while the player still has a card to play (a stale page)."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """A stored match rebuilt: the row and its record (state, log by round, snapshots)."""

    match: Match
    record: Replay

    @property
    def state(self) -> MatchState:
        return self.record.state


def _decks(match: Match) -> tuple[tuple[MatchCard, ...], tuple[MatchCard, ...]]:
    return (
        tuple(match_card_from_json(c) for c in match.deck_a),
        tuple(match_card_from_json(c) for c in match.deck_b),
    )


def _replay(match: Match) -> Replay:
    deck_a, deck_b = _decks(match)
    return replay(deck_a, deck_b, match.seed, [action_from_json(a) for a in match.actions])


def load(match: Match) -> Loaded:
    """Rebuild a match by replaying its actions (``engine.match.replay``)."""
    return Loaded(match, _replay(match))


def _bot_rng(seed: int, state: MatchState) -> random.Random:
    return random.Random(seed * 1_000_003 + state.actions)


def _bot_turn(recorder: Recorder, seed: int, bot_name: str) -> None:
    """The bot's Prepare: it acts until it has committed (or the match is over)."""
    take_turn(make_bot(bot_name), recorder, B, _bot_rng(seed, recorder.state))


# ---------------------------------------------------------------------------
# Starting a match


def _player_deck(tokens: Sequence[int]) -> tuple[MatchCard, ...]:
    specs = {spec.token: spec for spec in card_specs(tokens)}
    if any(t not in specs for t in tokens):
        raise DeckError("unknown_card")
    return tuple(MatchCard.from_breakdown(derive(specs[t]), specs[t].name) for t in tokens)


def _temporary(spec: Any) -> MatchCard:
    card_id = f"bot-{spec.token}"
    return MatchCard.from_breakdown(derive(spec, temporary_id=card_id), spec.name, card_id)


def choose_bot_deck(player: Sequence[MatchCard], rng: random.Random) -> tuple[MatchCard, ...]:
    """A bot deck of similar strength: for each of the player's cards, a collection card of
    the same rarity (the nearest rarity when there is none) whose strength is closest among
    a few drawn at random. Bot cards are temporary copies: their active skill is rolled
    (docs/rules.md §4)."""
    rows = list(Card.objects.order_by("token").values_list("token", "rarity"))
    mine = {c.id for c in player}
    by_rarity: dict[str, list[int]] = {}
    for token, rarity in rows:
        by_rarity.setdefault(rarity, []).append(token)
    order = [r.value for r in Rarity]
    wanted: dict[int, list[int]] = {}
    pool: set[int] = set()
    for i, card in enumerate(player):
        rank = order.index(card.rarity.value)
        near = sorted(order, key=lambda r: (abs(order.index(r) - rank), -order.index(r)))
        for rarity in near:
            options = [t for t in by_rarity.get(rarity, []) if str(t) not in mine]
            if options:
                break
        else:  # the collection holds only the player's cards: copy them
            options = [t for t, _ in rows]
        drawn = rng.sample(options, min(BOT_CANDIDATES_PER_CARD, len(options)))
        wanted[i] = drawn
        pool.update(drawn)
    specs = {spec.token: spec for spec in card_specs(sorted(pool))}
    candidates = {t: _temporary(specs[t]) for t in pool if t in specs}
    used: set[int] = set()
    deck: list[MatchCard] = []
    for i in sorted(range(len(player)), key=lambda i: -card_strength(player[i])):
        target = card_strength(player[i])
        options = [t for t in wanted[i] if t in candidates and t not in used]
        if not options:
            options = [t for t in candidates if t not in used]
        if not options:
            continue
        best = min(options, key=lambda t: (abs(card_strength(candidates[t]) - target), t))
        used.add(best)
        deck.append(candidates[best])
    return tuple(deck)


@dataclass(frozen=True, slots=True)
class Started:
    """A new match, and the session's matches set aside to make room for it (oldest
    first; usually none)."""

    match: Match
    set_aside: list[Match]


def _make_room(session_key: str) -> list[Match]:
    """Set aside the session's oldest matches in progress so that the new one keeps it at
    ``ACTIVE_MATCHES_PER_SESSION``; the matches set aside."""
    active = list(
        Match.objects.filter(owner_session_key=session_key, status=MatchStatus.ACTIVE)
        .only("id", "public_id", "rounds", "created_at", "updated_at", "status")
        .order_by("created_at", "id")
    )
    excess = active[: max(0, len(active) - limits.ACTIVE_MATCHES_PER_SESSION + 1)]
    if excess:
        # Its last move stays its time: the session's list keeps its order, and cleanup
        # counts a day from the last move.
        Match.objects.filter(pk__in=[m.pk for m in excess]).update(status=MatchStatus.ABANDONED)
        for m in excess:
            m.status = MatchStatus.ABANDONED
    return excess


def _create(
    session_key: str,
    player: Sequence[MatchCard],
    bot_deck: Sequence[MatchCard],
    seed: int,
    bot: str,
) -> Started:
    recorder = Recorder(new_match(player, bot_deck, seed), log=False)
    _bot_turn(recorder, seed, bot)
    with transaction.atomic():
        set_aside = _make_room(session_key)
        match = Match.objects.create(
            owner_session_key=session_key,
            seed=seed,
            bot=bot,
            deck_a=[match_card_to_json(c) for c in player],
            deck_b=[match_card_to_json(c) for c in bot_deck],
            actions=[action_to_json(a) for a in recorder.actions],
            rounds=recorder.state.round,
        )
    return Started(match, set_aside)


def start_match(
    session_key: str,
    tokens: Sequence[int],
    *,
    bot: str = BOT_NAME,
    seed: int | None = None,
) -> Started:
    """Create a match between the player's cards (by token) and a bot deck, played by
    ``bot``; the bot then prepares round 1. Raises InvalidDeckError (the engine's deck
    rules, checked before any card is loaded), DeckError("unknown_card") or KeyError for
    a bot that does not exist."""
    tokens = list(tokens)
    make_bot(bot)  # an unknown bot is refused before anything is loaded
    validate_deck_ids([str(t) for t in tokens])
    player = _player_deck(tokens)
    if seed is None:
        seed = secrets.randbelow(2**31)
    bot_deck = choose_bot_deck(player, random.Random(seed))
    return _create(session_key, player, bot_deck, seed, bot)


def rematch(public_id: Any, session_key: str, *, seed: int | None = None) -> Started:
    """A new match with the same two decks (as they were when the match started) and the
    same bot, on a new seed. Match.DoesNotExist when the match is not this session's."""
    match = Match.objects.only("deck_a", "deck_b", "bot").get(
        public_id=public_id, owner_session_key=session_key
    )
    deck_a, deck_b = _decks(match)
    if seed is None:
        seed = secrets.randbelow(2**31)
    return _create(session_key, deck_a, deck_b, seed, match.bot)


# ---------------------------------------------------------------------------
# Playing


def _resume(public_id: Any, session_key: str, turn: int) -> tuple[Match, Recorder]:
    """The session's match, locked, and a recorder going on from it (inside a
    transaction). StaleActionError for a form made for another point of the match;
    IllegalActionError("match_over") for a match set aside."""
    match = Match.objects.select_for_update().get(
        public_id=public_id, owner_session_key=session_key
    )
    if match.abandoned:
        raise IllegalActionError("match_over")
    recorder = Recorder.resume(_replay(match))
    if turn != recorder.state.actions:
        raise StaleActionError(turn)
    return match, recorder


def _store(match: Match, recorder: Recorder, stored: int) -> Loaded:
    """Save the actions recorded after the first ``stored`` ones, and the match's status."""
    state = recorder.state
    new = recorder.actions[stored:]
    match.actions = [*match.actions, *(action_to_json(a) for a in new)]
    match.status = Match.status_of(state)
    match.end_reason = state.end_reason or ""
    match.rounds = state.round
    match.save(update_fields=["actions", "status", "end_reason", "rounds", "updated_at"])
    return Loaded(match, recorder.record())


def play_move(public_id: Any, session_key: str, turn: int, action: Action) -> Loaded:
    """Apply the player's action to their match (and the bot's reply), atomically.

    ``turn`` is the action count the form was made for: a different one (a stale page or a
    second submit) raises StaleActionError; an illegal action raises IllegalActionError.
    Either way nothing is stored. Match.DoesNotExist when the match is not this session's.
    The stored actions are replayed once; the new ones are recorded onto that replay.
    """
    with transaction.atomic():
        match, recorder = _resume(public_id, session_key, turn)
        stored = len(recorder.actions)
        recorder.play(action)
        if not recorder.state.over and not recorder.state.players[B].committed:
            _bot_turn(recorder, match.seed, match.bot)
        return _store(match, recorder, stored)


def finish_match(public_id: Any, session_key: str, turn: int) -> Loaded:
    """Play a match out at once when the player has no card left (``out_of_cards``): the
    player's side commits each round (after its Hero Patch, while that adds HP) and the
    bot plays as it would have; the events are recorded as usual. The same refusals as
    ``play_move``, and CardsLeftError while the player still has a card."""
    with transaction.atomic():
        match, recorder = _resume(public_id, session_key, turn)
        if recorder.state.over:
            raise IllegalActionError("match_over")
        if not out_of_cards(recorder.state, A):
            raise CardsLeftError()
        stored = len(recorder.actions)
        seed = match.seed
        play_out(
            recorder,
            (PlayOutBot(), make_bot(match.bot)),
            lambda side, state: _bot_rng(seed, state),
        )
        return _store(match, recorder, stored)


# ---------------------------------------------------------------------------
# Cleaning up


def cleanup(now: datetime | None = None) -> int:
    """Delete matches left unfinished (in progress, or set aside) for
    ``limits.ABANDONED_AFTER``; how many. Finished matches stay: their replays are
    permalinks that may have been shared. (``manage.py cleanup`` runs it.)"""
    now = now or timezone.now()
    stale = Match.objects.filter(
        status__in=(MatchStatus.ACTIVE, MatchStatus.ABANDONED),
        updated_at__lt=now - limits.ABANDONED_AFTER,
    )
    matches, _ = stale.delete()
    return matches


# ---------------------------------------------------------------------------
# Balance report


def _mix_key(deck: Sequence[MatchCard]) -> str:
    counts = Counter(c.rarity.value for c in deck)
    return ",".join(f"{r.value}:{counts[r.value]}" for r in Rarity if counts[r.value])


def run_balance_report(
    matches: int = 10_000,
    seed: int = 0,
    *,
    deck_size: int = DECK_MAX,
    bots: tuple[str, str] = ("greedy", "greedy"),
    progress: Callable[[int], None] | None = None,
) -> BalanceReport:
    """Play bot-vs-bot matches between random decks from the catalogue; store the result.

    Each deck first draws its rarity mix uniformly among the mixes the catalogue can
    field (so every mix gets its share of games), then its cards uniformly within each
    rarity. Match i uses seed ``seed + i``. Free (starter) cards stay out, as in every
    rarity statistic (docs/rules.md §2).
    """
    started = time.perf_counter()
    cards: dict[str, list[MatchCard]] = {}
    for batch in iter_card_specs(Card.objects.collectible()):
        for _, spec in batch:
            card = MatchCard.from_breakdown(derive(spec), spec.name)
            cards.setdefault(card.rarity.value, []).append(card)
    total_cards = sum(len(v) for v in cards.values())
    rarities = [r.value for r in Rarity if cards.get(r.value)]
    mixes = [
        mix
        for mix in combinations_with_replacement(rarities, deck_size)
        if all(len(cards[r]) >= mix.count(r) for r in mix)
    ]
    if not mixes:
        raise DeckError("empty")
    rng = random.Random(seed)
    series = Series()
    by_mix, by_rarity, by_role, by_gap, edge = Tally(), Tally(), Tally(), Tally(), Tally()
    players = [make_bot(bots[0]), make_bot(bots[1])]

    def deck() -> tuple[MatchCard, ...]:
        mix = rng.choice(mixes)
        picked: list[MatchCard] = []
        for rarity in dict.fromkeys(mix):  # mix order: set order varies between runs
            picked.extend(rng.sample(cards[rarity], mix.count(rarity)))
        rng.shuffle(picked)
        return tuple(picked)

    for i in range(matches):
        deck_a, deck_b = deck(), deck()
        state = play_match(deck_a, deck_b, players, seed + i).state
        series.add(state)
        for side, own in ((A, deck_a), (B, deck_b)):
            by_mix.add_result(_mix_key(own), state, side)
            for card in own:
                by_rarity.add_result(card.rarity.value, state, side)
                by_role.add_result(card.role.value, state, side)
        rank_a = sum(c.rarity.rank for c in deck_a)
        rank_b = sum(c.rarity.rank for c in deck_b)
        if rank_a != rank_b:
            higher = A if rank_a > rank_b else B
            gap = abs(rank_a - rank_b)
            bucket = "1-2" if gap <= 2 else ("3-4" if gap <= 4 else "5+")
            edge.add_result("all", state, higher)
            by_gap.add_result(bucket, state, higher)
        if progress is not None and (i + 1) % 1000 == 0:
            progress(i + 1)
    seconds = time.perf_counter() - started
    data = {
        "by_mix": by_mix.to_json(sorted(by_mix.keys(), key=str)),  # the keys are strings
        "by_rarity": by_rarity.to_json(rarities),
        "by_role": by_role.to_json(sorted(by_role.keys(), key=str)),
        "higher_rarity": {
            "games": edge.games("all"),
            "wins": edge.wins("all"),
            "losses": edge.losses("all"),
            "draws": edge.draws("all"),
        },
        "by_rarity_gap": by_gap.to_json(("1-2", "3-4", "5+")),
        "average_rounds": series.average_rounds(),
        "end_reasons": series.end_reasons(),
        "mixes": len(mixes),
    }
    versions.bump("balance")
    return BalanceReport.objects.create(
        matches=matches,
        seed=seed,
        deck_size=deck_size,
        bots=",".join(bots),
        cards=total_cards,
        seconds=round(seconds, 3),
        data=data,
    )
