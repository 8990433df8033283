"""The one htmx helper: a typed request, and one render for a page and its partial.

A view that serves both a full page and an htmx fragment renders with ``render_page``:
an htmx request gets the template's partial (django-template-partials,
``"play/play_index.html#builder"``), anything else — a plain visit, or htmx's history
restore, which needs the whole page — gets the whole template. The answer varies on
``HX-Request`` so a cache never hands one to the other.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django_htmx.middleware import HtmxDetails

__all__ = ["HtmxHttpRequest", "render_page", "wants_partial"]


class HtmxHttpRequest(HttpRequest):
    """An ``HttpRequest`` after django-htmx's middleware: it carries ``htmx``."""

    htmx: HtmxDetails


def wants_partial(request: HttpRequest) -> bool:
    """An htmx request that swaps a fragment (a history restore needs the whole page)."""
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


def render_page(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    partial: str | None = None,
    status: int = 200,
) -> HttpResponse:
    """``template`` for a page visit, ``template#partial`` for an htmx swap."""
    name = f"{template}#{partial}" if partial and wants_partial(request) else template
    response = render(request, name, context, status=status)
    if partial:
        patch_vary_headers(response, ("HX-Request",))
    return response
