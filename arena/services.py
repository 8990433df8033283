"""Writes of the arena: the value feed, the session's team, matches against a bot (on the
server's clock), and the balance report.

The player is side A, the bot side B. The server holds each turn's deadline: a turn of
the player starts when the bot's turn before it ends (or when the match starts), and lasts
``TURN_SECONDS``. Every read or write of a match first applies the timeouts that are due
("catching up"): each overdue turn of the player becomes a ``Timeout`` and the next turn
starts at the previous one's deadline, so a player who walks away forfeits after three
turns' time whatever the pages do. The bot never times out: it moves at once.

A match's writes run in a transaction on a row locked with ``select_for_update``; the form
carries the action count it was made for, so a stale page or a double submit is applied
once and refused after (``StaleMoveError``).
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from core import versions
from core.limits import Budget
from engine.arena.bots import ArenaBot, make_bot, play_match
from engine.arena.match import (
    SIDES,
    A,
    Action,
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
    new_match,
    opening_events,
    timed_out,
)
from engine.arena.slabs import (
    BRACKETS,
    ELEMENT_BEATS,
    TEAM_LIMITED_MAX,
    TEAM_LIMITED_TIERS,
    TEAM_SIZE,
    TURN_SECONDS,
    Bracket,
    Element,
    SlabMove,
    SlabStats,
    SlabTier,
    team_value,
)
from engine.errors import IllegalArenaActionError
from engine.serialize.arena import action_from_json, action_to_json

from . import selectors, specs
from .importing import FeedError, FeedRow, RawRow, check_rows
from .models import ArenaBalanceReport, ArenaMatch, MatchStatus, SessionTeam, Slab, SlabValue

__all__ = [
    "BOT_FOR_PLAYERS",
    "TEAM_ERROR_CODES",
    "ImportResult",
    "LateMoveError",
    "Loaded",
    "StaleMoveError",
    "TeamError",
    "catch_up",
    "change_team",
    "draw_team",
    "edit_team",
    "fill_team",
    "import_feed",
    "import_values",
    "load",
    "parse_move",
    "play_move",
    "rematch",
    "run_balance_report",
    "start_match",
    "surrender",
]

BOT_FOR_PLAYERS = ArenaBot.PLANNER  # the default opponent
PLAYER_BOTS = (ArenaBot.GREEDY, ArenaBot.PLANNER)  # bots a player may choose
TEAM_DRAWS = 40  # random legal teams drawn for the bot; the closest in value is kept


# ---------------------------------------------------------------------------
# The value feed


@dataclass(frozen=True, slots=True)
class ImportResult:
    rows: int
    created: int
    updated: int
    unchanged: int


def import_feed(rows: list[RawRow]) -> ImportResult:
    """Check a feed's rows in full (``arena.importing.check_rows``, against the slabs
    stored and the match day) and store them all; with any problem, store none and raise
    ``FeedError`` listing every one. The command and the admin import through here."""
    known = set(Slab.objects.values_list("asset_id", flat=True))
    clean, problems = check_rows(rows, known, selectors.match_day())
    if problems:
        raise FeedError(problems)
    return import_values(clean)


def import_values(rows: Sequence[FeedRow]) -> ImportResult:
    """Store checked feed rows, all or none: new days are created, changed values updated,
    equal ones left alone (so importing the same file twice changes nothing)."""
    created = updated = unchanged = 0
    with transaction.atomic():
        slabs = dict(
            Slab.objects.filter(asset_id__in={r.asset_id for r in rows}).values_list(
                "asset_id", "pk"
            )
        )
        dates = {r.date for r in rows}
        existing = {
            (pk, day): (vid, value)
            for vid, pk, day, value in SlabValue.objects.filter(
                slab_id__in=slabs.values(), date__in=dates
            ).values_list("id", "slab_id", "date", "value")
        }
        new, changed = [], []
        for row in rows:
            pk = slabs[row.asset_id]
            found = existing.get((pk, row.date))
            if found is None:
                new.append(SlabValue(slab_id=pk, date=row.date, value=row.value))
            elif found[1] != row.value:
                changed.append(SlabValue(id=found[0], slab_id=pk, date=row.date, value=row.value))
            else:
                unchanged += 1
        SlabValue.objects.bulk_create(new, batch_size=2000)
        SlabValue.objects.bulk_update(changed, ["value"], batch_size=2000)
        created, updated = len(new), len(changed)
    if created or updated:
        versions.bump("arena")
    return ImportResult(len(rows), created, updated, unchanged)


# ---------------------------------------------------------------------------
# The session's team


#: Why a team edit or a match start cannot be done (``TeamError.code``; worded in
#: ``arena.narration.TEAM_ERRORS``).
TEAM_ERROR_CODES = (
    "full",
    "unknown_slab",
    "already_in",
    "no_value",
    "no_bot_team",
    "no_team",
    "bad_op",
)


class TeamError(ValueError):
    """A team edit or a match start that cannot be done (``code`` says why: one of
    ``TEAM_ERROR_CODES``)."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code)


