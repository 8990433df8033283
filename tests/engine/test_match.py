"""engine.match: the API around the rules (the rules themselves are in test_match_cases.py)."""

from __future__ import annotations

import json
import random

import pytest

from engine.bots import GreedyBot, RandomBot, card_strength
from engine.derive import derive
from engine.match import (
    EVENT_CODES,
    ILLEGAL_CODES,
    A,
    B,
    Boost,
    CardEffect,
    Commit,
    IllegalActionError,
    InvalidDeckError,
    MatchCard,
    Pick,
    Surrender,
    action_from_json,
    action_to_json,
    apply,
    card_from_json,
    card_to_json,
    is_legal,
    legal_actions,
    new_match,
    replay,
)
from engine.simulate import play_match, run_series
from engine.types import AttributeSpec, CardSpec, EffectKind, InvalidCardError, Rarity, Role, Slot

PUP = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20, def_=2)
FANG = MatchCard("2", "Fang", Rarity.RARE, Role.STRIKER, atk=12, hp=12)


def test_illegal_action_error_has_code_params_and_a_sentence():
    state = new_match((PUP,), (FANG,))
    with pytest.raises(IllegalActionError) as info:
        apply(state, Pick(A, 5))
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.code, err.params) == ("unknown_card", {"card": 5})
    assert str(err) == "Your deck has no card number 5."


def test_every_illegal_code_formats_with_its_parameters():
    params = {"side": "c", "card": 1, "boost": "rage", "limit": 2, "cap": 4}
    for code in ILLEGAL_CODES:
        assert str(IllegalActionError(code, **params))


@pytest.mark.parametrize(
    "action",
    [Pick(2, 0), Pick(A, "0"), Boost(A, "charge", 1), Boost(A, "switch", None), object()],
)
def test_malformed_actions_are_refused(action):
    state = new_match((PUP,), (FANG,))
    with pytest.raises(IllegalActionError):
        apply(state, action)
    assert not is_legal(state, action)


def test_actions_round_trip_through_json():
    for action in (Pick(A, 2), Boost(B, "switch", 1), Boost(A, "rage"), Commit(B), Surrender(A)):
        data = action_to_json(action)
        assert action_from_json(json.loads(json.dumps(data))) == action


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"type": "pick", "side": "c", "card": 1},
        {"type": "fly", "side": "a"},
        {"type": "pick", "side": "a"},
        {"type": "boost", "side": "a", "boost": 3},
        {"type": "pick", "side": "a", "card": True},
    ],
)
def test_bad_action_json_is_refused(data):
    with pytest.raises(IllegalActionError) as info:
        action_from_json(data)
    assert info.value.code == "bad_action"


def test_match_cards_round_trip_and_validate():
    card = MatchCard(
        "7",
        "Hexer",
        Rarity.EPIC,
        Role.CONTROL,
        atk=7,
        hp=16,
        def_=1,
        deploy=CardEffect(EffectKind.DAMAGE_CARD, 2),
        passive=CardEffect(EffectKind.BURN, 2),
        last_breath=CardEffect(EffectKind.DAMAGE_CARD, 3),
    )
    assert card_from_json(json.loads(json.dumps(card_to_json(card)))) == card
    assert card.cost == 3
    with pytest.raises(InvalidCardError):
        MatchCard(
            "8",
            "x",
            Rarity.COMMON,
            Role.TANK,
            atk=1,
            hp=1,
            passive=CardEffect(EffectKind.SHIELD, 1),
        )  # a shield is Deploy only
    with pytest.raises(InvalidCardError):
        card_from_json({"id": "1", "rarity": "mythic", "role": "tank", "atk": 1, "hp": 1})


def test_from_breakdown_takes_stats_effects_cost_and_active_skill():
    spec = CardSpec(
        42,
        "Pup #42",
        (
            AttributeSpec(Slot.HEAD, "Iron Helm", 3),
            AttributeSpec(Slot.BODY, "Chain Armor", 2),
            AttributeSpec(Slot.PAW, "Axe", 3),
            AttributeSpec(Slot.BACKGROUND, "Sky", 900),
        ),
    )
    breakdown = derive(spec)
    card = MatchCard.from_breakdown(breakdown, spec.name)
    assert (card.id, card.atk, card.hp, card.def_) == (
        "42",
        breakdown.stats.atk,
        breakdown.stats.hp,
        breakdown.stats.def_,
    )
    assert card.skill is breakdown.active_skill is not None
    assert card.cost == 4
    assert len(card.effects) == len(breakdown.effects) == 3


