from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Site-wide pieces: home page, health check, layout helpers, set-up commands."""

    name = "core"

    def ready(self) -> None:
        from .lookups import register

        register()  # ``in`` on an integer column ignores numbers it cannot hold
