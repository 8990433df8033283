"""engine.arena.match and engine.arena.bots: what the scenario table does not show — the damage
tables, the seeded first player, the log's shape, the bots' plans, a series' summary."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from engine.arena import match as arena
from engine.arena.bots import GreedyBot, PlannerBot, play_match, run_series
from engine.arena.match import (
    EVENT_CODES,
    SIDES,
    A,
    Attack,
    B,
    Lineup,
    Pass,
    Replace,
    Swap,
    apply,
    first_player,
    healthiest,
    new_match,
    opening_events,
)
from engine.arena.slabs import Slab, SlabMove, damage, slab_stats

D = Decimal


def team(tag: str, *values: str, grade=9, year=2020) -> list:
    return [
        slab_stats(Slab(f"{tag}-{i}", f"{tag} {i}", grade, year), D(v))
        for i, v in enumerate(values)
    ]


MIXED_A = [
    slab_stats(Slab("cc-1", "Charizard", D("9.5"), 2001), D("300")),
    slab_stats(Slab("cc-2", "Onix", 8, 2010), D("60")),
    slab_stats(Slab("cc-3", "Pikachu", 10, 2021), D("12")),
    slab_stats(Slab("cc-7", "Mew", 7, 1999), D("100")),
]
MIXED_B = [
    slab_stats(Slab("x-1", "Eevee", 9, 2016), D("30")),
    slab_stats(Slab("x-2", "Snorlax", D("8.5"), 2003), D("2400")),
    slab_stats(Slab("x-3", "Psyduck", 1, 2025), D("5")),
    slab_stats(Slab("x-4", "Gengar", 10, 2004), D("80")),
]


def test_the_damage_tables_are_the_damage_formula() -> None:
    lineup = Lineup.build(MIXED_A, MIXED_B)
    for side, (mine, theirs) in enumerate(((MIXED_A, MIXED_B), (MIXED_B, MIXED_A))):
        for i, me in enumerate(mine):
            for j, foe in enumerate(theirs):
                basic, power = lineup.damage[side][i][j]
                assert basic == damage(me, SlabMove.BASIC, foe)
                assert power == (damage(me, SlabMove.POWER, foe) if me.power else 0)
                bonus = lineup.bonus[side][i][j]
                assert bonus == (10 if arena.ELEMENT_BEATS[me.element] is foe.element else 0)
            assert lineup.power_cost[side][i] == (me.power.cost if me.power else 0)
    assert lineup.full_hp == (sum(m.hp for m in MIXED_A), sum(m.hp for m in MIXED_B))


def test_the_first_player_comes_from_the_seed_and_is_fair() -> None:
    firsts = [first_player(seed) for seed in range(2000)]
    assert firsts == [random.Random(s).randrange(2) for s in range(2000)]
    assert 900 < sum(firsts) < 1100  # about half each
    for seed in (0, 1, 2):
        state = new_match(MIXED_A, MIXED_B, seed)
        assert state.first == state.to_move == first_player(seed)


def test_the_opening_log() -> None:
    state = new_match(MIXED_A, MIXED_B, 5, bracket="open")
    events = opening_events(state)
    assert [e.code for e in events] == ["match.start", "team", "team", "turn.start"]
    start, team_a, team_b, turn = events
    assert start.params["first"] == SIDES[state.first] and start.params["bracket"] == "open"
    assert team_a.params["slabs"] == ["cc-1", "cc-2", "cc-3", "cc-7"]
    assert team_a.params["lead"] == "cc-1" and team_a.params["value"] == "472"
    assert team_b.params["hp"] == 60 + 140 + 60 + 80
    assert turn.params == {"turn": 1, "side": SIDES[state.first], "gain": 0, "energy": 0,
                           "skipped": True}  # fmt: skip
    for event in events:
        assert tuple(event.params) == EVENT_CODES[event.code]


def test_events_are_json_data() -> None:
    record = play_match(MIXED_A, MIXED_B, ("greedy", "planner"), 3, log=True)
    for event in record.events:
        again = arena.Event.from_json(event.to_json())
        assert again == arena.Event(event.code, dict(event.params))
        for value in event.params.values():
            assert isinstance(value, str | int | bool | list | type(None)), (event.code, value)


def test_healthiest_prefers_most_hp_then_team_order() -> None:
    side = arena.SideState((0, 30, 60, 60), None, 0)
    assert healthiest(side) == 2
    assert healthiest(arena.SideState((0, 0, 0, 10), None, 0)) == 3


def test_greedy_knocks_out_the_cheapest_way() -> None:
    # Greedy on 3 energy facing a slab at 20 HP: the basic attack (1) is enough.
    mine = team("g", "300", "10", "10", "10", grade=10)
    theirs = team("h", "10", "10", "10", "10")
    state = new_match(mine, theirs, 1)  # A first
    state, _ = apply(state, Pass(A))
    state, _ = apply(state, Pass(B))
    state, _ = apply(state, Attack(A, SlabMove.BASIC))  # 60 → 30
    state, _ = apply(state, Pass(B))
    assert GreedyBot().act(state, A, random.Random(0)) == Attack(A, SlabMove.BASIC)


def test_greedy_spends_and_the_planner_banks_for_the_power_move() -> None:
    # An epic (attack 15, +40 for 3) against armor 10: basic 10, power 45 — the power
    # move pays 15 per energy, the basic 10. With 1 energy greedy attacks, the planner saves.
    mine = team("p", "300", "10", "10", "10", grade=1)
    theirs = team("q", "10", "10", "10", "10", year=1999)
    state = new_match(mine, theirs, 0)  # B first
    state, _ = apply(state, Pass(B))
    assert state.to_move == A and state.sides[A].energy == 1
    assert GreedyBot().act(state, A, random.Random(0)) == Attack(A, SlabMove.BASIC)
    assert PlannerBot().act(state, A, random.Random(0)) == Pass(A)
    # With 3 banked, the planner plays it.
    state, _ = apply(state, Pass(A))
    state, _ = apply(state, Pass(B))
    state, _ = apply(state, Pass(A))
    state, _ = apply(state, Pass(B))
    assert state.sides[A].energy == 3
    assert PlannerBot().act(state, A, random.Random(0)) == Attack(A, SlabMove.POWER)


def test_the_planner_swaps_a_doomed_slab_for_one_that_survives() -> None:
    mine = [
        slab_stats(Slab("sun-0", "Frail", 9, 2020), D("10")),  # 60 HP
        slab_stats(Slab("sun-3", "Sturdy", 9, 1999), D("600")),  # 120 HP, armor 10
        slab_stats(Slab("sun-9", "Spare", 9, 2020), D("10")),
        slab_stats(Slab("sun-10", "Spare", 9, 2020), D("10")),
    ]
    theirs = team("sun", "300", "10", "10", "10", grade=10)  # power 70 for 3
    state = new_match(mine, theirs, 0)  # B first
    for _ in range(2):
        state, _ = apply(state, Pass(B))
        state, _ = apply(state, Pass(A))
    state, _ = apply(state, Pass(B))
    # Turn 6: A has 3 energy; B has 2 and will have 3 next turn: enough for its 70.
    assert state.sides[B].energy == 2 and state.sides[A].energy == 3
    action = PlannerBot().act(state, A, random.Random(0))
    assert action == Swap(A, 1)  # 70 would knock Frail out; Sturdy takes 60 of 120


def test_bots_replace_with_their_healthiest_slab() -> None:
    # docs/rules.md §8, settled: against the bot, the bot picks its healthiest slab.
    state = new_match(MIXED_A, MIXED_B, 1)
    sides = list(state.sides)
    sides[B] = arena.SideState((0, 50, 60, 60), None, 2)
    state = arena.ArenaState(state.lineup, tuple(sides), 1, A, 2, B)  # type: ignore[arg-type]
    for bot in (GreedyBot(), PlannerBot()):
        assert bot.act(state, B, random.Random(0)) == Replace(B, 2)  # 60 HP; a tie: team order


def test_a_series_sums_up_and_replays_game_by_game() -> None:
    summary = run_series(MIXED_A, MIXED_B, ("greedy", "planner"), 10, 40)
    assert summary["games"] == 40
    assert summary["wins"]["a"] + summary["wins"]["b"] + summary["draws"] == 40
    assert sum(summary["end_reasons"].values()) == 40
    assert summary["first_player"]["a"] + summary["first_player"]["b"] == 40
    assert 0 <= summary["first_player_wins"] <= 40
    again = run_series(MIXED_A, MIXED_B, ("greedy", "planner"), 10, 40)
    assert again == summary  # seeded: the same figures every time
    single = play_match(MIXED_A, MIXED_B, ("greedy", "planner"), 12).state
    one = run_series(MIXED_A, MIXED_B, ("greedy", "planner"), 12, 1)
    assert one["end_reasons"] == {str(single.end): 1}
    assert one["draws"] == (single.winner is None)


@pytest.mark.parametrize(
    "bots", [("greedy", "greedy"), ("planner", "greedy"), ("random", "planner")]
)
def test_matches_end_within_the_turn_limit(bots) -> None:
    for seed in range(30):
        state = play_match(MIXED_A, MIXED_B, bots, seed).state
        assert state.over and state.turn <= arena.TURN_LIMIT


@pytest.mark.parametrize("module", ["arena.match", "arena.bots", "arena.slabs"])
def test_arena_modules_do_no_io_and_read_no_clock(module) -> None:
    import ast
    import importlib
    from pathlib import Path

    path = Path(importlib.import_module(f"engine.{module}").__file__ or "")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and hasattr(n.func, "id")}
    assert not calls & {"open", "print", "input", "breakpoint"}
    imported = {
        alias.name for n in ast.walk(tree) if isinstance(n, ast.Import) for alias in n.names
    } | {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not imported & {"time", "datetime", "django"}
