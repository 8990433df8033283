"""The slab arena's pages: the landing page, the slab explorer and slab pages, the team
builder, and matches against a bot (with their replays).

Every page works without JavaScript (forms post, then redirect); htmx swaps a partial
where it helps (``core.htmx.render_page``). A match belongs to the session that started
it: any other session gets 404 (a finished match's replay is public: its permalink can be
shared). Every parameter goes through ``arena.forms``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from core import limits, versions
from core.context_processors import site_origin
from core.htmx import render_page, wants_partial
from core.labels import describe, label
from core.previews import canonical, png_response
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
    InvalidTeamError,
    SlabTier,
)
from engine.errors import IllegalArenaActionError

from . import narration, presenters, selectors, services
from .anchors import leagues_url
from .formatting import money
from .forms import (
    DayForm,
    MatchStartForm,
    MoveForm,
    ReplayForm,
    SlabFilterForm,
    SurrenderForm,
    TeamEditForm,
    TeamLinkForm,
)
from .models import ArenaMatch
from .previews import slab_preview, slab_preview_svg

PAGE_SIZE = 24
LOG_TURNS = 3  # turns of log shown under the board

__all__ = [
    "arena_index",
    "match_act",
    "match_detail",
    "match_rematch",
    "match_replay",
    "match_start",
    "match_surrender",
    "slab_detail",
    "slab_list",
    "slab_picture",
    "team_detail",
    "team_edit",
]


def _today() -> dt.date:
    return selectors.match_day()


def _team_bar(request: HttpRequest, today: dt.date | None = None) -> dict[str, Any]:
    """The sub-navigation's team link: how many slabs the session's team holds."""
    ids = selectors.session_team_ids(request.session)
    return {"team_bar": {"count": len(ids), "size": TEAM_SIZE, "ids": ids}}


# ---------------------------------------------------------------------------
# The landing page


@require_safe
def arena_index(request: HttpRequest) -> HttpResponse:
    today = _today()
    days = selectors.slabs_on(today)
    valued = [d for d in days if d.stats is not None]
    showcase = []
    for tier in SlabTier:
        of_tier = [d for d in valued if d.stats is not None and d.stats.tier is tier]
        if of_tier:
            showcase.append(
                presenters.slab_card(max(of_tier, key=lambda d: (d.value, d.asset_id)), today=today)
            )
    cycle = []
    element = Element.SUN
    for _i in Element:
        cycle.append(label(element))
        element = ELEMENT_BEATS[element]
    context = {
        "nav_section": "arena",
        "showcase": showcase,
        "slab_count": len(days),
        "valued_count": len(valued),
        "cycle": [*cycle, cycle[0]],
        "element_bonus": ELEMENT_BONUS,
        "team_size": TEAM_SIZE,
        "bench": TEAM_SIZE - 1,
        "limited_max": TEAM_LIMITED_MAX,
        "points_to_win": POINTS_TO_WIN,
        "brackets": [
            {
                "label": label(b.bracket),
                "cap": money(b.cap) if b.cap is not None else _("no cap"),
                "value": b.bracket.value,
            }
            for b in BRACKETS
        ],
        "matches": _matches(request),
        "leagues_url": leagues_url(),
        "rules_url": leagues_url("match"),
        "stats_url": leagues_url("stats"),
        **_team_bar(request, today),
    }
    return render(request, "arena/arena_index.html", context)


def _matches(request: HttpRequest) -> list[dict[str, Any]]:
    out = []
    for m in selectors.session_matches(session_key(request), limit=5):
        out.append(
            {
                "url": reverse("arena:match", kwargs={"public_id": m.public_id}),
                "bracket": label(Bracket(m.bracket)),
                "status": m.get_status_display(),
                "turn": m.turn,
                "when": m.updated_at,
            }
        )
    return out


# ---------------------------------------------------------------------------
# The slab explorer


def _filters_key(form: SlabFilterForm, today: dt.date) -> str | None:
    """The filter form's fragment key: the language, the day (the form's default) and the
    valid form's cleaned filters (not the page, which the form does not show). Built from
    the cleaned data, never the raw query string, so junk parameters (``?x1=…&x2=…``) or
    another spelling of the same filters make no new entry. An invalid form shows the
    visitor's own input and errors: it is rendered, not kept."""
    if not form.is_valid():
        return None
    data = form.cleaned_data
    filters = sorted(
        (name, sorted(value) if isinstance(value, list) else value)
        for name, value in data.items()
        if name != "page"
    )
    digest = hashlib.sha256(repr(filters).encode()).hexdigest()
    return f"{get_language()}:{today}:{versions.current('arena')}:{digest}"


