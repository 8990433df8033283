"""Link previews: what a chat or a forum shows when someone pastes one of our addresses.

A page that wants a rich preview puts a ``LinkPreview`` in its context as ``preview``;
``base.html`` turns it into OpenGraph and Twitter Card tags (with the page's canonical
address, ``core.context_processors.language_alternates``). Its picture is a 1200×630
PNG that the app draws from its own SVG (a card's picture, a slab's case, the site's
emblem) with ``preview_svg`` and renders with ``render_png`` (resvg, a pure wheel: no
system library), then serves with ``png_response``: public, cacheable, with a validator.

Nothing here knows the visitor: the same page gives every visitor the same tags.

>>> svg = preview_svg('<svg viewBox="0 0 10 10"></svg>', "Pup #7", "Legendary Tank", "Why.")
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"')
True
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar
from xml.sax.saxutils import escape

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.views.decorators.http import require_safe

_View = TypeVar("_View", bound=Callable[..., Any])

__all__ = [
    "HEIGHT",
    "WIDTH",
    "LinkPreview",
    "canonical",
    "png_response",
    "preview_svg",
    "render_png",
]

WIDTH, HEIGHT = 1200, 630  # what OpenGraph and Twitter's large card both show uncropped
MAX_AGE = 3600  # a preview changes only with the content: an hour in any cache

#: DejaVu Sans covers Latin and Cyrillic (Debian's fonts-dejavu-core, which
#: scripts/ensure-fonts.sh installs); without the files, whatever fonts the system has.
FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
)


@dataclass(frozen=True, slots=True)
class LinkPreview:
    """A page's preview: ``image`` is the PNG's path (made absolute in the template)."""

    title: str
    description: str
    image: str
    image_alt: str
    kind: str = "website"  # og:type
    oembed: bool = False  # card and slab pages: discoverable by /api/oembed


def canonical(*params: str) -> Callable[[_View], _View]:
    """Name the query parameters that belong in a view's canonical address (none by
    default: a what-if's canonical address is its card's). Without this decorator a view's
    canonical address keeps the parameters its page cache keys on (``cached_page``)."""

    def decorator(view: _View) -> _View:
        setattr(view, "canonical_params", tuple(params))  # noqa: B010 (a function attribute)
        return view

    return decorator


def _lines(text: str, width: int, most: int) -> list[str]:
    lines = textwrap.wrap(" ".join(text.split()), width=width) or [""]
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: width - 1].rstrip(" ,;:—-") + "…"
    return lines


def _tspans(lines: list[str], x: int, first_dy: int, dy: int) -> str:
    return "".join(
        f'<tspan x="{x}" dy="{first_dy if i == 0 else dy}">{escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )


_SVG_OPEN = re.compile(r"<svg\b", re.I)
_SVG_TAG = re.compile(r"<svg\b[^>]*>", re.I)
_SIZE_ATTRIBUTES = re.compile(r"""\s(?:x|y|width|height)\s*=\s*(?:"[^"]*"|'[^']*')""")


