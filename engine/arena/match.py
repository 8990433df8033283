"""The slab arena match (docs/rules.md §8 and its "Settled for the arena match"): frozen states,
frozen actions, events as data.

A match is a value. ``new_match(team_a, team_b, seed)`` builds the state at the start of
turn 1 from two teams of ``SlabStats`` (each slab with its value on the match day);
``apply(state, action)`` returns ``(new_state, events)`` or raises ``IllegalArenaActionError``
(a stable ``code`` and ``params``) and changes nothing — states are frozen. The only
randomness in the rules is who moves first: ``random.Random(seed).randrange(2)`` (0: side
A). So a match is reproducible from its two teams (slabs and values), its seed and its
actions (``replay``). Sides are ``A = Side.A`` (0) and ``B = Side.B`` (1); events and JSON name them
``"a"`` and ``"b"``. The engine never reads a clock: the caller owns the 20-second turn
(``TURN_SECONDS``) and applies ``Timeout`` when its own clock says the turn ran out.

A turn, in order: it starts by gaining ``ENERGY_PER_TURN`` (the bank holds at most
``ENERGY_BANK_MAX``), except the first player's turn 1, which gains nothing; a player
whose slab was knocked out must first ``Replace`` it from the bench (free, not the swap);
then, in any order, at most one ``Swap`` (``SWAP_COST`` energy; the swapped-out slab keeps
its damage) and at most one ``Attack`` (basic: ``BASIC_ATTACK_COST``; the power move: its
tier's cost), which ends the turn — or ``Pass``. A KO scores the knocked-out slab's KO
points (1 common or uncommon, 2 rare or epic); ``POINTS_TO_WIN`` points win at once. A
``Timeout`` is a pass; the ``TIMEOUTS_TO_FORFEIT``-th timeout of one player forfeits.
``Surrender`` is allowed at any moment, on either player's turn. When turn ``TURN_LIMIT``
(30: every player's turn counts, 15 each) ends with no winner: more points wins, then the
larger share of HP left (current HP of all four slabs, KO'd ones at 0, over their full
HP, compared exactly as fractions), then a draw.

Where docs/rules.md §8 is silent, this engine decides (the Leagues wiki page says so too):

- The team's first slab starts on the field; the other three are the bench, in order.
- A slab whose turn starts with no slab on the field must ``Replace`` before anything
  else (``Pass`` is refused then). A ``Timeout`` with an empty field puts the healthiest
  bench slab (most HP left; a tie → the first in team order) on the field, then passes.
- A swap needs a bench slab that is not knocked out; a swap after the attack is
  impossible (the attack ended the turn). Energy is never refunded.
- Gaining energy with a full bank gains nothing (the event says ``gain: 0``).
- A surrender or a forfeit ends the match at once for the other side, even on turn 30.
- ``new_match(..., bracket=...)`` refuses a team whose total value is over the
  bracket's cap (``InvalidTeamError("bracket")``); without a bracket, any two valid
  teams may meet.

Events (``EVENT_CODES`` lists each code's parameters, in order; sides are "a"/"b";
``slab`` and ``target`` are indexes in the owner's team):

- ``match.start`` — ``seed``, ``first`` (the side that moves first), ``bracket`` (or
  null), ``turn_limit``, ``points_to_win``.
- ``team`` — one per side: ``side``, ``slabs`` (asset IDs in team order), ``names``
  (their card names), ``lead`` (the asset ID on the field), ``value`` (total, decimal
  string), ``hp`` (total full HP).
- ``turn.start`` — ``turn``, ``side``, ``gain`` (energy gained), ``energy`` (after),
  ``skipped`` (true on the first player's turn 1, which gains nothing).
- ``slab.replace`` — ``side``, ``slab``, ``asset_id``, ``name``, ``hp``, ``auto`` (true
  when a timeout put it there).
- ``slab.swap`` — ``side``, ``from``, ``from_name``, ``to``, ``to_name``, ``hp`` (of the
  slab coming in), ``cost``, ``energy`` (after).
- ``attack`` — ``side``, ``slab``, ``name``, ``move`` ("basic"/"power"), ``cost``,
  ``energy`` (after), ``target``, ``target_name``, ``move_damage``, ``element_bonus``,
  ``armor``, ``damage``, ``hp`` (the target's HP after).
- ``slab.ko`` — ``side`` (the owner of the KO'd slab), ``slab``, ``name``, ``tier``,
  ``points`` (scored), ``by`` (the scoring side), ``score`` (its points now).
- ``turn.pass`` — ``side``, ``turn``.
- ``turn.timeout`` — ``side``, ``turn``, ``timeouts`` (that player's count now),
  ``limit``.
- ``forfeit`` — ``side``, ``timeouts``.
- ``surrender`` — ``side``.
- ``turn_limit`` — ``turns``, ``points_a``, ``points_b``, ``hp_a``, ``full_a``,
  ``hp_b``, ``full_b``, ``decided_by`` ("points", "hp_share" or null for a draw).
- ``match.end`` — ``result`` ("a", "b" or "draw"), ``reason`` (an ``ArenaEnd``),
  ``turn``, ``points_a``, ``points_b``.

Refusals (``IllegalArenaActionError.code``; ``ILLEGAL_CODES`` lists each with its params):
``bad_action``, ``bad_side``, ``match_over``, ``not_your_turn``, ``replace_first``,
``nothing_to_replace``, ``unknown_slab``, ``slab_knocked_out``, ``already_on_field``,
``swap_used``, ``unknown_move``, ``no_power_move``, ``not_enough_energy``.

>>> from decimal import Decimal
>>> from engine.arena.slabs import Slab, slab_stats
>>> def team(tag, value):
...     return [slab_stats(Slab(f"{tag}-{i}", f"Pup {i}", 9, 2010), Decimal(value))
...             for i in range(4)]
>>> state = new_match(team("a", 30), team("b", 10), seed=0)
>>> SIDES[state.first], state.to_move == state.first, state.sides[state.first].energy
('b', True, 0)
>>> state, events = apply(state, Pass(B))
>>> [e.code for e in events], state.sides[A].energy
(['turn.pass', 'turn.start'], 1)
>>> state, events = apply(state, Attack(A, SlabMove.BASIC))
>>> events[0].params["damage"], state.sides[B].hp[0]
(20, 40)
>>> apply(state, Attack(B, SlabMove.POWER))
Traceback (most recent call last):
...
engine.errors.IllegalArenaActionError: Pup 0 is common and has no power move.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.arena.slabs import (
    BASIC_ATTACK_COST,
    BRACKETS,
    ELEMENT_BEATS,
    ELEMENT_BONUS,
    ENERGY_AT_START,
    ENERGY_BANK_MAX,
    ENERGY_PER_TURN,
    FIRST_PLAYER_SKIPS_FIRST_GAIN,
    KO_REPLACEMENT_COST,
    MIN_DAMAGE,
    POINTS_TO_WIN,
    SWAP_COST,
    SWAPS_PER_TURN,
    TIMEOUTS_TO_FORFEIT,
    TURN_LIMIT,
    TURN_SECONDS,
    Bracket,
    InvalidTeamError,
    SlabMove,
    SlabStats,
    team_value,
    validate_team,
)
from engine.errors import ARENA_ILLEGAL_CODES as ILLEGAL_CODES
from engine.errors import IllegalArenaActionError
from engine.types import Side, fast_init

__all__ = [
    "ACTION_TYPES",
    "EVENT_CODES",
    "ILLEGAL_CODES",
    "SIDES",
    "A",
    "Action",
    "ArenaEnd",
    "ArenaState",
    "Attack",
    "B",
    "Event",
    "IllegalArenaActionError",
    "Lineup",
    "Pass",
    "Replace",
    "SideState",
    "Surrender",
    "Swap",
    "Timeout",
    "apply",
    "first_player",
    "healthiest",
    "hp_share",
    "is_legal",
    "legal_actions",
    "new_match",
    "opening_events",
    "replay",
    "timed_out",
]

A: Final = Side.A
B: Final = Side.B
_OTHER: Final = (B, A)
SIDES: Final = ("a", "b")  # how events, JSON and forms name the sides


class ArenaEnd(enum.StrEnum):
    """Why an arena match ended."""

    POINTS = "points"  # a team reached POINTS_TO_WIN
    FORFEIT = "forfeit"  # TIMEOUTS_TO_FORFEIT timeouts by one player
    SURRENDER = "surrender"
    TURN_LIMIT_POINTS = "turn_limit_points"  # after TURN_LIMIT turns: more points
    TURN_LIMIT_HP = "turn_limit_hp"  # points level: the larger share of HP left
    TURN_LIMIT_DRAW = "turn_limit_draw"  # both level: a draw


EVENT_CODES: Final[Mapping[str, tuple[str, ...]]] = {
    "match.start": ("seed", "first", "bracket", "turn_limit", "points_to_win"),
    "team": ("side", "slabs", "names", "lead", "value", "hp"),
    "turn.start": ("turn", "side", "gain", "energy", "skipped"),
    "slab.replace": ("side", "slab", "asset_id", "name", "hp", "auto"),
    "slab.swap": ("side", "from", "from_name", "to", "to_name", "hp", "cost", "energy"),
    "attack": (
        "side", "slab", "name", "move", "cost", "energy", "target", "target_name",
        "move_damage", "element_bonus", "armor", "damage", "hp",
    ),
    "slab.ko": ("side", "slab", "name", "tier", "points", "by", "score"),
    "turn.pass": ("side", "turn"),
    "turn.timeout": ("side", "turn", "timeouts", "limit"),
    "forfeit": ("side", "timeouts"),
    "surrender": ("side",),
    "turn_limit": (
        "turns", "points_a", "points_b", "hp_a", "full_a", "hp_b", "full_b", "decided_by",
    ),
    "match.end": ("result", "reason", "turn", "points_a", "points_b"),
}  # fmt: skip
"""Every event code with its parameter names, in order."""

# ---------------------------------------------------------------------------
# Events


@fast_init
@dataclass(frozen=True, slots=True)
class Event:
    """One state change: a stable ``code`` (see ``EVENT_CODES``) and JSON-ready ``params``."""

    code: str
    params: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        return cls(str(data["code"]), dict(data["params"]))


# ---------------------------------------------------------------------------
# Actions


@fast_init
@dataclass(frozen=True, slots=True)
class Swap:
    """Put bench slab ``slab`` (a team index) on the field for ``SWAP_COST`` energy."""

    side: Side
    slab: int


@fast_init
@dataclass(frozen=True, slots=True)
class Attack:
    """Attack the enemy slab on the field with ``move`` (basic or power); ends the turn."""

    side: Side
    move: SlabMove


@fast_init
@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without attacking."""

    side: Side


