"""play.services: bot decks of similar strength, reproducible matches, move parsing."""

from __future__ import annotations

import random

import pytest

from engine.match import (
    DECK_ERROR_CODES,
    Boost,
    Commit,
    IllegalActionError,
    InvalidDeckError,
    Pick,
    Surrender,
    replay,
)
from engine.match.bots import card_strength
from engine.serialize import action_from_json
from play import services
from play.forms import parse_move
from play.models import Match

pytestmark = pytest.mark.django_db


def test_bot_deck_matches_rarities_and_is_seeded(collection):
    player = services._player_deck([1, 6, 7, 10])
    one = services.choose_bot_deck(player, random.Random(5))
    two = services.choose_bot_deck(player, random.Random(5))
    assert one == two
    assert sorted(c.rarity.value for c in one) == sorted(c.rarity.value for c in player)
    assert all(c.id.startswith("bot-") for c in one)
    assert not {c.id[4:] for c in one} & {c.id for c in player}
    total = sum(card_strength(c) for c in player)
    assert abs(sum(card_strength(c) for c in one) - total) / total < 0.35


def test_a_stored_match_replays_to_the_same_state(collection):
    match = services.start_match("k" * 32, [2, 9], seed=77).match
    loaded = services.load(match)
    assert loaded.state.players[1].committed
    deck_a, deck_b = services._decks(match)
    record = replay(deck_a, deck_b, 77, [action_from_json(a) for a in match.actions])
    assert record == loaded.record
    assert loaded.record.snapshots[0].round == 1


def test_a_move_is_recorded_onto_the_stored_replay(collection):
    match = services.start_match("k" * 32, [2, 9], seed=77).match
    turn = services.load(match).state.actions
    after = services.play_move(match.public_id, "k" * 32, turn, Pick(0, 0))
    after = services.play_move(match.public_id, "k" * 32, turn + 1, Commit(0))
    # What the move returns is what a fresh load rebuilds from the stored actions.
    assert after.record == services.load(Match.objects.get(pk=match.pk)).record
    assert after.state.round == 2 and after.state.players[1].committed


@pytest.mark.parametrize(
    ("tokens", "code"), [([], "empty"), ([1, 2, 3, 4, 5], "too_many"), ([1, 1], "duplicate")]
)
def test_deck_rules_are_the_engines(collection, tokens, code):
    with pytest.raises(InvalidDeckError) as info:
        services.start_match("k" * 32, tokens)
    assert info.value.code == code and code in DECK_ERROR_CODES
    assert not Match.objects.exists()


def test_an_unknown_card_is_the_sites_own_error(collection):
    with pytest.raises(services.DeckError) as info:
        services.start_match("k" * 32, [1, 999])
    assert info.value.code == "unknown_card"


def test_play_move_refuses_other_sessions(collection):
    match = services.start_match("a" * 32, [1], seed=1).match
    with pytest.raises(Match.DoesNotExist):
        services.play_move(match.public_id, "b" * 32, 2, Pick(0, 0))


@pytest.mark.parametrize(
    ("move", "action"),
    [
        ("commit", Commit(0)),
        ("surrender", Surrender(0)),
        ("pick:3", Pick(0, 3)),
        ("boost:rage", Boost(0, "rage")),
        ("boost:switch:2", Boost(0, "switch", 2)),
    ],
)
def test_parse_move(move, action):
    assert parse_move(move) == action


@pytest.mark.parametrize(
    "move",
    ["", "pick", "pick:", "pick:x", "pick:1:2", "boost:switch", "boost", "pick:²", "pick:9999"],
)
def test_parse_move_refuses_junk(move):
    with pytest.raises(IllegalActionError):
        parse_move(move)
