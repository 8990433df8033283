"""engine.match: the API around the rules (the rules themselves are in test_match_cases.py)."""

from __future__ import annotations

import json
import random

import pytest

from engine.card.derive import derive
from engine.data import DECK_MAX, MAX_HERO_HP_CEILING, NRG_CAP, ROUND_LIMIT
from engine.match import (
    DECK_ERROR_CODES,
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
    Recorder,
    Surrender,
    apply,
    is_legal,
    legal_actions,
    new_match,
    replay,
    validate_deck_ids,
)
from engine.match.bots import GreedyBot, RandomBot, card_strength, take_turn
from engine.match.simulate import Series, Tally, play_match, run_series
from engine.serialize import (
    action_from_json,
    action_to_json,
    event_to_json,
    match_card_from_json,
    match_card_to_json,
)
from engine.types import (
    AttributeSpec,
    BoostKind,
    CardSpec,
    EffectKind,
    EndReason,
    InvalidCardError,
    Rarity,
    Role,
    Side,
    Slot,
)

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


def test_refusals_carry_the_rule_numbers():
    state = new_match((PUP,), (FANG,))
    state, _ = apply(state, Boost(A, BoostKind.CHARGE))
    with pytest.raises(IllegalActionError) as info:
        apply(state, Boost(A, BoostKind.CHARGE))
    assert (info.value.code, info.value.params) == ("boost_used", {"boost": BoostKind.CHARGE})
    state, _ = apply(state, Pick(A, 0))
    state, _ = apply(state, Boost(A, BoostKind.RAGE))
    with pytest.raises(IllegalActionError) as info:
        apply(state, Boost(A, BoostKind.GUARD_UP))
    assert (info.value.code, info.value.params) == ("boost_limit", {"limit": 2})


def test_events_carry_the_rule_numbers():
    state = new_match((PUP,), (FANG,))
    _, (charge,) = apply(state, Boost(A, "charge"))
    assert charge.params == {"side": "a", "amount": 1, "nrg": NRG_CAP, "cap": NRG_CAP}
    _, (patch,) = apply(state, Boost(A, "hero_patch"))
    assert patch.params["cap"] == MAX_HERO_HP_CEILING
    _, (_, end) = apply(state, Surrender(B))
    assert end.params["round_limit"] == ROUND_LIMIT and end.params["reason"] is EndReason.SURRENDER
    record = play_match((PUP, FANG), (FANG, PUP), ("greedy", "greedy"), seed=1, log=True)
    strikes = [e for e in record.log if e.code.startswith("strike.") and "atk" in e.params]
    assert strikes and all(e.params["threshold"] == 15 for e in strikes)


def test_deck_errors_carry_their_numbers_and_read_as_a_line():
    with pytest.raises(InvalidDeckError) as info:
        validate_deck_ids([str(i) for i in range(DECK_MAX + 1)])
    err = info.value
    assert (err.code, err.params) == ("too_many", {"maximum": DECK_MAX, "count": DECK_MAX + 1})
    assert str(err) == "A deck holds at most 4 cards (this one has 5)."
    with pytest.raises(InvalidDeckError) as info:
        new_match((PUP, "pup"), (FANG,))
    assert info.value.code == "invalid_card" and info.value.params["number"] == 2
    for code in DECK_ERROR_CODES:
        params = {"minimum": 1, "maximum": 4, "count": 5, "card": "1", "number": 1}
        assert str(InvalidDeckError(code, **params))


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
    assert match_card_from_json(json.loads(json.dumps(match_card_to_json(card)))) == card
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
        match_card_from_json({"id": "1", "rarity": "mythic", "role": "tank", "atk": 1, "hp": 1})


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
    again = replay((PUP, FANG), (FANG, PUP), 11, record.actions)
    assert again == record
    assert again.state.actions == len(record.actions)


def test_a_record_without_its_log_keeps_state_and_actions_only():
    fast = play_match((PUP, FANG), (FANG, PUP), ("greedy", "random"), seed=11)
    full = play_match((PUP, FANG), (FANG, PUP), ("greedy", "random"), seed=11, log=True)
    assert (fast.state, fast.actions) == (full.state, full.actions)
    assert fast.log == fast.rounds == fast.snapshots == ()


def test_replay_steps_of_a_match_in_progress():
    actions = [Pick(A, 0), Commit(A), Pick(B, 0), Commit(B), Pick(B, 0)]
    record = replay((PUP, FANG), (FANG, PUP), 0, actions[:-1])
    assert len(record.rounds) == len(record.snapshots) == 3  # opening, round 1, round 2
    assert record.snapshots[1] == record.snapshots[2] == record.state  # round 2 just began
    assert [e.code for e in record.rounds[2]] == ["round.start"]


def test_take_turn_plays_one_side_until_it_commits():
    recorder = Recorder(new_match((PUP, FANG), (FANG,)))
    taken = take_turn(GreedyBot(), recorder, B, random.Random(3))
    assert taken == len(recorder.actions) >= 2
    assert recorder.state.players[B].committed and not recorder.state.players[A].committed
    assert take_turn(GreedyBot(), recorder, B, random.Random(3)) == 0
    # A's Commit resolves the round: the turn ends there, in the next round.
    take_turn(GreedyBot(), recorder, A, random.Random(3))
    assert recorder.state.round == 2


def test_tallies_count_games_wins_and_draws_by_key():
    tally = Tally()
    state = play_match((PUP,), (FANG,), ("greedy", "greedy"), seed=1).state
    tally.add_result("pup", state, Side.A)
    tally.add_result("fang", state, Side.B)
    assert tally.games("pup") == tally.games("fang") == 1
    assert tally.wins("pup") + tally.wins("fang") + tally.draws("pup") == 1
    series = Series()
    series.add(state)
    assert series.games == 1 and series.end_reasons() == {str(state.end_reason): 1}


def test_events_use_documented_codes_and_parameters():
    record = play_match((PUP, FANG), (FANG, PUP), ("random", "random"), seed=3, log=True)
    for event in record.log:
        assert event.code in EVENT_CODES, event.code
        assert set(event.params) == set(EVENT_CODES[event.code]), event
        json.dumps(event_to_json(event))


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
