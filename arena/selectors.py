"""Read queries of the arena: slabs on a day, their values, the explorer's filters, the
session's team and matches, the latest balance report.

The value of a slab on a day is the latest value dated on or before it (values lock at
00:00 UTC); a slab with no value by then has no stats that day and cannot join a team.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import DateField, OuterRef, QuerySet, Subquery
from django.utils import timezone

from core.memo import memo
from engine.arena.slabs import (
    BRACKETS,
    TEAM_LIMITED_MAX,
    TEAM_LIMITED_TIERS,
    TEAM_SIZE,
    USD_CENT,
    Bracket,
    Element,
    SlabStats,
    SlabTier,
    element_of,
)

from . import specs
from .models import ArenaBalanceReport, ArenaMatch, SessionTeam, Slab, SlabValue

__all__ = [
    "TEAM_SESSION_KEY",
    "SlabDay",
    "SlabFilters",
    "SlabRow",
    "bracket_fits",
    "clean_team",
    "explore",
    "fits_on",
    "history",
    "latest_report",
    "match_by_public_id",
    "match_day",
    "match_for_session",
    "session_matches",
    "session_team_ids",
    "slab_day",
    "slabs_on",
    "value_dates",
]

TEAM_SESSION_KEY = "arena_team"


def match_day(now: dt.datetime | None = None) -> dt.date:
    """Today in UTC: the match day of a match starting now."""
    moment = now or timezone.now()
    return moment.astimezone(dt.UTC).date()


@dataclass(frozen=True, slots=True)
class SlabRow:
    """A slab's lasting facts as read from the database (light: no model instance)."""

    pk: int
    asset_id: str
    name: str
    grade: Decimal
    year: int


@dataclass(frozen=True, slots=True)
class SlabDay:
    """A slab on a day: its row, the value that counts (None: none by then), the date that
    value was locked, and its stats (None without a value)."""

    row: SlabRow
    day: dt.date
    value: Decimal | None
    value_date: dt.date | None
    stats: SlabStats | None
    element: Element = field(init=False)

    def __post_init__(self) -> None:
        element = self.stats.element if self.stats is not None else element_of(self.row.asset_id)
        object.__setattr__(self, "element", element)

    @property
    def asset_id(self) -> str:
        return self.row.asset_id


_ROW_FIELDS = ("id", "asset_id", "name", "grade", "year", "day_value", "day_value_date")


def _annotated(day: dt.date) -> QuerySet[Slab]:
    latest = SlabValue.objects.filter(slab=OuterRef("pk"), date__lte=day).order_by("-date")
    return Slab.objects.annotate(
        day_value=Subquery(
            latest.values("value")[:1], output_field=SlabValue._meta.get_field("value")
        ),
        day_value_date=Subquery(latest.values("date")[:1], output_field=DateField()),
    )


def _slab_day(values: tuple[Any, ...], day: dt.date) -> SlabDay:
    pk, asset_id, name, grade, year, value, value_date = values
    row = SlabRow(pk, asset_id, name, Decimal(grade), year)
    if value is not None:
        # SQLite hands an annotation's decimal back unquantized (56.5, 11.4700000000000).
        value = Decimal(value).quantize(USD_CENT)
    stats = specs.stats_of(row, value) if value is not None else None
    return SlabDay(row, day, value, value_date, stats)


def _memo(kind: str, day: dt.date, build: Any) -> Any:
    """A day's table, built once per process and arena content version (``core.memo``:
    unpickling hundreds of frozen values from the cache would cost more than the query)."""
    return memo(f"arena:{kind}:{day.isoformat()}", ("arena",), build)


def _all_on(day: dt.date) -> list[SlabDay]:
    """Every slab on ``day``, in asset ID order: one query, kept per content version."""

    def build() -> list[SlabDay]:
        rows = _annotated(day).order_by("asset_id").values_list(*_ROW_FIELDS)
        return [_slab_day(r, day) for r in rows]

    return _memo("day", day, build)