@fast_init
@dataclass(frozen=True, slots=True)
class Replace:
    """Put bench slab ``slab`` on the field after a KO (free; the turn goes on)."""

    side: Side
    slab: int


@fast_init
@dataclass(frozen=True, slots=True)
class Timeout:
    """The caller's clock says ``side``'s turn ran out: a pass, counted toward a forfeit."""

    side: Side


@fast_init
@dataclass(frozen=True, slots=True)
class Surrender:
    """Give up: the other side wins."""

    side: Side


Action = Swap | Attack | Pass | Replace | Timeout | Surrender
ACTION_TYPES: Final = {
    "swap": Swap,
    "attack": Attack,
    "pass": Pass,
    "replace": Replace,
    "timeout": Timeout,
    "surrender": Surrender,
}
_ACTION_NAMES: Final = {cls: name for name, cls in ACTION_TYPES.items()}


_SIDE_TYPES: Final = (Side, int)  # a plain 0 or 1 names a side too (never a bool)


# ---------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class Lineup:
    """The two teams of a match, and what the rules read from them again and again.

    ``damage[side][i][j]`` is ``(basic, power)``: what slab ``i`` of ``side`` deals to
    slab ``j`` of the other side (``power`` is 0 when the slab has none), by
    ``engine.arena.slabs.damage``'s formula; ``bonus[side][i][j]`` is the element bonus in it;
    ``power_cost[side][i]`` is its power move's cost (0: none).
    """

    teams: tuple[tuple[SlabStats, ...], tuple[SlabStats, ...]]
    full_hp: tuple[int, int]
    damage: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    bonus: tuple[tuple[tuple[int, ...], ...], ...]
    power_cost: tuple[tuple[int, ...], tuple[int, ...]]
    bracket: Bracket | None = None

    @classmethod
    def build(
        cls,
        team_a: Iterable[SlabStats],
        team_b: Iterable[SlabStats],
        bracket: Bracket | str | None = None,
    ) -> Lineup:
        """Validate both teams (and the bracket's cap) and precompute the damage tables.

        Raises ``InvalidTeamError`` with ``params["side"]`` naming the team.
        """
        teams = []
        chosen = Bracket(bracket) if bracket is not None else None
        cap = next((b.cap for b in BRACKETS if b.bracket is chosen), None)
        for side, team in enumerate((team_a, team_b)):
            try:
                members = validate_team(team)
            except InvalidTeamError as exc:
                exc.params["side"] = SIDES[side]
                raise
            total = team_value(members)
            if cap is not None and total > cap:
                raise InvalidTeamError(
                    "bracket",
                    f"Team {SIDES[side]} is worth ${total}, over the {chosen} cap of ${cap}.",
                    side=SIDES[side],
                    bracket=str(chosen),
                    cap=str(cap),
                    value=str(total),
                )
            teams.append(members)
        damage, bonus = [], []
        for side in (A, B):
            rows, bonus_rows = [], []
            for me in teams[side]:
                beats = ELEMENT_BEATS[me.element]
                extra = me.power.bonus if me.power else 0
                row, bonus_row = [], []
                for foe in teams[1 - side]:
                    plus = ELEMENT_BONUS if beats is foe.element else 0
                    basic = me.attack + plus - foe.armor
                    power = basic + extra
                    row.append(
                        (
                            basic if basic > MIN_DAMAGE else MIN_DAMAGE,
                            (power if power > MIN_DAMAGE else MIN_DAMAGE) if extra else 0,
                        )
                    )
                    bonus_row.append(plus)
                rows.append(tuple(row))
                bonus_rows.append(tuple(bonus_row))
            damage.append(tuple(rows))
            bonus.append(tuple(bonus_rows))
        power_cost = (
            tuple(m.power.cost if m.power else 0 for m in teams[A]),
            tuple(m.power.cost if m.power else 0 for m in teams[B]),
        )
        full = (sum(m.hp for m in teams[A]), sum(m.hp for m in teams[B]))
        return cls(
            (teams[A], teams[B]),
            full,
            tuple(damage),
            tuple(bonus),
            power_cost,
            chosen,
        )