@canonical(*SlabFilterForm.base_fields)
@require_safe
@vary_on_headers("HX-Request")
def slab_list(request: HttpRequest) -> HttpResponse:
    today = _today()
    form = SlabFilterForm(request.GET)
    context: dict[str, Any] = {
        "form": form,
        "nav_section": "arena",
        "filters_key": _filters_key(form, today),
        **_team_bar(request, today),
    }
    if not form.is_valid():
        context.update(cards=[], page=None, error=True, day_text="")
        return render_page(request, "arena/slab_list.html", context, partial="results", status=400)
    data = form.cleaned_data
    day = data["date"] or today
    filters = form.filters()
    days, fits = selectors.explore(day, filters)
    paginator = Paginator(days, PAGE_SIZE)
    page = paginator.get_page(data["page"] or 1)
    team = context["team_bar"]["ids"]
    cards = [
        presenters.slab_card(d, fits.get(d.asset_id), team=team, today=today)
        for d in page.object_list
    ]
    params = [(k, v) for k, v in request.GET.lists() if k != "page" for v in v]
    base = reverse("arena:slab-list")

    def page_url(n: int) -> str:
        return f"{base}?{urlencode([*params, ('page', n)])}"

    context.update(
        cards=cards,
        page=page,
        count=paginator.count,
        day=day,
        day_text=presenters.day_text(day),
        is_today=day == today,
        page_links=[
            {
                "number": n,
                "url": page_url(n) if isinstance(n, int) else "",
                "current": n == page.number,
            }
            for n in paginator.get_elided_page_range(page.number, on_each_side=2, on_ends=1)
        ],
        prev_url=page_url(page.previous_page_number()) if page.has_previous() else "",
        next_url=page_url(page.next_page_number()) if page.has_next() else "",
        here=request.get_full_path(),
    )
    return render_page(request, "arena/slab_list.html", context, partial="results")


# ---------------------------------------------------------------------------
# A slab


def _slab_or_404(asset_id: str, day: dt.date) -> selectors.SlabDay:
    found = selectors.slab_day(asset_id, day) if len(asset_id) <= 100 else None
    if found is None:
        raise Http404(_("There is no slab with the asset ID %(id)s.") % {"id": asset_id[:100]})
    return found


@require_safe
def slab_detail(request: HttpRequest, asset_id: str) -> HttpResponse:
    today = _today()
    form = DayForm(request.GET)
    status = 200
    problem = ""
    if form.is_valid():
        day = form.cleaned_data["date"] or today
    else:
        day, status = today, 400
        problem = " ".join(form.errors.get("date", []))
    found = _slab_or_404(asset_id, day)
    detail = presenters.SlabDetail(found, today)
    context: dict[str, Any] = {
        "nav_section": "arena",
        "slab": presenters.slab_card(found, today=today),
        "detail": detail,
        "art": presenters.art_of(found),
        "form": form if status == 400 else DayForm(initial={"date": day}),
        "day": day,
        "day_text": presenters.day_text(day),
        "is_today": day == today,
        "today_url": presenters.slab_url(found.asset_id),
        "problem": problem,
        "leagues_url": leagues_url("stats"),
        "brackets_url": leagues_url("brackets"),
        "in_team": found.asset_id in selectors.session_team_ids(request.session),
        "here": request.get_full_path(),
        "no_value": found.stats is None,
        "prev_url": presenters.slab_url(found.asset_id, day - dt.timedelta(days=1), today),
        "next_url": presenters.slab_url(found.asset_id, day + dt.timedelta(days=1), today)
        if day < today
        else "",
        **_team_bar(request, today),
        # The page's own address shows today: its link preview is today's slab.
        "preview": slab_preview(
            found if day == today else selectors.slab_day(found.asset_id, today) or found
        ),
    }
    if found.stats is None and status == 200:
        status = 404
    return render(request, "arena/slab_detail.html", context, status=status)


