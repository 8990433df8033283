from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .cache import cached_page


@require_safe
@cached_page()
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


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
    """A refused POST explained in the visitor's language; nothing was changed."""
    return render(request, "403_csrf.html", status=403)
