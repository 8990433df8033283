"""The match demo: build a deck, play a bot round by round, replay a match.

Every page works without JavaScript (forms post, then redirect); htmx enhances them by
swapping the page's partial (``core.htmx.render_page``). Request parameters are read
through ``play.forms``; pages are assembled by ``play.presenters``. A match belongs to
the session that started it: any other session gets 404 (a finished match's replay is
the exception: its permalink can be shared).
"""

from __future__ import annotations

import random
from uuid import UUID

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from cards.query import QueryError, parse
from core import limits as core_limits
from core.htmx import render_page, wants_partial
from core.sessions import session_key
from engine.match import A, IllegalActionError, InvalidDeckError, Surrender

from . import limits, presenters, selectors, services
from .forms import SOURCES, BuilderForm, DeckForm, MoveForm, ReplayForm, TurnForm
from .models import Match
from .narration import deck_error, refusal

__all__ = [
    "match_act",
    "match_detail",
    "match_finish",
    "match_log",
    "match_rematch",
    "match_replay",
    "match_start",
    "match_surrender",
    "play_index",
]


# ---------------------------------------------------------------------------
# Deck builder


@require_http_methods(["GET", "HEAD", "POST"])
def play_index(request: HttpRequest) -> HttpResponse:
    """GET: the deck builder. POST (the chosen cards): start a match (``match_start``)."""
    if request.method == "POST":
        return match_start(request)
    form = BuilderForm(request.GET)
    valid = form.is_valid()
    data = form.cleaned_data
    text = data.get("q") or ""
    number = data.get("page") or 1
    bot = data.get("bot") or services.BOT_NAME
    source = data.get("source") or SOURCES[0]
    key = session_key(request)
    binder = selectors.binder(key)
    query_error = None
    results, more = [], False
    try:
        query = parse(text)
    except QueryError as exc:
        query_error = exc.message
    else:
        results, more = selectors.search_cards(
            query, within=binder if source == "binder" else None, page=number
        )
    page = presenters.builder_page(
        text,
        selectors.cards_by_tokens(data.get("deck") or []),
        results,
        number,
        more,
        selectors.suggested_deck(random.Random()),
        selectors.session_matches(key),
        bot=bot,
        source=source,
        binder_count=len(binder),
        query_error=query_error,
    )
    return render_page(
        request,
        "play/play_index.html",
        {"page": page, "form": form},
        partial="builder",
        status=200 if valid and query_error is None else 400,
    )


def _rate_limited(request: HttpRequest, exc: limits.RateLimited) -> HttpResponse:
    """429: too many match starts; when to try again, in the visitor's language."""
    return core_limits.too_many(request, exc, "play/rate_limited.html")


def _started(request: HttpRequest, started: services.Started) -> HttpResponse:
    """Go to the new match, saying which matches were set aside to make room for it."""
    if started.set_aside:
        messages.info(
            request,
            ngettext(
                "You can keep %(max)s matches in progress: your oldest one (round "
                "%(round)s) was set aside to make room. Its replay stays in your matches.",
                "You can keep %(max)s matches in progress: your oldest ones were set aside "
                "to make room. Their replays stay in your matches.",
                len(started.set_aside),
            )
            % {"max": limits.ACTIVE_MATCHES_PER_SESSION, "round": started.set_aside[0].rounds},
        )
    return redirect("play:match", public_id=started.match.public_id)


def _count_start(request: HttpRequest, key: str) -> None:
    """Count a start before anything is created (``core.limits``); RateLimited if over."""
    core_limits.count(limits.STARTS, key, core_limits.client_address(request))


def match_start(request: HttpRequest) -> HttpResponse:
    """Start a match with the posted cards (``card`` repeated) against the posted bot, or
    go back and say why."""
    form = DeckForm(request.POST)
    if not form.is_valid():
        if "bot" in form.errors:
            messages.error(request, form.errors["bot"][0])
        else:
            messages.error(request, deck_error("unknown_card"))
        return redirect(presenters.builder_url())
    tokens = form.cleaned_data["card"]
    bot = form.cleaned_data["bot"]
    try:
        key = core_limits.admit(limits.STARTS, request)
    except limits.RateLimited as exc:
        return _rate_limited(request, exc)
    try:
        started = services.start_match(key, tokens, bot=bot)
    except (InvalidDeckError, services.DeckError) as exc:
        messages.error(request, deck_error(exc.code, exc.params))
        return redirect(presenters.builder_url(deck=list(dict.fromkeys(tokens)), bot=bot))
    return _started(request, started)


# ---------------------------------------------------------------------------
# The match


def _own_match(request: HttpRequest, public_id: UUID) -> Match:
    match = selectors.match_for_session(public_id, session_key(request))
    if match is None:
        raise Http404("No such match in this session.")
    return match


