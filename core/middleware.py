"""Site-wide request guards: NUL bytes refused, a busy or restarting database answered
with 503."""

import logging
import sys
from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.defaults import bad_request

from . import api

logger = logging.getLogger(__name__)

NUL = "\x00"


def _has_nul(data: QueryDict) -> bool:
    return any(NUL in key or any(NUL in v for v in values) for key, values in data.lists())


class RejectNulBytesMiddleware:
    """Answer 400 to a request whose path, query string or form data holds a NUL byte.

    No input of this site can contain one, and PostgreSQL refuses NUL in text parameters
    (a DataError, so a 500) where SQLite would quietly search for it. Django's form fields
    already reject NUL; this covers views that read request.GET/POST directly. It sits last
    in MIDDLEWARE, so the 400 page is in the visitor's language and carries the CSP.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        content_type = request.content_type or ""
        form_post = request.method == "POST" and content_type in (
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        )
        if NUL in request.path or _has_nul(request.GET) or (form_post and _has_nul(request.POST)):
            if api.is_api(request):
                return api.bad_request(
                    request, _("The request holds a NUL byte, which no parameter may contain.")
                )
            return bad_request(request, BadRequest("NUL byte in the request"))
        return self.get_response(request)


# SQLite's words for a write lock it could not get within the busy timeout.
_SQLITE_BUSY = ("database is locked", "database table is locked", "database is busy")
# PostgreSQL: lock_not_available (lock_timeout), deadlock_detected, serialization_failure.
_POSTGRES_BUSY = {"55P03", "40P01", "40001"}


# PostgreSQL's connection went away (a restart, a failover, a server shutting down): its
# SQLSTATE class 08 (connection exception) and 57P01–57P03 (admin or crash shutdown, cannot
# connect now); psycopg often gives no SQLSTATE for a dropped socket, hence the words too.
_POSTGRES_GONE_STATES = {"57P01", "57P02", "57P03"}
_POSTGRES_GONE = (
    "server closed the connection unexpectedly",
    "terminating connection due to administrator command",
    "the database system is starting up",
    "the database system is shutting down",
    "the database system is in recovery mode",
    "consuming input failed",
    "connection is closed",
    "connection already closed",
    "connection refused",
    "could not connect to server",
    "no such file or directory",  # the unix socket is gone while the server restarts
    "connection failed",
    "connection timeout expired",
    "ssl syscall error",
    "lost synchronization with server",
)


def _database_gone(error: BaseException) -> bool:
    """A lost or refused connection to PostgreSQL: nothing was committed, and a moment
    later (the server back, Django's next connection) the same request can succeed."""
    cause = error.__cause__ or error
    state = getattr(cause, "sqlstate", None) or ""
    if state.startswith("08") or state in _POSTGRES_GONE_STATES:
        return True
    text = str(error).lower()
    if isinstance(error, InterfaceError) and "closed" in text:  # used after it was dropped
        return True
    return connection.vendor == "postgresql" and any(words in text for words in _POSTGRES_GONE)


def database_busy(error: BaseException | None) -> bool:
    """Whether ``error`` means the database could not take the request just now: another
    writer held it past the timeout, or PostgreSQL dropped or refused the connection (a
    restart). Nothing was committed; the request can simply be tried again."""
    if not isinstance(error, (OperationalError, InterfaceError)):
        return False
    cause = error.__cause__ or error
    if getattr(cause, "sqlstate", None) in _POSTGRES_BUSY:
        return True
    if _database_gone(error):
        return True
    text = str(error).lower()
    return any(words in text for words in _SQLITE_BUSY)


RETRY_AFTER_SECONDS = 5


def busy_response(request: HttpRequest) -> HttpResponse:
    """503 "busy, try again" in the visitor's language (nothing was changed); under
    /api/ in the API's error shape."""
    if api.is_api(request):
        response = api.error_response(
            503, "busy", _("The site is busy. Nothing was changed; please try again in a moment.")
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    try:
        response = render(request, "503.html", status=503)
    except Exception:  # the page itself needs the database, or something else failed
        logger.exception("The 503 page could not be rendered")
        response = HttpResponse(
            _("The site is busy. Nothing was changed; please try again in a moment."),
            status=503,
            content_type="text/plain; charset=utf-8",
        )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    add_never_cache_headers(response)
    return response


class DatabaseBusyMiddleware:
    """Answer 503 (busy, try again) when a view's write waited past the database's busy
    timeout (SQLite's "database is locked", PostgreSQL's lock and serialization errors) or
    PostgreSQL dropped or refused the connection (a restart, a failover).

    The one place that turns a lock timeout into the busy page; the 500 handler
    (``server_error``) sends the same page for a timeout outside a view (a session save).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_busy(exception):
            return None
        logger.warning("Database busy (%s): %s %s", exception, request.method, request.path)
        return busy_response(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 handler: the busy page for a lock timeout, else Django's server error (under
    /api/, both in the API's error shape)."""
    if database_busy(sys.exc_info()[1]):
        return busy_response(request)
    if api.is_api(request):
        return api.server_error(request)
    return defaults.server_error(request)