def _change_team(session: Any, change: Callable[[list[str]], list[str]]) -> list[str]:
    """Apply ``change`` to the session's stored team under a lock on its row, so that
    edits sent at once all count (``SessionTeam``); the new team."""
    if session.session_key is None:
        session.save()
    key = session.session_key
    with transaction.atomic():
        row = SessionTeam.objects.select_for_update().filter(session_key=key).first()
        if row is None:
            legacy = selectors.clean_team(session.get(selectors.TEAM_SESSION_KEY, []))
            try:
                with transaction.atomic():
                    row = SessionTeam.objects.create(session_key=key, slabs=legacy)
            except IntegrityError:  # another request made it meanwhile
                row = SessionTeam.objects.select_for_update().get(session_key=key)
        team = change(selectors.clean_team(row.slabs))
        row.slabs = team
        row.save(update_fields=["slabs", "updated_at"])
    if selectors.TEAM_SESSION_KEY in session:
        del session[selectors.TEAM_SESSION_KEY]  # the row holds it now
    session._arena_team = team
    return list(team)


def edit_team(session: Any, op: str, asset_id: str = "") -> list[str]:
    """Change the session's team: ``add``, ``remove``, ``lead`` (move to the front, on the
    field at the start), ``clear``. Returns the new team (asset IDs). Raises TeamError
    (``full``, ``unknown_slab``, ``already_in``) and leaves the team as it was. Edits sent
    at once are applied one after the other (``_change_team``)."""
    if op not in ("clear", "add", "remove", "lead"):  # pragma: no cover - the form offers four
        raise TeamError("bad_op")

    def change(team: list[str]) -> list[str]:
        if op == "clear":
            return []
        if op == "add":
            if asset_id in team:
                raise TeamError("already_in", asset_id=asset_id)
            if len(team) >= TEAM_SIZE:
                raise TeamError("full", size=TEAM_SIZE)
            if not Slab.objects.filter(asset_id=asset_id).exists():
                raise TeamError("unknown_slab", asset_id=asset_id)
            return [*team, asset_id]
        if op == "remove":
            return [a for a in team if a != asset_id]
        if asset_id in team:  # lead
            return [asset_id, *(a for a in team if a != asset_id)]
        return team

    return _change_team(session, change)


def set_team(session: Any, asset_ids: Iterable[str]) -> list[str]:
    """Replace the session's team (a permalink's "use this team", or a drawn team)."""
    team = list(dict.fromkeys(asset_ids))[:TEAM_SIZE]
    return _change_team(session, lambda _old: team)


def fill_team(
    session: Any, bracket: Bracket, day: dt.date, rng: random.Random | None = None
) -> list[str]:
    """Make the session's team a random legal team of ``bracket`` from the slabs valued on
    ``day``; TeamError("no_team") when none fits."""
    pool = [d.stats for d in selectors.slabs_on(day) if d.stats is not None]
    team = draw_team(pool, _cap(bracket), rng or random.Random())
    if team is None:
        raise TeamError("no_team", bracket=str(bracket))
    return set_team(session, [m.asset_id for m in team])