@require_safe
def slab_picture(request: HttpRequest, asset_id: str) -> HttpResponse:
    form = DayForm(request.GET)
    day = (form.cleaned_data["date"] if form.is_valid() else None) or _today()
    found = _slab_or_404(asset_id, day)
    response = render(
        request,
        "arena/partials/slab_case.svg.html",
        {"art": presenters.art_of(found)},
        content_type="image/svg+xml; charset=utf-8",
    )
    response["Cache-Control"] = "public, max-age=300"
    return response


@require_safe
def slab_preview_png(request: HttpRequest, asset_id: str) -> HttpResponse:
    """The slab's link preview: a 1200×630 PNG of its case and today's stats, in the
    page's language; drawn once per slab, day, language and arena version."""
    today = _today()
    found = _slab_or_404(asset_id, today)
    key = f"slab-preview:{asset_id}:{today}:{get_language()}:{versions.current('arena')}"
    return png_response(request, key, versions.changed("arena"), lambda: slab_preview_svg(found))


# ---------------------------------------------------------------------------
# The team


def _safe_next(request: HttpRequest, raw: str, default: str) -> str:
    if raw.startswith("/") and url_has_allowed_host_and_scheme(
        raw, {request.get_host()}, require_https=request.is_secure()
    ):
        return raw
    return default


def _team_context(
    request: HttpRequest, ids: list[str], day: dt.date, *, permalink: bool
) -> dict[str, Any]:
    today = _today()
    days = selectors.slabs_on(day, ids)
    known = {d.asset_id for d in days}
    unknown = [a for a in ids if a not in known]
    view = presenters.team_view(days, day, today=today)
    fits = [r for r in view.brackets if r.fits]
    start = MatchStartForm(
        initial={
            "bracket": fits[0].bracket if fits else Bracket.OPEN.value,
            "lead": ids[0] if ids else "",
        }
    )
    return {
        "nav_section": "arena",
        "team": view,
        "permalink_mode": permalink,
        "unknown": unknown,
        "day": day,
        "is_today": day == today,
        "start_form": start,
        "start_brackets": fits,
        "lead_choices": [(d.asset_id, d.row.name) for d in days],
        "fill_brackets": [{"value": b.bracket.value, "label": label(b.bracket)} for b in BRACKETS],
        "matches": _matches(request),
        "teams_url": leagues_url("teams"),
        "brackets_url": leagues_url("brackets"),
        "elements_url": leagues_url("element"),
        "absolute_permalink": site_origin(request) + view.permalink,
        "turn_seconds": TURN_SECONDS,
        "bot_help": [(label(b), describe(b)) for b in services.PLAYER_BOTS[::-1]],
        **_team_bar(request, today),
    }


@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers("HX-Request")
def team_detail(request: HttpRequest) -> HttpResponse:
    """GET: the team builder (the session's team, or a permalink's). POST: change the
    session's team (``team_edit``)."""
    if request.method == "POST":
        return team_edit(request)
    link = TeamLinkForm(request.GET)
    status = 200
    if not link.is_valid():
        status = 400
        ids, day, permalink = selectors.session_team_ids(request.session), _today(), False
    else:
        ids = link.cleaned_data["slab"]
        day = link.cleaned_data["date"] or _today()
        permalink = bool(ids)
        if not permalink:
            ids = selectors.session_team_ids(request.session)
    context = _team_context(request, ids, day, permalink=permalink)
    context["link_errors"] = [e for errors in link.errors.values() for e in errors]
    return render_page(request, "arena/team_detail.html", context, partial="team", status=status)


_TEAM_ERRORS = {
    "full": lambda p: _("Your team already has %(size)s slabs: remove one first.") % p,
    "unknown_slab": lambda p: _("There is no slab with the asset ID %(asset_id)s.") % p,
    "already_in": lambda p: _("That slab is already in your team."),
    "no_value": lambda p: _("%(asset_id)s has no value on %(day)s, so it cannot play.") % p,
    "no_bot_team": lambda p: _("There are not enough slabs for a bot team in this bracket."),
    "no_team": lambda p: _("No legal team fits that bracket today."),
    "bad_op": lambda p: _("That is not a change to a team."),
}


