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
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.htmx import render_page, wants_partial
from engine.match import IllegalActionError, InvalidDeckError

from . import presenters, selectors, services
from .forms import BuilderForm, DeckForm, MoveForm, ReplayForm
from .models import Match
from .narration import deck_error, refusal

__all__ = ["match_act", "match_detail", "match_replay", "match_start", "play_index"]


def _session_key(request: HttpRequest, *, create: bool = False) -> str | None:
    if create and request.session.session_key is None:
        request.session["play"] = True  # a modified session gets saved and its cookie set
        request.session.save()
    return request.session.session_key


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
    query = data.get("q") or ""
    number = data.get("page") or 1
    results, more = selectors.search_cards(query, data.get("token"), page=number)
    page = presenters.builder_page(
        query,
        selectors.cards_by_tokens(data.get("deck") or []),
        results,
        number,
        more,
        selectors.suggested_deck(random.Random()),
        selectors.session_matches(_session_key(request)),
    )
    return render_page(
        request,
        "play/play_index.html",
        {"page": page, "form": form},
        partial="builder",
        status=200 if valid else 400,
    )


def match_start(request: HttpRequest) -> HttpResponse:
    """Start a match with the posted cards (``card`` repeated), or go back and say why."""
    form = DeckForm(request.POST)
    if not form.is_valid():
        messages.error(request, deck_error("unknown_card"))
        return redirect(presenters.builder_url())
    tokens = form.cleaned_data["card"]
    try:
        match = services.start_match(_session_key(request, create=True) or "", tokens)
    except (InvalidDeckError, services.DeckError) as exc:
        messages.error(request, deck_error(exc.code, exc.params))
        return redirect(presenters.builder_url(deck=list(dict.fromkeys(tokens))))
    return redirect("play:match", public_id=match.public_id)


# ---------------------------------------------------------------------------
# The match


def _own_match(request: HttpRequest, public_id: UUID) -> Match:
    match = selectors.match_for_session(public_id, _session_key(request))
    if match is None:
        raise Http404("No such match in this session.")
    return match


@require_safe
def match_detail(request: HttpRequest, public_id: UUID) -> HttpResponse:
    match = _own_match(request, public_id)
    page = presenters.match_page(match, services.load(match).record)
    return render_page(request, "play/match_detail.html", {"page": page}, partial="board")


@require_POST
def match_act(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """Play the posted move; the board comes back (htmx) or the page redirects to it."""
    key = _session_key(request)
    if not key:
        raise Http404("No such match in this session.")
    form = MoveForm(request.POST)
    notice = None
    loaded = None
    if not form.is_valid():
        notice = refusal("stale" if "turn" in form.errors else "bad_action")
    else:
        try:
            loaded = services.play_move(
                public_id, key, form.cleaned_data["turn"], form.cleaned_data["move"]
            )
        except Match.DoesNotExist:
            raise Http404("No such match in this session.") from None
        except services.StaleActionError:
            notice = refusal("stale")
        except IllegalActionError as exc:
            notice = refusal(exc.code, exc.params)
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


@require_safe
def match_replay(request: HttpRequest, public_id: UUID) -> HttpResponse:
    match = selectors.match_by_id(public_id)
    owner = match is not None and match.owner_session_key == _session_key(request)
    if match is None or not (match.over or owner):
        raise Http404("No such match.")
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
