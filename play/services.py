"""Writes of the match demo: start a match, play the player's action (and the bot's reply),
and run the balance report.

The player is side A, the bot side B. The bot prepares and commits at the start of each
round (its boosts show at once; its pick stays hidden until the cards enter), so the
player's Commit is the one that resolves the round.
"""

from __future__ import annotations

import random
import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from django.db import transaction

from cards.models import Card
from cards.specs import card_specs, iter_card_specs
from core import versions
from engine.bots import card_strength, make_bot
from engine.data import DECK_MAX, DECK_MIN
from engine.derive import derive
from engine.match import (
    A,
    Action,
    B,
    Boost,
    Commit,
    Event,
    IllegalActionError,
    MatchCard,
    MatchState,
    Pick,
    Surrender,
    apply,
    new_match,
    opening_events,
)
from engine.serialize import action_from_json, action_to_json
from engine.serialize import match_card_from_json as card_from_json
from engine.serialize import match_card_to_json as card_to_json
from engine.simulate import play_match
from engine.types import Rarity

from .models import BalanceReport, Match, MatchStatus

__all__ = [
    "DeckError",
    "Loaded",
    "StaleActionError",
    "choose_bot_deck",
    "load",
    "parse_move",
    "play_move",
    "run_balance_report",
    "start_match",
]

BOT_NAME = "greedy"
# How many collection cards of the same rarity the bot looks at for each card of yours.
BOT_CANDIDATES_PER_CARD = 8


class DeckError(ValueError):
    """The cards chosen for a new match cannot make a deck (``code`` says why)."""

    def __init__(self, code: str) -> None:
        self.code = code
        super().__init__(code)


class StaleActionError(ValueError):
    """The form was made for an earlier point of the match (or sent twice)."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """A stored match rebuilt: its state, its whole log, and the state after each round."""

    match: Match
    state: MatchState
    log: tuple[Event, ...]
    snapshots: tuple[MatchState, ...]


def _decks(match: Match) -> tuple[tuple[MatchCard, ...], tuple[MatchCard, ...]]:
    return (
        tuple(card_from_json(c) for c in match.deck_a),
        tuple(card_from_json(c) for c in match.deck_b),
    )


def load(match: Match) -> Loaded:
    """Rebuild a match by replaying its actions. ``snapshots[k]`` is the state when round
    ``k + 1`` began (the last one is the final state of a finished match)."""
    deck_a, deck_b = _decks(match)
    state = new_match(deck_a, deck_b, match.seed)
    log = list(opening_events(state))
    snapshots = [state]
    for data in match.actions:
        state, events = apply(state, action_from_json(data))
        log.extend(events)
        if state.round != snapshots[-1].round or (state.over and not snapshots[-1].over):
            snapshots.append(state)
    return Loaded(match, state, tuple(log), tuple(snapshots))


def _bot_rng(seed: int, state: MatchState) -> random.Random:
    return random.Random(seed * 1_000_003 + state.actions)


def _bot_turn(state: MatchState, seed: int, bot_name: str) -> tuple[MatchState, list[Action]]:
    """The bot's Prepare: act until it has committed (or the match is over)."""
    bot = make_bot(bot_name)
    rng = _bot_rng(seed, state)
    actions: list[Action] = []
    while not state.over and not state.players[B].committed:
        action = bot.act(state, B, rng)
        state, _ = apply(state, action)
        actions.append(action)
    return state, actions


# ---------------------------------------------------------------------------
# Starting a match


def _player_deck(tokens: Sequence[int]) -> tuple[MatchCard, ...]:
    specs = {spec.token: spec for spec in card_specs(tokens)}
    if len(specs) != len(tokens):
        raise DeckError("unknown_card")
    return tuple(MatchCard.from_breakdown(derive(specs[t]), specs[t].name) for t in tokens)


def _temporary(spec: Any) -> MatchCard:
    card_id = f"bot-{spec.token}"
    return MatchCard.from_breakdown(derive(spec, temporary_id=card_id), spec.name, card_id)


def choose_bot_deck(player: Sequence[MatchCard], rng: random.Random) -> tuple[MatchCard, ...]:
    """A bot deck of similar strength: for each of the player's cards, a collection card of
    the same rarity (the nearest rarity when there is none) whose strength is closest among
    a few drawn at random. Bot cards are temporary copies: their active skill is rolled
    (RULES.md §4)."""
    rows = list(Card.objects.order_by("token").values_list("token", "rarity"))
    mine = {int(c.id) for c in player if c.id.isdigit()}
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
            options = [t for t in by_rarity.get(rarity, []) if t not in mine]
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


def start_match(session_key: str, tokens: Sequence[int], *, seed: int | None = None) -> Match:
    """Create a match between the player's cards (by token) and a bot deck; the bot then
    prepares round 1. Raises DeckError for a bad choice of cards."""
    tokens = list(tokens)
    if len(tokens) < DECK_MIN:
        raise DeckError("empty")
    if len(tokens) > DECK_MAX:
        raise DeckError("too_many")
    if len(set(tokens)) != len(tokens):
        raise DeckError("duplicate")
    player = _player_deck(tokens)
    if seed is None:
        seed = secrets.randbelow(2**31)
    bot_deck = choose_bot_deck(player, random.Random(seed))
    state = new_match(player, bot_deck, seed)
    state, actions = _bot_turn(state, seed, BOT_NAME)
    return Match.objects.create(
        owner_session_key=session_key,
        seed=seed,
        bot=BOT_NAME,
        deck_a=[card_to_json(c) for c in player],
        deck_b=[card_to_json(c) for c in bot_deck],
        actions=[action_to_json(a) for a in actions],
        rounds=state.round,
    )


