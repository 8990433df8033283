"""How the site is found and shared: /sitemap.xml (an index of every app's sections),
/robots.txt and /api/oembed. Each answer is the same for every visitor and cached per
content version (``sharing.sitemaps.DEPENDS_ON``)."""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from urllib.parse import urlsplit
from xml.sax.saxutils import escape

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.html import format_html
from django.utils.translation import get_language_from_path, override
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from arena import selectors as arena_selectors
from arena.previews import slab_preview
from cards.forms import MAX_TOKEN
from cards.models import Card
from core import versions
from core.api import api_view, error_response, json_response
from core.context_processors import site_origin
from core.previews import HEIGHT, WIDTH
from explorer.previews import card_preview
from explorer.selectors import one_card_spec

from .sitemaps import DEPENDS_ON, sitemaps

MAX_AGE = 3600


@dataclass(frozen=True)
class _Site:
    """What Django's sitemaps want of a site: its domain (from the configured origin)."""

    domain: str
    name: str = ""


def _origin_parts(request: HttpRequest) -> tuple[str, str]:
    origin = urlsplit(site_origin(request))
    return origin.scheme or "https", origin.netloc


def _cached(content_type: str) -> Callable:
    """Keep a view's 200 body per address, origin and content version, gzipped (a sitemap
    file of 50,000 URLs is 16 MB of XML and 0.5 MB compressed); an ETag from that key
    answers a conditional request with a 304, and a client that takes gzip gets it so."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            raw = "\n".join(
                [request.get_full_path(), site_origin(request), versions.current(*DEPENDS_ON)]
            )
            digest = hashlib.sha256(raw.encode()).hexdigest()[:32]
            etag = f'"{digest}"'
            response = get_conditional_response(request, etag=etag)
            if response is None:
                key = f"sharing:{digest}"
                packed = cache.get(key)
                if packed is None:
                    response = view(request, *args, **kwargs)
                    if response.status_code != 200:
                        return response
                    packed = gzip.compress(response.content, compresslevel=6, mtime=0)
                    cache.set(key, packed, settings.PAGE_CACHE_SECONDS or None)
                if "gzip" in request.headers.get("Accept-Encoding", ""):
                    response = HttpResponse(packed, content_type=content_type)
                    response["Content-Encoding"] = "gzip"
                else:
                    response = HttpResponse(gzip.decompress(packed), content_type=content_type)
            response["ETag"] = etag
            response["Cache-Control"] = f"public, max-age={MAX_AGE}"
            patch_vary_headers(response, ("Accept-Encoding",))
            return response

        return wrapper

    return decorator


XML = "application/xml; charset=utf-8"


@require_safe
@_cached(XML)
def sitemap_index(request: HttpRequest) -> HttpResponse:
    """One entry per section and page of a section (each ≤ 50,000 URLs); a section is
    counted (an indexed count per card range), never read."""
    scheme, domain = _origin_parts(request)
    entries = []
    for section, site in sitemaps().items():
        url = f"{scheme}://{domain}" + reverse("sharing:sitemap-section", args=[section])
        paginator = site.paginator
        if paginator.count == 0:  # a token range with no card left: no file
            continue
        last = site.get_latest_lastmod()
        pages = paginator.num_pages
        for page in range(1, pages + 1):
            entries.append((url if page == 1 else f"{url}?p={page}", last))
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<sitemapindex xmlns="{SITEMAP_NS}">']
    for location, last in entries:
        lastmod = f"<lastmod>{_w3c(last)}</lastmod>" if last else ""
        lines.append(f"<sitemap><loc>{escape(location)}</loc>{lastmod}</sitemap>")
    lines.append("</sitemapindex>\n")
    return HttpResponse("\n".join(lines), content_type=XML)


@require_safe
@_cached(XML)
def sitemap_section(request: HttpRequest, section: str) -> HttpResponse:
    """One section's URLs (``?p=N`` for its later pages), each with its alternates."""
    site = sitemaps().get(section)
    if site is None:
        raise Http404(_("There is no such sitemap."))
    scheme, domain = _origin_parts(request)
    try:
        page = int(request.GET.get("p", "1"))
        urls = site.get_urls(page=page, site=_Site(domain), protocol=scheme)
    except (ValueError, EmptyPage, PageNotAnInteger):
        raise Http404(_("There is no such sitemap page.")) from None
    return HttpResponse(_urlset(urls), content_type=XML)


SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def _w3c(when: dt.datetime | dt.date) -> str:
    """A W3C date-time (sitemaps.org's lastmod): to the second, with its time zone."""
    if isinstance(when, dt.datetime):
        return when.isoformat(timespec="seconds")
    return when.isoformat()


def _urlset(urls: list[dict]) -> str:
    """Django's sitemap.xml, written directly: its template takes seconds for 50,000 URLs."""
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="{SITEMAP_NS}" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n'
    ]
    for url in urls:
        parts.append(f"<url><loc>{escape(url['location'])}</loc>")
        if url["lastmod"]:
            parts.append(f"<lastmod>{_w3c(url['lastmod'])}</lastmod>")
        for alternate in url["alternates"]:
            parts.append(
                f'<xhtml:link rel="alternate" hreflang="{alternate["lang_code"]}" '
                f'href="{escape(alternate["location"])}"/>'
            )
        parts.append("</url>\n")
    parts.append("</urlset>\n")
    return "".join(parts)


