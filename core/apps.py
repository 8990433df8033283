from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Site-wide pieces: home page, health check, layout helpers, set-up commands."""

    name = "core"
