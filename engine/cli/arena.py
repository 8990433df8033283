"""``python -m engine arena stats|team|simulate``: the slab arena on the command line.

JSON on stdout (exit 0). Bad input prints one line on stderr naming the field and exits 2.

- ``arena stats SLAB.json`` (or ``-``) with ``{"asset_id": str, "name": str, "grade":
  number, "year": int, "value": "decimal string" or int}`` prints ``{"asset_id", "hp",
  "tier", "attack", "armor", "element", "power": {"bonus", "cost"} or null,
  "ko_points", "trace"}``; ``trace`` is the stat book's steps ``{"code", "params",
  "value"}`` (codes: ``engine.arena.slabs``). Enum values are lowercase. A value is money: a
  JSON number with a fraction (``12.4``) is refused, write ``"12.40"``.
- ``arena team TEAM.json`` with ``{"slabs": [4 slabs as above]}`` prints ``{"value":
  "decimal string", "brackets": [...]}``, or exits 2 naming the broken rule
  (``size``, ``duplicate``, ``too_many_limited``).
- ``arena simulate --teams FILE.json --seed S --games N --bots A,B [--log]`` with
  ``{"a": [4 slabs], "b": [4 slabs]}`` plays bot-vs-bot matches (game i with seed S+i;
  bots: random, greedy, planner) and prints ``{"games", "seed", "bots", "wins": {"a",
  "b"}, "draws", "end_reasons", "average_turns", "first_player": {"a", "b"},
  "first_player_wins"}``; ``--log`` adds game 0's ``{"seed", "first", "result",
  "end_reason", "turns", "actions", "events"}``.

Events in the log (``{"code", "params"}``; sides are "a"/"b", ``slab`` and ``target``
are indexes in the owner's team, money is a decimal string):

- ``match.start``: seed, first, bracket, turn_limit, points_to_win
- ``team``: side, slabs (asset IDs), names, lead, value, hp
- ``turn.start``: turn, side, gain, energy, skipped
- ``slab.replace``: side, slab, asset_id, name, hp, auto
- ``slab.swap``: side, from, from_name, to, to_name, hp, cost, energy
- ``attack``: side, slab, name, move, cost, energy, target, target_name, move_damage,
  element_bonus, armor, damage, hp
- ``slab.ko``: side, slab, name, tier, points, by, score
- ``turn.pass``: side, turn
- ``turn.timeout``: side, turn, timeouts, limit
- ``forfeit``: side, timeouts
- ``surrender``: side
- ``turn_limit``: turns, points_a, points_b, hp_a, full_a, hp_b, full_b, decided_by
- ``match.end``: result, reason, turn, points_a, points_b

Actions in the log: ``{"type": "swap"|"replace", "side", "slab"}``, ``{"type":
"attack", "side", "move"}``, ``{"type": "pass"|"timeout"|"surrender", "side"}``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, TextIO

from engine.arena.bots import BOTS, play_match, run_series
from engine.arena.match import EVENT_CODES
from engine.arena.slabs import (
    InvalidSlabError,
    InvalidTeamError,
    Slab,
    SlabStats,
    stat_book,
    team_brackets,
    team_value,
)
from engine.cli.base import Command, UsageError, add_series_arguments, read_input, series_bots
from engine.serialize.arena import action_to_json

__all__ = ["COMMAND", "EVENT_CODES", "parse_slab", "stats_json"]

_FIELDS = ("asset_id", "name", "grade", "year", "value")


def _load(path: str) -> Any:
    raw = read_input(path)
    try:
        # Fractions stay exact: 9.5 → Decimal("9.5"); a money value must not be one.
        return json.loads(raw, parse_float=Decimal)
    except ValueError as exc:
        raise UsageError(f"{path}: not valid JSON ({exc})") from None


def parse_slab(data: Any, where: str = "slab") -> SlabStats:
    """A slab and its value from the CLI's JSON (``UsageError`` naming the field)."""
    if not isinstance(data, Mapping):
        raise UsageError(f"{where}: must be an object with {', '.join(_FIELDS)}")
    for key in _FIELDS:
        if key not in data:
            raise UsageError(f"{where}.{key}: missing")
    value = data["value"]
    if isinstance(value, str):
        try:
            value = Decimal(value.strip())
        except ArithmeticError:
            raise UsageError(f'{where}.value: not a decimal amount ("12.40"): {value!r}') from None
    elif isinstance(value, Decimal) or type(value) is not int:
        raise UsageError(f'{where}.value: give a decimal string such as "12.40" or a whole number')
    grade = data["grade"]
    if type(grade) not in (int, Decimal):
        raise UsageError(f"{where}.grade: must be a number from 1 to 10 in steps of 0.5")
    try:
        book = stat_book(Slab(data["asset_id"], data["name"], grade, data["year"]), value)
    except InvalidSlabError as exc:
        raise UsageError(f"{where}.{exc.code}: {exc}") from None
    return book.stats


