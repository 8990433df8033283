"""Invariants of the arena match (engine.arena.match), checked by Hypothesis over random teams,
seeds and play: matches end within the turn limit, energy stays in its bank, points never
fall, a replay of the actions reproduces the state and the log, and a refused action
changes nothing."""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arena.bots import BOTS, make_bot
from engine.arena.match import (
    ACTION_TYPES,
    EVENT_CODES,
    ILLEGAL_CODES,
    A,
    ArenaEnd,
    ArenaState,
    Attack,
    Pass,
    Replace,
    Surrender,
    Swap,
    Timeout,
    apply,
    legal_actions,
    new_match,
    opening_events,
    replay,
)
from engine.arena.slabs import (
    ENERGY_BANK_MAX,
    POINTS_TO_WIN,
    TEAM_LIMITED_MAX,
    TEAM_LIMITED_TIERS,
    TURN_LIMIT,
    Slab,
    SlabMove,
    slab_stats,
)
from engine.errors import IllegalArenaActionError
from engine.serialize.arena import action_from_json, action_to_json
from tests.engine.case_runner import accepted

# Values that land in every tier and HP band.
VALUES = ["0", "10", "24.99", "25", "49.99", "60", "74.99", "75", "149.99", "200", "250", "600",
          "2500"]  # fmt: skip


@st.composite
def teams(draw: st.DrawFn) -> list:
    members = []
    limited = 0
    for i in range(4):
        value = Decimal(draw(st.sampled_from(VALUES)))
        slab = Slab(
            draw(st.text("abcxyz019-", min_size=1, max_size=6)) + f"#{i}",
            f"Slab {i}",
            Decimal(draw(st.integers(2, 20))) / 2,
            draw(st.integers(1990, 2026)),
        )
        stats = slab_stats(slab, value)
        if stats.tier in TEAM_LIMITED_TIERS:
            if limited >= TEAM_LIMITED_MAX:
                stats = slab_stats(slab, Decimal("5"))
            else:
                limited += 1
        members.append(stats)
    return members


def _candidates(state: ArenaState, side: int) -> list:
    """Legal and illegal actions alike, for both sides."""
    out = []
    for s in (A, 1 - A):
        out += [Swap(s, i) for i in range(-1, 5)] + [Replace(s, i) for i in range(-1, 5)]
        out += [Attack(s, SlabMove.BASIC), Attack(s, SlabMove.POWER), Pass(s), Timeout(s)]
    out += [Attack(side, "kick"), Pass(7), "not an action"]  # type: ignore[arg-type]
    return out


def _check_state(state: ArenaState, before: ArenaState | None) -> None:
    assert 1 <= state.turn <= TURN_LIMIT
    for i, side in enumerate(state.sides):
        assert 0 <= side.energy <= ENERGY_BANK_MAX
        assert all(0 <= hp <= m.hp for hp, m in zip(side.hp, state.teams[i], strict=True))
        assert side.active is None or side.hp[side.active] > 0
        assert side.points < POINTS_TO_WIN or state.over
        if before is not None:
            old = before.sides[i]
            assert side.points >= old.points  # points never decrease
            assert side.timeouts >= old.timeouts
            assert all(n <= o for n, o in zip(side.hp, old.hp, strict=True))  # no healing
            # Points are the KO points of the other team's knocked-out slabs.
        foe = state.sides[1 - i]
        ko = sum(m.ko_points for m, hp in zip(state.teams[1 - i], foe.hp, strict=True) if hp == 0)
        assert side.points == ko


def _check_events(events) -> None:
    for event in events:
        assert event.code in EVENT_CODES, event.code
        assert tuple(event.params) == EVENT_CODES[event.code], event.code


@settings(max_examples=150, deadline=None)
@given(
    team_a=teams(),
    team_b=teams(),
    seed=st.integers(0, 2**31),
    choices=st.lists(st.integers(0, 10_000), min_size=0, max_size=120),
    bots=st.sampled_from(list(BOTS)),
)
def test_any_play_keeps_the_invariants(team_a, team_b, seed, choices, bots) -> None:
    """Random play with illegal attempts mixed in; the bots finish what the list leaves."""
    state = new_match(team_a, team_b, seed)
    log = list(opening_events(state))
    applied = []
    rng = random.Random(seed)
    for choice in choices:
        if state.over:
            break
        side = state.to_move
        options = _candidates(state, side)
        action = options[choice % len(options)]
        before = state
        try:
            state, events = apply(state, action)
        except IllegalArenaActionError as exc:
            # A refused action changes nothing (the state is a frozen value, and equal).
            assert state is before and state == before
            assert exc.code in ILLEGAL_CODES
            assert tuple(exc.params) == ILLEGAL_CODES[exc.code][0], exc.code
            continue
        applied.append(action)
        log.extend(events)
        _check_events(events)
        _check_state(state, before)
    bot = make_bot(bots)
    while not state.over:
        before = state
        action = bot.act(state, state.to_move, rng)
        state, events = apply(state, action)
        applied.append(action)
        log.extend(events)
        _check_events(events)
        _check_state(state, before)
    # Every match ends, within the turn limit, with a reason and one match.end.
    assert state.over and state.turn <= TURN_LIMIT and isinstance(state.end, ArenaEnd)
    assert [e.code for e in log].count("match.end") == 1 and log[-1].code == "match.end"
    assert log[-1].params["result"] == state.result
    # Replaying the actions (through their JSON) reproduces the state and the whole log.
    again, again_log = replay(
        team_a, team_b, seed, [action_from_json(action_to_json(a)) for a in applied]
    )
    assert again == state
    assert [e.to_json() for e in again_log] == [e.to_json() for e in log]
    assert state.actions == len(applied)
    assert legal_actions(state, A) == []