def change_team(
    session: Any,
    op: str,
    asset_id: str = "",
    slabs: Iterable[str] = (),
    bracket: str | None = None,
    day: dt.date | None = None,
) -> tuple[str, dict[str, Any]] | None:
    """One change to the session's team (``op``: ``fill`` a random team of ``bracket``,
    ``use`` the team of ``slabs``, or an ``edit_team`` op on ``asset_id``). Returns the
    notice to give (a code of ``arena.narration.NOTICES`` and its params), or None; raises
    TeamError."""
    if op == "fill":
        chosen = Bracket(bracket or Bracket.ROOKIE)
        fill_team(session, chosen, day or selectors.match_day())
        return "team_filled", {"bracket": chosen.value}
    if op == "use":
        set_team(session, slabs)
        return "team_used", {}
    edit_team(session, op, asset_id.strip())
    return None


def _by_value(slab: SlabStats) -> tuple[Decimal, str]:
    return slab.value, slab.slab.asset_id


def draw_team(
    candidates: Sequence[SlabStats],
    cap: Decimal | None,
    rng: random.Random,
    *,
    target: Decimal | None = None,
    draws: int = TEAM_DRAWS,
) -> tuple[SlabStats, ...] | None:
    """A random legal team (4 different slabs, at most 2 rare or epic) within ``cap``;
    with ``target``, the drawn team whose total is closest to it. None when no legal team
    fits. Candidates are slabs with a value on the match day."""
    pool = sorted(candidates, key=_by_value)
    if len(pool) < TEAM_SIZE:
        return None
    best: tuple[SlabStats, ...] | None = None
    best_gap = Decimal(0)
    for _ in range(draws):
        team = _one_team(pool, cap, rng)
        if team is None:
            continue
        gap = abs(team_value(team) - target) if target is not None else Decimal(0)
        if best is None or gap < best_gap:
            best, best_gap = team, gap
        if target is None:
            break
    if best is None:  # the cheapest legal team, if any
        cheapest = [s for s in pool if s.tier not in TEAM_LIMITED_TIERS][:TEAM_SIZE]
        if len(cheapest) == TEAM_SIZE and (cap is None or team_value(cheapest) <= cap):
            best = tuple(cheapest)
    return best


FIRST_LOOK = 24  # random slabs looked at before the whole pool is shuffled


def _chain(first: list[int], rest: Iterable[int]) -> Iterable[int]:
    yield from first
    yield from rest


def _one_team(
    pool: Sequence[SlabStats], cap: Decimal | None, rng: random.Random
) -> tuple[SlabStats, ...] | None:
    """Slabs in random order, each taken while the team can still be filled within the cap
    by the cheapest slabs left (``pool`` is sorted by value)."""
    team: list[SlabStats] = []
    taken: set[str] = set()
    total = Decimal(0)
    limited = 0
    size = len(pool)
    first = rng.sample(range(size), min(size, FIRST_LOOK))
    rest = (i for i in rng.sample(range(size), size) if i not in first) if size > FIRST_LOOK else ()
    for index in (*first, *rest) if size <= FIRST_LOOK else _chain(first, rest):
        slab = pool[index]
        is_limited = slab.tier in TEAM_LIMITED_TIERS
        if is_limited and limited >= TEAM_LIMITED_MAX:
            continue
        need = TEAM_SIZE - len(team) - 1
        if cap is not None:
            floor = Decimal(0)
            found = 0
            for other in pool:
                if found == need:
                    break
                if other.asset_id in taken or other is slab:
                    continue
                floor += other.value
                found += 1
            if total + slab.value + floor > cap:
                continue
        team.append(slab)
        taken.add(slab.asset_id)
        total += slab.value
        limited += is_limited
        if len(team) == TEAM_SIZE:
            return tuple(team)
    return None


def _cap(bracket: Bracket) -> Decimal | None:
    return next(b.cap for b in BRACKETS if b.bracket is bracket)


# ---------------------------------------------------------------------------
# Matches


class StaleMoveError(ValueError):
    """The form was made for an earlier point of the match (or sent twice)."""


class LateMoveError(ValueError):
    """The move came after the turn's deadline: the turn was counted as a timeout."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """A stored match rebuilt: its state, its whole log, the state at the end of each turn
    (``turns[0]`` is the start), and the deadline of the player's turn (None when it is
    not the player's turn or the match is over)."""

    match: ArenaMatch
    state: ArenaState
    log: tuple[Event, ...]
    turns: tuple[ArenaState, ...]
    deadline: dt.datetime | None
    timeouts_applied: int = 0


def _teams(match: ArenaMatch) -> tuple[tuple[SlabStats, ...], tuple[SlabStats, ...]]:
    return specs.team_from_json(match.team_a), specs.team_from_json(match.team_b)


