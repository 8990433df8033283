"""Bots for the slab arena, and bot-vs-bot play (one match, a series).

A bot is asked for one action at a time (``act(state, side, rng)``) until its turn ends.
Bots see what a player sees — both teams, their HP, energy and points — and draw any
randomness from the ``random.Random`` they are handed.

- ``random``: a uniformly random legal action (never surrenders).
- ``greedy``: the most damage this turn. It knocks out the enemy slab whenever it can
  (the cheapest way), else it plays the strongest hit it can pay for now — swapping first
  when a bench slab hits harder and the energy covers both. It never saves energy.
- ``planner``: plans energy for power moves. It knocks out when it can; otherwise it
  compares damage per energy: when the power move pays more per energy than the basic
  attack and it cannot pay for it yet, it passes to bank energy — unless its bank is
  full or its slab would be knocked out before it could spend it. A slab the enemy would
  knock out next turn is swapped for a bench slab that survives the blow, when one does.

After a KO, every bot brings on its healthiest bench slab (most HP left; a tie: the first
in team order), as docs/rules.md §8's settled part asks of the bot.

In a series, game ``i`` uses seed ``S + i``; bot A draws from ``random.Random(2 * seed)``
and bot B from ``random.Random(2 * seed + 1)``, so any game can be replayed from its seed.

>>> from decimal import Decimal
>>> from engine.arena.slabs import Slab, slab_stats
>>> team = [slab_stats(Slab(f"t-{i}", "Pup", 9, 2010), Decimal(30)) for i in range(4)]
>>> record = play_match(team, team, ("greedy", "planner"), seed=4)
>>> record.state.over, record.state.turn <= 30
(True, True)
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from engine.arena.match import (
    SIDES,
    A,
    Action,
    ArenaState,
    Attack,
    Event,
    Pass,
    Replace,
    Swap,
    apply,
    healthiest,
    legal_actions,
    new_match,
    opening_events,
)
from engine.arena.slabs import (
    BASIC_ATTACK_COST,
    ENERGY_BANK_MAX,
    ENERGY_PER_TURN,
    SWAP_COST,
    Bracket,
    SlabMove,
    SlabStats,
)
from engine.types import Side

__all__ = [
    "BOTS",
    "ArenaBot",
    "Bot",
    "GreedyBot",
    "MatchRecord",
    "PlannerBot",
    "RandomBot",
    "bot_rngs",
    "make_bot",
    "play_match",
    "run_series",
]


class ArenaBot(enum.StrEnum):
    """The arena's bots, by name (``BOTS`` maps each to its class)."""

    RANDOM = "random"
    GREEDY = "greedy"
    PLANNER = "planner"


BASIC = SlabMove.BASIC
POWER = SlabMove.POWER


class Bot(Protocol):
    """Anything that answers with the next action of ``side``."""

    name: str

    def act(self, state: ArenaState, side: Side, rng: random.Random) -> Action: ...


class RandomBot:
    """A uniformly random legal action."""

    name = "random"

    def act(self, state: ArenaState, side: Side, rng: random.Random) -> Action:
        return rng.choice(legal_actions(state, side))


def _entry(state: ArenaState, side: Side) -> int:
    """The bench slab to bring on after a KO: the healthiest (``engine.arena.healthiest``)."""
    index = healthiest(state.sides[side])
    assert index is not None  # a team with nobody left on the bench has lost already
    return index


def _moves(
    state: ArenaState, side: Side, slab: int, energy: int
) -> list[tuple[int, int, SlabMove]]:
    """(damage, cost, move) of each attack ``slab`` could pay for with ``energy``."""
    target = state.sides[1 - side].active
    assert target is not None  # the foe brings a slab on at its turn start
    basic, power = state.lineup.damage[side][slab][target]
    out: list[tuple[int, int, SlabMove]] = []
    if energy >= BASIC_ATTACK_COST:
        out.append((basic, BASIC_ATTACK_COST, BASIC))
    cost = state.lineup.power_cost[side][slab]
    if cost and energy >= cost:
        out.append((power, cost, POWER))
    return out


class GreedyBot:
    """The most damage this turn, a KO first (see the module docstring)."""

    name = "greedy"

    def act(self, state: ArenaState, side: Side, rng: random.Random) -> Action:
        me = state.sides[side]
        if me.active is None:
            return Replace(side, _entry(state, side))
        foe = state.sides[1 - side]
        assert foe.active is not None
        foe_hp = foe.hp[foe.active]
        energy = me.energy
        # (knocks out, damage, -cost, stays, tie noise) → (swap to, move)
        best: tuple[Any, ...] | None = None
        plan: tuple[int | None, SlabMove] | None = None
        options: list[tuple[int | None, int, int]] = [(None, me.active, energy)]
        if not state.swapped and energy > SWAP_COST:
            options.extend((i, i, energy - SWAP_COST) for i in me.bench)
        for swap_to, slab, left in options:
            for dealt, cost, move in _moves(state, side, slab, left):
                ko = dealt >= foe_hp
                total = cost + (SWAP_COST if swap_to is not None else 0)
                key = (
                    ko,
                    -total if ko else dealt,
                    -total,
                    swap_to is None,
                    rng.random(),
                )
                if best is None or key > best:
                    best, plan = key, (swap_to, move)
        if plan is None:
            return Pass(side)
        swap_to, move = plan
        if swap_to is not None:
            return Swap(side, swap_to)
        return Attack(side, move)