def _json_ready(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_json_ready(v) for v in value]
    return value


def stats_json(stats: SlabStats) -> dict[str, Any]:
    """The ``arena stats`` answer for a slab on its day."""
    book = stat_book(stats.slab, stats.value)
    return {
        "asset_id": stats.asset_id,
        "hp": stats.hp,
        "tier": str(stats.tier),
        "attack": stats.attack,
        "armor": stats.armor,
        "element": str(stats.element),
        "power": {"bonus": stats.power.bonus, "cost": stats.power.cost} if stats.power else None,
        "ko_points": stats.ko_points,
        "trace": [
            {"code": s.code, "params": _json_ready(s.params), "value": _json_ready(s.value)}
            for s in book.trace
        ],
    }


def _team(data: Any, where: str) -> list[SlabStats]:
    if not isinstance(data, list):
        raise UsageError(f"{where}: must be a list of 4 slabs")
    return [parse_slab(item, f"{where}[{i}]") for i, item in enumerate(data)]


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "The slab arena: a slab's stat book, a team's brackets, bot matches."
    sub = parser.add_subparsers(dest="arena_command", required=True, metavar="stats|team|simulate")
    stats = sub.add_parser("stats", prog="python -m engine arena stats")
    stats.add_argument("slab", metavar="SLAB.json", help="a slab and its value, or - for stdin")
    team = sub.add_parser("team", prog="python -m engine arena team")
    team.add_argument("team", metavar="TEAM.json", help='{"slabs": [4 slabs]}, or -')
    sim = sub.add_parser("simulate", prog="python -m engine arena simulate")
    sim.add_argument(
        "--teams", required=True, metavar="FILE.json", help='{"a": [4 slabs], "b": [4 slabs]}'
    )
    add_series_arguments(sim, BOTS)
    for p in (stats, team, sim):
        setattr(p, "error", parser.error)  # noqa: B010  # one-line usage errors


def _run(args: argparse.Namespace, out: TextIO) -> int:
    if args.arena_command == "stats":
        result: dict[str, Any] = stats_json(parse_slab(_load(args.slab)))
    elif args.arena_command == "team":
        data = _load(args.team)
        if not isinstance(data, Mapping) or "slabs" not in data:
            raise UsageError('slabs: the file must be an object {"slabs": [4 slabs]}')
        members = _team(data["slabs"], "slabs")
        try:
            brackets = team_brackets(members)
        except InvalidTeamError as exc:
            raise UsageError(f"slabs: {exc} ({exc.code})") from None
        result = {"value": str(team_value(members)), "brackets": [str(b) for b in brackets]}
    else:
        result = _simulate(args)
    json.dump(result, out, ensure_ascii=False, indent=2)
    out.write("\n")
    return 0


def _simulate(args: argparse.Namespace) -> dict[str, Any]:
    bots = series_bots(args, BOTS, "greedy,planner")
    if args.games > 1_000_000:
        raise UsageError("--games: at most 1000000")
    data = _load(args.teams)
    if not isinstance(data, Mapping):
        raise UsageError(f'{args.teams}: must be an object {{"a": [...], "b": [...]}}')
    teams = []
    for side in ("a", "b"):
        if side not in data:
            raise UsageError(f"{side}: missing (a team of 4 slabs)")
        teams.append(_team(data[side], side))
    try:
        summary = run_series(teams[0], teams[1], bots, args.seed, args.games)
    except InvalidTeamError as exc:
        raise UsageError(f"{exc.params.get('side', 'teams')}: {exc} ({exc.code})") from None
    if args.log:
        record = play_match(teams[0], teams[1], bots, args.seed, log=True)
        state = record.state
        summary["log"] = {
            "seed": args.seed,
            "first": "ab"[state.first],
            "result": state.result,
            "end_reason": str(state.end),
            "turns": state.turn,
            "actions": [action_to_json(a) for a in record.actions],
            "events": [e.to_json() for e in record.events],
        }
    return summary


COMMAND = Command("arena", _arguments, _run)
