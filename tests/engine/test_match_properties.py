"""Hypothesis properties of the match engine (docs/rules.md §6 invariants)."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.data import BOOSTS_PER_ROUND, MAX_HERO_HP_CEILING, NRG_CAP, ROUND_LIMIT
from engine.match import (
    BOOST_KEYS,
    A,
    B,
    Boost,
    CardEffect,
    Commit,
    IllegalActionError,
    MatchCard,
    Pick,
    Recorder,
    Surrender,
    apply,
    is_legal,
    legal_actions,
    new_match,
    opening_events,
    replay,
)
from engine.match.bots import RandomBot
from engine.match.simulate import play_match
from engine.types import EffectKind, EffectSlot, Rarity, Role, Skill
from tests.engine.case_runner import accepted

_SLOT_KINDS = {
    EffectSlot.DEPLOY: [
        EffectKind.DAMAGE_CARD,
        EffectKind.DAMAGE_HERO,
        EffectKind.HEAL_HERO,
        EffectKind.SHIELD,
        EffectKind.BUFF_ATK,
    ],
    EffectSlot.PASSIVE: [EffectKind.BURN, EffectKind.WOUNDED_RAGE],
    EffectSlot.LAST_BREATH: [EffectKind.DAMAGE_CARD, EffectKind.DAMAGE_HERO, EffectKind.HEAL_HERO],
}


def _effect(slot: EffectSlot):
    return st.none() | st.builds(CardEffect, st.sampled_from(_SLOT_KINDS[slot]), st.integers(0, 8))


@st.composite
def cards(draw, ident: str) -> MatchCard:
    return MatchCard(
        id=ident,
        name=f"Card {ident}",
        rarity=draw(st.sampled_from(list(Rarity))),
        role=draw(st.sampled_from(list(Role))),
        atk=draw(st.integers(0, 16)),
        hp=draw(st.integers(1, 30)),
        def_=draw(st.integers(0, 5)),
        skill=draw(st.none() | st.sampled_from(list(Skill))),
        deploy=draw(_effect(EffectSlot.DEPLOY)),
        passive=draw(_effect(EffectSlot.PASSIVE)),
        last_breath=draw(_effect(EffectSlot.LAST_BREATH)),
    )


@st.composite
def decks(draw, prefix: str):
    size = draw(st.integers(1, 4))
    return tuple(draw(cards(f"{prefix}{i}")) for i in range(size))


BOTS = st.sampled_from(["random", "greedy"])
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_invariants(state) -> None:
    for p in state.players:
        assert 0 <= p.nrg <= NRG_CAP
        assert 0 <= p.hero_hp <= MAX_HERO_HP_CEILING
        assert all(hp >= 0 for hp in p.card_hp)
        assert all(d >= 0 for d in p.card_def)
        assert p.boosts_round <= BOOSTS_PER_ROUND
    assert 1 <= state.round <= ROUND_LIMIT


@FAST
@given(decks("a"), decks("b"), st.integers(0, 2**32), BOTS, BOTS)
def test_every_match_ends_within_the_limits(deck_a, deck_b, seed, bot_a, bot_b):
    record = play_match(deck_a, deck_b, (bot_a, bot_b), seed, log=True)
    assert record.state.over
    assert record.log[-1].code == "match.end"
    # Walk the match again action by action, checking the invariants after each.
    state = new_match(deck_a, deck_b, seed)
    _check_invariants(state)
    for action in record.actions:
        state, _ = apply(state, action)
        _check_invariants(state)
    assert state == record.state


@FAST
@given(decks("a"), decks("b"), st.integers(0, 2**32), BOTS, BOTS)
def test_replaying_the_actions_reproduces_the_final_state_and_log(deck_a, deck_b, seed, ba, bb):
    record = play_match(deck_a, deck_b, (ba, bb), seed, log=True)
    again = replay(deck_a, deck_b, seed, record.actions)
    assert again == record
    # One step per round (and the opening), each with the state at its end.
    assert len(again.rounds) == len(again.snapshots) == again.state.round + 1
    assert sum(again.rounds, ()) == again.log
    assert [e.code for e in again.rounds[0]] == ["hero.start", "hero.start"]
    for k, (events, snapshot) in enumerate(zip(again.rounds, again.snapshots, strict=True)):
        if k:
            assert events[0].code == "round.start" and events[0].params["round"] == k
        assert snapshot.round == (k + 1 if k < again.state.round else k)
    assert again.snapshots[-1] == again.state


@FAST
@given(decks("a"), decks("b"), st.integers(0, 2**32), st.data())
def test_a_resumed_record_is_the_same_as_one_played_through(deck_a, deck_b, seed, data):
    record = play_match(deck_a, deck_b, ("random", "greedy"), seed, log=True)
    cut = data.draw(st.integers(0, len(record.actions)), label="cut")
    recorder = Recorder.resume(replay(deck_a, deck_b, seed, record.actions[:cut]))
    for action in record.actions[cut:]:
        recorder.play(action)
    assert recorder.record() == record


def _any_action(side: int):
    card = st.integers(-1, 5)
    return st.one_of(
        st.builds(Pick, st.just(side), card),
        st.builds(Boost, st.just(side), st.sampled_from([*BOOST_KEYS, "nap"]), st.none() | card),
        st.just(Commit(side)),
    )


@FAST
@given(decks("a"), decks("b"), st.integers(0, 2**32), st.data())
def test_an_illegal_action_leaves_the_state_unchanged(deck_a, deck_b, seed, data):
    rng = random.Random(seed)
    bot = RandomBot()
    state = new_match(deck_a, deck_b, seed)
    for _ in range(data.draw(st.integers(0, 40), label="steps")):
        if state.over:
            break
        side = A if not state.players[A].committed else B
        state, _ = apply(state, bot.act(state, side, rng))
    side = data.draw(st.sampled_from([A, B]), label="side")
    action = data.draw(_any_action(side), label="action")
    before = copy.deepcopy(state)
    legal = is_legal(state, action)
    try:
        after, events = apply(state, action)
    except IllegalActionError as exc:
        assert not legal
        assert exc.code and str(exc)
        assert state == before
    else:
        assert legal
        assert after.actions == state.actions + 1
        assert events


@FAST
@given(decks("a"), decks("b"), st.integers(0, 2**32), st.sampled_from([A, B]))
def test_surrender_is_a_loss_at_any_point(deck_a, deck_b, seed, side):
    state = new_match(deck_a, deck_b, seed)
    state, events = apply(state, Surrender(side))
    assert state.over and state.winner == 1 - side and state.end_reason == "surrender"
    assert [e.code for e in events] == ["surrender", "match.end"]
    assert len(opening_events(state)) == 3


def _accepted(state, side: int) -> set:
    """Every action of ``side`` that ``apply`` takes in ``state``, out-of-range cards tried."""
    n = len(state.players[side].card_hp)
    cards = [None, *range(-1, n + 1)]
    tried = [Pick(side, i) for i in range(-1, n + 1)]
    tried += [Boost(side, key, card) for key in BOOST_KEYS for card in cards]
    tried += [Commit(side), Surrender(side)]
    return accepted(state, tried, apply, IllegalActionError)


@FAST
@given(decks("a"), decks("b"), st.integers(0, 2**32))
def test_legal_actions_list_exactly_what_apply_accepts(deck_a, deck_b, seed):
    """Both directions, for both sides, in every state of a match: nothing listed is refused
    and nothing accepted is missing from the list."""
    rng = random.Random(seed)
    bot = RandomBot()
    state = new_match(deck_a, deck_b, seed)
    while True:
        for side in (A, B):
            listed = legal_actions(state, side, surrender=True)
            assert len(set(listed)) == len(listed)
            assert set(listed) == _accepted(state, side), (state.round, side)
        if state.over:
            break
        side = A if not state.players[A].committed else B
        state, _ = apply(state, bot.act(state, side, rng))