class _Run:
    """A match being rebuilt and played on: the state, the whole log, the state at the end
    of each turn, and the actions added by this request."""

    def __init__(self, match: ArenaMatch) -> None:
        team_a, team_b = _teams(match)
        self.state = new_match(team_a, team_b, match.seed, bracket=match.bracket)
        self.log: list[Event] = list(opening_events(self.state))
        self.turns: list[ArenaState] = [self.state]
        self.new: list[Action] = []
        for data in match.actions:
            self._apply(action_from_json(data))

    def _apply(self, action: Action) -> None:
        turn = self.state.turn
        self.state, events = apply(self.state, action)
        self.log.extend(events)
        if self.state.turn != turn or self.state.over:
            self.turns.append(self.state)

    def play(self, action: Action) -> None:
        """Apply a new action (IllegalArenaActionError leaves everything as it was)."""
        self._apply(action)
        self.new.append(action)


def _loaded(match: ArenaMatch, run: _Run | None = None, applied: int = 0) -> Loaded:
    run = run or _Run(match)
    state = run.state
    deadline = None
    if not state.over and state.to_move == A:
        deadline = match.turn_started_at + dt.timedelta(seconds=TURN_SECONDS)
    return Loaded(match, state, tuple(run.log), tuple(run.turns), deadline, applied)


def load(match: ArenaMatch) -> Loaded:
    """Rebuild a match (no clock applied: for replays and finished matches)."""
    return _loaded(match)


def _bot_rng(seed: int, state: ArenaState) -> random.Random:
    return random.Random(seed * 1_000_003 + state.actions)


def _bot_turn(run: _Run, match: ArenaMatch) -> None:
    """The bot plays until its turn is over (or the match is)."""
    bot = make_bot(match.bot)
    while not run.state.over and run.state.to_move == B:
        run.play(bot.act(run.state, B, _bot_rng(match.seed, run.state)))


def _save(match: ArenaMatch, run: _Run) -> None:
    state = run.state
    match.actions = [*match.actions, *(action_to_json(a) for a in run.new)]
    match.status = ArenaMatch.status_of(state)
    match.end_reason = str(state.end) if state.end else ""
    match.turn = state.turn
    match.save(
        update_fields=["actions", "status", "end_reason", "turn", "turn_started_at", "updated_at"]
    )
    run.new = []


def _overdue(match: ArenaMatch, run: _Run, now: dt.datetime) -> int:
    """Apply the player's overdue timeouts (each followed by the bot's turn)."""
    applied = 0
    while (
        not run.state.over
        and run.state.to_move == A
        and timed_out(match.turn_started_at.timestamp(), now.timestamp())
    ):
        deadline = match.turn_started_at + dt.timedelta(seconds=TURN_SECONDS)
        run.play(Timeout(A))
        applied += 1
        _bot_turn(run, match)
        match.turn_started_at = deadline  # the next turn started when this one ran out
    return applied


def _locked(public_id: Any, session_key: str) -> ArenaMatch:
    return ArenaMatch.objects.select_for_update().get(
        public_id=public_id, owner_session_key=session_key
    )


def catch_up(public_id: Any, session_key: str, now: dt.datetime | None = None) -> Loaded:
    """The match as it stands on the server's clock (overdue timeouts applied).
    ArenaMatch.DoesNotExist when the match is not this session's."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(public_id, session_key)
        run = _Run(match)
        applied = 0 if match.over else _overdue(match, run, now)
        if applied:
            _save(match, run)
    return _loaded(match, run, applied)


MOVES = ("attack:basic", "attack:power", "pass", *(f"swap:{i}" for i in range(TEAM_SIZE)),
         *(f"replace:{i}" for i in range(TEAM_SIZE)))  # fmt: skip
"""Every move a form can send (``MoveForm`` offers exactly these)."""


def parse_move(move: str) -> Action:
    """The player's action from a form value (one of ``MOVES``)."""
    kind, _, arg = move.partition(":")
    if move == "pass":
        return Pass(A)
    if kind == "attack":
        return Attack(A, SlabMove(arg))
    if kind == "swap":
        return Swap(A, int(arg))
    if kind == "replace":
        return Replace(A, int(arg))
    raise IllegalArenaActionError("bad_action")  # pragma: no cover - MoveForm refuses the rest


