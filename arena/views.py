"""The slab arena's pages: the landing page, the slab explorer and slab pages, the team
builder, and matches against a bot (with their replays).

Each view reads its parameters through a form (``arena.forms``) and the request through
``arena.pages.Visitor``, asks ``arena.pages`` for the page (a frozen dataclass) and renders
it; every refusal is worded by ``arena.narration``. Every page works without JavaScript
(forms post, then redirect); htmx swaps a partial where it helps (``core.htmx``). A match
belongs to the session that started it: any other session gets 404 (a finished match's
replay is public: its permalink can be shared).
"""

from __future__ import annotations

import datetime as dt
from uuid import UUID

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from core import limits, versions
from core.htmx import render_page, wants_partial
from core.previews import canonical, png_response
from core.sessions import session_key
from engine.arena.slabs import TURN_SECONDS, Bracket, InvalidTeamError
from engine.errors import IllegalArenaActionError

from . import narration, pages, presenters, selectors, services
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
from .previews import slab_preview_svg

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


@require_safe
def arena_index(request: HttpRequest) -> HttpResponse:
    page = pages.index_page(pages.Visitor.of(request))
    return render(request, "arena/arena_index.html", pages.context(page))


# ---------------------------------------------------------------------------
# The slab explorer and a slab


@canonical(*SlabFilterForm.base_fields)
@require_safe
@vary_on_headers("HX-Request")
def slab_list(request: HttpRequest) -> HttpResponse:
    page = pages.slab_list_page(SlabFilterForm(request.GET), pages.Visitor.of(request))
    return render_page(
        request, "arena/slab_list.html", pages.context(page), partial="results", status=page.status
    )


def _slab_or_404(asset_id: str, day: dt.date) -> selectors.SlabDay:
    found = pages.slab_or_none(asset_id, day)
    if found is None:
        raise Http404(_("There is no slab with the asset ID %(id)s.") % {"id": asset_id[:100]})
    return found


@require_safe
def slab_detail(request: HttpRequest, asset_id: str) -> HttpResponse:
    form = DayForm(request.GET)
    day = pages.slab_day(form)
    found = _slab_or_404(asset_id, day)
    page = pages.slab_detail_page(found, day, form, pages.Visitor.of(request))
    return render(request, "arena/slab_detail.html", pages.context(page), status=page.status)


@require_safe
def slab_picture(request: HttpRequest, asset_id: str) -> HttpResponse:
    found = _slab_or_404(asset_id, pages.slab_day(DayForm(request.GET)))
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
    today = pages.today()
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


@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers("HX-Request")
def team_detail(request: HttpRequest) -> HttpResponse:
    """GET: the team builder (the session's team, or a permalink's). POST: change the
    session's team (``team_edit``)."""
    if request.method == "POST":
        return team_edit(request)
    page = pages.team_page(TeamLinkForm(request.GET), pages.Visitor.of(request))
    return render_page(
        request, "arena/team_detail.html", pages.context(page), partial="team", status=page.status
    )


def team_edit(request: HttpRequest) -> HttpResponse:
    """A change to the session's team; back to ``next`` (or the team page)."""
    form = TeamEditForm(request.POST)
    if not form.is_valid():
        messages.error(request, narration.team_error(services.TeamError("bad_op")))
        return redirect("arena:team")
    data = form.cleaned_data
    back = _safe_next(request, data["next"], reverse("arena:team"))
    error = _change_team(request, data)
    if wants_partial(request) and data["op"] in ("add", "remove"):
        swap = pages.team_swap(pages.Visitor.of(request), data["asset_id"].strip(), back, error)
        return render(request, "arena/partials/team_bar_swap.html", pages.context(swap))
    if error:
        messages.error(request, error)
    return HttpResponseRedirect(back)


def _change_team(request: HttpRequest, data: dict) -> str:
    """Apply a valid team edit; what went wrong, in words ("" when nothing did)."""
    session_key(request, create=True)
    try:
        done = services.change_team(
            request.session, data["op"], data["asset_id"], data["slab"], data["bracket"]
        )
    except services.TeamError as exc:
        return narration.team_error(exc)
    if done is not None:
        messages.success(request, narration.notice(done[0], **done[1]))
    return ""


# ---------------------------------------------------------------------------
# Matches


@require_http_methods(["GET", "HEAD", "POST"])
def match_start(request: HttpRequest) -> HttpResponse:
    """GET: enter the arena with the session's team (choose the bracket, the slab on the
    field first and the opponent). POST: start the match."""
    if request.method == "POST":
        return _start(request, MatchStartForm(request.POST))
    page = pages.team_page(None, pages.Visitor.of(request))
    return render(request, "arena/match_start.html", pages.context(page))


