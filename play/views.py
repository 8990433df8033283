"""The match demo: build a deck, play a bot round by round, replay a match.

Every page works without JavaScript (forms post, then redirect); htmx enhances
them by swapping the page's partial (django-template-partials). Views that
answer htmx differently vary on ``HX-Request``; a history-restore request gets
the full page. A match belongs to the session that started it: any other session
gets 404 (a finished match's replay is the exception: its permalink can be shared).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from engine.data import DECK_MAX
from engine.match import Event, IllegalActionError

from . import selectors, services
from .models import Match
from .narration import Line, error_message, narrate_all, reason_text, result_text
from .presenters import board, controls, rarity_label, role_label

__all__ = ["match_act", "match_detail", "match_replay", "match_start", "play_index"]


def _partial(request: HttpRequest, template: str, name: str) -> str:
    if request.htmx and not request.htmx.history_restore_request:
        return f"{template}#{name}"
    return template


def _session_key(request: HttpRequest, *, create: bool = False) -> str | None:
    if create and request.session.session_key is None:
        request.session["play"] = True  # a modified session gets saved and its cookie set
        request.session.save()
    return request.session.session_key


# ---------------------------------------------------------------------------
# Deck builder


@dataclass
class _Entry:
    card: Any
    rarity_label: str
    role_label: str
    in_deck: bool = False
    add_url: str | None = None
    remove_url: str | None = None


def _builder_url(query: str, deck: list[int]) -> str:
    params = {}
    if query:
        params["q"] = query
    if deck:
        params["deck"] = ",".join(str(t) for t in deck)
    base = reverse("play:index")
    return f"{base}?{urlencode(params)}" if params else base


def _entry(card: Any) -> _Entry:
    return _Entry(card, rarity_label(card.rarity), role_label(card.role))


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def play_index(request: HttpRequest) -> HttpResponse:
    """GET: the deck builder. POST (the chosen cards): start a match (``match_start``)."""
    if request.method == "POST":
        return match_start(request)
    query = request.GET.get("q", "").strip()[:100]
    tokens = selectors.parse_deck(request.GET.get("deck", ""))
    deck = [_entry(c) for c in selectors.cards_by_tokens(tokens)][:DECK_MAX]
    tokens = [e.card.token for e in deck]
    for entry in deck:
        entry.in_deck = True
        entry.remove_url = _builder_url(query, [t for t in tokens if t != entry.card.token])
    results = []
    for card in selectors.search_cards(query):
        entry = _entry(card)
        entry.in_deck = card.token in tokens
        if not entry.in_deck and len(tokens) < DECK_MAX:
            entry.add_url = _builder_url(query, [*tokens, card.token])
        results.append(entry)
    suggestion = [_entry(c) for c in selectors.suggested_deck(random.Random())]
    context = {
        "query": query,
        "deck": deck,
        "deck_full": len(tokens) >= DECK_MAX,
        "deck_max": DECK_MAX,
        "deck_param": ",".join(str(t) for t in tokens),
        "results": results,
        "suggestion": suggestion,
        "matches": selectors.session_matches(_session_key(request)),
    }
    return render(request, _partial(request, "play/play_index.html", "builder"), context)


_DECK_ERRORS = {
    "empty": lambda: _("Pick at least one card for your deck."),
    "too_many": lambda: _("A deck holds at most four cards."),
    "duplicate": lambda: _("A deck may hold each card only once."),
    "unknown_card": lambda: _("One of those cards is not in the collection."),
}


def match_start(request: HttpRequest) -> HttpResponse:
    """Start a match with the posted cards (``card`` repeated), or go back and say why."""
    raw = request.POST.getlist("card")
    tokens = selectors.parse_deck(raw)
    back = _builder_url("", tokens)
    code = None
    if len(raw) > DECK_MAX:
        code = "too_many"
    elif len(tokens) != len(raw):
        code = "duplicate" if len({str(r).strip() for r in raw}) != len(raw) else "unknown_card"
    if code is None:
        try:
            match = services.start_match(_session_key(request, create=True) or "", tokens)
        except services.DeckError as exc:
            code = exc.code
    if code is not None:
        messages.error(request, _DECK_ERRORS.get(code, _DECK_ERRORS["unknown_card"])())
        return redirect(back, permanent=False)
    return redirect("play:match", public_id=match.public_id)


# ---------------------------------------------------------------------------
# The match


def _rounds(log: tuple[Event, ...]) -> list[list[Event]]:
    """The log cut at each ``round.start``: [opening, round 1, round 2, …]."""
    chunks: list[list[Event]] = [[]]
    for event in log:
        if event.code == "round.start":
            chunks.append([])
        chunks[-1].append(event)
    return chunks


def _match_context(loaded: services.Loaded, notice: str | None = None) -> dict[str, Any]:
    state = loaded.state
    view = board(state, reveal_bot=state.over)
    chunks = _rounds(loaded.log)
    current = narrate_all(chunks[-1], show_bot_picks=state.over)
    previous: list[Line] = narrate_all(chunks[-2]) if len(chunks) > 2 else []
    if len(chunks) == 2:  # round 1: show the opening too
        current = narrate_all(chunks[0]) + current
    return {
        "match": loaded.match,
        "state": state,
        "board": view,
        "controls": controls(state, view),
        "turn": state.actions,
        "current_log": current,
        "previous_log": previous,
        "previous_round": state.round - 1,
        "result": result_text(state.result) if state.over else None,
        "reason": reason_text(state.end_reason, state.round) if state.over else None,
        "notice": notice,
        "replay_url": reverse("play:replay", kwargs={"public_id": loaded.match.public_id}),
    }


def _own_match(request: HttpRequest, public_id: UUID) -> Match:
    match = selectors.match_for_session(public_id, _session_key(request))
    if match is None:
        raise Http404("No such match in this session.")
    return match


@require_GET
@vary_on_headers("HX-Request")
def match_detail(request: HttpRequest, public_id: UUID) -> HttpResponse:
    loaded = services.load(_own_match(request, public_id))
    return render(
        request, _partial(request, "play/match_detail.html", "board"), _match_context(loaded)
    )


@require_POST
@vary_on_headers("HX-Request")
def match_act(request: HttpRequest, public_id: UUID) -> HttpResponse:
    key = _session_key(request)
    if not key:
        raise Http404("No such match in this session.")
    notice = None
    try:
        loaded = services.play_move(
            public_id, key, request.POST.get("turn", ""), request.POST.get("move", "")
        )
    except Match.DoesNotExist:
        raise Http404("No such match in this session.") from None
    except services.StaleActionError:
        notice = error_message("stale")
    except IllegalActionError as exc:
        notice = error_message(exc.code, exc.params)
    if request.htmx:
        if notice is not None:
            loaded = services.load(_own_match(request, public_id))
        context = _match_context(loaded, notice)
        return render(request, "play/match_detail.html#board", context)
    if notice is not None:
        messages.error(request, notice)
    return redirect("play:match", public_id=public_id)


@require_GET
@vary_on_headers("HX-Request")
def match_replay(request: HttpRequest, public_id: UUID) -> HttpResponse:
    match = Match.objects.filter(public_id=public_id).first()
    if match is None or (not match.over and match.owner_session_key != _session_key(request)):
        raise Http404("No such match.")
    loaded = services.load(match)
    chunks = _rounds(loaded.log)
    last = len(chunks) - 1
    raw = request.GET.get("step", "")
    step = int(raw) if raw.isdigit() else last
    step = max(0, min(step, last))
    snapshot = loaded.snapshots[step] if step < len(loaded.snapshots) else loaded.state
    base = reverse("play:replay", kwargs={"public_id": match.public_id})
    context = {
        "match": match,
        "board": board(snapshot, reveal_bot=True),
        "lines": narrate_all(chunks[step], show_bot_picks=match.over),
        "step": step,
        "last": last,
        "steps": range(last + 1),
        "prev_url": f"{base}?step={step - 1}" if step > 0 else None,
        "next_url": f"{base}?step={step + 1}" if step < last else None,
        "first_url": f"{base}?step=0",
        "last_url": f"{base}?step={last}",
        "base_url": base,
        "result": result_text(loaded.state.result) if match.over else None,
        "reason": reason_text(loaded.state.end_reason, loaded.state.round) if match.over else None,
        "owner": match.owner_session_key == _session_key(request),
    }
    return render(request, _partial(request, "play/match_replay.html", "step"), context)
