import logging
import secrets

from django.core.cache import cache
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from explorer import presenters
from explorer.forms import SiteSearchForm

from .cache import cached_page

logger = logging.getLogger(__name__)


@require_safe
@cached_page(depends_on=("cards",))
def home(request: HttpRequest) -> HttpResponse:
    """The search, a random card and a few featured cards, then the site's three parts."""

    page = presenters.home_page()
    return render(request, "core/home.html", presenters.context(page))


@require_safe
@cached_page(depends_on=("cards", "wiki"), params=tuple(SiteSearchForm.base_fields))
def search(request: HttpRequest) -> HttpResponse:
    """The header's search: cards and wiki pages together, grouped (``?q=``)."""
    text = SiteSearchForm(request.GET).text()
    page = presenters.site_search_page(text, get_language() or "en")
    return render(request, "core/search.html", presenters.context(page))


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
        from explorer.api import csrf_refused

        return csrf_refused(request)
    return render(request, "403_csrf.html", status=403)
