"""The arena's pages assembled: one frozen dataclass per page, built by one function here.

A view reads the request through a form (``arena.forms``) and a ``Visitor`` (the session's
key and team, the page's address), calls one builder and renders ``context(page)``; the
templates only lay the page out. The pieces a page is made of (a slab's card, the team
builder, the board) come from ``arena.presenters``; sentences from ``arena.narration``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Page, Paginator
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core import versions
from core.context_processors import site_origin
from core.labels import describe, label, result_text
from core.sessions import session_key
from engine.arena.slabs import (
    BRACKETS,
    ELEMENT_BEATS,
    ELEMENT_BONUS,
    POINTS_TO_WIN,
    TEAM_LIMITED_MAX,
    TEAM_SIZE,
    TIMEOUTS_TO_FORFEIT,
    TURN_LIMIT,
    TURN_SECONDS,
    Bracket,
    Element,
    SlabTier,
)

from . import narration, presenters, selectors, services
from .anchors import Section, leagues_url
from .art import SlabArt
from .formatting import money
from .forms import DayForm, MatchStartForm, ReplayForm, SlabFilterForm, TeamLinkForm
from .models import ArenaMatch
from .previews import slab_preview

PAGE_SIZE = 24
LOG_TURNS = 3  # turns of log shown under the board
NAV = "arena"  # the header's section for every arena page

__all__ = [
    "IndexPage",
    "MatchPage",
    "ReplayPage",
    "SlabDetailPage",
    "SlabListPage",
    "SurrenderPage",
    "TeamBar",
    "TeamPage",
    "TeamSwap",
    "Visitor",
    "context",
    "index_page",
    "match_page",
    "replay_page",
    "slab_detail_page",
    "slab_list_page",
    "surrender_page",
    "team_page",
    "team_swap",
]


def context(page: Any) -> dict[str, Any]:
    """A page dataclass as a template context: its fields, one level deep."""
    return {f.name: getattr(page, f.name) for f in fields(page)}


def today() -> dt.date:
    """The match day (UTC): the day whose values the arena plays with."""
    return selectors.match_day()


# ---------------------------------------------------------------------------
# Who is asking


@dataclass(frozen=True, slots=True)
class TeamBar:
    """The sub-navigation's team link: how many slabs the session's team holds."""

    count: int
    size: int
    ids: list[str]


@dataclass(frozen=True, slots=True)
class Visitor:
    """The request as the arena's pages read it: the session (its key, if it has one, and
    its team), this page's address and the site's origin."""

    session: Any
    key: str | None
    team: list[str]
    here: str
    origin: str

    @classmethod
    def of(cls, request: HttpRequest) -> Visitor:
        return cls(
            request.session,
            session_key(request),
            selectors.session_team_ids(request.session),
            request.get_full_path(),
            site_origin(request),
        )

    @property
    def team_bar(self) -> TeamBar:
        return TeamBar(len(self.team), TEAM_SIZE, self.team)


@dataclass(frozen=True, slots=True)
class MatchLink:
    """One of the session's recent matches."""

    url: str
    bracket: str
    status: str
    turn: int
    when: dt.datetime


def _matches(visitor: Visitor) -> list[MatchLink]:
    return [
        MatchLink(
            reverse("arena:match", kwargs={"public_id": m.public_id}),
            label(Bracket(m.bracket)),
            m.get_status_display(),
            m.turn,
            m.updated_at,
        )
        for m in selectors.session_matches(visitor.key, limit=5)
    ]


# ---------------------------------------------------------------------------
# The landing page


@dataclass(frozen=True, slots=True)
class BracketCap:
    label: str
    cap: str
    value: str


@dataclass(frozen=True, slots=True)
class IndexPage:
    showcase: list[presenters.SlabCard]
    slab_count: int
    cycle: list[str]
    element_bonus: int
    bench: int
    limited_max: int
    points_to_win: int
    brackets: list[BracketCap]
    matches: list[MatchLink]
    leagues_url: str
    rules_url: str
    stats_url: str
    team_bar: TeamBar
    nav_section: str = NAV


