"""The one htmx helper: a typed request, and one render for a page and its partial.

A view that serves both a full page and an htmx fragment renders with ``render_page``
(or ``render_fragment_page`` when the fragment is a template of its own):
an htmx request gets the template's partial (django-template-partials,
``"play/play_index.html#builder"``), anything else — a plain visit, or htmx's history
restore, which needs the whole page — gets the whole template. The answer varies on
``HX-Request`` so a cache never hands one to the other.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django_htmx.middleware import HtmxDetails

__all__ = ["HtmxHttpRequest", "render_fragment_page", "render_page", "wants_partial"]


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


def render_fragment_page(
    request: HttpRequest,
    template: str,
    fragment: str,
    context: dict[str, Any],
    *,
    using: str = "jinja2",
    status: int = 200,
    body: str | None = None,
) -> HttpResponse:
    """A page whose swappable part is a template of its own, of another engine (the card
    breakdown is Jinja2's, config/jinja2.py): ``fragment`` alone for an htmx swap,
    ``template`` for a page visit, which shows the fragment's HTML as ``{{ fragment }}`` —
    or, given ``body``, the HTML of that template of the fragment's engine (the page's
    content around the fragment, which includes it)."""
    partial = wants_partial(request)
    # A copy: Django's Jinja2 backend writes ``request`` and the real ``csrf_token`` into
    # the dict it renders, which would then override the page cache's CSRF placeholder.
    name = fragment if partial or body is None else body
    html = mark_safe(render_to_string(name, dict(context), request, using=using))
    if partial:
        response = HttpResponse(html, status=status)
    else:
        response = render(request, template, {**context, "fragment": html}, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response
