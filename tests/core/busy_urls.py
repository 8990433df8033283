"""The site's URLs plus two views that meet a busy database (tests/core/test_busy.py)."""

from django.conf.urls.i18n import i18n_patterns
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_patterns

handler500 = "core.middleware.server_error"


def locked_write(request: HttpRequest) -> HttpResponse:
    raise OperationalError("database is locked")


class AdminShutdown(Exception):
    """psycopg's error when PostgreSQL is restarted under a running query."""

    sqlstate = "57P01"


def server_restarted(request: HttpRequest) -> HttpResponse:
    error = OperationalError("terminating connection due to administrator command")
    raise error from AdminShutdown()


def connection_closed(request: HttpRequest) -> HttpResponse:
    raise InterfaceError("connection already closed")


def read(request: HttpRequest) -> HttpResponse:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return HttpResponse(str(cursor.fetchone()[0]))


def other_failure(request: HttpRequest) -> HttpResponse:
    raise OperationalError("no such table: nowhere")


def session_write(request: HttpRequest) -> HttpResponse:
    request.session["seen"] = True  # saved by SessionMiddleware, after the view
    return HttpResponse("ok")


urlpatterns = [
    *i18n_patterns(
        path("busy/", locked_write),
        path("broken/", other_failure),
        path("restarted/", server_restarted),
        path("closed/", connection_closed),
        path("read/", read),
        path("session/", session_write),
    ),
    *site_patterns,
]