def _element_cycle() -> list[str]:
    """The elements in the order each beats the next, back to the first."""
    cycle, element = [], Element.SUN
    for _i in Element:
        cycle.append(label(element))
        element = ELEMENT_BEATS[element]
    return [*cycle, cycle[0]]


def index_page(visitor: Visitor) -> IndexPage:
    day = today()
    days = selectors.slabs_on(day)
    valued = [d for d in days if d.stats is not None]
    showcase = []
    for tier in SlabTier:
        of_tier = [d for d in valued if d.stats is not None and d.stats.tier is tier]
        if of_tier:
            best = max(of_tier, key=lambda d: (d.value, d.asset_id))
            showcase.append(presenters.slab_card(best, today=day))
    return IndexPage(
        showcase=showcase,
        slab_count=len(days),
        cycle=_element_cycle(),
        element_bonus=ELEMENT_BONUS,
        bench=TEAM_SIZE - 1,
        limited_max=TEAM_LIMITED_MAX,
        points_to_win=POINTS_TO_WIN,
        brackets=[
            BracketCap(
                label(b.bracket),
                money(b.cap) if b.cap is not None else _("no cap"),
                b.bracket.value,
            )
            for b in BRACKETS
        ],
        matches=_matches(visitor),
        leagues_url=leagues_url(),
        rules_url=leagues_url(Section.MATCH),
        stats_url=leagues_url(Section.STATS),
        team_bar=visitor.team_bar,
    )


# ---------------------------------------------------------------------------
# The slab explorer


@dataclass(frozen=True, slots=True)
class PageLink:
    number: int | str
    url: str
    current: bool


@dataclass(frozen=True, slots=True)
class SlabListPage:
    form: SlabFilterForm
    filters_key: str | None
    team_bar: TeamBar
    here: str
    status: int = 200
    error: bool = False
    cards: Sequence[presenters.SlabCard] = ()
    page: Page | None = None
    count: int = 0
    day: dt.date | None = None
    day_text: str = ""
    is_today: bool = False
    page_links: Sequence[PageLink] = ()
    prev_url: str = ""
    next_url: str = ""
    nav_section: str = NAV


def _filters_key(form: SlabFilterForm, day: dt.date) -> str | None:
    """The filter form's fragment key: the language, the day (the form's default) and the
    valid form's cleaned filters (not the page, which the form does not show). Built from
    the cleaned data, never the raw query string, so junk parameters (``?x1=…&x2=…``) or
    another spelling of the same filters make no new entry. An invalid form shows the
    visitor's own input and errors: it is rendered, not kept."""
    if not form.is_valid():
        return None
    filters = sorted(
        (name, sorted(value) if isinstance(value, list) else value)
        for name, value in form.cleaned_data.items()
        if name != "page"
    )
    digest = hashlib.sha256(repr(filters).encode()).hexdigest()
    return f"{get_language()}:{day}:{versions.current('arena')}:{digest}"


def slab_list_page(form: SlabFilterForm, visitor: Visitor) -> SlabListPage:
    """The slabs the filters find on their day, a page of them; an invalid form: a 400."""
    now = today()
    head = SlabListPage(form, _filters_key(form, now), visitor.team_bar, "")
    if not form.is_valid():  # no slabs shown: no "add to team" button needs ``here``
        return replace(head, status=400, error=True)
    day = form.cleaned_data["date"] or now
    days, fits = selectors.explore(day, form.filters())
    paginator = Paginator(days, PAGE_SIZE)
    page = paginator.get_page(form.cleaned_data["page"] or 1)
    params = [(k, v) for k, values in form.data.lists() if k != "page" for v in values]
    base = reverse("arena:slab-list")

    def page_url(n: int) -> str:
        return f"{base}?{urlencode([*params, ('page', n)])}"

    elided = paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1)
    return replace(
        head,
        cards=[
            presenters.slab_card(d, fits.get(d.asset_id), team=visitor.team, today=now)
            for d in page.object_list
        ],
        page=page,
        count=paginator.count,
        day=day,
        day_text=presenters.day_text(day),
        is_today=day == now,
        page_links=[
            PageLink(n, page_url(n) if isinstance(n, int) else "", n == page.number) for n in elided
        ],
        prev_url=page_url(page.previous_page_number()) if page.has_previous() else "",
        next_url=page_url(page.next_page_number()) if page.has_next() else "",
        here=visitor.here,
    )


