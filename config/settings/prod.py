"""Production: every secret and the database come from the environment."""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DATABASES, database


def _env(name: str) -> str:
    try:
        return os.environ[name]
    except KeyError:
        raise ImproperlyConfigured(f"Set the {name} environment variable.") from None


DEBUG = False
SECRET_KEY = _env("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = [h.strip() for h in _env("DJANGO_ALLOWED_HOSTS").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [f"https://{h}" for h in ALLOWED_HOSTS]


def _origin(allowed_hosts: list[str]) -> str:
    """Absolute links never take the visitor's Host header: DJANGO_SITE_ORIGIN
    ("https://cards.example.org"), else https:// and the first allowed host."""
    origin = os.environ.get("DJANGO_SITE_ORIGIN", "").strip().rstrip("/")
    if not origin:
        first = allowed_hosts[0] if allowed_hosts else ""
        if not first or first.startswith(".") or "*" in first:
            raise ImproperlyConfigured(
                "Set DJANGO_SITE_ORIGIN (https://host): the first allowed host is a pattern."
            )
        origin = f"https://{first}"
    scheme, _, host = origin.partition("://")
    if scheme not in ("http", "https") or not host or "/" in host:
        raise ImproperlyConfigured(f"DJANGO_SITE_ORIGIN must be scheme://host, not {origin!r}.")
    return origin


SITE_ORIGIN = _origin(ALLOWED_HOSTS)

# Connections persist for a minute, SQLite's as well as PostgreSQL's: opening a SQLite
# connection costs about 1 ms of CPU (it reads the schema and sets WAL), three times a whole
# /healthz answer, and would be paid by every request that reads the database.
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": database(os.environ["DATABASE_URL"], conn_max_age=60)}
else:
    DATABASES = {"default": {**DATABASES["default"], "CONN_MAX_AGE": 60}}

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = True
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = True
CSRF_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SECURE = True
LANGUAGE_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
