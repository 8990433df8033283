"""Benchmarks and load tests (`make bench`, `make load`): production-like, on loopback HTTP.

Like prod (DEBUG off, cached templates, WhiteNoise's manifest storage, persistent
connections) but without the HTTPS-only parts, since gunicorn serves plain HTTP on
127.0.0.1 here, and with the database chosen by the bench script: BENCH_SQLITE_PATH (a copy
of the demo database) or DATABASE_URL.
"""

import os

from .base import *  # noqa: F403
from .base import DATABASES, LOGGING, database

DEBUG = False
SECRET_KEY = "bench-only-secret-key-never-used-in-production-0123456789abcdef"
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": database(os.environ["DATABASE_URL"], conn_max_age=60)}
else:  # persistent like prod's (config/settings/prod.py says why)
    DATABASES = {"default": {**DATABASES["default"], "CONN_MAX_AGE": 60}}
    if os.environ.get("BENCH_SQLITE_PATH"):
        DATABASES["default"]["NAME"] = os.environ["BENCH_SQLITE_PATH"]

# Errors go to stderr, which the bench and load scripts capture and scan.
LOGGING = {
    **LOGGING,
    "loggers": {"django": {"handlers": ["console"], "level": "ERROR", "propagate": False}},
}