@fast_init
@dataclass(frozen=True, slots=True)
class SideState:
    """One player: HP of each team slab (by index; 0 is knocked out), the slab on the
    field (None after a KO, until replaced), energy, KO points and timeouts so far."""

    hp: tuple[int, ...]
    active: int | None
    energy: int
    points: int = 0
    timeouts: int = 0

    @property
    def bench(self) -> tuple[int, ...]:
        """Team indexes of the slabs that could come on: not on the field, not knocked out."""
        return tuple(i for i, hp in enumerate(self.hp) if hp > 0 and i != self.active)


@fast_init
@dataclass(frozen=True, slots=True)
class ArenaState:
    """The whole match. ``to_move`` plays turn ``turn``; ``swapped`` says whether they
    swapped this turn; ``actions`` counts the actions applied (forms carry it to refuse
    stale submits). Once ``over``, ``winner`` is A, B or None (a draw) and ``end`` says why.
    """

    lineup: Lineup
    sides: tuple[SideState, SideState]
    seed: int
    first: Side
    turn: int = 1
    to_move: Side = A
    swapped: bool = False
    actions: int = 0
    over: bool = False
    winner: Side | None = None
    end: ArenaEnd | None = None

    @property
    def teams(self) -> tuple[tuple[SlabStats, ...], tuple[SlabStats, ...]]:
        return self.lineup.teams

    @property
    def result(self) -> str | None:
        """``"a"``, ``"b"``, ``"draw"``, or None while the match runs."""
        if not self.over:
            return None
        return "draw" if self.winner is None else SIDES[self.winner]

    def slab(self, side: Side, index: int) -> SlabStats:
        return self.lineup.teams[side][index]


