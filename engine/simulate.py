"""Bot-vs-bot matches: one match and a series (the command line is ``engine.cli.simulate``).

Game ``i`` of a series uses seed ``S + i``; bot A draws from
``random.Random(2 * seed)`` and bot B from ``random.Random(2 * seed + 1)``,
so any single game can be replayed from its seed.

>>> from engine.match import MatchCard
>>> from engine.types import Rarity, Role
>>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20, def_=2)
>>> fang = MatchCard("2", "Fang", Rarity.COMMON, Role.STRIKER, atk=12, hp=12)
>>> summary = run_series((pup,), (fang,), ("greedy", "greedy"), seed=5, games=3)
>>> summary["games"], summary["wins"]["a"] + summary["wins"]["b"] + summary["draws"]
(3, 3)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.bots import Bot, make_bot
from engine.match import (
    SIDES,
    A,
    Action,
    B,
    Event,
    InvalidDeckError,
    MatchCard,
    MatchState,
    apply,
    new_match,
    opening_events,
    validate_deck,
)
from engine.types import InvalidCardError

__all__ = [
    "MatchRecord",
    "load_decks",
    "play_match",
    "run_series",
]


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A finished match: the final state, its actions and (when asked for) its events."""

    state: MatchState
    actions: tuple[Action, ...]
    events: tuple[Event, ...]


def bot_rngs(seed: int) -> tuple[random.Random, random.Random]:
    """The two bots' random sources for a match seed."""
    return random.Random(2 * seed), random.Random(2 * seed + 1)


def play_match(
    deck_a: Sequence[MatchCard],
    deck_b: Sequence[MatchCard],
    bots: Sequence[Bot | str],
    seed: int,
    *,
    log: bool = False,
) -> MatchRecord:
    """Play one match to its end: A prepares and commits first each round, then B."""
    players = [make_bot(b) if isinstance(b, str) else b for b in bots]
    rngs = bot_rngs(seed)
    state = new_match(deck_a, deck_b, seed)
    actions: list[Action] = []
    events: list[Event] = list(opening_events(state)) if log else []
    while not state.over:
        round_ = state.round
        for side in (A, B):
            bot = players[side]
            rng = rngs[side]
            while not state.over and state.round == round_:
                if state.players[side].committed:
                    break
                action = bot.act(state, side, rng)
                state, ev = apply(state, action)
                actions.append(action)
                if log:
                    events.extend(ev)
    return MatchRecord(state, tuple(actions), tuple(events))


def run_series(
    deck_a: Sequence[MatchCard],
    deck_b: Sequence[MatchCard],
    bots: Sequence[str],
    seed: int,
    games: int,
) -> dict[str, Any]:
    """Play ``games`` matches (game i with seed ``seed + i``) and sum them up as JSON data."""
    wins = {"a": 0, "b": 0}
    draws = 0
    rounds = 0
    reasons: dict[str, int] = {}
    players = [make_bot(b) for b in bots]
    for i in range(games):
        state = play_match(deck_a, deck_b, players, seed + i).state
        if state.winner is None:
            draws += 1
        else:
            wins[SIDES[state.winner]] += 1
        rounds += state.round
        reasons[state.end_reason or ""] = reasons.get(state.end_reason or "", 0) + 1
    return {
        "games": games,
        "seed": seed,
        "bots": {"a": bots[0], "b": bots[1]},
        "wins": wins,
        "draws": draws,
        "win_rate": {k: (v / games if games else 0.0) for k, v in wins.items()},
        "average_rounds": round(rounds / games, 2) if games else 0.0,
        "end_reasons": dict(sorted(reasons.items())),
    }


def load_decks(data: Any) -> tuple[tuple[MatchCard, ...], tuple[MatchCard, ...]]:
    """Decks from ``{"a": [cards], "b": [cards]}``, each card in ``derive``'s input schema.

    Raises InvalidDeckError (one readable line) for anything wrong.
    """
    from engine.derive import derive
    from engine.serialize import card_from_json

    if not isinstance(data, Mapping):
        raise InvalidDeckError(
            "format", 'The decks file must be an object {"a": [...], "b": [...]}.'
        )
    decks = []
    for side in SIDES:
        raw = data.get(side)
        if not isinstance(raw, list):
            raise InvalidDeckError("format", f'Deck "{side}" must be a list of cards.', side=side)
        cards = []
        for i, item in enumerate(raw):
            try:
                spec = card_from_json(item)
            except InvalidCardError as exc:
                raise InvalidDeckError(
                    "invalid_card", f"Deck {side}, card {i + 1}: {exc}", side=side, index=i
                ) from None
            cards.append(MatchCard.from_breakdown(derive(spec), spec.name or f"#{spec.token}"))
        try:
            decks.append(validate_deck(cards))
        except InvalidDeckError as exc:
            raise InvalidDeckError(exc.code, f"Deck {side}: {exc.message}", side=side) from None
    return decks[0], decks[1]