def team_error_text(code: str, params: dict[str, Any]) -> str:
    return _TEAM_ERRORS.get(code, _TEAM_ERRORS["bad_op"])(params)


def rule_error_text(exc: InvalidTeamError) -> str:
    """A team rule the engine refused, in words."""
    p = exc.params
    if exc.code == "size":
        return _("A team needs exactly %(needed)s slabs; yours has %(size)s.") % p
    if exc.code == "duplicate":
        return _("Each slab may be in a team once; %(asset_id)s is there twice.") % p
    if exc.code == "too_many_limited":
        return _("A team may hold at most %(most)s rare or epic slabs; yours has %(count)s.") % {
            "most": p.get("most"),
            "count": len(p.get("slabs", ())),
        }
    if exc.code == "bracket":
        return _("Your team is worth %(value)s, over the %(bracket)s cap of %(cap)s.") % {
            "value": money(p.get("value")),
            "bracket": label(Bracket(p["bracket"])),
            "cap": money(p.get("cap")),
        }
    return _("That team breaks a rule of the arena.")


def team_edit(request: HttpRequest) -> HttpResponse:
    """A change to the session's team; back to ``next`` (or the team page)."""
    form = TeamEditForm(request.POST)
    default = reverse("arena:team")
    if not form.is_valid():
        messages.error(request, _("That is not a change to a team."))
        return redirect(default)
    data = form.cleaned_data
    back = _safe_next(request, data["next"], default)
    session_key(request, create=True)
    op = data["op"]
    error = None
    try:
        if op == "fill":
            bracket = Bracket(data["bracket"] or Bracket.ROOKIE)
            today = _today()
            pool = [d.stats for d in selectors.slabs_on(today) if d.stats is not None]
            team = services.draw_team(pool, services._cap(bracket), random.Random())
            if team is None:
                raise services.TeamError("no_team")
            services.set_team(request.session, [m.asset_id for m in team])
            messages.success(
                request,
                _("A random team for the %(bracket)s bracket: change any slab you like.")
                % {"bracket": label(bracket)},
            )
        elif op == "use":
            services.set_team(request.session, data["slab"])
            messages.success(request, _("This is your team now."))
        else:
            services.edit_team(request.session, op, data["asset_id"].strip())
    except services.TeamError as exc:
        error = team_error_text(exc.code, exc.params)
    if wants_partial(request) and op in ("add", "remove"):
        today = _today()
        asset_id = data["asset_id"].strip()
        context = {
            **_team_bar(request, today),
            "asset_id": asset_id,
            "in_team": asset_id in selectors.session_team_ids(request.session),
            "here": back,
            "error": error,
        }
        return render(request, "arena/partials/team_bar_swap.html", context)
    if error:
        messages.error(request, error)
    return HttpResponseRedirect(back)


# ---------------------------------------------------------------------------
# Matches


@require_http_methods(["GET", "HEAD", "POST"])
def match_start(request: HttpRequest) -> HttpResponse:
    """GET: enter the arena with the session's team (choose the bracket, the slab on the
    field first and the opponent). POST: start the match."""
    ids = selectors.session_team_ids(request.session)
    if request.method in ("GET", "HEAD"):
        context = _team_context(request, ids, _today(), permalink=False)
        return render(request, "arena/match_start.html", context)
    form = MatchStartForm(request.POST)
    back = reverse("arena:match-start")
    if not form.is_valid():
        messages.error(request, _("Choose a bracket and an opponent."))
        return redirect(back)
    try:
        key = limits.admit(services.STARTS, request)
    except limits.RateLimited as exc:
        return _rate_limited(request, exc)
    try:
        match = services.start_match(
            key,
            ids,
            Bracket(form.cleaned_data["bracket"]),
            lead=form.cleaned_data["lead"] or None,
            bot=form.cleaned_data["bot"],
        )
    except services.TeamError as exc:
        messages.error(request, team_error_text(exc.code, exc.params))
        return redirect(back)
    except InvalidTeamError as exc:
        messages.error(request, rule_error_text(exc))
        return redirect(back)
    return _started(request, match)


def _rate_limited(request: HttpRequest, exc: limits.RateLimited) -> HttpResponse:
    """429: too many match starts; when to try again, in the visitor's language."""
    return limits.too_many(request, exc, "arena/rate_limited.html", nav_section="arena")