@settings(max_examples=60, deadline=None)
@given(team_a=teams(), team_b=teams(), seed=st.integers(0, 2**31))
def test_bots_only_play_legal_actions_and_finish(team_a, team_b, seed) -> None:
    for names in (("greedy", "planner"), ("planner", "random")):
        bots = [make_bot(n) for n in names]
        rngs = [random.Random(seed), random.Random(seed + 1)]
        state = new_match(team_a, team_b, seed)
        steps = 0
        while not state.over:
            side = state.to_move
            action = bots[side].act(state, side, rngs[side])
            assert action in legal_actions(state, side), (names[side], action)
            state, _ = apply(state, action)
            steps += 1
            assert steps <= TURN_LIMIT * 4  # at most replace, swap, attack per turn
        assert state.turn <= TURN_LIMIT


@settings(max_examples=100, deadline=None)
@given(team_a=teams(), team_b=teams(), seed=st.integers(0, 2**31))
def test_surrender_and_timeouts_end_the_match(team_a, team_b, seed) -> None:
    state = new_match(team_a, team_b, seed)
    loser = 1 - state.to_move  # surrendering on the other player's turn
    done, events = apply(state, Surrender(loser))
    assert done.over and done.winner == 1 - loser and done.end is ArenaEnd.SURRENDER
    assert [e.code for e in events] == ["surrender", "match.end"]
    # Nothing but timeouts: the first player's third timeout forfeits on turn 5.
    state = new_match(team_a, team_b, seed)
    while not state.over:
        state, _ = apply(state, Timeout(state.to_move))
    assert state.end is ArenaEnd.FORFEIT and state.turn == 5 and state.winner == 1 - state.first


def test_action_json_round_trips() -> None:
    for action in (Swap(0, 2), Replace(1, 3), Attack(0, SlabMove.POWER), Pass(1), Timeout(0),
                   Surrender(1)):  # fmt: skip
        data = action_to_json(action)
        assert data["type"] in ACTION_TYPES
        assert action_from_json(data) == action
    for bad in (None, [], {"type": "swap", "side": "a"}, {"type": "swap", "side": "a", "slab": "1"},
                {"type": "fly", "side": "a"}, {"type": "pass", "side": "c"},
                {"type": "attack", "side": "b", "move": None}):  # fmt: skip
        try:
            action_from_json(bad)
        except IllegalArenaActionError as exc:
            assert exc.code == "bad_action"
        else:  # pragma: no cover
            raise AssertionError(bad)


def _accepted(state: ArenaState, side: int) -> set:
    """Every action of ``side`` that ``apply`` takes in ``state``, out-of-range slabs tried."""
    n = len(state.sides[side].hp)
    tried = [Swap(side, i) for i in range(-1, n + 1)] + [Replace(side, i) for i in range(-1, n + 1)]
    tried += [Attack(side, move) for move in SlabMove]
    tried += [Pass(side), Timeout(side), Surrender(side)]
    return accepted(state, tried, apply, IllegalArenaActionError)


@settings(max_examples=40, deadline=None)
@given(team_a=teams(), team_b=teams(), seed=st.integers(0, 2**31), bots=st.sampled_from(list(BOTS)))
def test_legal_actions_list_exactly_what_apply_accepts(team_a, team_b, seed, bots) -> None:
    """Both directions, for both sides, in every state of a match: nothing listed is refused
    and nothing accepted is missing from the list."""
    state = new_match(team_a, team_b, seed)
    bot, rng = make_bot(bots), random.Random(seed)
    while True:
        for side in (A, 1 - A):
            listed = legal_actions(state, side, surrender=True, timeout=True)
            assert len(set(listed)) == len(listed)
            assert set(listed) == _accepted(state, side), (state.turn, side)
        if state.over:
            break
        state, _ = apply(state, bot.act(state, state.to_move, rng))