def _start(request: HttpRequest, form: MatchStartForm) -> HttpResponse:
    if not form.is_valid():
        messages.error(request, narration.notice("bad_start"))
        return redirect("arena:match-start")
    data, team = form.cleaned_data, selectors.session_team_ids(request.session)
    try:
        key = limits.admit(services.STARTS, request)
        match = services.start_match(
            key, team, Bracket(data["bracket"]), lead=data["lead"] or None, bot=data["bot"]
        )
    except limits.RateLimited as exc:
        return _rate_limited(request, exc)
    except (services.TeamError, InvalidTeamError) as exc:
        messages.error(request, narration.team_error(exc))
        return redirect("arena:match-start")
    return _started(request, match)


def _rate_limited(request: HttpRequest, exc: limits.RateLimited) -> HttpResponse:
    """429: too many match starts; when to try again, in the visitor's language."""
    return limits.too_many(request, exc, "arena/rate_limited.html", nav_section="arena")


def _started(request: HttpRequest, match: ArenaMatch) -> HttpResponse:
    """Go to the new match, saying which of the session's matches were given up for it."""
    if getattr(match, "given_up", None):
        messages.info(
            request, narration.notice("given_up", max=services.ACTIVE_MATCHES_PER_SESSION)
        )
    return redirect("arena:match", public_id=match.public_id)


def _own_or_404(request: HttpRequest) -> str:
    key = session_key(request)
    if not key:
        raise Http404(_("There is no such match in this session."))
    return key


def _catch_up(public_id: UUID, key: str) -> services.Loaded:
    try:
        return services.catch_up(public_id, key)
    except ArenaMatch.DoesNotExist:
        raise Http404(_("There is no such match in this session.")) from None


@require_safe
@vary_on_headers("HX-Request")
def match_detail(request: HttpRequest, public_id: UUID) -> HttpResponse:
    loaded = _catch_up(public_id, _own_or_404(request))
    page = pages.match_page(loaded, pages.Visitor.of(request))
    return render_page(request, "arena/match_detail.html", pages.context(page), partial="board")


@require_POST
@vary_on_headers("HX-Request")
def match_act(request: HttpRequest, public_id: UUID) -> HttpResponse:
    key = _own_or_404(request)
    loaded, notice, status = _play(public_id, key, MoveForm(request.POST))
    if wants_partial(request):
        page = pages.match_page(
            loaded or _catch_up(public_id, key), pages.Visitor.of(request), notice, status
        )
        board = "arena/match_detail.html#board"
        return render(request, board, pages.context(page), status=status)
    if notice:
        messages.error(request, notice)
    return redirect("arena:match", public_id=public_id)


def _play(public_id: UUID, key: str, form: MoveForm) -> tuple[services.Loaded | None, str, int]:
    """Play the form's move: the match after it, or why it was refused (and the status)."""
    if not form.is_valid():
        return None, narration.refusal("bad_action", {}), 400
    data = form.cleaned_data
    try:
        return services.play_move(public_id, key, data["turn"], data["move"]), "", 200
    except ArenaMatch.DoesNotExist:
        raise Http404(_("There is no such match in this session.")) from None
    except services.StaleMoveError:
        return None, narration.notice("stale"), 409
    except services.LateMoveError:
        return None, narration.notice("late", seconds=TURN_SECONDS), 409
    except IllegalArenaActionError as exc:
        return None, narration.refusal(exc.code, exc.params), 400


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
    page = pages.surrender_page(match, pages.Visitor.of(request))
    return render(request, "arena/match_surrender.html", pages.context(page))


@require_POST
def match_rematch(request: HttpRequest, public_id: UUID) -> HttpResponse:
    key = _own_or_404(request)
    try:
        limits.count(services.STARTS, key, limits.client_address(request))
        match = services.rematch(public_id, key)
    except limits.RateLimited as exc:
        return _rate_limited(request, exc)
    except ArenaMatch.DoesNotExist:
        raise Http404(_("There is no such match in this session.")) from None
    return _started(request, match)


@require_safe
@vary_on_headers("HX-Request")
def match_replay(request: HttpRequest, public_id: UUID) -> HttpResponse:
    match = selectors.match_by_public_id(public_id)
    visitor = pages.Visitor.of(request)
    if match is None or (not match.over and match.owner_session_key != visitor.key):
        raise Http404(_("There is no such match."))
    if "turn" not in request.GET:  # it opens at the start, with the turn in the address
        return redirect(f"{request.path}?turn=0")
    page = pages.replay_page(match, ReplayForm(request.GET), visitor)
    return render_page(
        request, "arena/match_replay.html", pages.context(page), partial="step", status=page.status
    )
