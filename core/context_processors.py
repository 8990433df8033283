from django.conf import settings
from django.http import HttpRequest
from django.urls import translate_url


def language_alternates(request: HttpRequest) -> dict[str, object]:
    """The current page in every language, and which main section it belongs to.

    Each alternate keeps the visitor's path and query string, so switching language
    never loses their place; the same URLs feed the hreflang links.
    """
    path = request.get_full_path()
    alternates = [
        {"code": code, "name": name, "url": translate_url(path, code)}
        for code, name in settings.LANGUAGES
    ]
    match = request.resolver_match
    section = ""
    if match is not None:
        section = {"wiki": "wiki", "explorer": "cards", "play": "play"}.get(match.app_name, "")
    return {"language_alternates": alternates, "nav_section": section}