@require_safe
def match_detail(request: HttpRequest, public_id: UUID) -> HttpResponse:
    match = _own_match(request, public_id)
    page = presenters.match_page(match, services.load(match).record)
    return render_page(request, "play/match_detail.html", {"page": page}, partial="board")


def _answer(
    request: HttpRequest,
    public_id: UUID,
    loaded: services.Loaded | None,
    notice: str | None,
) -> HttpResponse:
    """After a move: the board (htmx, the notice in it) or a redirect to the match (the
    notice as a message)."""
    if wants_partial(request):
        if loaded is None:
            loaded = services.load(_own_match(request, public_id))
        page = presenters.match_page(loaded.match, loaded.record, notice)
        return render_page(request, "play/match_detail.html", {"page": page}, partial="board")
    if loaded is None:
        _own_match(request, public_id)  # another session's match is a 404, not a message
    if notice is not None:
        messages.error(request, notice)
    return redirect("play:match", public_id=public_id)


def _play(request: HttpRequest, public_id: UUID, run) -> HttpResponse:
    """Run one write of the player's (``run(session_key)``) and answer with the board."""
    key = session_key(request)
    if not key:
        raise Http404("No such match in this session.")
    loaded = notice = None
    try:
        loaded = run(key)
    except Match.DoesNotExist:
        raise Http404("No such match in this session.") from None
    except services.StaleActionError:
        notice = refusal("stale")
    except services.CardsLeftError:
        notice = refusal("cards_left")
    except IllegalActionError as exc:
        notice = refusal(exc.code, exc.params)
    return _answer(request, public_id, loaded, notice)


def _refused(request: HttpRequest, public_id: UUID, code: str) -> HttpResponse:
    if not session_key(request):
        raise Http404("No such match in this session.")
    return _answer(request, public_id, None, refusal(code))


@require_POST
def match_act(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """Play the posted move; the board comes back (htmx) or the page redirects to it."""
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _refused(request, public_id, "stale" if "turn" in form.errors else "bad_action")
    turn, move = form.cleaned_data["turn"], form.cleaned_data["move"]
    return _play(request, public_id, lambda key: services.play_move(public_id, key, turn, move))


@require_http_methods(["GET", "HEAD", "POST"])
def match_surrender(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """GET: "are you sure?" (the step a browser without JavaScript takes; with it, the
    match page's own form asks). POST: surrender."""
    if request.method == "POST":
        form = TurnForm(request.POST)
        if not form.is_valid():
            return _refused(request, public_id, "stale")
        turn = form.cleaned_data["turn"]
        return _play(
            request,
            public_id,
            lambda key: services.play_move(public_id, key, turn, Surrender(A)),
        )
    match = _own_match(request, public_id)
    if match.over:
        return redirect("play:match", public_id=public_id)
    page = presenters.surrender_page(match, services.load(match).record)
    return render_page(request, "play/match_surrender.html", {"page": page})


@require_POST
def match_finish(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """Play the match out at once: the player has no card left (the engine plays on)."""
    form = TurnForm(request.POST)
    if not form.is_valid():
        return _refused(request, public_id, "stale")
    turn = form.cleaned_data["turn"]
    return _play(request, public_id, lambda key: services.finish_match(public_id, key, turn))


@require_POST
def match_rematch(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """A new match with the same decks and the same bot."""
    key = session_key(request)
    if not key:
        raise Http404("No such match in this session.")
    try:
        _count_start(request, key)
    except limits.RateLimited as exc:
        return _rate_limited(request, exc)
    try:
        started = services.rematch(public_id, key)
    except Match.DoesNotExist:
        raise Http404("No such match in this session.") from None
    return _started(request, started)


def _viewable(request: HttpRequest, public_id: UUID) -> tuple[Match, bool]:
    """A match whose replay and log this visitor may see: their own, or any that is over
    (its permalink can be shared); and whether it is theirs."""
    match = selectors.match_by_id(public_id)
    owner = match is not None and match.owner_session_key == session_key(request)
    if match is None or not (match.over or owner):
        raise Http404("No such match.")
    return match, owner


@require_safe
def match_replay(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """A replay step by step; it opens at the start, with the step in the address."""
    match, owner = _viewable(request, public_id)
    if "step" not in request.GET:
        return redirect(f"{request.path}?step=0")
    form = ReplayForm(request.GET)
    valid = form.is_valid()
    error = None if valid else form.errors["step"][0]
    step = form.cleaned_data.get("step") if valid else None
    page = presenters.replay_page(
        match, services.load(match).record, step, owner=owner, error=error
    )
    return render_page(
        request,
        "play/match_replay.html",
        {"page": page},
        partial="step",
        status=200 if valid else 400,
    )


@require_safe
def match_log(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """The whole log on one page, round by round and beat by beat, each event linkable."""
    match, owner = _viewable(request, public_id)
    page = presenters.log_page(match, services.load(match).record, owner=owner)
    return render_page(request, "play/match_log.html", {"page": page})