def slabs_on(day: dt.date, asset_ids: Iterable[str] | None = None) -> list[SlabDay]:
    """Every slab (or those asset IDs, in the order given; unknown ones left out) with its
    value on ``day``."""
    if asset_ids is not None:
        wanted = list(asset_ids)
        rows = _annotated(day).filter(asset_id__in=wanted).values_list(*_ROW_FIELDS)
        found = {r[1]: _slab_day(r, day) for r in rows}
        return [found[a] for a in wanted if a in found]
    return _all_on(day)


def slab_day(asset_id: str, day: dt.date) -> SlabDay | None:
    """One slab on a day, or None when there is no such slab (from the day's table)."""
    return next((d for d in _all_on(day) if d.asset_id == asset_id), None)


def history(row: SlabRow, limit: int = 366) -> list[tuple[dt.date, Decimal]]:
    """The slab's dated values, oldest first (at most the latest ``limit``)."""
    values = list(
        SlabValue.objects.filter(slab_id=row.pk)
        .order_by("-date")
        .values_list("date", "value")[:limit]
    )
    values.reverse()
    return values


def value_dates() -> tuple[dt.date | None, dt.date | None]:
    """The first and last dates with any value."""
    first = SlabValue.objects.order_by("date").values_list("date", flat=True).first()
    last = SlabValue.objects.order_by("-date").values_list("date", flat=True).first()
    return first, last


# ---------------------------------------------------------------------------
# Brackets a slab can fit


def _cheapest_partners(others: Sequence[SlabDay], limited_left: int) -> Decimal | None:
    """The smallest total of ``TEAM_SIZE - 1`` partners (at most ``limited_left`` of them
    rare or epic), or None when there are too few."""
    total = Decimal(0)
    picked = 0
    for other in others:
        if picked == TEAM_SIZE - 1:
            break
        assert other.stats is not None and other.value is not None  # valued slabs only
        if other.stats.tier in TEAM_LIMITED_TIERS:
            if limited_left == 0:
                continue
            limited_left -= 1
        total += other.value
        picked += 1
    return total if picked == TEAM_SIZE - 1 else None


def fits_on(day: dt.date) -> dict[str, tuple[tuple[Bracket, ...], Decimal | None]]:
    """``bracket_fits`` of every slab on ``day`` (cached with the day's table)."""
    return _memo("fits", day, lambda: bracket_fits(_all_on(day)))


def bracket_fits(days: Sequence[SlabDay]) -> dict[str, tuple[tuple[Bracket, ...], Decimal | None]]:
    """For each slab with a value: the brackets some legal team holding it could enter
    that day (its value plus the cheapest legal partners within the cap), and that total."""
    valued = sorted((d for d in days if d.stats is not None), key=lambda d: (d.value, d.asset_id))
    out: dict[str, tuple[tuple[Bracket, ...], Decimal | None]] = {}
    # The cheapest few are enough to find any slab's cheapest partners.
    head = valued[: TEAM_SIZE * 2 + TEAM_LIMITED_MAX]
    commons = [d for d in valued if d.stats and d.stats.tier not in TEAM_LIMITED_TIERS][:TEAM_SIZE]
    pool = list(dict.fromkeys([*head, *commons]))
    pool.sort(key=lambda d: (d.value, d.asset_id))
    for day in valued:
        assert day.stats is not None and day.value is not None
        left = TEAM_LIMITED_MAX - (1 if day.stats.tier in TEAM_LIMITED_TIERS else 0)
        others = [d for d in pool if d.asset_id != day.asset_id]
        partners = _cheapest_partners(others, left)
        if partners is None:
            out[day.asset_id] = ((), None)
            continue
        total = day.value + partners
        fits = tuple(b.bracket for b in BRACKETS if b.cap is None or total <= b.cap)
        out[day.asset_id] = (fits, total)
    return out


# ---------------------------------------------------------------------------
# The explorer


@dataclass(frozen=True, slots=True)
class SlabFilters:
    """What the explorer's form asks for (None or empty: no filter)."""

    q: str = ""
    tiers: frozenset[SlabTier] = frozenset()
    elements: frozenset[Element] = frozenset()
    grade_min: Decimal | None = None
    grade_max: Decimal | None = None
    year_min: int | None = None
    year_max: int | None = None
    value_min: Decimal | None = None
    value_max: Decimal | None = None
    bracket: Bracket | None = None
    sort: str = "value_desc"


