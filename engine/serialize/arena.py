"""The slab arena as JSON: its actions (events are plain data already)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.arena.match import (
    _ACTION_NAMES,
    SIDES,
    Action,
    Attack,
    Pass,
    Replace,
    Surrender,
    Swap,
    Timeout,
)
from engine.arena.slabs import SlabMove
from engine.errors import IllegalArenaActionError
from engine.types import Side

__all__ = ["action_from_json", "action_to_json"]


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as JSON-ready data.

    >>> from engine.arena.match import A, B
    >>> action_to_json(Swap(B, 2)), action_to_json(Attack(A, SlabMove.POWER))
    ({'type': 'swap', 'side': 'b', 'slab': 2}, {'type': 'attack', 'side': 'a', 'move': 'power'})
    """
    data: dict[str, Any] = {"type": _ACTION_NAMES[type(action)], "side": SIDES[action.side]}
    if isinstance(action, Swap | Replace):
        data["slab"] = action.slab
    elif isinstance(action, Attack):
        data["move"] = str(action.move)
    return data


def action_from_json(data: Any) -> Action:
    """The inverse of ``action_to_json``; ``IllegalArenaActionError("bad_action")`` otherwise.

    >>> action_from_json({"type": "replace", "side": "a", "slab": 1})
    Replace(side=<Side.A: 0>, slab=1)
    >>> action_from_json({"type": "attack", "side": "a", "move": "kick"})
    Traceback (most recent call last):
    ...
    engine.errors.IllegalArenaActionError: That is not an action of the arena.
    """
    if not isinstance(data, Mapping) or data.get("side") not in SIDES:
        raise IllegalArenaActionError("bad_action")
    side = Side.from_key(data["side"])
    kind = data.get("type")
    if kind in ("swap", "replace"):
        slab = data.get("slab")
        if type(slab) is not int:
            raise IllegalArenaActionError("bad_action")
        return Swap(side, slab) if kind == "swap" else Replace(side, slab)
    if kind == "attack":
        move = data.get("move")
        if not isinstance(move, str) or move not in _MOVES:
            raise IllegalArenaActionError("bad_action")
        return Attack(side, SlabMove(move))
    if isinstance(kind, str) and kind in _SIDE_ONLY:
        return _SIDE_ONLY[kind](side)
    raise IllegalArenaActionError("bad_action")


_MOVES = frozenset(m.value for m in SlabMove)
_SIDE_ONLY: dict[str, Callable[[Side], Action]] = {
    "pass": Pass,
    "timeout": Timeout,
    "surrender": Surrender,
}