#: What crawlers skip (and what pages say ``noindex`` about themselves): a card's what-if
#: and every other card address with a query (searches, compare), "what would lift it"
#: pages, the site and wiki searches, one visitor's matches and pack openings, the admin
#: and the bulk download. Link-preview fetchers (chats, forums) may read every page, so a
#: shared match replay or pack opening still unfolds.
DISALLOWED = (
    "/*/admin/",
    "/api/bulk/",
    "/*/cards/*?",
    "/*/cards/*/paths/",
    "/*/cards/random/",
    "/*/search/",
    "/*/wiki/search/",
    "/*/wiki/*/diff/",
    "/*/play/m/",
    "/*/arena/m/",
    "/*/arena/team/",
    "/*/packs/openings/",
    "/*/packs/binder/",
)
PREVIEW_AGENTS = (
    "Twitterbot",
    "facebookexternalhit",
    "Slackbot-LinkExpanding",
    "Discordbot",
    "TelegramBot",
    "LinkedInBot",
)


@require_safe
@_cached("text/plain; charset=utf-8")
def robots_txt(request: HttpRequest) -> HttpResponse:
    scheme, domain = _origin_parts(request)
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in DISALLOWED), ""]
    lines += [f"User-agent: {agent}" for agent in PREVIEW_AGENTS]
    lines += ["Disallow: /*/admin/", "Disallow: /api/bulk/", ""]
    lines.append(f"Sitemap: {scheme}://{domain}{reverse('sharing:sitemap-index')}")
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")


# ---------------------------------------------------------------------------
# oEmbed (https://oembed.com): a card or a slab, as a picture with a link

MAX_URL = 2000


def _bad(code: str, details: str, status: int = 400) -> HttpResponse:
    return error_response(status, code, details)


def _size(request: HttpRequest, name: str, default: int) -> int:
    raw = request.GET.get(name, "")
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()) or not 0 < int(raw) <= 10_000:  # "٣" is no size
        raise ValueError(name)
    return min(default, int(raw))


@api_view(key="oembed")  # GET and HEAD (else a JSON 405), conditional on the body's ETag
def oembed(request: HttpRequest) -> HttpResponse:
    """``?url=<a card or slab page>&format=json[&maxwidth=&maxheight=]``: the page's
    preview picture linked to the page (type "rich", no iframe, no script)."""
    fmt = request.GET.get("format", "").strip() or "json"
    if fmt == "xml":  # a format oEmbed defines, which we do not offer: its 501
        return _bad(
            "format_not_implemented",
            _("Only format=json is offered, not %(format)s.") % {"format": fmt},
            501,
        )
    if fmt != "json":  # no format at all: a plain bad request
        return _bad("bad_format", _("The format must be json."))
    try:
        width = _size(request, "maxwidth", WIDTH // 2)
        height = _size(request, "maxheight", HEIGHT // 2)
    except ValueError as error:
        return _bad("bad_size", _("%(name)s must be a whole number of pixels.") % {"name": error})
    width, height = min(width, height * WIDTH // HEIGHT), min(height, width * HEIGHT // WIDTH)
    url = request.GET.get("url", "").strip()
    if not url:
        return _bad("missing_url", _("Give the address of a card or slab page as ?url=…"))
    if len(url) > MAX_URL:
        return _bad("malformed_url", _("That address is too long."))
    try:
        parts = urlsplit(url)
        port = parts.port  # raises on a bad port
    except ValueError:
        return _bad("malformed_url", _("That is not a web address."))
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return _bad("malformed_url", _("That is not a web address."))
    scheme, domain = _origin_parts(request)
    host = parts.hostname + (f":{port}" if port else "")
    if host.lower() != domain.lower():
        return _bad("foreign_url", _("That address is not on this site."), 404)
    lang = get_language_from_path(parts.path) or settings.LANGUAGE_CODE
    with override(lang):
        try:  # the language prefix matches only while its language is active
            match = resolve(parts.path)
        except Resolver404:
            match = None
        preview = _preview_of(match)
        if preview is None:
            return _bad("not_found", _("There is no card or slab page at that address."), 404)
        page = f"{scheme}://{domain}{parts.path}"
        image = f"{scheme}://{domain}{preview.image}"
        html = format_html(
            '<a href="{}"><img src="{}" width="{}" height="{}" alt="{}"></a>',
            page,
            image,
            width,
            height,
            preview.image_alt,
        )
        body = {
            "version": "1.0",
            "type": "rich",
            "title": preview.title,
            "description": preview.description,
            "provider_name": _("Card Codex"),
            "provider_url": f"{scheme}://{domain}/",
            "url": page,
            "html": str(html),
            "width": width,
            "height": height,
            "thumbnail_url": image,
            "thumbnail_width": WIDTH,
            "thumbnail_height": HEIGHT,
            "cache_age": MAX_AGE,
        }
    response = json_response(body)
    response["Cache-Control"] = f"public, max-age={MAX_AGE}"
    return response


def _preview_of(match):
    if match is None:
        return None
    if match.view_name == "explorer:card-detail":
        token = match.kwargs["token"]
        if token > MAX_TOKEN:
            return None
        try:
            return card_preview(one_card_spec(token))
        except Card.DoesNotExist:
            return None
    if match.view_name == "arena:slab-detail":
        asset_id = match.kwargs["asset_id"]
        if len(asset_id) > 100:
            return None
        found = arena_selectors.slab_day(asset_id, arena_selectors.match_day())
        return slab_preview(found) if found is not None else None
    return None
