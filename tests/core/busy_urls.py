"""The site's URLs plus two views that meet a busy database (tests/core/test_busy.py)."""

from django.conf.urls.i18n import i18n_patterns
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_patterns

handler500 = "core.middleware.server_error"


def locked_write(request: HttpRequest) -> HttpResponse:
    raise OperationalError("database is locked")


def other_failure(request: HttpRequest) -> HttpResponse:
    raise OperationalError("no such table: nowhere")


def session_write(request: HttpRequest) -> HttpResponse:
    request.session["seen"] = True  # saved by SessionMiddleware, after the view
    return HttpResponse("ok")


urlpatterns = [
    *i18n_patterns(
        path("busy/", locked_write),
        path("broken/", other_failure),
        path("session/", session_write),
    ),
    *site_patterns,
]
