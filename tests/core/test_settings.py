"""Every settings module keeps SQLite's options whenever the database is SQLite."""

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

ROOT = settings.BASE_DIR

PROBE = (
    "import json, django; django.setup(); from django.db import connections;"
    "c = connections['default']; print(json.dumps({'engine': c.settings_dict['ENGINE'],"
    " 'options': c.settings_dict['OPTIONS'], 'max_age': c.settings_dict['CONN_MAX_AGE'],"
    " 'journal': (c.cursor().execute('PRAGMA journal_mode').fetchone()[0]"
    " if c.vendor == 'sqlite' else None),"
    " 'mmap': (c.cursor().execute('PRAGMA mmap_size').fetchone()[0]"
    " if c.vendor == 'sqlite' else None)}, default=str))"
)


def _resolved(module: str, tmp_path, **env: str) -> dict:
    # The run's own database (the CI's PostgreSQL pass sets DATABASE_URL) is not the one
    # asked about: only what ``env`` gives counts.
    inherited = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "BENCH_SQLITE_PATH")
    }
    full = {
        **inherited,
        "DJANGO_SETTINGS_MODULE": module,
        "DJANGO_SECRET_KEY": "k" * 60,
        "DJANGO_ALLOWED_HOSTS": "cards.example.org",
        **env,
    }
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=full, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("module", ["config.settings.prod", "config.settings.bench"])
def test_a_sqlite_database_url_keeps_the_sqlite_options(module, tmp_path):
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    resolved = _resolved(module, tmp_path, DATABASE_URL=url)
    assert resolved["engine"] == "django.db.backends.sqlite3"
    assert resolved["options"]["transaction_mode"] == "IMMEDIATE"
    assert resolved["options"]["timeout"] == 20
    assert resolved["journal"] == "wal"


def test_the_default_database_has_them_too(tmp_path):
    resolved = _resolved("config.settings.dev", tmp_path)
    assert resolved["options"]["transaction_mode"] == "IMMEDIATE"
    assert resolved["journal"] == "wal"
    # runserver starts a thread per request, so a persistent connection would only leak
    assert resolved["max_age"] == 0


@pytest.mark.parametrize("module", ["config.settings.prod", "config.settings.bench"])
@pytest.mark.parametrize("by_url", [True, False])
def test_served_sqlite_connections_persist(module, by_url, tmp_path):
    """A new SQLite connection costs about 1 ms of CPU (schema read, WAL set): a served
    site keeps its connections, whether SQLite is the default or given as a URL."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}"} if by_url else {}
    resolved = _resolved(module, tmp_path, **env)
    assert resolved["max_age"] == 60
    assert resolved["options"]["transaction_mode"] == "IMMEDIATE"
    assert resolved["mmap"] == 256 * 1024 * 1024  # reads through a memory map of the file


def test_a_postgres_url_gets_no_sqlite_options():
    from config.settings.base import database

    entry = database("postgres://codex:secret@127.0.0.1:5432/codex", conn_max_age=60)
    assert entry["ENGINE"] == "django.db.backends.postgresql"
    assert "transaction_mode" not in entry.get("OPTIONS", {})
    assert entry["CONN_MAX_AGE"] == 60
