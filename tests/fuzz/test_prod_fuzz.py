"""The HTTP fuzz again under the production settings: DEBUG off, WhiteNoise's manifest
storage, HTTPS only, the database from DATABASE_URL (a SQLite file, with its options; on the
PostgreSQL pass a PostgreSQL database). Every fuzzed request must still be answered below 500.

Runs tests/fuzz/test_http_fuzz.py in a child pytest with ``--ds=config.settings.prod`` and
FUZZ_PROFILE=prod (fewer examples, every request over HTTPS).
"""

from __future__ import annotations

import os
import subprocess
import sys
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings

ROOT = settings.BASE_DIR


def _database_url(tmp_path) -> str:
    """A SQLite file; on the PostgreSQL pass, a database of its own on the same server."""
    outer = os.environ.get("DATABASE_URL", "")
    if outer.startswith(("postgres://", "postgresql://")):
        return urlunsplit(urlsplit(outer)._replace(path="/codex_prodfuzz"))
    return f"sqlite:///{tmp_path / 'prod-fuzz.sqlite3'}"


def test_the_fuzz_finds_no_server_error_under_production_settings(tmp_path):
    if not (ROOT / "staticfiles" / "staticfiles.json").exists():
        pytest.fail("No staticfiles manifest: run `make install` (collectstatic) first.")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "DJANGO_SECRET_KEY": "prod-fuzz-" + "k" * 50,
        "DJANGO_ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": _database_url(tmp_path),
        "FUZZ_PROFILE": "prod",
        "DJANGO_BULK_DATA_DIR": str(tmp_path / "bulk"),  # not the development site's
    }
    env.pop("DJANGO_SITE_ORIGIN", None)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/fuzz/test_http_fuzz.py",
            "--ds=config.settings.prod",
            "-p",
            "no:cacheprovider",
            "-q",
            "-x",
            "--create-db",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    tail = "\n".join((done.stdout + done.stderr).splitlines()[-40:])
    assert done.returncode == 0, tail
    assert " passed" in done.stdout and "failed" not in done.stdout, tail