# ---------------------------------------------------------------------------
# A slab


@dataclass(frozen=True, slots=True)
class SlabDetailPage:
    slab: presenters.SlabCard
    detail: presenters.SlabDetail
    art: SlabArt
    form: DayForm
    day: dt.date
    day_text: str
    is_today: bool
    today_url: str
    problem: str
    leagues_url: str
    brackets_url: str
    in_team: bool
    here: str
    no_value: bool
    prev_url: str
    next_url: str
    team_bar: TeamBar
    preview: Any
    status: int = 200
    nav_section: str = NAV


def slab_or_none(asset_id: str, day: dt.date) -> selectors.SlabDay | None:
    """The slab with that asset ID on ``day`` (None: no such slab)."""
    return selectors.slab_day(asset_id, day) if len(asset_id) <= 100 else None


def slab_day(form: DayForm) -> dt.date:
    """The day a slab page shows: the form's, or today (none given, or a refused one)."""
    return (form.cleaned_data["date"] if form.is_valid() else None) or today()


def slab_detail_page(
    found: selectors.SlabDay, day: dt.date, form: DayForm, visitor: Visitor
) -> SlabDetailPage:
    """A slab on ``day``: its stats and why; 400 for a refused day, 404 without a value."""
    now = today()
    problem = "" if form.is_valid() else " ".join(form.errors.get("date", []))
    status = 400 if not form.is_valid() else (404 if found.stats is None else 200)
    asset_id = found.asset_id
    return SlabDetailPage(
        slab=presenters.slab_card(found, today=now),
        detail=presenters.SlabDetail(found, now),
        art=presenters.art_of(found),
        form=form if status == 400 else DayForm(initial={"date": day}),
        day=day,
        day_text=presenters.day_text(day),
        is_today=day == now,
        today_url=presenters.slab_url(asset_id),
        problem=problem,
        leagues_url=leagues_url(Section.STATS),
        brackets_url=leagues_url(Section.BRACKETS),
        in_team=asset_id in visitor.team,
        here=visitor.here,
        no_value=found.stats is None,
        prev_url=presenters.slab_url(asset_id, day - dt.timedelta(days=1), now),
        next_url=presenters.slab_url(asset_id, day + dt.timedelta(days=1), now)
        if day < now
        else "",
        team_bar=visitor.team_bar,
        # The page's own address shows today: its link preview is today's slab.
        preview=slab_preview(found if day == now else selectors.slab_day(asset_id, now) or found),
        status=status,
    )


# ---------------------------------------------------------------------------
# The team


@dataclass(frozen=True, slots=True)
class FillBracket:
    value: str
    label: str


@dataclass(frozen=True, slots=True)
class TeamPage:
    """The team builder (and the match start page: the same team, its start form)."""

    team: presenters.TeamView
    permalink_mode: bool
    unknown: list[str]
    day: dt.date
    is_today: bool
    start_form: MatchStartForm
    start_brackets: list[presenters.BracketRow]
    lead_choices: list[tuple[str, str]]
    fill_brackets: list[FillBracket]
    matches: list[MatchLink]
    teams_url: str
    brackets_url: str
    elements_url: str
    absolute_permalink: str
    turn_seconds: int
    bot_help: list[tuple[str, str]]
    team_bar: TeamBar
    link_errors: list[str]
    status: int = 200
    nav_section: str = NAV


