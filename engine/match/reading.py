"""Reading a match: its beats, a side with nothing left, a deck's energy curve."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.data import (
    DECK_MIN,
    GOLD_INITIAL_PLAYER_ENERGY,
    NRG_CAP,
    NRG_PER_ROUND,
)
from engine.errors import InvalidDeckError
from engine.match.state import Event, MatchState
from engine.types import (
    Beat,
)

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

    >>> from engine.match import A, B, Boost, Commit, MatchCard, Pick, Surrender, new_match, replay

    >>> from engine.types import BoostKind, Rarity, Role

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

    >>> from engine.match import A, B, Boost, Commit, MatchCard, Pick, Surrender, new_match, replay

    >>> from engine.types import BoostKind, Rarity, Role

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
