"""Local development: `make run`."""

from .base import *  # noqa: F403

DEBUG = True
# Templates change under the running server: render every page afresh.
PAGE_CACHE_SECONDS = 0
