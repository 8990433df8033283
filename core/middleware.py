"""Site-wide request guards."""

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse
from django.views.defaults import bad_request

NUL = "\x00"


def _has_nul(data) -> bool:
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
            return bad_request(request, BadRequest("NUL byte in the request"))
        return self.get_response(request)
