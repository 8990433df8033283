"""Local development: `make run`."""

from .base import *  # noqa: F403

DEBUG = True
