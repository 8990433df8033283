"""Local development: `make run`."""

from .base import *  # noqa: F403

DEBUG = True
# Templates change under the running server: render every page afresh.
PAGE_CACHE_SECONDS = 0
CACHES = {**CACHES, "fragments": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}  # noqa: F405
