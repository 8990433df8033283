from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from explorer import presenters
from explorer.forms import SiteSearchForm

from .cache import cached_page


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


@require_safe
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness probe and the benchmarks' floor: no database, no templates."""
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused POST explained in the visitor's language; nothing was changed. Under
    /api/ the answer is the API's JSON error, like every API error."""
    if request.path.startswith("/api/"):
        from explorer.api import csrf_refused

        return csrf_refused(request)
    return render(request, "403_csrf.html", status=403)