def test_temporary_cards_roll_their_skill():
    spec = CardSpec(5, "Pup #5", tuple(AttributeSpec(s, "Plain Dagger", 40) for s in Slot))
    rolls = {
        MatchCard.from_breakdown(derive(spec, temporary_id=f"bot-{i}"), "x", f"bot-{i}").skill
        for i in range(40)
    }
    assert rolls == {None}  # a Common temporary card never has a skill (chance 0)


def test_deck_errors_name_the_side():
    with pytest.raises(InvalidDeckError) as info:
        new_match((PUP,), ())
    assert info.value.code == "empty" and info.value.params["side"] == "b"


def test_legal_actions_are_exactly_the_ones_apply_accepts():
    state = new_match((PUP, FANG), (FANG,))
    state, _ = apply(state, Pick(A, 0))
    state, _ = apply(state, Commit(A))
    state, _ = apply(state, Pick(B, 0))
    state, _ = apply(state, Commit(B))
    legal = legal_actions(state, A, surrender=True)
    assert Boost(A, "switch", 1) in legal and Surrender(A) in legal
    assert all(isinstance(a, (Boost, Commit, Surrender)) for a in legal)
    for action in legal:
        apply(state, action)


def test_replay_rebuilds_state_and_log():
    record = play_match((PUP, FANG), (FANG, PUP), ("greedy", "random"), seed=11, log=True)
    state, log = replay((PUP, FANG), (FANG, PUP), 11, record.actions)
    assert state == record.state
    assert log == record.events
    assert state.actions == len(record.actions)


def test_events_use_documented_codes_and_parameters():
    record = play_match((PUP, FANG), (FANG, PUP), ("random", "random"), seed=3, log=True)
    for event in record.events:
        assert event.code in EVENT_CODES, event.code
        assert set(event.params) <= set(EVENT_CODES[event.code]), event
        json.dumps(event.to_json())


def test_same_seed_same_match_and_series_use_seed_plus_i():
    one = play_match((PUP, FANG), (FANG, PUP), ("random", "random"), seed=9)
    two = play_match((PUP, FANG), (FANG, PUP), ("random", "random"), seed=9)
    assert one == two
    summary = run_series((PUP, FANG), (FANG, PUP), ("random", "random"), seed=5, games=4)
    results = [
        play_match((PUP, FANG), (FANG, PUP), ("random", "random"), seed=5 + i).state
        for i in range(4)
    ]
    assert summary["wins"]["a"] == sum(s.winner == A for s in results)
    assert summary["draws"] == sum(s.winner is None for s in results)


def test_greedy_beats_random_most_of_the_time():
    rng = random.Random(4)
    pool = [
        MatchCard(
            str(i),
            f"C{i}",
            rng.choice(list(Rarity)),
            rng.choice(list(Role)),
            atk=rng.randint(4, 14),
            hp=rng.randint(10, 25),
            def_=rng.randint(0, 3),
        )
        for i in range(12)
    ]
    wins = 0
    for seed in range(60):
        deck = tuple(rng.sample(pool, 3))
        state = play_match(deck, deck, ("greedy", "random"), seed).state
        wins += state.winner == A
    assert wins >= 40


def test_greedy_uses_boosts():
    record = play_match((PUP, FANG), (FANG, PUP), (GreedyBot(), GreedyBot()), seed=2)
    assert any(isinstance(a, Boost) for a in record.actions)


def test_random_bot_never_surrenders():
    bot = RandomBot()
    state = new_match((PUP,), (FANG,))
    rng = random.Random(0)
    for _ in range(50):
        assert not isinstance(bot.act(state, A, rng), Surrender)


def test_card_strength_orders_obvious_cards():
    assert card_strength(FANG) > card_strength(
        MatchCard("3", "Weak", Rarity.COMMON, Role.TANK, atk=1, hp=5)
    )
