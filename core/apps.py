from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Site-wide pieces: home page, health check, layout helpers, set-up commands."""

    name = "core"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the start-up checks)