def _started(request: HttpRequest, match: ArenaMatch) -> HttpResponse:
    """Go to the new match, saying which of the session's matches were given up for it."""
    if getattr(match, "given_up", None):
        messages.info(
            request,
            _(
                "You can keep %(max)s arena matches in progress: the oldest was given up "
                "to make room. Its replay stays in your matches."
            )
            % {"max": services.ACTIVE_MATCHES_PER_SESSION},
        )
    return redirect("arena:match", public_id=match.public_id)


def _turn_chunks(loaded: services.Loaded) -> list[list[Any]]:
    """The log cut at each ``turn.start``: [opening, turn 1, turn 2, …]."""
    chunks: list[list[Any]] = [[]]
    for event in loaded.log:
        if event.code == "turn.start":
            chunks.append([])
        chunks[-1].append(event)
    return chunks


def _match_context(
    loaded: services.Loaded, notice: str = "", now: dt.datetime | None = None
) -> dict[str, Any]:
    state = loaded.state
    match = loaded.match
    now = now or timezone.now()
    chunks = _turn_chunks(loaded)
    recent = []
    for index in range(len(chunks) - 1, max(-1, len(chunks) - 1 - LOG_TURNS), -1):
        recent.append({"turn": index, "lines": narration.narrate(chunks[index])})
    seconds_left = None
    if loaded.deadline is not None:
        seconds_left = max(0.0, (loaded.deadline - now).total_seconds())
    if loaded.timeouts_applied and not notice:
        notice = narration.notice("timed_out", n=loaded.timeouts_applied)
    result = None
    if state.over:
        result = {
            "status": match.status,
            "title": _("You win!")
            if state.winner == 0
            else (_("The bot wins.") if state.winner == 1 else _("A draw.")),
            "reason": narration.EVENTS.say("match.end", loaded.log[-1].params),
        }
    return {
        "nav_section": "arena",
        "match": match,
        "board": presenters.board(state),
        "turn": state.actions,
        "recent": recent,
        "notice": notice,
        "result": result,
        "seconds_left": None if seconds_left is None else f"{seconds_left:.1f}",
        "seconds_left_int": None if seconds_left is None else int(seconds_left + 0.999),
        "turn_seconds": TURN_SECONDS,
        "deadline": loaded.deadline,
        "bracket": label(Bracket(match.bracket)),
        "bot": label(services.ArenaBot(match.bot)),
        "match_day": presenters.day_text(match.match_day),
        "share_a": presenters.share_text(state, 0),
        "share_b": presenters.share_text(state, 1),
        "turn_limit": TURN_LIMIT,
        "timeouts_limit": TIMEOUTS_TO_FORFEIT,
        "points_to_win": POINTS_TO_WIN,
        "replay_url": reverse("arena:match-replay", kwargs={"public_id": match.public_id}),
        "surrender_url": reverse("arena:match-surrender", kwargs={"public_id": match.public_id}),
        "act_url": reverse("arena:match-act", kwargs={"public_id": match.public_id}),
        "match_url": reverse("arena:match", kwargs={"public_id": match.public_id}),
        "rematch_url": reverse("arena:match-rematch", kwargs={"public_id": match.public_id}),
        "rules_url": leagues_url("match"),
        "clock_url": leagues_url("clock"),
    }


def _own_or_404(request: HttpRequest) -> str:
    key = session_key(request)
    if not key:
        raise Http404(_("There is no such match in this session."))
    return key


@require_safe
@vary_on_headers("HX-Request")
def match_detail(request: HttpRequest, public_id: UUID) -> HttpResponse:
    key = _own_or_404(request)
    try:
        loaded = services.catch_up(public_id, key)
    except ArenaMatch.DoesNotExist:
        raise Http404(_("There is no such match in this session.")) from None
    context = {**_match_context(loaded), **_team_bar(request)}
    return render_page(request, "arena/match_detail.html", context, partial="board")


