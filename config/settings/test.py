"""The test suite: `make test`.

SQLite by default; when DATABASE_URL is set (CI's PostgreSQL pass, see
scripts/ci-postgres.sh) the same suite runs against that server instead.
"""

import os

from .base import *  # noqa: F403
from .base import BASE_DIR, database

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Tests render pages without running collectstatic first.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": database(os.environ["DATABASE_URL"])}
else:
    DATABASES = {
        "default": database(
            ENGINE="django.db.backends.sqlite3",
            NAME=BASE_DIR / "test.sqlite3",
            TEST={"NAME": None},
        )
    }

# Bulk files of the test databases apart from the development one, and apart from each
# other when pytest-xdist runs the suite in several processes (each has its own database).
BULK_DATA_DIR = BASE_DIR / "var" / f"test-bulk-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"

# Tasks run at once, in the test's process and transaction (one test starts a real worker).
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
CACHES = {
    **CACHES,  # noqa: F405
    "jobs": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "jobs"},
}
