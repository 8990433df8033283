"""play.services: bot decks of similar strength, reproducible matches, move parsing."""

from __future__ import annotations

import random

import pytest

from engine.bots import card_strength
from engine.match import Boost, Commit, IllegalActionError, Pick, Surrender, replay
from play import services
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
    match = services.start_match("k" * 32, [2, 9], seed=77)
    loaded = services.load(match)
    assert loaded.state.players[1].committed
    deck_a, deck_b = services._decks(match)
    from engine.match import action_from_json

    state, log = replay(deck_a, deck_b, 77, [action_from_json(a) for a in match.actions])
    assert state == loaded.state and log == loaded.log
    assert loaded.snapshots[0].round == 1


def test_play_move_refuses_other_sessions(collection):
    match = services.start_match("a" * 32, [1], seed=1)
    with pytest.raises(Match.DoesNotExist):
        services.play_move(match.public_id, "b" * 32, "2", "pick:0")


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
    assert services.parse_move(move) == action


@pytest.mark.parametrize(
    "move",
    ["", "pick", "pick:", "pick:x", "pick:1:2", "boost:switch", "boost", "pick:²", "pick:9999"],
)
def test_parse_move_refuses_junk(move):
    with pytest.raises(IllegalActionError):
        services.parse_move(move)