def first_player(seed: int) -> Side:
    """Who moves first: ``random.Random(seed).randrange(2)`` (0 is side A).

    >>> [first_player(s).key for s in range(6)]
    ['b', 'a', 'a', 'a', 'a', 'b']
    """
    return (A, B)[random.Random(seed).randrange(2)]


def new_match(
    team_a: Iterable[SlabStats],
    team_b: Iterable[SlabStats],
    seed: int = 0,
    *,
    bracket: Bracket | str | None = None,
) -> ArenaState:
    """The state at the start of turn 1: each team's first slab on the field, 0 energy.

    The first player is drawn from the seed; their turn 1 gains nothing, so it can only
    pass. Raises ``InvalidTeamError`` (``params["side"]`` names the team).
    """
    lineup = Lineup.build(team_a, team_b, bracket)
    first = first_player(seed)
    gain = 0 if FIRST_PLAYER_SKIPS_FIRST_GAIN else ENERGY_PER_TURN
    a, b = (
        SideState(tuple(m.hp for m in team), 0, ENERGY_AT_START + (gain if side == first else 0))
        for side, team in enumerate(lineup.teams)
    )
    return ArenaState(lineup, (a, b), seed, first, 1, first)


def opening_events(state: ArenaState) -> tuple[Event, ...]:
    """The events that open a match log: the start, both teams, then turn 1."""
    lineup = state.lineup
    events = [
        Event(
            "match.start",
            {
                "seed": state.seed,
                "first": SIDES[state.first],
                "bracket": None if lineup.bracket is None else str(lineup.bracket),
                "turn_limit": TURN_LIMIT,
                "points_to_win": POINTS_TO_WIN,
            },
        )
    ]
    for side, team in enumerate(lineup.teams):
        events.append(
            Event(
                "team",
                {
                    "side": SIDES[side],
                    "slabs": [m.asset_id for m in team],
                    "names": [m.slab.name for m in team],
                    "lead": team[0].asset_id,
                    "value": str(team_value(team)),
                    "hp": lineup.full_hp[side],
                },
            )
        )
    first_gain = 0 if FIRST_PLAYER_SKIPS_FIRST_GAIN else ENERGY_PER_TURN
    events.append(
        Event(
            "turn.start",
            {
                "turn": 1,
                "side": SIDES[state.first],
                "gain": first_gain,
                "energy": ENERGY_AT_START + first_gain,
                "skipped": FIRST_PLAYER_SKIPS_FIRST_GAIN,
            },
        )
    )
    return tuple(events)


