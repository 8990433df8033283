"""Engine tests are pure Python: they run without Django (``-p no:django``).

The project-wide autouse fixture in ``tests/conftest.py`` needs pytest-django's
``settings``; this same-named fixture replaces it for everything under
``tests/engine/`` so the engine suite needs no Django settings at all.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _english_by_default() -> None:
    """No-op: the engine has no language or settings."""


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """No-op: the engine caches nothing in Django's cache."""
