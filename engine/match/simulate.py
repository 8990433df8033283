"""Bot-vs-bot matches: one match, a series, and the tallies that sum them up (the command
line is ``engine.cli.simulate``; the site's balance report uses the same pieces).

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
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from engine.match import (
    SIDES,
    InvalidDeckError,
    MatchCard,
    MatchState,
    Recorder,
    Replay,
    new_match,
    validate_deck,
)
from engine.match.bots import Bot, make_bot, take_turn
from engine.types import InvalidCardError, Side

_BOTH = (Side.A, Side.B)

__all__ = [
    "Series",
    "Tally",
    "bot_rngs",
    "load_decks",
    "play_match",
    "run_series",
]


class Tally:
    """Games, wins and draws by key (a side, a rarity, a deck mix…), from one side's view.

    >>> tally = Tally()
    >>> tally.add("rare", won=True); tally.add("rare", won=None); tally.add("epic", won=False)
    >>> tally.row("rare"), tally.losses("epic"), tally.to_json()
    ((2, 1, 1), 1, {'rare': [2, 1, 1], 'epic': [1, 0, 0]})
    """

    __slots__ = ("_rows",)

    def __init__(self) -> None:
        self._rows: dict[Hashable, list[int]] = {}

    def add(self, key: Hashable, won: bool | None) -> None:
        """Count one game for ``key``: ``won`` True, False (a loss) or None (a draw)."""
        row = self._rows.get(key)
        if row is None:
            row = self._rows[key] = [0, 0, 0]
        row[0] += 1
        if won:
            row[1] += 1
        elif won is None:
            row[2] += 1

    def add_result(self, key: Hashable, state: MatchState, side: Side) -> None:
        """Count a finished match for ``key`` as ``side`` saw it."""
        self.add(key, None if state.winner is None else state.winner == side)

    def row(self, key: Hashable) -> tuple[int, int, int]:
        """(games, wins, draws) of ``key`` (zeros for a key never counted)."""
        games, wins, draws = self._rows.get(key, (0, 0, 0))
        return games, wins, draws

    def games(self, key: Hashable) -> int:
        return self.row(key)[0]

    def wins(self, key: Hashable) -> int:
        return self.row(key)[1]

    def draws(self, key: Hashable) -> int:
        return self.row(key)[2]

    def losses(self, key: Hashable) -> int:
        games, wins, draws = self.row(key)
        return games - wins - draws

    def keys(self) -> list[Hashable]:
        """The keys counted, in the order first met."""
        return list(self._rows)

    def to_json(self, order: Sequence[Hashable] | None = None) -> dict[str, list[int]]:
        """``{key: [games, wins, draws]}``, in ``order`` (keys not counted left out)."""
        keys = self._rows if order is None else [k for k in order if k in self._rows]
        return {str(k): list(self._rows[k]) for k in keys}


class Series:
    """What a run of matches adds up to: results by side, rounds played, end reasons."""

    __slots__ = ("reasons", "rounds", "sides")

    def __init__(self) -> None:
        self.sides = Tally()
        self.rounds = 0
        self.reasons: Counter[str] = Counter()

    @property
    def games(self) -> int:
        return self.sides.games(SIDES[0])

    def add(self, state: MatchState) -> None:
        """Count one finished match."""
        for side in _BOTH:
            self.sides.add_result(side.key, state, side)
        self.rounds += state.round
        self.reasons[str(state.end_reason or "")] += 1

    def average_rounds(self) -> float:
        return round(self.rounds / self.games, 2) if self.games else 0.0

    def end_reasons(self) -> dict[str, int]:
        return dict(sorted(self.reasons.items()))


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
) -> Replay:
    """Play one match to its end: A prepares and commits first each round, then B.

    The record holds the final state and the actions; with ``log`` also the event log,
    round by round, and the snapshots (as ``engine.match.replay`` would rebuild them).
    """
    players = [make_bot(b) if isinstance(b, str) else b for b in bots]
    rngs = bot_rngs(seed)
    recorder = Recorder(new_match(deck_a, deck_b, seed), log=log)
    while not recorder.state.over:
        for side in _BOTH:
            take_turn(players[side], recorder, side, rngs[side])
    return recorder.record()


def run_series(
    deck_a: Sequence[MatchCard],
    deck_b: Sequence[MatchCard],
    bots: Sequence[str],
    seed: int,
    games: int,
) -> dict[str, Any]:
    """Play ``games`` matches (game i with seed ``seed + i``) and sum them up as JSON data."""
    series = Series()
    players = [make_bot(b) for b in bots]
    for i in range(games):
        series.add(play_match(deck_a, deck_b, players, seed + i).state)
    wins = {key: series.sides.wins(key) for key in SIDES}
    return {
        "games": games,
        "seed": seed,
        "bots": {"a": bots[0], "b": bots[1]},
        "wins": wins,
        "draws": series.sides.draws(SIDES[0]),
        "win_rate": {k: (v / games if games else 0.0) for k, v in wins.items()},
        "average_rounds": series.average_rounds(),
        "end_reasons": series.end_reasons(),
    }


def load_decks(data: Any) -> tuple[tuple[MatchCard, ...], tuple[MatchCard, ...]]:
    """Decks from ``{"a": [cards], "b": [cards]}``, each card in ``derive``'s input schema.

    Raises InvalidDeckError (one readable line) for anything wrong.
    """
    from engine.card.derive import derive
    from engine.serialize import card_from_json

    if not isinstance(data, Mapping):
        raise InvalidDeckError("format")
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
                    "invalid_card",
                    f"Deck {side}, card {i + 1}: {exc}",
                    side=side,
                    index=i,
                    number=i + 1,
                ) from None
            cards.append(MatchCard.from_breakdown(derive(spec), spec.name or f"#{spec.token}"))
        try:
            decks.append(validate_deck(cards))
        except InvalidDeckError as exc:
            raise InvalidDeckError(
                exc.code, f"Deck {side}: {exc.message}", side=side, **exc.params
            ) from None
    return decks[0], decks[1]
