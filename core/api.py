"""The API kit: every JSON endpoint under ``/api/`` is written with it.

- ``json_response`` / ``json_text``: compact UTF-8 JSON; a 200 carries a short public
  Cache-Control, so clients and caches can revalidate cheaply.
- ``error_response``: the API's one error shape, whatever the app or the path::

      {"object": "error", "code": "not_found", "status": 404, "details": "…"}

  with ``details`` a sentence in the language of the request's Accept-Language and, on
  some errors, ``params``: the specifics as data. Errors are never cached (no-store)
  and vary on Accept-Language.
- ``api_view``: an endpoint reads (GET and HEAD; any other method is a JSON 405 with an
  Allow header), answers conditionally through Django's ``conditional_page`` (an ETag of
  its body, a 304 to a matching If-None-Match) unless it sets its own validator, and
  varies on Accept-Language. ``api_view(key="card")`` names the endpoint's entry in the
  docs, so a test can check that every route is documented.
- ``Endpoint``, ``Param``, ``Field`` and ``register``: the docs as data. Each app
  describes its endpoints in ``<app>/api_docs.py`` (``ENDPOINTS = register("packs",
  Endpoint(…), …)``); ``CoreConfig.ready`` imports every app's ``api_docs`` the way the
  admin finds ``admin.py``, and the API index (``/api/``) and the documentation page
  (``/<lang>/api/``) read ``endpoints()``, so neither can forget one.

>>> error_response(404, "not_found", "No.").content
b'{"object":"error","code":"not_found","status":404,"details":"No."}'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Protocol, cast

from django.apps import apps
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import conditional_page

__all__ = [
    "CACHE_CONTROL",
    "ERROR_FIELDS",
    "ORIGIN",
    "SAFE_METHODS",
    "Endpoint",
    "Field",
    "Param",
    "api_view",
    "bad_request",
    "csrf_refused",
    "endpoints",
    "error_response",
    "is_api",
    "json_response",
    "json_text",
    "method_not_allowed",
    "register",
]

CACHE_CONTROL = "public, max-age=60"
SAFE_METHODS = ("GET", "HEAD")

_encode_json = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), check_circular=False
).encode


# ---------------------------------------------------------------------------
# Responses


def absolute(request: HttpRequest, path: str) -> str:
    """An absolute link on the configured origin (``DJANGO_SITE_ORIGIN``), never the Host
    header's: a cached answer is served to everyone."""
    from core.context_processors import site_origin

    return site_origin(request) + path


def json_response(data: Any, status: int = 200) -> HttpResponse:
    """``data`` as compact JSON (UTF-8, non-ASCII kept)."""
    return json_text(_encode_json(data), status)


def json_text(text: str, status: int = 200) -> HttpResponse:
    """A response of JSON text already written (compact, UTF-8)."""
    response = HttpResponse(text.encode(), status=status, content_type="application/json")
    if status == 200:
        response["Cache-Control"] = CACHE_CONTROL
    return response


def error_response(status: int, code: str, details: str, **params: Any) -> HttpResponse:
    """The API's one error shape: ``{"object": "error", "code", "status", "details"}``,
    and ``params`` (the machine-readable specifics) when there are any."""
    body: dict[str, Any] = {"object": "error", "code": code, "status": status, "details": details}
    if params:
        body["params"] = params
    response = json_response(body, status)
    response["Cache-Control"] = "no-store"
    patch_vary_headers(response, ("Accept-Language",))  # ``details`` is in its language
    return response


def is_api(request: HttpRequest) -> bool:
    """Whether ``request`` is for the API, whose every answer is JSON (errors included)."""
    return request.path_info.startswith("/api/")


def bad_request(request: HttpRequest, details: str | None = None) -> HttpResponse:
    """A JSON 400 for a request that could not be read (the 400 handler under /api/)."""
    return error_response(400, "bad_request", details or _("The request could not be read."))


def server_error(request: HttpRequest) -> HttpResponse:
    """A JSON 500 (the 500 handler under /api/)."""
    return error_response(500, "server_error", _("The server could not answer this request."))


def method_not_allowed(
    request: HttpRequest, allowed: tuple[str, ...] = SAFE_METHODS
) -> HttpResponse:
    """A JSON 405 naming the methods allowed (also in the Allow header)."""
    response = error_response(
        405,
        "method_not_allowed",
        _("The API only reads: use GET (or HEAD), not %(method)s.") % {"method": request.method},
    )
    response["Allow"] = ", ".join(allowed)
    return response


def csrf_refused(request: HttpRequest) -> HttpResponse:
    """A write refused by the CSRF check under /api/ (the site's ``csrf_failure``): the
    API's error shape, since the API only reads anyway."""
    return error_response(
        403,
        "forbidden",
        _("The API only reads: use GET (or HEAD), not %(method)s.") % {"method": request.method},
    )


View = Callable[..., HttpResponse]


class ApiView(Protocol):
    """A view made by ``api_view``: ``api_endpoint`` is its key in the docs (a test reads
    it to check that every /api/ route is documented)."""

    api_endpoint: str | None

    def __call__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse: ...