def timed_out(turn_started: float, now: float) -> bool:
    """Whether a turn that started at ``turn_started`` is over at ``now`` (seconds on the
    caller's clock): more than ``TURN_SECONDS`` have passed.

    >>> timed_out(100.0, 120.0), timed_out(100.0, 120.5)
    (False, True)
    """
    return now - turn_started > TURN_SECONDS


def healthiest(side: SideState) -> int | None:
    """The bench slab with the most HP left (a tie: the first in team order), or None."""
    best = None
    for i in side.bench:
        if best is None or side.hp[i] > side.hp[best]:
            best = i
    return best


def hp_share(state: ArenaState, side: Side) -> tuple[int, int]:
    """(HP left, full HP) of a team: KO'd slabs count 0. Compare shares exactly."""
    return sum(state.sides[side].hp), state.lineup.full_hp[side]


# ---------------------------------------------------------------------------
# Legality


def _violation(state: ArenaState, action: Any) -> tuple[str, dict[str, Any]] | None:
    """Why ``action`` is illegal in ``state`` (code, params), or None when it is legal."""
    kind = type(action)
    if kind not in _ACTION_NAMES:
        return "bad_action", {}
    side = action.side
    if type(side) not in _SIDE_TYPES or side not in (A, B):
        return "bad_side", {"side": side}
    if state.over:
        return "match_over", {}
    if kind is Surrender:
        return None
    if side != state.to_move:
        return "not_your_turn", {"side": SIDES[side], "to_move": SIDES[state.to_move]}
    if kind is Timeout:
        return None
    me = state.sides[side]
    team = state.lineup.teams[side]
    if kind is Replace or kind is Swap:
        slab = action.slab
        if me.active is not None and kind is Replace:
            return "nothing_to_replace", {}
        if me.active is None and kind is Swap:
            return "replace_first", {}
        if type(slab) is not int or not 0 <= slab < len(me.hp):
            return "unknown_slab", {"slab": slab}
        if me.hp[slab] <= 0:
            return "slab_knocked_out", {"slab": slab, "name": team[slab].slab.name}
        if kind is Replace:
            return None
        if slab == me.active:
            return "already_on_field", {"slab": slab, "name": team[slab].slab.name}
        if state.swapped:
            return "swap_used", {"limit": SWAPS_PER_TURN}
        if me.energy < SWAP_COST:
            return "not_enough_energy", {
                "action": "swap",
                "needed": SWAP_COST,
                "energy": me.energy,
            }
        return None
    if me.active is None:
        return "replace_first", {}
    if kind is Pass:
        return None
    # Attack
    move = action.move
    if move is SlabMove.BASIC or move == "basic":
        cost = BASIC_ATTACK_COST
    elif move is SlabMove.POWER or move == "power":
        slab_stats = team[me.active]
        if slab_stats.power is None:
            return "no_power_move", {
                "slab": me.active,
                "name": slab_stats.slab.name,
                "tier": str(slab_stats.tier),
            }
        cost = slab_stats.power.cost
    else:
        return "unknown_move", {"move": str(move)}
    if me.energy < cost:
        return "not_enough_energy", {"action": str(move), "needed": cost, "energy": me.energy}
    return None