@require_POST
@vary_on_headers("HX-Request")
def match_act(request: HttpRequest, public_id: UUID) -> HttpResponse:
    key = _own_or_404(request)
    form = MoveForm(request.POST)
    notice, status = "", 200
    loaded = None
    try:
        if not form.is_valid():
            notice, status = narration.refusal("bad_action", {}), 400
        else:
            loaded = services.play_move(
                public_id, key, form.cleaned_data["turn"], form.cleaned_data["move"]
            )
    except ArenaMatch.DoesNotExist:
        raise Http404(_("There is no such match in this session.")) from None
    except services.StaleMoveError:
        notice, status = narration.notice("stale"), 409
    except services.LateMoveError:
        notice, status = narration.notice("late", seconds=TURN_SECONDS), 409
    except IllegalArenaActionError as exc:
        notice, status = narration.refusal(exc.code, exc.params), 400
    if wants_partial(request):
        if loaded is None:
            try:
                loaded = services.catch_up(public_id, key)
            except ArenaMatch.DoesNotExist:  # pragma: no cover - checked above
                raise Http404 from None
        return render(
            request, "arena/match_detail.html#board", _match_context(loaded, notice), status=status
        )
    if notice:
        messages.error(request, notice)
    return redirect("arena:match", public_id=public_id)


@require_http_methods(["GET", "HEAD", "POST"])
def match_surrender(request: HttpRequest, public_id: UUID) -> HttpResponse:
    key = _own_or_404(request)
    match = selectors.match_for_session(public_id, key)
    if match is None:
        raise Http404(_("There is no such match in this session."))
    form = SurrenderForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid() and form.cleaned_data["confirmed"]:
        services.surrender(public_id, key)
        return redirect("arena:match", public_id=public_id)
    if match.over:
        return redirect("arena:match", public_id=public_id)
    context = {
        "nav_section": "arena",
        "match": match,
        "match_url": reverse("arena:match", kwargs={"public_id": public_id}),
        "surrender_url": reverse("arena:match-surrender", kwargs={"public_id": public_id}),
        **_team_bar(request),
    }
    return render(request, "arena/match_surrender.html", context)


@require_POST
def match_rematch(request: HttpRequest, public_id: UUID) -> HttpResponse:
    key = _own_or_404(request)
    try:
        limits.count(services.STARTS, key, limits.client_address(request))
    except limits.RateLimited as exc:
        return _rate_limited(request, exc)
    try:
        match = services.rematch(public_id, key)
    except ArenaMatch.DoesNotExist:
        raise Http404(_("There is no such match in this session.")) from None
    return _started(request, match)


@require_safe
@vary_on_headers("HX-Request")
def match_replay(request: HttpRequest, public_id: UUID) -> HttpResponse:
    match = ArenaMatch.objects.filter(public_id=public_id).first()
    owner = match is not None and match.owner_session_key == session_key(request)
    if match is None or (not match.over and not owner):
        raise Http404(_("There is no such match."))
    if "turn" not in request.GET:  # it opens at the start, with the turn in the address
        return redirect(f"{request.path}?turn=0")
    loaded = services.load(match)
    chunks = _turn_chunks(loaded)
    last = len(loaded.turns) - 1
    form = ReplayForm(request.GET)
    status = 200
    if form.is_valid():
        step = form.cleaned_data["turn"]
        step = 0 if step is None else max(0, min(step, last))
    else:
        step, status = 0, 400
    base = reverse("arena:match-replay", kwargs={"public_id": public_id})
    snapshot = loaded.turns[step]
    context = {
        "nav_section": "arena",
        "match": match,
        "board": presenters.board(snapshot),
        "lines": narration.narrate(chunks[step] if step < len(chunks) else []),
        "step": step,
        "last": last,
        "steps": [
            {"n": n, "url": f"{base}?turn={n}", "current": n == step} for n in range(last + 1)
        ],
        "prev_url": f"{base}?turn={step - 1}" if step > 0 else "",
        "next_url": f"{base}?turn={step + 1}" if step < last else "",
        "first_url": f"{base}?turn=0",
        "last_url": f"{base}?turn={last}",
        "result": narration.EVENTS.say("match.end", loaded.log[-1].params)
        if loaded.state.over
        else "",
        "owner": owner,
        "match_url": reverse("arena:match", kwargs={"public_id": public_id}),
        "bracket": label(Bracket(match.bracket)),
        "errors": [e for errors in form.errors.values() for e in errors],
        **_team_bar(request),
    }
    return render_page(request, "arena/match_replay.html", context, partial="step", status=status)