def api_view(view: View | None = None, *, key: str | None = None) -> Any:
    """Make ``view`` an API endpoint: GET and HEAD only (other methods: a JSON 405),
    conditional on the body's ETag (Django's ``conditional_page``; a view that sets its
    own ETag or Last-Modified keeps it), varying on Accept-Language (errors and page
    links are in the request's language). ``key`` is its entry in the docs."""

    def decorate(view: View) -> View:
        conditional = conditional_page(view)  # once: the decorator builds a middleware

        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in SAFE_METHODS:
                response = method_not_allowed(request)
            else:
                response = conditional(request, *args, **kwargs)
                if response.status_code == 304:
                    response["Cache-Control"] = response.get("Cache-Control") or CACHE_CONTROL
            patch_vary_headers(response, ("Accept-Language",))
            return response

        endpoint = cast(ApiView, wrapper)  # a function takes any attribute
        endpoint.api_endpoint = key
        return endpoint

    return decorate(view) if view is not None else decorate


# ---------------------------------------------------------------------------
# Endpoint docs


@dataclass(frozen=True, slots=True)
class Param:
    """A query parameter: its name, what it does, an example value."""

    name: str
    description: Promise | str
    example: str = ""
    required: bool = False


@dataclass(frozen=True, slots=True)
class Field:
    """A field of a response object (``a.b`` for a nested one)."""

    name: str
    description: Promise | str


# What every list answer shares: the documentation of its envelope, written once.
LIST_OBJECT = Field("object", gettext_lazy("Always “list”."))
PAGE_PARAM = Param("page", gettext_lazy("The page, from 1."), "2")


def list_fields(
    count: Promise | str, results: Promise | str, items: Iterable[Field] = ()
) -> tuple[Field, ...]:
    """A list's ``count`` and ``results``, then each item's fields as ``results[].name``."""
    return (
        Field("count", count),
        Field("results", results),
        *(Field(f"results[].{f.name}", f.description) for f in items),
    )


def page_fields(
    count: Promise | str, results: Promise | str, items: Iterable[Field] = ()
) -> tuple[Field, ...]:
    """A page of a list: ``count``, the page, the number of pages, the next and previous
    pages' addresses, then ``results`` and each item's fields."""
    head, *rest = list_fields(count, results, items)
    return (
        head,
        Field("page", gettext_lazy("This page's number.")),
        Field("pages", gettext_lazy("How many pages there are.")),
        Field("next", gettext_lazy("The next page's address, or null.")),
        Field("previous", gettext_lazy("The previous page's address, or null.")),
        *rest,
    )


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One endpoint: its address, what it answers, and an example request and answer."""

    key: str  # a stable id, also the page anchor
    path: str  # with <placeholders>
    summary: Promise | str
    # A request path that works ("" when none is fixed, e.g. a visitor's opening); ORIGIN
    # in it stands for the site's own origin (oEmbed's ``url`` is an address on this site).
    example: str
    example_response: str  # the answer, shortened with …
    params: tuple[Param, ...] = ()
    fields: tuple[Field, ...] = ()
    errors: tuple[tuple[int, str], ...] = ()  # (status, code)
    method: str = "GET"

    def example_at(self, origin: str) -> str:
        """The example request on the site at ``origin`` (``https://host``).

        >>> Endpoint("k", "/p", "", "/p?url=" + ORIGIN + "/en/", "").example_at("https://h")
        '/p?url=https://h/en/'
        """
        return self.example.replace(ORIGIN, origin)


#: Stands for the site's origin in an ``Endpoint.example`` (``Endpoint.example_at``).
ORIGIN = "{origin}"


ERROR_FIELDS: tuple[Field, ...] = (
    Field("object", gettext_lazy("Always “error”.")),
    Field(
        "code", gettext_lazy("A stable machine-readable code, such as not_found or unknown_field.")
    ),
    Field("status", gettext_lazy("The HTTP status, repeated in the body.")),
    Field(
        "details",
        gettext_lazy(
            "What went wrong and how to fix it, in the language of the request's "
            "Accept-Language header (English or Russian)."
        ),
    ),
    Field(
        "params",
        gettext_lazy(
            "Only on some errors: the specifics as data (the fields refused, the first date "
            "with a value, …)."
        ),
    ),
)

_registry: dict[str, tuple[Endpoint, ...]] = {}


def register(app_label: str, *described: Endpoint) -> tuple[Endpoint, ...]:
    """Record an app's endpoints (from its ``api_docs`` module) and return them.

    Registering an app again replaces its list, so importing a module twice is harmless.
    """
    _registry[app_label] = described
    return described


def autodiscover() -> None:
    """Import every installed app's ``api_docs`` module (``CoreConfig.ready``)."""
    from django.utils.module_loading import autodiscover_modules

    autodiscover_modules("api_docs")


def endpoints() -> list[tuple[str, Endpoint]]:
    """Every app's endpoints, as (app's verbose name, endpoint), in the apps' order."""
    found: list[tuple[str, Endpoint]] = []
    for config in apps.get_app_configs():
        found.extend((str(config.verbose_name), e) for e in _registry.get(config.label, ()))
    return found