class PlannerBot:
    """Banks energy for power moves when they pay more per energy (module docstring)."""

    name = "planner"

    def act(self, state: ArenaState, side: Side, rng: random.Random) -> Action:
        me = state.sides[side]
        if me.active is None:
            return Replace(side, _entry(state, side))
        other = 1 - side
        foe = state.sides[other]
        target = foe.active
        assert target is not None
        foe_hp = foe.hp[target]
        energy = me.energy
        mine = me.active
        lineup = state.lineup
        # 1. A knock-out this turn, the cheapest way (a swap included).
        ko: tuple[int, bool, float] | None = None
        ko_plan: tuple[int | None, SlabMove] | None = None
        options: list[tuple[int | None, int, int]] = [(None, mine, energy)]
        if not state.swapped and energy > SWAP_COST:
            options.extend((i, i, energy - SWAP_COST) for i in me.bench)
        for swap_to, slab, left in options:
            for dealt, cost, move in _moves(state, side, slab, left):
                if dealt >= foe_hp:
                    key = (cost + (SWAP_COST if swap_to is not None else 0), swap_to is not None)
                    k = (*key, rng.random())
                    if ko is None or k < ko:
                        ko, ko_plan = k, (swap_to, move)
        if ko_plan is not None:
            swap_to, move = ko_plan
            return Swap(side, swap_to) if swap_to is not None else Attack(side, move)
        # 2. Would the enemy knock my slab out on its next turn?
        foe_energy = min(ENERGY_BANK_MAX, foe.energy + ENERGY_PER_TURN)
        threat = self._threat(state, other, target, foe_energy)
        if threat[mine] >= me.hp[mine] and not state.swapped and energy >= SWAP_COST:
            safe = [i for i in me.bench if threat[i] < me.hp[i]]
            if safe:
                best = max(safe, key=lambda i: (max(lineup.damage[side][i][target]), me.hp[i]))
                return Swap(side, best)
        doomed = threat[mine] >= me.hp[mine]
        # 3. Damage per energy: bank for the power move when it pays more.
        basic, power = lineup.damage[side][mine][target]
        cost = lineup.power_cost[side][mine]
        if cost and power * BASIC_ATTACK_COST > basic * cost:
            if energy >= cost:
                return Attack(side, POWER)
            if energy < ENERGY_BANK_MAX and not doomed:
                return Pass(side)
        if energy >= BASIC_ATTACK_COST:
            return Attack(side, BASIC)
        return Pass(side)

    @staticmethod
    def _threat(state: ArenaState, attacker: int, slab: int, energy: int) -> list[int]:
        """The most damage ``attacker``'s ``slab`` could deal to each of the defender's slabs
        with ``energy``."""
        rows = state.lineup.damage[attacker][slab]
        cost = state.lineup.power_cost[attacker][slab]
        out = []
        for basic, power in rows:
            best = basic if energy >= BASIC_ATTACK_COST else 0
            if cost and energy >= cost and power > best:
                best = power
            out.append(best)
        return out


BOTS: dict[str, type[RandomBot] | type[GreedyBot] | type[PlannerBot]] = {
    ArenaBot.RANDOM: RandomBot,
    ArenaBot.GREEDY: GreedyBot,
    ArenaBot.PLANNER: PlannerBot,
}


def make_bot(name: str) -> Bot:
    """A fresh bot by name; KeyError for others."""
    return BOTS[name]()


# ---------------------------------------------------------------------------
# Bot-vs-bot play


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A finished match: its final state, its actions and (when asked for) its events."""

    state: ArenaState
    actions: tuple[Action, ...]
    events: tuple[Event, ...]


def bot_rngs(seed: int) -> tuple[random.Random, random.Random]:
    """The two bots' random sources for a match seed."""
    return random.Random(2 * seed), random.Random(2 * seed + 1)


def play_match(
    team_a: Sequence[SlabStats],
    team_b: Sequence[SlabStats],
    bots: Sequence[Bot | str],
    seed: int,
    *,
    bracket: Bracket | str | None = None,
    log: bool = False,
) -> MatchRecord:
    """Play one match to its end, each side's bot acting on its own turns."""
    players = [make_bot(b) if isinstance(b, str) else b for b in bots]
    rngs = bot_rngs(seed)
    state = new_match(team_a, team_b, seed, bracket=bracket)
    actions: list[Action] = []
    events: list[Event] = list(opening_events(state)) if log else []
    while not state.over:
        side = state.to_move
        action = players[side].act(state, side, rngs[side])
        state, ev = apply(state, action)
        actions.append(action)
        if log:
            events.extend(ev)
    return MatchRecord(state, tuple(actions), tuple(events))


def run_series(
    team_a: Sequence[SlabStats],
    team_b: Sequence[SlabStats],
    bots: Sequence[str],
    seed: int,
    games: int,
) -> dict[str, Any]:
    """Play ``games`` matches (game i with seed ``seed + i``) and sum them up as JSON data.

    ``first_player_wins`` counts the games won by whoever moved first.
    """
    wins = {"a": 0, "b": 0}
    draws = turns = first_wins = first_a = 0
    reasons: dict[str, int] = {}
    players = [make_bot(b) for b in bots]
    for i in range(games):
        state = play_match(team_a, team_b, players, seed + i).state
        if state.winner is None:
            draws += 1
        else:
            wins[SIDES[state.winner]] += 1
            first_wins += state.winner == state.first
        first_a += state.first == A
        turns += state.turn
        key = str(state.end)
        reasons[key] = reasons.get(key, 0) + 1
    return {
        "games": games,
        "seed": seed,
        "bots": {"a": bots[0], "b": bots[1]},
        "wins": wins,
        "draws": draws,
        "end_reasons": dict(sorted(reasons.items())),
        "average_turns": round(turns / games, 2) if games else 0.0,
        "first_player": {"a": first_a, "b": games - first_a},
        "first_player_wins": first_wins,
    }
