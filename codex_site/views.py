"""The top floor's views: home, header search, favicon, health check, the CSRF failure
page, and the API's index, catch-all and documentation page."""

import logging
import secrets
from dataclasses import replace

from django.core.cache import cache
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from core import api
from core.cache import cached_page
from core.context_processors import site_origin
from explorer.forms import SiteSearchForm
from explorer.presenters import context

from . import presenters

logger = logging.getLogger(__name__)


@require_safe
@cached_page(depends_on=("cards",))
def home(request: HttpRequest) -> HttpResponse:
    """The search, a random card and a few featured cards, then the site's three parts."""

    page = presenters.home_page()
    return render(request, "codex_site/home.html", context(page))


@require_safe
@cached_page(depends_on=("cards", "wiki"), params=tuple(SiteSearchForm.base_fields))
def search(request: HttpRequest) -> HttpResponse:
    """The header's search: cards and wiki pages together, grouped (``?q=``)."""
    text = SiteSearchForm(request.GET).text()
    page = presenters.site_search_page(text, get_language() or "en")
    return render(request, "codex_site/search.html", context(page))


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's)."""
    return redirect(static("img/favicon.svg"), permanent=True)


#: Milliseconds a PostgreSQL health query may run (the cache's bound is its socket timeout).
HEALTH_DB_TIMEOUT_MS = 2000


def _check_database() -> None:
    """``SELECT 1`` on the request's connection; PostgreSQL's bounded by a statement
    timeout (its connection by ``connect_timeout``, config.settings.base.database)."""
    if connection.vendor == "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL statement_timeout = %s", [HEALTH_DB_TIMEOUT_MS])
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _check_cache() -> None:
    """A Redis must take a short-lived write (bounded by its socket timeout: a full one
    under ``noeviction`` refuses it); another cache must keep and give back a value."""
    check = getattr(cache, "health_check", None)
    if check is not None:
        check()
        return
    token = secrets.token_hex(8)
    cache.set("core:healthz", token, 10)
    if cache.get("core:healthz") != token:
        raise RuntimeError("the cache did not keep a value")


@require_safe
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Readiness probe: the database and the cache, each answered within a short timeout.

    200 ``{"status": "ok", "database": "ok", "cache": "ok"}`` when both answer; otherwise
    503 with ``"status": "unavailable"`` and the failed check's error in its field. The page
    cache can fail soft (a miss), so a 503 naming only the cache means "slow", not "down".
    """
    checks = {"database": _check_database, "cache": _check_cache}
    report: dict[str, str] = {}
    for name, check in checks.items():
        try:
            check()
        except Exception as error:  # any failure is the answer, never a 500
            logger.warning("Health check: the %s failed: %r", name, error)
            report[name] = f"error: {type(error).__name__}: {error}"[:300]
        else:
            report[name] = "ok"
    healthy = all(value == "ok" for value in report.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **report}, status=200 if healthy else 503
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused POST explained in the visitor's language; nothing was changed. Under
    /api/ the answer is the API's JSON error, like every API error."""
    if request.path.startswith("/api/"):
        return api.csrf_refused(request)
    return render(request, "403_csrf.html", status=403)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 400 handler: the API's JSON error under /api/, else the 400 page."""
    if api.is_api(request):
        return api.bad_request(request)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 403 handler: the API's JSON error under /api/, else the 403 page."""
    if api.is_api(request):
        return api.error_response(403, "forbidden", _("Access to this address is refused."))
    return defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """The 404 handler: the API's JSON 404 under /api/ (an ``Http404`` raised by an
    endpoint), else the 404 page."""
    if api.is_api(request):
        return api_not_found(request)
    return defaults.page_not_found(request, exception)


# ---------------------------------------------------------------------------
# The API's index, catch-all and documentation (every app's endpoints: core.api)


@api.api_view(key="api-index")
def api_index(request: HttpRequest) -> HttpResponse:
    """``/api/``: every endpoint of every app, linked to the docs."""
    origin = site_origin(request)
    data = [
        {
            "object": "endpoint",
            "key": endpoint.key,
            "app": app,
            "method": endpoint.method,
            "path": endpoint.path,
            "summary": str(endpoint.summary),
            "example": (
                request.build_absolute_uri(endpoint.example_at(origin))
                if endpoint.example
                else None
            ),
        }
        for app, endpoint in api.endpoints()
    ]
    docs = request.build_absolute_uri(reverse("site:api-docs"))
    return api.json_response(
        {"object": "list", "docs_url": docs, "count": len(data), "results": data}
    )


def api_not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under ``/api/``, whatever the method: a JSON 404 naming the
    endpoints that exist."""
    path = request.path
    hint = ""
    if path.startswith("/api/cards/"):
        hint = _(
            " A card is /api/cards/<token> with a whole number, and the search is /api/cards "
            "(no slash at the end)."
        )
    return api.error_response(
        404,
        "not_found",
        _("There is no API endpoint at %(path)s.%(hint)s The list of endpoints is at /api/.")
        % {"path": path[:200], "hint": hint},
    )


@require_safe
@cached_page()
def api_docs(request: HttpRequest) -> HttpResponse:
    """Every endpoint of the JSON API: parameters, fields and an example, in both languages."""
    return render(
        request,
        "codex_site/api_docs.html",
        {
            "endpoints": [
                (app, replace(endpoint, example=endpoint.example_at(site_origin(request))))
                for app, endpoint in api.endpoints()
            ],
            "error_fields": api.ERROR_FIELDS,
        },
    )
