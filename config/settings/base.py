"""Settings shared by every environment. Environment files override only what differs."""

import os
from pathlib import Path

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = "django-insecure-dev-only-key-change-me"  # overridden in prod from the environment
DEBUG = False
ALLOWED_HOSTS: list[str] = ["127.0.0.1", "localhost", "[::1]"]

INSTALLED_APPS = [
    # modeltranslation must come before the admin so its admin integration wins.
    "modeltranslation",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "csp",
    "core",
    "cards",
    "wiki",
    "explorer",
    "play",
    "packs",
    "arena",
    "codex_site",  # the top floor: home, header search, the API's index and docs
    "sharing",  # the top floor too: sitemaps, robots.txt, oEmbed
    "django_tasks",  # long jobs off the request path (core.jobs)
    "django_tasks_db",  # their database backend: `manage.py db_worker` on any host
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "core.http_cache.SharedCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "core.middleware.RejectNulBytesMiddleware",
    "core.middleware.DatabaseBusyMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.language_alternates",
                "core.cache.csrf_placeholder",
            ],
        },
    },
]

# SQLite by default: WAL so readers never block the writer, IMMEDIATE transactions so
# concurrent writers queue on the busy timeout instead of failing with "database is locked".
# Reads go through a memory map of the file (256 MiB of address space, shared with the OS's
# page cache) rather than a copy into each connection's cache: a search at 100,000 cards
# reads pages all over a 100 MB file (API search there: 4.5 -> 4.0 ms, docs/PERFORMANCE.md).
# Every settings module that picks another database goes through `database()`, which keeps
# these options whenever the engine is SQLite (a DATABASE_URL of sqlite:///… included).
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": (
        "PRAGMA journal_mode=WAL;"
        "PRAGMA synchronous=NORMAL;"
        "PRAGMA foreign_keys=ON;"
        "PRAGMA cache_size=-20000;"
        "PRAGMA mmap_size=268435456;"
    ),
}


def database(url: str | None = None, *, conn_max_age: int = 0, **entry: object) -> dict:
    """A DATABASES entry: parsed from ``url`` (dj-database-url) or given as ``entry``;
    SQLite always gets ``SQLITE_OPTIONS`` (options the entry sets itself win)."""
    if url:
        import dj_database_url

        entry = {**dj_database_url.parse(url, conn_max_age=conn_max_age), **entry}
    if entry.get("ENGINE") == "django.db.backends.sqlite3":
        entry["OPTIONS"] = {**SQLITE_OPTIONS, **dict(entry.get("OPTIONS") or {})}
    elif "postgresql" in str(entry.get("ENGINE", "")):
        # A server that does not answer fails the connection (a 503 page, /healthz's 503)
        # within seconds instead of hanging the worker. No JIT: at a million cards the
        # planner's costs pass its threshold, and compiling (≈ 30 ms) costs more than the
        # page's whole query.
        entry["OPTIONS"] = {
            "connect_timeout": 5,
            "options": "-c jit=off",
            **dict(entry.get("OPTIONS") or {}),
        }
    return entry