def preview_svg(
    picture: str,
    title: str,
    subtitle: str,
    description: str,
    *,
    accent: str = "#b86e00",
    site: str = "Card Codex",
    picture_ratio: float = 0.75,
) -> str:
    """A 1200×630 SVG: ``picture`` (an SVG document, drawn as it is) on the left, the
    title, a subtitle in ``accent`` and the description on the right.

    ``picture_ratio`` is the picture's width over its height (a card is 240×320)."""
    height = 540
    width = round(height * picture_ratio)
    x, y = 60, (HEIGHT - height) // 2
    inner = re.sub(r"<\?xml[^>]*\?>", "", picture)
    opening = _SVG_TAG.search(inner)
    if opening is not None:  # its own size and place give way to the preview's
        tag = _SIZE_ATTRIBUTES.sub("", opening.group(0))
        tag = _SVG_OPEN.sub(f'<svg x="{x}" y="{y}" width="{width}" height="{height}"', tag, 1)
        inner = inner[: opening.start()] + tag + inner[opening.end() :]
    left = x + width + 60
    chars = max(12, (WIDTH - left - 50) // 17)  # ≈ 17 px a character at 30 px
    title_lines = _lines(title, max(8, chars * 30 // 56), 2)
    sub_lines = _lines(subtitle, chars * 30 // 36, 2)
    desc_lines = _lines(description, chars, 5)
    title_svg = _tspans(title_lines, left, 0, 64)
    sub_top = 165 + 64 * len(title_lines)
    desc_top = sub_top + 46 * len(sub_lines) + 20
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}">'
        # A plain background: a gradient over the whole picture costs 40% of the render
        # and a third more bytes (it compresses badly).
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#f6f0e4"/>'
        f'<rect x="0" y="{HEIGHT - 14}" width="{WIDTH}" height="14" fill="{escape(accent)}"/>'
        f"{inner}"
        f'<text x="{left}" y="80" font-size="28" font-weight="700" fill="#6b6259">'
        f"{escape(site)}</text>"
        f'<text x="{left}" y="165" font-size="56" font-weight="700" fill="#1d1b22">'
        f"{title_svg}</text>"
        f'<text x="{left}" y="{sub_top}" font-size="36" font-weight="700" '
        f'fill="{escape(accent)}">{_tspans(sub_lines, left, 0, 46)}</text>'
        f'<text x="{left}" y="{desc_top}" font-size="30" fill="#3a352f">'
        f"{_tspans(desc_lines, left, 30, 42)}</text>"
        "</svg>"
    )


@cache
def _fonts() -> tuple[list[str], bool]:
    files = [path for path in FONT_FILES if Path(path).is_file()]
    return files, bool(files)  # skip the system's fonts when ours are there (faster)


def render_png(svg: str) -> bytes:
    """The SVG as PNG bytes at its own size (``preview_svg``'s: 1200×630)."""
    import resvg_py

    files, own_fonts = _fonts()
    return resvg_py.svg_to_bytes(
        svg_string=svg,
        font_files=files or None,
        skip_system_fonts=own_fonts,
        font_family="DejaVu Sans" if own_fonts else None,
        sans_serif_family="DejaVu Sans" if own_fonts else None,
    )


def png_response(
    request: HttpRequest, key: str, changed: dt.datetime | None, draw: Callable[[], str]
) -> HttpResponse:
    """A PNG drawn by ``draw()`` (it returns the SVG) for the content ``key`` names (the
    thing, its content version and the language), with an ETag from ``key`` and a
    Last-Modified of ``changed``; a matching conditional request is a 304 before drawing,
    and the PNG is kept in the cache under ``key``."""
    from django.core.cache import cache as shared

    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    etag = f'"{digest}"'
    last_modified = changed.timestamp() if changed else None
    headers = {
        "ETag": etag,
        "Cache-Control": f"public, max-age={MAX_AGE}",
    }
    if changed is not None:
        headers["Last-Modified"] = http_date(last_modified)
    unchanged = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if unchanged is None:
        cache_key = f"preview-png:{digest}"
        body = shared.get(cache_key)
        if body is None:
            body = render_png(draw())
            if len(body) <= settings.PAGE_CACHE_MAX_BYTES:
                shared.set(cache_key, body, MAX_AGE)
        response = HttpResponse(body, content_type="image/png")
    else:
        response = unchanged
    for name, value in headers.items():
        response[name] = value
    return response


def site_preview_svg() -> str:
    """The site's own preview (wiki, pool, opening and replay pages): its emblem and name."""
    from django.contrib.staticfiles import finders
    from django.utils.translation import gettext as _

    found = finders.find("img/favicon.svg")
    emblem = Path(found).read_text(encoding="utf-8") if found else "<svg/>"
    return preview_svg(
        emblem,
        _("Card Codex"),
        _("Rules wiki and card explorer"),
        _(
            "Why each card has its rarity, step by step; matches against a bot, booster "
            "packs and the slab arena."
        ),
        accent="#5b3fd1",  # the emblem's
        picture_ratio=1.0,
        site="",
    )


@require_safe
def site_preview_png(request: HttpRequest) -> HttpResponse:
    """The site's preview as a PNG, in the address's language."""
    from django.utils.translation import get_language

    key = f"site-preview:{get_language()}:{settings.STATIC_URL}"
    return png_response(request, key, None, site_preview_svg)
