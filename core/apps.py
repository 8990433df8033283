from django.apps import AppConfig


class CoreConfig(AppConfig):
    """The shared floor: labels, narration registry, the API kit, the cache, helpers."""

    name = "core"

    def ready(self) -> None:
        from .api import autodiscover

        autodiscover()  # every app's api_docs.py registers its endpoints (core.api)

        from .lookups import register

        register()  # ``in`` on an integer column ignores numbers it cannot hold

        from . import checks  # noqa: F401  (registers the start-up checks)
        from .jobs_admin import register as register_jobs_admin

        register_jobs_admin()  # task results with their progress (core.jobs)
