"""The API under /api/: every app's endpoints, found the way the admin finds ``admin.py``
(``<app>/api_urls.py``, under ``api/`` and the module's ``PREFIX``), then the API's index
and its catch-all, so every path no app answers is a JSON 404 like every API error.

``config/urls.py`` splices in ``api_patterns()``; an app adding endpoints edits nothing
outside itself.
"""

from importlib import import_module

from django.apps import apps
from django.urls import URLPattern, URLResolver, include, path

from . import views

app_name = "api-site"
urlpatterns = [
    path("", views.api_index, name="index"),
    path("<path:rest>", views.api_not_found, name="not-found"),
]


def api_patterns() -> list[URLPattern | URLResolver]:
    """Each installed app's ``api_urls`` under ``api/`` + its ``PREFIX`` (in the apps'
    order), and this module last: the index and the catch-all."""
    found: list[URLPattern | URLResolver] = []
    for config in apps.get_app_configs():
        name = f"{config.name}.api_urls"
        if config.name == "codex_site":
            continue
        try:
            module = import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue
        found.append(path("api/" + getattr(module, "PREFIX", ""), include(module)))
    found.append(path("api/", include(__name__)))
    return found