def is_legal(state: ArenaState, action: Action) -> bool:
    """Whether ``apply(state, action)`` would succeed."""
    return _violation(state, action) is None


def legal_actions(
    state: ArenaState, side: Side, *, surrender: bool = False, timeout: bool = False
) -> list[Action]:
    """Every legal action of ``side`` now (Surrender and Timeout only when asked for).

    >>> from decimal import Decimal
    >>> from engine.arena.slabs import Slab, slab_stats
    >>> team = [slab_stats(Slab(f"x-{i}", "Pup", 9, 2010), Decimal(10)) for i in range(4)]
    >>> legal_actions(new_match(team, team, seed=1), A)  # A moves first: only a pass
    [Pass(side=<Side.A: 0>)]
    """
    if state.over:
        return []
    candidates: list[Action] = []
    if side == state.to_move:
        n = len(state.sides[side].hp)
        candidates.extend(Replace(side, i) for i in range(n))
        candidates.extend(Swap(side, i) for i in range(n))
        candidates.extend((Attack(side, SlabMove.BASIC), Attack(side, SlabMove.POWER)))
        candidates.append(Pass(side))
        if timeout:
            candidates.append(Timeout(side))
    if surrender:
        candidates.append(Surrender(side))
    return [a for a in candidates if _violation(state, a) is None]


# ---------------------------------------------------------------------------
# Applying actions