def play_move(
    public_id: Any, session_key: str, turn: int, move: str, now: dt.datetime | None = None
) -> Loaded:
    """Apply the player's move (and the bot's turn after it), atomically.

    - ``LateMoveError``: the turn's deadline had passed: the turn counts as a timeout
      (stored), the move is not played.
    - ``StaleMoveError``: ``turn`` is not the action count of the match (a stale page or a
      second submit): nothing changes.
    - ``IllegalArenaActionError``: the rules refuse the move: nothing changes.
    - ``ArenaMatch.DoesNotExist``: not this session's match.
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(public_id, session_key)
        run = _Run(match)
        applied = _overdue(match, run, now)
        if applied:
            _save(match, run)
            late = True
        elif turn != run.state.actions:
            raise StaleMoveError(turn)
        else:
            late = False
            before = run.state.turn
            run.play(parse_move(move))
            if run.state.turn != before and not run.state.over:
                _bot_turn(run, match)
                match.turn_started_at = now
            _save(match, run)
    if late:
        raise LateMoveError(applied)
    return _loaded(match, run)


def surrender(public_id: Any, session_key: str, now: dt.datetime | None = None) -> Loaded:
    """Give the match up (after the clock's timeouts: a forfeit already made stands). A
    second surrender, or one after the end, changes nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        match = _locked(public_id, session_key)
        run = _Run(match)
        _overdue(match, run, now)
        if not run.state.over:
            run.play(Surrender(A))
        if run.new:
            _save(match, run)
    return _loaded(match, run)


def _player_team(asset_ids: Sequence[str], day: dt.date) -> tuple[SlabStats, ...]:
    days = selectors.slabs_on(day, asset_ids)
    if len(days) != len(asset_ids):
        known = {d.asset_id for d in days}
        raise TeamError("unknown_slab", asset_id=next(a for a in asset_ids if a not in known))
    for d in days:
        if d.stats is None:
            raise TeamError("no_value", asset_id=d.asset_id, day=day.isoformat())
    return tuple(d.stats for d in days if d.stats is not None)  # all of them (checked above)


# How fast a visitor may start matches (``core.limits``: per session, per new visitor,
# per address) and how many a session keeps in progress: starting one more first applies
# the clock to the session's matches (one left alone has forfeited after three turns'
# time), then gives up the oldest still in progress (a surrender).
STARTS = Budget("arena", per_session=12, per_new_visitor=12, per_address=40)
ACTIVE_MATCHES_PER_SESSION = 5
# ``manage.py cleanup`` applies the clock to a match whose turn started longer ago than
# this: it ends by forfeit (docs/rules.md §8.6) and stays, a finished match, shareable.
ABANDONED_AFTER = dt.timedelta(minutes=10)


def _make_room(session_key: str, now: dt.datetime) -> list[Any]:
    """Keep the session under ``ACTIVE_MATCHES_PER_SESSION`` in progress with the new one;
    the public ids of the matches given up."""

    def active() -> list[Any]:
        return list(
            ArenaMatch.objects.filter(owner_session_key=session_key, status=MatchStatus.ACTIVE)
            .order_by("created_at", "id")
            .values_list("public_id", flat=True)
        )

    for public_id in active():
        catch_up(public_id, session_key, now)
    still = active()
    given_up = still[: max(0, len(still) - ACTIVE_MATCHES_PER_SESSION + 1)]
    for public_id in given_up:
        surrender(public_id, session_key, now)
    return given_up


def settle_abandoned(now: dt.datetime | None = None) -> int:
    """Apply the clock to every match in progress whose turn started more than
    ``ABANDONED_AFTER`` ago (its player walked away: it ends by forfeit); how many."""
    now = now or timezone.now()
    stale = ArenaMatch.objects.filter(
        status=MatchStatus.ACTIVE, turn_started_at__lt=now - ABANDONED_AFTER
    ).values_list("public_id", "owner_session_key")
    settled = 0
    for public_id, session_key in list(stale):
        try:
            if catch_up(public_id, session_key, now).match.over:
                settled += 1
        except ArenaMatch.DoesNotExist:  # deleted meanwhile
            continue
    return settled


def delete_orphan_teams() -> int:
    """Delete the teams of sessions that no longer exist (expired, cleared); how many."""
    from django.contrib.sessions.models import Session

    orphans = SessionTeam.objects.exclude(session_key__in=Session.objects.values("session_key"))
    deleted, _ = orphans.delete()
    return deleted


def start_match(
    session_key: str,
    asset_ids: Sequence[str],
    bracket: Bracket,
    *,
    lead: str | None = None,
    bot: str = BOT_FOR_PLAYERS,
    seed: int | None = None,
    now: dt.datetime | None = None,
) -> ArenaMatch:
    """Start a match: the player's team (``lead`` first, on the field) against a bot team
    drawn to fit the same bracket on the match day (today, UTC). Raises TeamError, or
    engine.arena.slabs.InvalidTeamError (a rule or the bracket's cap; ``code`` says which)."""
    now = now or timezone.now()
    day = selectors.match_day(now)
    ids = list(asset_ids)
    if lead in ids:
        ids = [lead, *(a for a in ids if a != lead)]
    player = _player_team(ids, day)
    if seed is None:
        seed = secrets.randbelow(2**31)
    rng = random.Random(seed)
    # Validates the player's team (rules and cap) before a bot team is drawn.
    new_match(player, player, seed, bracket=bracket)
    mine = {m.asset_id for m in player}
    others = [
        d.stats for d in selectors.slabs_on(day) if d.stats is not None and d.asset_id not in mine
    ]
    bot_team = draw_team(others, _cap(bracket), rng, target=team_value(player))
    if bot_team is None:  # few slabs: the bot may use copies of the player's
        everyone = [d.stats for d in selectors.slabs_on(day) if d.stats is not None]
        bot_team = draw_team(everyone, _cap(bracket), rng, target=team_value(player))
    if bot_team is None:
        raise TeamError("no_bot_team", bracket=str(bracket))
    new_match(player, bot_team, seed, bracket=bracket)
    given_up = _make_room(session_key, now)
    match = ArenaMatch(
        owner_session_key=session_key,
        seed=seed,
        bracket=str(bracket),
        match_day=day,
        bot=str(bot),
        team_a=specs.team_to_json(player),
        team_b=specs.team_to_json(bot_team),
        actions=[],
        turn=1,
        turn_started_at=now,
    )
    _opening(match)  # the bot may move first
    match.given_up = given_up  # not a field: what the view tells the player
    return match


def _opening(match: ArenaMatch) -> None:
    """Store a new match after the bot's turn 1, when it moves first."""
    run = _Run(match)
    _bot_turn(run, match)
    match.actions = [action_to_json(a) for a in run.new]
    match.status = ArenaMatch.status_of(run.state)
    match.turn = run.state.turn
    match.save()


def rematch(public_id: Any, session_key: str, now: dt.datetime | None = None) -> ArenaMatch:
    """A new match with the same two teams (as they were), bracket and bot; a new seed."""
    old = ArenaMatch.objects.get(public_id=public_id, owner_session_key=session_key)
    now = now or timezone.now()
    given_up = _make_room(session_key, now)
    seed = secrets.randbelow(2**31)
    match = ArenaMatch(
        owner_session_key=session_key,
        seed=seed,
        bracket=old.bracket,
        match_day=old.match_day,
        bot=old.bot,
        team_a=old.team_a,
        team_b=old.team_b,
        actions=[],
        turn=1,
        turn_started_at=now,
    )
    _opening(match)
    match.given_up = given_up  # not a field: what the view tells the player
    return match


# ---------------------------------------------------------------------------
# The balance report

BALANCE_GAMES = (
    1500  # per bot pairing: a few seconds in all (`arena_demo --report --games N` for more)
)
BALANCE_PAIRINGS = ((ArenaBot.GREEDY, ArenaBot.GREEDY), (ArenaBot.PLANNER, ArenaBot.PLANNER),
                    (ArenaBot.GREEDY, ArenaBot.PLANNER))  # fmt: skip


def _row() -> list[int]:
    return [0, 0, 0]  # games, wins, draws


def _add(row: list[int], outcome: int) -> None:
    row[0] += 1
    if outcome == 1:
        row[1] += 1
    elif outcome == 0:
        row[2] += 1


def run_balance_report(
    games: int = BALANCE_GAMES,
    seed: int = 0,
    *,
    day: dt.date | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaBalanceReport:
    """Bot-vs-bot matches over the slabs with a value on ``day`` (today, UTC), stored.

    For each bot pairing, ``games`` matches: each draws a bracket, then two random legal
    teams in it (seeded), and match i uses seed ``seed + i``. Tallied: wins of the first
    and of the second player (is the first player's empty turn 1 a handicap?); win rates
    by slab tier (teams holding a slab of the tier), by the opening slabs' elements, by
    element advantage (the pairs of slabs where one team's element beats the other's, in
    balance), and by bracket. Bounded by ``games``; a few seconds for the defaults.
    """
    started = time.perf_counter()
    day = day or selectors.match_day()
    slabs = [d.stats for d in selectors.slabs_on(day) if d.stats is not None]
    rng = random.Random(seed)
    brackets = [b.bracket for b in BRACKETS]
    slabs.sort(key=_by_value)
    pools = {b: [s for s in slabs if (cap := _cap(b)) is None or s.value <= cap] for b in brackets}
    data: dict[str, Any] = {"pairings": [], "day": day.isoformat(), "slabs": len(slabs)}
    total_games = 0
    for bots in BALANCE_PAIRINGS:
        first = {"games": 0, "first_wins": 0, "second_wins": 0, "draws": 0}
        by_tier = {t.value: _row() for t in SlabTier}
        by_lead = {f"{x.value}:{y.value}": _row() for x in Element for y in Element}
        by_advantage = {k: _row() for k in ("behind", "even", "ahead")}
        by_bracket = {b.value: {"games": 0, "first_wins": 0, "second_wins": 0, "draws": 0}
                      for b in brackets}  # fmt: skip
        by_side = {"a": 0, "b": 0}
        reasons: Counter[str] = Counter()
        turns = 0
        players = [make_bot(bots[0]), make_bot(bots[1])]
        played = 0
        for i in range(games):
            bracket = rng.choice(brackets)
            cap = _cap(bracket)
            team_a = _one_team(pools[bracket], cap, rng)
            team_b = _one_team(pools[bracket], cap, rng)
            if team_a is None or team_b is None:
                continue
            state = play_match(team_a, team_b, players, seed + i, bracket=bracket).state
            played += 1
            turns += state.turn
            reasons[str(state.end)] += 1
            for row in (first, by_bracket[bracket.value]):
                row["games"] += 1
                if state.winner is None:
                    row["draws"] += 1
                elif state.winner == state.first:
                    row["first_wins"] += 1
                else:
                    row["second_wins"] += 1
            if state.winner is not None:
                by_side[SIDES[state.winner]] += 1
            for side, own, other in ((A, team_a, team_b), (B, team_b, team_a)):
                outcome = 0 if state.winner is None else (1 if state.winner == side else -1)
                for tier in {m.tier for m in own}:
                    _add(by_tier[tier.value], outcome)
                _add(by_lead[f"{own[0].element.value}:{other[0].element.value}"], outcome)
                edge = sum(
                    (ELEMENT_BEATS[m.element] is o.element)
                    - (ELEMENT_BEATS[o.element] is m.element)
                    for m in own
                    for o in other
                )
                _add(
                    by_advantage["ahead" if edge > 0 else "behind" if edge < 0 else "even"], outcome
                )
            if progress is not None and (total_games + i + 1) % 1000 == 0:
                progress(total_games + i + 1)
        total_games += games
        data["pairings"].append(
            {
                "bots": [str(b) for b in bots],
                "games": played,
                "first_player": first,
                "by_tier": by_tier,
                "by_lead": by_lead,
                "by_advantage": by_advantage,
                "by_bracket": by_bracket,
                "wins_by_side": by_side,
                "average_turns": round(turns / played, 2) if played else 0,
                "end_reasons": dict(sorted(reasons.items())),
            }
        )
    data["beats"] = {x.value: ELEMENT_BEATS[x].value for x in Element}
    seconds = time.perf_counter() - started
    versions.bump("arena")
    return ArenaBalanceReport.objects.create(
        match_day=day,
        games=sum(p["games"] for p in data["pairings"]),
        seed=seed,
        slabs=len(slabs),
        seconds=round(seconds, 3),
        data=data,
    )
