"""Starting a match, what is legal now, and applying an action (the Commit, Resolve and Advance beats are ``engine.match.resolve``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.data import (
    BOOSTS_PER_ROUND,
    GOLD_INITIAL_PLAYER_ENERGY,
    HERO_HP,
    HERO_HP_BONUS_PER_ROLE,
    MAX_HERO_HP_CEILING,
    NRG_CAP,
)
from engine.errors import IllegalActionError, InvalidDeckError
from engine.match.cards import MatchCard, hero_start_hp, validate_deck
from engine.match.resolve import _end_event, _initiative, _round_start_event, _Work
from engine.match.state import (
    _ACTION_NAMES,
    _BOOST,
    _OTHER,
    BOOST_KEYS,
    CHARGE,
    GUARD_UP,
    HERO_PATCH,
    RAGE,
    SIDES,
    SWITCH,
    A,
    Action,
    B,
    Boost,
    Commit,
    Event,
    MatchState,
    Pick,
    PlayerState,
    Surrender,
)
from engine.types import (
    BoostKind,
    EndReason,
    Role,
    Side,
)

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

    >>> from engine.match import A, B, Boost, Commit, MatchCard, Pick, Surrender, new_match, replay

    >>> from engine.types import BoostKind, Rarity, Role

    >>> pup = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20)
    >>> refusal_of(new_match((pup,), (pup,)), Boost(A, BoostKind.RAGE)).code
    'no_card'
    """
    problem = _violation(state, action)
    return None if problem is None else IllegalActionError(problem[0], **problem[1])


def legal_actions(state: MatchState, side: int, *, surrender: bool = False) -> list[Action]:
    """Every legal action of ``side`` now (Surrender only when asked for).

    >>> from engine.match import A, B, Boost, Commit, MatchCard, Pick, Surrender, new_match, replay

    >>> from engine.types import BoostKind, Rarity, Role

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
