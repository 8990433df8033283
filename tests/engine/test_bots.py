"""engine.match.bots: the lookahead bot (deterministic, stronger than greedy, blind to the hidden
pick), playing a match out, and the match-reading helpers the demo words (beats, a side
out of cards, the energy curve)."""

from __future__ import annotations

import random

import pytest

from bench.bench_match import make_decks
from engine.match import (
    A,
    B,
    Boost,
    Commit,
    MatchCard,
    Pick,
    Recorder,
    Surrender,
    apply,
    beats,
    energy_curve,
    new_match,
    out_of_cards,
    replay,
)
from engine.match.bots import BOTS, GreedyBot, LookaheadBot, PlayOutBot, make_bot, play_out
from engine.match.simulate import Series, play_match
from engine.types import Beat, BoostKind, BotKind, EndReason, Rarity, Role

PUP = MatchCard("1", "Pup", Rarity.COMMON, Role.TANK, atk=8, hp=20, def_=2)
FANG = MatchCard("2", "Fang", Rarity.EPIC, Role.STRIKER, atk=14, hp=14)
WISP = MatchCard("3", "Wisp", Rarity.COMMON, Role.SUPPORT, atk=1, hp=3)
GLASS = MatchCard("4", "Glass", Rarity.COMMON, Role.STRIKER, atk=5, hp=3)  # trades at once


def test_every_bot_kind_has_a_bot():
    assert set(BOTS) == set(BotKind)
    for kind in BotKind:
        assert make_bot(kind).name == kind.value


def test_the_lookahead_bot_plays_the_same_match_from_the_same_seed():
    for i, (a, b) in enumerate(make_decks(11, 6, 4)):
        runs = [play_match(a, b, ("lookahead", "greedy"), 40 + i, log=True) for _ in range(2)]
        assert runs[0].actions == runs[1].actions
        assert runs[0].log == runs[1].log
    # The seed matters: its reply noise comes from the bot's own random source.
    a, b = make_decks(11, 1, 4)[0]
    results = {play_match(a, b, ("lookahead", "greedy"), seed).actions for seed in range(6)}
    assert len(results) > 1


def test_the_lookahead_bot_beats_greedy_on_either_side():
    decks = make_decks(5, 40, 4)
    wins = 0
    for first in ("lookahead", "greedy"):
        bots = (first, "greedy" if first == "lookahead" else "lookahead")
        series = Series()
        for i, (a, b) in enumerate(decks):
            series.add(play_match(a, b, bots, 300 + i).state)
        wins += series.sides.wins("a" if first == "lookahead" else "b")
    assert wins / (2 * len(decks)) > 0.55, wins


def test_the_lookahead_bot_never_reads_the_hidden_pick():
    state = new_match((PUP, FANG), (PUP, FANG, WISP), seed=2)
    seen = []
    for pick in (0, 1, 2):
        hidden, _ = apply(state, Pick(B, pick))
        hidden, _ = apply(hidden, Commit(B))
        seen.append(LookaheadBot().act(hidden, A, random.Random(9)))
    assert seen[0] == seen[1] == seen[2]


def test_the_lookahead_bot_keeps_to_its_plan_and_replans_when_surprised():
    bot = LookaheadBot()
    recorder = Recorder(new_match((PUP, FANG), (FANG, PUP), seed=1), log=False)
    rng = random.Random(1)
    first = bot.act(recorder.state, A, rng)
    recorder.play(first)
    # A state it did not plan for (the opponent surrendered): it plans afresh, legally.
    other = new_match((PUP,), (FANG,), seed=4)
    assert isinstance(bot.act(other, A, random.Random(4)), Pick)


def test_play_out_finishes_a_match_for_a_side_out_of_cards():
    # A's Wisp dies to Fang in round 1; from round 2 A has nothing left.
    recorder = Recorder(new_match((WISP,), (FANG,), seed=0))
    for action in (Pick(A, 0), Commit(A), Pick(B, 0), Commit(B)):
        recorder.play(action)
    state = recorder.state
    assert out_of_cards(state, A) and not out_of_cards(state, B)
    rngs = (random.Random(1), random.Random(2))
    played = play_out(recorder, (PlayOutBot(), GreedyBot()), lambda side, _: rngs[side])
    final = recorder.state
    assert final.over and final.result == "b" and final.end_reason == EndReason.HERO_DEFEATED
    assert played == len(recorder.actions) - 4
    codes = [e.code for e in recorder.record().log]
    # The spent side used its Hero Patch (it can only help), then committed each round.
    assert codes.count("boost.hero_patch") == 1 and codes[-1] == "match.end"
    assert all(isinstance(a, (Boost, Commit)) for a in recorder.actions[4:] if a.side == A)
    assert not out_of_cards(final, A)  # the match is over: nothing to finish