def team_page(link: TeamLinkForm | None, visitor: Visitor) -> TeamPage:
    """The session's team, or the team a permalink names (``link``: its slabs and day;
    None, the match start page: the session's team today). An invalid link: a 400 with
    the session's team."""
    ids, day, permalink = visitor.team, today(), False
    if link is not None and link.is_valid():
        day = link.cleaned_data["date"] or day
        permalink = bool(link.cleaned_data["slab"])
        ids = link.cleaned_data["slab"] or ids
    now = today()
    days = selectors.slabs_on(day, ids)
    known = {d.asset_id for d in days}
    view = presenters.team_view(days, day, today=now)
    fits = [r for r in view.brackets if r.fits]
    start = MatchStartForm(
        initial={
            "bracket": fits[0].bracket if fits else Bracket.OPEN.value,
            "lead": ids[0] if ids else "",
        }
    )
    errors = [e for errors in link.errors.values() for e in errors] if link is not None else []
    return TeamPage(
        team=view,
        permalink_mode=permalink,
        unknown=[a for a in ids if a not in known],
        day=day,
        is_today=day == now,
        start_form=start,
        start_brackets=fits,
        lead_choices=[(d.asset_id, d.row.name) for d in days],
        fill_brackets=[FillBracket(b.bracket.value, label(b.bracket)) for b in BRACKETS],
        matches=_matches(visitor),
        teams_url=leagues_url(Section.TEAMS),
        brackets_url=leagues_url(Section.BRACKETS),
        elements_url=leagues_url(Section.ELEMENT),
        absolute_permalink=visitor.origin + view.permalink,
        turn_seconds=TURN_SECONDS,
        bot_help=[(label(b), describe(b)) for b in services.PLAYER_BOTS[::-1]],
        team_bar=visitor.team_bar,
        link_errors=errors,
        status=400 if link is not None and not link.is_valid() else 200,
    )


@dataclass(frozen=True, slots=True)
class TeamSwap:
    """What an htmx "add"/"remove" swaps in: the team link and the slab's button."""

    team_bar: TeamBar
    asset_id: str
    in_team: bool
    here: str
    error: str


def team_swap(visitor: Visitor, asset_id: str, back: str, error: str) -> TeamSwap:
    return TeamSwap(visitor.team_bar, asset_id, asset_id in visitor.team, back, error)


# ---------------------------------------------------------------------------
# A match


@dataclass(frozen=True, slots=True)
class LogTurn:
    turn: int
    lines: list[narration.Line]


@dataclass(frozen=True, slots=True)
class Result:
    status: str
    title: str
    reason: str


@dataclass(frozen=True, slots=True)
class MatchPage:
    match: ArenaMatch
    board: presenters.BoardView
    turn: int
    recent: list[LogTurn]
    notice: str
    result: Result | None
    seconds_left: str | None
    seconds_left_int: int | None
    turn_seconds: int
    deadline: dt.datetime | None
    bracket: str
    bot: str
    match_day: str
    turn_limit: int
    timeouts_limit: int
    points_to_win: int
    replay_url: str
    surrender_url: str
    act_url: str
    match_url: str
    rematch_url: str
    rules_url: str
    team_bar: TeamBar
    status: int = 200
    nav_section: str = NAV


def turn_chunks(loaded: services.Loaded) -> list[list[Any]]:
    """The log cut at each ``turn.start``: [opening, turn 1, turn 2, …]."""
    chunks: list[list[Any]] = [[]]
    for event in loaded.log:
        if event.code == "turn.start":
            chunks.append([])
        chunks[-1].append(event)
    return chunks


def _urls(match: ArenaMatch) -> dict[str, str]:
    kwargs = {"public_id": match.public_id}
    return {
        f"{name}_url": reverse(f"arena:{route}", kwargs=kwargs)
        for name, route in (
            ("replay", "match-replay"),
            ("surrender", "match-surrender"),
            ("act", "match-act"),
            ("match", "match"),
            ("rematch", "match-rematch"),
        )
    }


