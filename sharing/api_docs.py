"""oEmbed described for ``/api/`` and ``/<lang>/api/`` (``core.api`` registry)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.api import ORIGIN, Endpoint, Field, Param, register

ENDPOINTS: tuple[Endpoint, ...] = register(
    "sharing",
    Endpoint(
        key="oembed",
        path="/api/oembed",
        summary=_(
            "oEmbed (oembed.com) for a card or slab page: its preview picture linked to the "
            "page, so that a forum or a chat can embed it. Pages name it in a "
            '<link rel="alternate" type="application/json+oembed">.'
        ),
        example=f"/api/oembed?url={ORIGIN}/en/cards/26/&format=json",
        example_response=(
            '{"version": "1.0", "type": "rich", "title": "Dumpling #26", "description": '
            '"Epic Tank — Epic because of GetGems rank #54.", "provider_name": "Card Codex", '
            '"provider_url": "https://…/", "url": "https://…/en/cards/26/", "html": "<a '
            'href=…><img src=… width=\\"600\\" height=\\"315\\" alt=…></a>", "width": 600, '
            '"height": 315, "thumbnail_url": "https://…/en/cards/26/preview.png", '
            '"thumbnail_width": 1200, "thumbnail_height": 630, "cache_age": 3600}'
        ),
        params=(
            Param(
                "url",
                _("The address of a card or slab page on this site, in either language."),
                "https://…/en/cards/26/",
                required=True,
            ),
            Param("format", _("Only json (xml answers 501). Optional."), "json"),
            Param(
                "maxwidth",
                _("The widest picture to embed, in pixels (at most 600, the default)."),
                "400",
            ),
            Param(
                "maxheight",
                _("The tallest picture to embed, in pixels (at most 315, the default)."),
                "210",
            ),
        ),
        fields=(
            Field("version", _("Always “1.0”.")),
            Field("type", _("Always “rich”: html holds the linked picture.")),
            Field("title", _("The card's or slab's name.")),
            Field("description", _("One line about it, in the page's language.")),
            Field("provider_name", _("This site's name.")),
            Field("provider_url", _("This site's address.")),
            Field("url", _("The page embedded.")),
            Field(
                "html",
                _("The page's preview picture linked to the page (no script, no iframe)."),
            ),
            Field("width", _("The picture's width in html, within maxwidth.")),
            Field("height", _("The picture's height in html, within maxheight.")),
            Field("thumbnail_url", _("The preview picture (PNG).")),
            Field("thumbnail_width", _("The preview picture's width: 1200.")),
            Field("thumbnail_height", _("The preview picture's height: 630.")),
            Field("cache_age", _("How many seconds the answer may be kept.")),
        ),
        errors=(
            (400, "missing_url"),
            (400, "malformed_url"),
            (400, "bad_format"),
            (400, "bad_size"),
            (404, "foreign_url"),
            (404, "not_found"),
            (501, "format_not_implemented"),
        ),
    ),
)