def test_play_out_plays_both_sides_to_the_end():
    # Two Wisps wear each other down in three rounds; each side patched its Hero first.
    recorder = Recorder(new_match((WISP,), (WISP,), seed=0))
    play_out(recorder, (PlayOutBot(), PlayOutBot()), lambda side, _: random.Random(side))
    state = recorder.state
    assert state.over and state.end_reason == EndReason.DECKS_EXHAUSTED and state.round == 3
    assert state.result == "draw" and [p.hero_hp for p in state.players] == [34, 34]


def _beats(actions, deck_a=(PUP,), deck_b=(PUP,)):
    record = replay(deck_a, deck_b, 0, actions)
    return [[(str(beat), [e.code for e in part]) for beat, part in beats(r)] for r in record.rounds]


def test_beats_cut_a_round_in_the_order_it_is_played():
    rounds = _beats([Pick(A, 0), Commit(A), Pick(B, 0), Commit(B)])
    assert rounds[0] == [("opening", ["hero.start", "hero.start"])]
    names = [beat for beat, _ in rounds[1]]
    assert names == ["prepare", "commit", "resolve", "advance"]
    prepare, commit, resolve, advance = (codes for _, codes in rounds[1])
    assert prepare[0] == "round.start" and prepare[-1] == "commit" and prepare.count("commit") == 2
    assert commit == ["deploy", "deploy"]
    assert resolve[0] == "strike.order" and "round.end" not in resolve
    assert advance[0] == "round.end" and advance[1:] == ["nrg.gain", "nrg.gain"]
    assert rounds[2] == [("prepare", ["round.start"])]  # the round under way


def test_beats_a_surrender_stays_in_prepare_and_an_end_in_its_beat():
    rounds = _beats([Pick(A, 0), Commit(A), Surrender(B)])
    assert rounds[1] == [
        ("prepare", ["round.start", "prepare.pick", "commit", "surrender", "match.end"])
    ]
    # Both decks spent in round 1: the counted Hero Patches and the end are Advance.
    rounds = _beats([Pick(A, 0), Commit(A), Pick(B, 0), Commit(B)], (GLASS,), (GLASS,))
    beat, codes = rounds[1][-1]
    assert beat == "advance"
    assert codes[-3:] == ["hero_patch.counted", "hero_patch.counted", "match.end"]
    assert beats(()) == ()
    assert Beat.OPENING in {b for b, _ in beats(replay((PUP,), (PUP,), 0, []).rounds[0])}


@pytest.mark.parametrize(
    ("costs", "opener", "nrg", "deficits", "ready", "all_short"),
    [
        # Four Legendaries: whichever opens is 1 short; the next is full from round 5.
        ([4, 4, 4, 4], 0, (3, 1, 2, 3, 4), [1, 3, 3, 3], [None, 5, 5, 5], True),
        # The cheapest opens (the Common): the Epic is ready in round 2, the Legendary in 3.
        ([3, 1, 4], 1, (3, 3, 4), [0, 0, 1], [2, 1, 3], False),
        ([1], 0, (3, 3, 4), [0], [1], False),
        ([2, 4], 0, (3, 2, 3, 4), [0, 2], [1, 4], False),
    ],
)
def test_energy_curve(costs, opener, nrg, deficits, ready, all_short):
    curve = energy_curve(costs)
    assert (curve.start, curve.gain, curve.cap) == (3, 1, 4)
    assert curve.opener == opener and curve.nrg == nrg and curve.all_short is all_short
    assert curve.rounds == tuple(range(1, len(nrg) + 1))
    # The opener's deficit is round 1's; every other card's the first round after it.
    assert [c.deficits[0] if c.card == opener else c.deficits[1] for c in curve.cards] == (deficits)
    assert [c.ready for c in curve.cards] == ready


def test_play_out_bot_uses_hero_patch_only_while_it_adds_hp():
    state = new_match((WISP,), (FANG,))
    assert PlayOutBot().act(state, A, random.Random()) == Boost(A, BoostKind.HERO_PATCH)
    state, _ = apply(state, Boost(A, BoostKind.HERO_PATCH))
    assert PlayOutBot().act(state, A, random.Random()) == Pick(A, 0)