def match_page(
    loaded: services.Loaded,
    visitor: Visitor,
    notice: str = "",
    status: int = 200,
    now: dt.datetime | None = None,
) -> MatchPage:
    """The board, the last turns of the log, the clock and (once over) the result."""
    state, match = loaded.state, loaded.match
    chunks = turn_chunks(loaded)
    first = max(-1, len(chunks) - 1 - LOG_TURNS)
    recent = [LogTurn(i, narration.narrate(chunks[i])) for i in range(len(chunks) - 1, first, -1)]
    left = None
    if loaded.deadline is not None:
        left = max(0.0, (loaded.deadline - (now or timezone.now())).total_seconds())
    if loaded.timeouts_applied and not notice:
        notice = narration.notice("timed_out", n=loaded.timeouts_applied)
    result = None
    if state.over:
        reason = narration.EVENTS.say("match.end", loaded.log[-1].params)
        result = Result(match.status, result_text(state.result), reason)
    return MatchPage(
        match=match,
        board=presenters.board(state),
        turn=state.actions,
        recent=recent,
        notice=notice,
        result=result,
        seconds_left=None if left is None else f"{left:.1f}",
        seconds_left_int=None if left is None else int(left + 0.999),
        turn_seconds=TURN_SECONDS,
        deadline=loaded.deadline,
        bracket=label(Bracket(match.bracket)),
        bot=label(services.ArenaBot(match.bot)),
        match_day=presenters.day_text(match.match_day),
        turn_limit=TURN_LIMIT,
        timeouts_limit=TIMEOUTS_TO_FORFEIT,
        points_to_win=POINTS_TO_WIN,
        rules_url=leagues_url(Section.MATCH),
        team_bar=visitor.team_bar,
        status=status,
        **_urls(match),
    )


@dataclass(frozen=True, slots=True)
class SurrenderPage:
    match: ArenaMatch
    match_url: str
    surrender_url: str
    team_bar: TeamBar
    nav_section: str = NAV


def surrender_page(match: ArenaMatch, visitor: Visitor) -> SurrenderPage:
    urls = _urls(match)
    return SurrenderPage(match, urls["match_url"], urls["surrender_url"], visitor.team_bar)


# ---------------------------------------------------------------------------
# A replay


@dataclass(frozen=True, slots=True)
class Step:
    n: int
    url: str
    current: bool


@dataclass(frozen=True, slots=True)
class ReplayPage:
    match: ArenaMatch
    board: presenters.BoardView
    lines: list[narration.Line]
    step: int
    last: int
    steps: list[Step]
    prev_url: str
    next_url: str
    first_url: str
    result: str
    owner: bool
    match_url: str
    bracket: str
    errors: list[str]
    team_bar: TeamBar
    status: int = 200
    nav_section: str = NAV


def replay_page(match: ArenaMatch, form: ReplayForm, visitor: Visitor) -> ReplayPage:
    """A finished (or the owner's own) match, one turn at a time; a bad turn: a 400 at 0."""
    loaded = services.load(match)
    chunks = turn_chunks(loaded)
    last = len(loaded.turns) - 1
    step = 0
    if form.is_valid() and form.cleaned_data["turn"] is not None:
        step = max(0, min(form.cleaned_data["turn"], last))
    base = reverse("arena:match-replay", kwargs={"public_id": match.public_id})
    over = loaded.state.over
    return ReplayPage(
        match=match,
        board=presenters.board(loaded.turns[step]),
        lines=narration.narrate(chunks[step] if step < len(chunks) else []),
        step=step,
        last=last,
        steps=[Step(n, f"{base}?turn={n}", n == step) for n in range(last + 1)],
        prev_url=f"{base}?turn={step - 1}" if step > 0 else "",
        next_url=f"{base}?turn={step + 1}" if step < last else "",
        first_url=f"{base}?turn=0",
        result=narration.EVENTS.say("match.end", loaded.log[-1].params) if over else "",
        owner=match.owner_session_key == visitor.key,
        match_url=_urls(match)["match_url"],
        bracket=label(Bracket(match.bracket)),
        errors=[e for errors in form.errors.values() for e in errors],
        team_bar=visitor.team_bar,
        status=200 if form.is_valid() else 400,
    )