SORTS: dict[str, Any] = {
    "value_desc": lambda d: (-(d.value or Decimal(-1)), d.asset_id),
    "value_asc": lambda d: (d.value is None, d.value or 0, d.asset_id),
    "name": lambda d: (d.row.name.casefold(), d.asset_id),
    "grade_desc": lambda d: (-d.row.grade, d.asset_id),
    "year_asc": lambda d: (d.row.year, d.asset_id),
}


def explore(
    day: dt.date, filters: SlabFilters
) -> tuple[list[SlabDay], dict[str, tuple[tuple[Bracket, ...], Decimal | None]]]:
    """The slabs that pass the filters on ``day`` (sorted), and every slab's brackets (a
    slab's partners may be any slab, so brackets are worked out over all of them). One
    query; the filters run on the day's stats."""
    days = slabs_on(day)
    fits = fits_on(day)
    q = filters.q.casefold()
    out = []
    for d in days:
        row = d.row
        if q and q not in row.name.casefold() and q != row.asset_id.casefold():
            continue
        if filters.grade_min is not None and row.grade < filters.grade_min:
            continue
        if filters.grade_max is not None and row.grade > filters.grade_max:
            continue
        if filters.year_min is not None and row.year < filters.year_min:
            continue
        if filters.year_max is not None and row.year > filters.year_max:
            continue
        if filters.value_min is not None and (d.value is None or d.value < filters.value_min):
            continue
        if filters.value_max is not None and (d.value is None or d.value > filters.value_max):
            continue
        if filters.tiers and (d.stats is None or d.stats.tier not in filters.tiers):
            continue
        if filters.elements and d.element not in filters.elements:
            continue
        if filters.bracket is not None and filters.bracket not in fits.get(d.asset_id, ((),))[0]:
            continue
        out.append(d)
    out.sort(key=SORTS.get(filters.sort, SORTS["value_desc"]))
    return out, fits


# ---------------------------------------------------------------------------
# The session's team and matches; reports


def clean_team(raw: Any) -> list[str]:
    """A stored team as asset IDs (anything else dropped), at most ``TEAM_SIZE``."""
    if not isinstance(raw, list):
        return []
    return [str(a) for a in raw if isinstance(a, str)][:TEAM_SIZE]


def session_team_ids(session: Any) -> list[str]:
    """The asset IDs of the session's team, in team order (at most ``TEAM_SIZE``): its
    ``SessionTeam`` row (a session from before that row existed: the session's own copy).
    Read once per request (kept on the session object)."""
    known = getattr(session, "_arena_team", None)
    if known is not None:
        return list(known)
    key = session.session_key
    stored = (
        SessionTeam.objects.filter(session_key=key).values_list("slabs", flat=True).first()
        if key
        else None
    )
    team = clean_team(session.get(TEAM_SESSION_KEY, []) if stored is None else stored)
    session._arena_team = team
    return list(team)


def session_matches(session_key: str | None, limit: int = 10) -> list[ArenaMatch]:
    """The session's latest matches, newest first."""
    if not session_key:
        return []
    return list(
        ArenaMatch.objects.filter(owner_session_key=session_key)
        .defer("team_a", "team_b", "actions")
        .order_by("-updated_at")[:limit]
    )


def match_for_session(public_id: object, session_key: str | None) -> ArenaMatch | None:
    """The match if it belongs to this session, else None (the view answers 404)."""
    if not session_key:
        return None
    return ArenaMatch.objects.filter(public_id=public_id, owner_session_key=session_key).first()


def match_by_public_id(public_id: object) -> ArenaMatch | None:
    """Any session's match (a replay's permalink), or None."""
    return ArenaMatch.objects.filter(public_id=public_id).first()


def latest_report() -> ArenaBalanceReport | None:
    return ArenaBalanceReport.objects.order_by("-created_at", "-id").first()
