from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, QueryDict
from django.urls import NoReverseMatch, get_script_prefix, reverse, translate_url
from django.utils.translation import get_language, override


def site_origin(request: HttpRequest) -> str:
    """Scheme and host for absolute links: ``settings.SITE_ORIGIN`` (production), else the
    request's own (development and tests; the page cache then keys on it)."""
    if settings.SITE_ORIGIN:
        return settings.SITE_ORIGIN
    try:
        return request.build_absolute_uri("/")[:-1]
    except DisallowedHost:  # the 400 page for a bad Host header still renders
        return ""


def language_alternates(request: HttpRequest) -> dict[str, object]:
    """The current page in every language, and which main section it belongs to.

    Each alternate keeps the visitor's path and query string, so switching language
    never loses their place; the same URLs feed the hreflang links.
    """
    path = request.get_full_path()
    origin = site_origin(request)
    alternates = []
    for code, name in settings.LANGUAGES:
        url = _translated(request, path, code)
        alternates.append({"code": code, "name": name, "url": url, "absolute": origin + url})
    match = request.resolver_match
    section = ""
    if match is not None:
        section = {"wiki": "wiki", "explorer": "cards", "play": "play"}.get(match.app_name, "")
    return {
        "language_alternates": alternates,
        "nav_section": section,
        "site_origin": origin,
        "canonical_url": origin + canonical_path(request),
        "og_locale": OG_LOCALES.get(get_language() or "", "en_US"),
    }


OG_LOCALES = {"en": "en_US", "ru": "ru_RU"}


def canonical_path(request: HttpRequest) -> str:
    """The page's own address: its path and the parameters that make it another page.

    Those are the view's ``core.previews.canonical(...)`` names, else the ones its page
    cache keys on (``cached_page(params=…)``), else none; empty values and ``page=1`` go
    (the first page of a search is the search itself). A what-if's canonical address is
    its card's, since the card page names no parameter.
    """
    match = request.resolver_match
    view = match.func if match is not None else None
    params: tuple[str, ...] = ()
    while view is not None:
        if hasattr(view, "canonical_params"):
            params = view.canonical_params
            break
        if hasattr(view, "page_params"):
            params = view.page_params
            break
        view = getattr(view, "__wrapped__", None)
    kept = QueryDict(mutable=True)
    for name in params:
        values = [v for v in request.GET.getlist(name) if v.strip()]
        if name == "page" and values in (["1"], []):
            continue
        if values:
            kept.setlist(name, values)
    query = kept.urlencode()
    return f"{request.path}?{query}" if query else request.path


def _translated(request: HttpRequest, path: str, code: str) -> str:
    """``translate_url(path, code)`` from the match the request already has (it would
    resolve the path again, once per language, on every page).

    Under ``i18n_patterns`` — an address that starts with the active language's prefix —
    the routes are the same words in every language (no route is translated: a test in
    tests/core/test_site.py keeps it so), so the page in ``code`` is the same address under
    that language's prefix, without reversing it.
    """
    match = request.resolver_match
    if match is None or not match.url_name:
        return translate_url(path, code)
    script = get_script_prefix()
    prefix = f"{script}{get_language()}/"
    if path.startswith(prefix):
        return f"{script}{code}/{path[len(prefix) :]}"
    name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name
    with override(code):
        try:
            url = reverse(name, args=match.args, kwargs=match.kwargs)
        except NoReverseMatch:
            return path
    _path, mark, query = path.partition("?")
    return f"{url}{mark}{query}"