# ---------------------------------------------------------------------------
# Playing


def parse_move(move: str) -> Action:
    """The player's action from a form button value: ``pick:2``, ``boost:rage``,
    ``boost:switch:1``, ``commit`` or ``surrender``. IllegalActionError("bad_action")."""
    parts = str(move).split(":")
    if parts == ["commit"]:
        return Commit(A)
    if parts == ["surrender"]:
        return Surrender(A)
    number = parts[-1].isascii() and parts[-1].isdigit() and len(parts[-1]) <= 3
    if parts[0] == "pick" and len(parts) == 2 and number:
        return Pick(A, int(parts[1]))
    if parts[0] == "boost" and len(parts) == 2 and parts[1] != "switch":
        return Boost(A, parts[1])
    if parts[0] == "boost" and len(parts) == 3 and parts[1] == "switch" and number:
        return Boost(A, "switch", int(parts[2]))
    raise IllegalActionError("bad_action")


def _status(state: MatchState) -> str:
    if not state.over:
        return MatchStatus.ACTIVE
    if state.winner is None:
        return MatchStatus.DRAW
    return MatchStatus.WON if state.winner == A else MatchStatus.LOST


def play_move(public_id: Any, session_key: str, turn: str, move: str) -> Loaded:
    """Apply the player's move to their match (and the bot's reply), atomically.

    ``turn`` is the action count the form was made for: a different one (a stale page or a
    second submit) raises StaleActionError; an illegal move raises IllegalActionError.
    Either way nothing is stored. Match.DoesNotExist when the match is not this session's.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().get(
            public_id=public_id, owner_session_key=session_key
        )
        deck_a, deck_b = _decks(match)
        state = new_match(deck_a, deck_b, match.seed)
        for data in match.actions:
            state, _ = apply(state, action_from_json(data))
        if str(turn) != str(state.actions):
            raise StaleActionError(turn)
        action = parse_move(move)
        state, _ = apply(state, action)
        new = [action]
        if not state.over and not state.players[B].committed:
            state, bot_actions = _bot_turn(state, match.seed, match.bot)
            new.extend(bot_actions)
        match.actions = [*match.actions, *(action_to_json(a) for a in new)]
        match.status = _status(state)
        match.end_reason = state.end_reason or ""
        match.rounds = state.round
        match.save(update_fields=["actions", "status", "end_reason", "rounds", "updated_at"])
    return load(match)


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
    rarity statistic (RULES.md §2).
    """
    started = time.perf_counter()
    cards: dict[str, list[MatchCard]] = {}
    for batch in iter_card_specs(Card.objects.filter(starter=False)):
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
    by_mix: dict[str, list[int]] = {}
    by_rarity: dict[str, list[int]] = {}
    by_role: dict[str, list[int]] = {}
    edge = {"games": 0, "wins": 0, "losses": 0, "draws": 0}
    by_gap: dict[str, list[int]] = {}
    reasons: Counter[str] = Counter()
    rounds = 0
    players = [make_bot(bots[0]), make_bot(bots[1])]

    def deck() -> tuple[MatchCard, ...]:
        mix = rng.choice(mixes)
        picked: list[MatchCard] = []
        for rarity in dict.fromkeys(mix):  # mix order: set order varies between runs
            picked.extend(rng.sample(cards[rarity], mix.count(rarity)))
        rng.shuffle(picked)
        return tuple(picked)

    def add(table: dict[str, list[int]], key: str, outcome: int) -> None:
        row = table.setdefault(key, [0, 0, 0])  # games, wins, draws
        row[0] += 1
        if outcome == 1:
            row[1] += 1
        elif outcome == 0:
            row[2] += 1

    for i in range(matches):
        deck_a, deck_b = deck(), deck()
        state = play_match(deck_a, deck_b, players, seed + i).state
        rounds += state.round
        reasons[state.end_reason or ""] += 1
        for side, own in ((A, deck_a), (B, deck_b)):
            outcome = 0 if state.winner is None else (1 if state.winner == side else -1)
            add(by_mix, _mix_key(own), outcome)
            for card in own:
                add(by_rarity, card.rarity.value, outcome)
                add(by_role, card.role.value, outcome)
        rank_a = sum(c.rarity.rank for c in deck_a)
        rank_b = sum(c.rarity.rank for c in deck_b)
        if rank_a != rank_b:
            higher = A if rank_a > rank_b else B
            gap = abs(rank_a - rank_b)
            bucket = "1-2" if gap <= 2 else ("3-4" if gap <= 4 else "5+")
            edge["games"] += 1
            if state.winner is None:
                edge["draws"] += 1
                outcome = 0
            elif state.winner == higher:
                edge["wins"] += 1
                outcome = 1
            else:
                edge["losses"] += 1
                outcome = -1
            add(by_gap, bucket, outcome)
        if progress is not None and (i + 1) % 1000 == 0:
            progress(i + 1)
    seconds = time.perf_counter() - started
    data = {
        "by_mix": {k: by_mix[k] for k in sorted(by_mix)},
        "by_rarity": {r: by_rarity[r] for r in rarities if r in by_rarity},
        "by_role": dict(sorted(by_role.items())),
        "higher_rarity": edge,
        "by_rarity_gap": {k: by_gap[k] for k in ("1-2", "3-4", "5+") if k in by_gap},
        "average_rounds": round(rounds / matches, 2) if matches else 0,
        "end_reasons": dict(sorted(reasons.items())),
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