def apply(state: ArenaState, action: Action) -> tuple[ArenaState, tuple[Event, ...]]:
    """Apply one action: the new state and the events it caused, in order.

    Raises ``IllegalArenaActionError``; ``state`` is a frozen value and stays as it was.
    """
    problem = _violation(state, action)
    if problem is not None:
        raise IllegalArenaActionError(problem[0], **problem[1])
    kind = type(action)
    side = action.side
    s = SIDES[side]
    sides = state.sides
    me = sides[side]
    team = state.lineup.teams[side]
    n = state.actions + 1
    if type(action) is Attack:
        return _attack(state, action, n)
    if type(action) is Swap:
        to = action.slab
        came = me.active
        assert came is not None  # a swap needs a slab on the field (see _violation)
        energy = me.energy - SWAP_COST
        new_me = SideState(me.hp, to, energy, me.points, me.timeouts)
        event = Event(
            "slab.swap",
            {
                "side": s,
                "from": me.active,
                "from_name": team[came].slab.name,
                "to": to,
                "to_name": team[to].slab.name,
                "hp": me.hp[to],
                "cost": SWAP_COST,
                "energy": energy,
            },
        )
        new_sides = (new_me, sides[B]) if side == A else (sides[A], new_me)
        return _same_turn(state, new_sides, n, True), (event,)
    if type(action) is Replace:
        to = action.slab
        new_me = SideState(me.hp, to, me.energy - KO_REPLACEMENT_COST, me.points, me.timeouts)
        event = _replace_event(s, to, team[to], me.hp[to], False)
        new_sides = (new_me, sides[B]) if side == A else (sides[A], new_me)
        return _same_turn(state, new_sides, n, state.swapped), (event,)
    if kind is Pass:
        return _end_turn(state, sides, n, [Event("turn.pass", {"side": s, "turn": state.turn})])
    if kind is Timeout:
        count = me.timeouts + 1
        events = [
            Event(
                "turn.timeout",
                {"side": s, "turn": state.turn, "timeouts": count, "limit": TIMEOUTS_TO_FORFEIT},
            )
        ]
        active = me.active
        if count >= TIMEOUTS_TO_FORFEIT:
            new_me = SideState(me.hp, active, me.energy, me.points, count)
            new_sides = (new_me, sides[B]) if side == A else (sides[A], new_me)
            events.append(Event("forfeit", {"side": s, "timeouts": count}))
            return _finish(state, new_sides, n, _OTHER[side], ArenaEnd.FORFEIT, events)
        if active is None:
            active = healthiest(me)
            assert active is not None  # a team that lost three slabs has lost the match
            events.append(_replace_event(s, active, team[active], me.hp[active], True))
        new_me = SideState(me.hp, active, me.energy, me.points, count)
        new_sides = (new_me, sides[B]) if side == A else (sides[A], new_me)
        return _end_turn(state, new_sides, n, events)
    # Surrender
    events = [Event("surrender", {"side": s})]
    return _finish(state, sides, n, _OTHER[side], ArenaEnd.SURRENDER, events)


def _replace_event(side: str, index: int, slab: SlabStats, hp: int, auto: bool) -> Event:
    return Event(
        "slab.replace",
        {
            "side": side,
            "slab": index,
            "asset_id": slab.slab.asset_id,
            "name": slab.slab.name,
            "hp": hp,
            "auto": auto,
        },
    )


def _same_turn(state: ArenaState, sides: Any, n: int, swapped: bool) -> ArenaState:
    return ArenaState(
        state.lineup, sides, state.seed, state.first, state.turn, state.to_move, swapped, n
    )


def _attack(state: ArenaState, action: Attack, n: int) -> tuple[ArenaState, tuple[Event, ...]]:
    side = action.side
    other = _OTHER[side]
    sides = state.sides
    me, foe = sides[side], sides[other]
    lineup = state.lineup
    mine = me.active
    target = foe.active
    assert mine is not None and target is not None  # the foe replaces at its turn start
    power = action.move == SlabMove.POWER  # a StrEnum: the plain "power" too
    cost = lineup.power_cost[side][mine] if power else BASIC_ATTACK_COST
    attacker = lineup.teams[side][mine]
    defender = lineup.teams[other][target]
    dealt = lineup.damage[side][mine][target][1 if power else 0]
    left = foe.hp[target] - dealt
    if left < 0:
        left = 0
    hp = list(foe.hp)
    hp[target] = left
    energy = me.energy - cost
    new_me = SideState(me.hp, mine, energy, me.points, me.timeouts)
    events = [
        Event(
            "attack",
            {
                "side": SIDES[side],
                "slab": mine,
                "name": attacker.slab.name,
                "move": "power" if power else "basic",
                "cost": cost,
                "energy": energy,
                "target": target,
                "target_name": defender.slab.name,
                "move_damage": attacker.attack
                + (attacker.power.bonus if power and attacker.power else 0),
                "element_bonus": lineup.bonus[side][mine][target],
                "armor": defender.armor,
                "damage": dealt,
                "hp": left,
            },
        )
    ]
    if left > 0:
        new_foe = SideState(tuple(hp), target, foe.energy, foe.points, foe.timeouts)
        new_sides = (new_me, new_foe) if side == A else (new_foe, new_me)
        return _end_turn(state, new_sides, n, events)
    points = defender.ko_points
    score = me.points + points
    new_me = SideState(me.hp, mine, energy, score, me.timeouts)
    new_foe = SideState(tuple(hp), None, foe.energy, foe.points, foe.timeouts)
    new_sides = (new_me, new_foe) if side == A else (new_foe, new_me)
    events.append(
        Event(
            "slab.ko",
            {
                "side": SIDES[other],
                "slab": target,
                "name": defender.slab.name,
                "tier": str(defender.tier),
                "points": points,
                "by": SIDES[side],
                "score": score,
            },
        )
    )
    if score >= POINTS_TO_WIN:
        return _finish(state, new_sides, n, side, ArenaEnd.POINTS, events)
    return _end_turn(state, new_sides, n, events)