DATABASES = {"default": database(ENGINE="django.db.backends.sqlite3", NAME=BASE_DIR / "db.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Internationalisation: English first (the fallback), Russian second.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_FALLBACK_LANGUAGES = ("en",)

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [
    BASE_DIR / "static",
    # htmx comes from the pinned npm package, never from a CDN or a committed copy.
    ("vendor/htmx", BASE_DIR / "node_modules" / "htmx.org" / "dist"),
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

LOGIN_URL = "admin:login"
LOGIN_REDIRECT_URL = "admin:index"  # where a login with no (or an unsafe) `next` lands

# Content Security Policy: nothing inline, nothing third-party.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

# Whole pages that are the same for every visitor (core.cache): seconds an entry may live
# (0: off; the bench's cold server sets DJANGO_PAGE_CACHE_SECONDS=0 to measure first views).
PAGE_CACHE_SECONDS = int(os.environ.get("DJANGO_PAGE_CACHE_SECONDS", "600"))
# A rendered page larger than this is served but not kept.
PAGE_CACHE_MAX_BYTES = 512 * 1024
# The shared HTTP cache in front (Varnish, a CDN; core.http_cache, docs/varnish/): seconds a
# browser (max-age) and a shared cache (s-maxage: purged on every write) keep a shared page,
# and the addresses a write sends its BAN to (comma-separated; empty: no purge is sent).
HTTP_CACHE_MAX_AGE = int(os.environ.get("DJANGO_HTTP_CACHE_MAX_AGE", "60"))
HTTP_CACHE_S_MAXAGE = int(os.environ.get("DJANGO_HTTP_CACHE_S_MAXAGE", "86400"))
HTTP_CACHE_PURGE_URLS = [
    u.strip() for u in os.environ.get("DJANGO_HTTP_CACHE_PURGE_URL", "").split(",") if u.strip()
]
HTTP_CACHE_PURGE_TIMEOUT = 2.0
# Scheme and host of the site's absolute links (hreflang alternates): "https://cards.example".
# Empty (development, tests): taken from each request, and the page cache keys on it.
SITE_ORIGIN = ""

# Reverse proxies whose X-Forwarded-For names the client (core.limits.client_address):
# addresses or networks, comma-separated (DJANGO_TRUSTED_PROXIES="10.0.0.1,192.168.0.0/24").
# Empty: the header is ignored and REMOTE_ADDR is the client.
TRUSTED_PROXIES = [
    p.strip() for p in os.environ.get("DJANGO_TRUSTED_PROXIES", "").split(",") if p.strip()
]

# The cache: rendered pages (core.cache), wiki HTML, what-if options, content-version reads.
# Entries are keyed by content versions (stored in the database), so every process sees an
# edit. By default each process keeps its own memory cache; set DJANGO_CACHE_URL
# (redis://host:6379/0) to share one Redis between gunicorn workers on several hosts.
CACHE_URL = os.environ.get("DJANGO_CACHE_URL", "")


# A Redis that is stopped, frozen or full costs speed, never an error page: each socket waits
# at most this long (seconds) to connect or for an answer, and a failed call is a cache miss
# (core.cache_backends). Give the server a maxmemory with an allkeys-lru policy (docs).
CACHE_SOCKET_TIMEOUT = float(os.environ.get("DJANGO_CACHE_TIMEOUT", "0.05"))


def cache_from_url(url: str) -> dict:
    """A CACHES entry: Redis for ``redis://``/``rediss://``/``unix://``, else per-process memory."""
    if url.startswith(("redis://", "rediss://", "unix://")):
        return {
            "BACKEND": "core.cache_backends.FailSoftRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": "card-codex",
            "OPTIONS": {
                "socket_connect_timeout": CACHE_SOCKET_TIMEOUT,
                "socket_timeout": CACHE_SOCKET_TIMEOUT,
            },
        }
    if url:
        raise ImproperlyConfigured(f"DJANGO_CACHE_URL: unsupported scheme in {url!r}")
    return {  # per-process memory, bounded in entries and in bytes (a Redis: by its maxmemory)
        "BACKEND": "core.cache.BoundedLocMemCache",
        "LOCATION": "card-codex",
        "OPTIONS": {"MAX_ENTRIES": 1000, "MAX_BYTES": 64 * 1024 * 1024},
    }


CACHES = {
    "default": cache_from_url(CACHE_URL),
    # Template fragments ({% cache … using="fragments" %}): always this process's memory
    # (rendering the header costs less than a Redis round trip). A fragment that reads
    # content names its content versions among its arguments; what is kept where, and
    # until when, is core/memo.py's docstring (and docs/caching.md).
    "fragments": {
        "BACKEND": "core.cache.BoundedLocMemCache",
        "LOCATION": "card-codex-fragments",
        "KEY_FUNCTION": "core.memo.fragment_key",
        "OPTIONS": {"MAX_ENTRIES": 2000, "MAX_BYTES": 16 * 1024 * 1024},
    },
}

# Long jobs (core.jobs): queued in the database, run by `manage.py db_worker` workers.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# Their progress: Redis when the site has one (every host's admin sees every worker's),
# else a file cache that the server and the worker of one host share.
CACHES["jobs"] = (
    cache_from_url(CACHE_URL)
    if CACHE_URL
    else {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": BASE_DIR / "var" / "jobs",
    }
)

# The whole collection as one JSON file (/api/bulk/cards.json), rewritten when it changes.
# Every worker must see the same directory (DJANGO_BULK_DATA_DIR in production).
BULK_DATA_DIR = os.environ.get("DJANGO_BULK_DATA_DIR") or BASE_DIR / "var" / "bulk"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

CSRF_FAILURE_VIEW = "codex_site.views.csrf_failure"
