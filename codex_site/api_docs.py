"""The API's index described for ``/api/`` and ``/<lang>/api/`` (``core.api`` registry)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.api import LIST_OBJECT, Endpoint, Field, list_fields, register

ENDPOINTS: tuple[Endpoint, ...] = register(
    "codex_site",
    Endpoint(
        key="api-index",
        path="/api/",
        summary=_("Every endpoint of the API, with its address and the documentation."),
        example="/api/",
        example_response=(
            '{"object": "list", "docs_url": "https://…/en/api/", "count": 13, "results": '
            '[{"object": "endpoint", "key": "card-search", "app": "Explorer", "method": "GET", '
            '"path": "/api/cards", "summary": "…", "example": "https://…/api/cards?…"}, …]}'
        ),
        fields=(
            LIST_OBJECT,
            Field("docs_url", _("This documentation.")),
            *list_fields(
                _("How many endpoints there are."),
                _("One object per endpoint: key, method, path, summary, example."),
            ),
        ),
    ),
)