def _end_turn(
    state: ArenaState, sides: Any, n: int, events: list[Event]
) -> tuple[ArenaState, tuple[Event, ...]]:
    """The turn is over: the turn limit's tie-breaks, or the next player's turn start."""
    if state.turn >= TURN_LIMIT:
        a_left, b_left = sum(sides[A].hp), sum(sides[B].hp)
        a_full, b_full = state.lineup.full_hp
        pa, pb = sides[A].points, sides[B].points
        if pa != pb:
            winner, reason, by = (A if pa > pb else B), ArenaEnd.TURN_LIMIT_POINTS, "points"
        elif a_left * b_full != b_left * a_full:  # a_left/a_full vs b_left/b_full, exactly
            winner = A if a_left * b_full > b_left * a_full else B
            reason, by = ArenaEnd.TURN_LIMIT_HP, "hp_share"
        else:
            winner, reason, by = None, ArenaEnd.TURN_LIMIT_DRAW, None
        events.append(
            Event(
                "turn_limit",
                {
                    "turns": state.turn,
                    "points_a": pa,
                    "points_b": pb,
                    "hp_a": a_left,
                    "full_a": a_full,
                    "hp_b": b_left,
                    "full_b": b_full,
                    "decided_by": by,
                },
            )
        )
        return _finish(state, sides, n, winner, reason, events)
    turn = state.turn + 1
    nxt = _OTHER[state.to_move]
    p = sides[nxt]
    energy = p.energy + ENERGY_PER_TURN
    if energy > ENERGY_BANK_MAX:
        energy = ENERGY_BANK_MAX
    new_p = SideState(p.hp, p.active, energy, p.points, p.timeouts)
    new_sides = (new_p, sides[B]) if nxt == A else (sides[A], new_p)
    events.append(
        Event(
            "turn.start",
            {
                "turn": turn,
                "side": SIDES[nxt],
                "gain": energy - p.energy,
                "energy": energy,
                "skipped": False,
            },
        )
    )
    new = ArenaState(state.lineup, new_sides, state.seed, state.first, turn, nxt, False, n)
    return new, tuple(events)


def _finish(
    state: ArenaState,
    sides: Any,
    n: int,
    winner: Side | None,
    reason: ArenaEnd,
    events: list[Event],
) -> tuple[ArenaState, tuple[Event, ...]]:
    events.append(
        Event(
            "match.end",
            {
                "result": "draw" if winner is None else SIDES[winner],
                "reason": str(reason),
                "turn": state.turn,
                "points_a": sides[A].points,
                "points_b": sides[B].points,
            },
        )
    )
    new = ArenaState(
        state.lineup,
        sides,
        state.seed,
        state.first,
        state.turn,
        state.to_move,
        state.swapped,
        n,
        True,
        winner,
        reason,
    )
    return new, tuple(events)


def replay(
    team_a: Sequence[SlabStats],
    team_b: Sequence[SlabStats],
    seed: int,
    actions: Iterable[Action],
    *,
    bracket: Bracket | str | None = None,
) -> tuple[ArenaState, tuple[Event, ...]]:
    """Rebuild a match from its teams, seed and actions: the final state and the whole log."""
    state = new_match(team_a, team_b, seed, bracket=bracket)
    log = list(opening_events(state))
    for action in actions:
        state, events = apply(state, action)
        log.extend(events)
    return state, tuple(log)
