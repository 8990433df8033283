"""The slab arena (docs/rules.md §8): ``slabs`` (a slab's stat book from its grade, year
and daily value; teams and brackets), ``match`` (the turn-based match as a value:
``new_match``, ``legal_actions``, ``apply``, ``replay``) and ``bots`` (``make_bot``,
``play_match``, ``run_series``). JSON for its actions is ``engine.serialize.arena``.

>>> from decimal import Decimal
>>> from engine.arena import A, B, Attack, Pass, Slab, SlabMove, apply, new_match, slab_stats
>>> stats = slab_stats(Slab("cc-1", "Mew", 9.5, 2001), Decimal("62.60"))
>>> stats.hp, stats.tier, stats.element
(80, <SlabTier.UNCOMMON: 'uncommon'>, <Element.STAR: 'star'>)
>>> team = [slab_stats(Slab(f"x-{i}", "Pup", 9, 2010), Decimal(10)) for i in range(4)]
>>> state = new_match(team, team, seed=1)
>>> state.to_move, state.winner
(<Side.A: 0>, None)
>>> state, events = apply(state, Pass(A))
>>> [e.code for e in events], state.to_move
(['turn.pass', 'turn.start'], <Side.B: 1>)
>>> from engine.arena import play_match
>>> play_match(team, team, ("greedy", "planner"), seed=3).state.over
True
"""

from engine.arena.bots import BOTS, ArenaBot, MatchRecord, make_bot, play_match, run_series
from engine.arena.match import (
    ACTION_TYPES,
    EVENT_CODES,
    ILLEGAL_CODES,
    SIDES,
    A,
    Action,
    ArenaEnd,
    ArenaState,
    Attack,
    B,
    Event,
    Pass,
    Replace,
    Surrender,
    Swap,
    Timeout,
    apply,
    is_legal,
    legal_actions,
    new_match,
    opening_events,
    replay,
)
from engine.arena.slabs import (
    Bracket,
    Element,
    Slab,
    SlabMove,
    SlabStats,
    SlabTier,
    slab_stats,
    team_brackets,
    validate_team,
)
from engine.errors import (
    IllegalArenaActionError,
    InvalidMoveError,
    InvalidSlabError,
    InvalidTeamError,
)

__all__ = [
    "ACTION_TYPES",
    "BOTS",
    "EVENT_CODES",
    "ILLEGAL_CODES",
    "SIDES",
    "A",
    "Action",
    "ArenaBot",
    "ArenaEnd",
    "ArenaState",
    "Attack",
    "B",
    "Bracket",
    "Element",
    "Event",
    "IllegalArenaActionError",
    "InvalidMoveError",
    "InvalidSlabError",
    "InvalidTeamError",
    "MatchRecord",
    "Pass",
    "Replace",
    "Slab",
    "SlabMove",
    "SlabStats",
    "SlabTier",
    "Surrender",
    "Swap",
    "Timeout",
    "apply",
    "is_legal",
    "legal_actions",
    "make_bot",
    "new_match",
    "opening_events",
    "play_match",
    "replay",
    "run_series",
    "slab_stats",
    "team_brackets",
    "validate_team",
]
