"""A write that waits past the database's busy timeout gets a 503 "busy, try again" page in
the visitor's language, never a 500 (issue 12 item 9)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import Client, override_settings

from core.middleware import database_busy

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_for_busy():
    with override_settings(ROOT_URLCONF="tests.core.busy_urls"):
        yield Client(raise_request_exception=False)


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "Busy, try again"), ("ru", "Сайт занят, попробуйте ещё раз")]
)
def test_a_locked_database_in_a_view_is_a_503_in_the_visitors_language(
    client_for_busy, lang, words
):
    response = client_for_busy.post(f"/{lang}/busy/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "no-cache" in response["Cache-Control"]
    html = response.content.decode()
    assert words in html and f'<html lang="{lang}">' in html
    assert response.has_header("Content-Security-Policy")


def test_a_locked_session_save_after_the_view_is_a_503_too(client_for_busy, monkeypatch):
    from django.contrib.sessions.backends.db import SessionStore

    def locked(self, must_create=False):
        raise OperationalError("database is locked")

    monkeypatch.setattr(SessionStore, "save", locked)
    response = client_for_busy.get("/en/session/")
    assert response.status_code == 503
    assert "Busy, try again" in response.content.decode()


@pytest.mark.parametrize("path", ["/en/restarted/", "/ru/closed/"])
def test_a_lost_postgresql_connection_is_the_busy_page_not_a_500(client_for_busy, path):
    """A PostgreSQL restart under load drops connections mid-request (issue 26): nothing was
    committed, so the answer is "busy, try again", like a lock timeout's."""
    response = client_for_busy.get(path)
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "Busy, try again" in response.content.decode() or "Сайт занят" in (
        response.content.decode()
    )


def test_what_counts_as_a_lost_connection(monkeypatch):
    from types import SimpleNamespace

    from django.db import InterfaceError

    from core import middleware

    class Refused(Exception):
        sqlstate = "08006"

    dropped = OperationalError("consuming input failed: server closed the connection unexpectedly")
    wrapped = OperationalError("connection failure")
    wrapped.__cause__ = Refused()
    assert database_busy(wrapped)
    assert database_busy(InterfaceError("connection already closed"))
    assert not database_busy(InterfaceError("Error binding parameter 1: type 'dict'"))
    monkeypatch.setattr(middleware, "connection", SimpleNamespace(vendor="postgresql"))
    assert database_busy(dropped)
    assert database_busy(OperationalError("the database system is starting up"))
    assert not database_busy(OperationalError('relation "cards_card" does not exist'))
    monkeypatch.setattr(middleware, "connection", SimpleNamespace(vendor="sqlite"))
    assert not database_busy(OperationalError("unable to open database file: connection refused"))


def test_other_database_errors_stay_server_errors(client_for_busy):
    response = client_for_busy.get("/en/broken/")
    assert response.status_code == 500


def test_what_counts_as_busy():
    class PgLockTimeout(Exception):
        sqlstate = "55P03"

    wrapped = OperationalError("canceling statement due to lock timeout")
    wrapped.__cause__ = PgLockTimeout()
    assert database_busy(OperationalError("database is locked"))
    assert database_busy(OperationalError("database table is locked: cards_card"))
    assert database_busy(wrapped)
    assert not database_busy(OperationalError("no such table: x"))
    assert not database_busy(ValueError("database is locked"))
    assert not database_busy(None)


REAL_LOCK = textwrap.dedent(
    """
    import sqlite3, sys
    import django
    from django.conf import settings
    settings.DATABASES  # read the settings, then wait only briefly for the lock
    settings.DATABASES["default"]["OPTIONS"]["timeout"] = 0.3
    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client
    call_command("migrate", verbosity=0)
    User.objects.create_user("staff", password="pw-staff-123", is_staff=True)
    holder = sqlite3.connect(settings.DATABASES["default"]["NAME"], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock
    client = Client(raise_request_exception=False)
    response = client.post(
        "/ru/admin/login/", {"username": "staff", "password": "pw-staff-123"},
        HTTP_HOST="127.0.0.1",
    )
    holder.execute("ROLLBACK")
    print(response.status_code)
    print(response.content.decode())
    """
)


def test_a_real_lock_held_past_the_timeout_answers_503(tmp_path):
    """Another connection holds SQLite's write lock; a login (it writes the session and the
    last login) waits past the busy timeout and gets the busy page, in Russian."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'locked.sqlite3'}",
    }
    done = subprocess.run(
        [sys.executable, "-c", REAL_LOCK],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    status, _, html = done.stdout.partition("\n")
    assert status == "503", done.stdout[:500] + done.stderr[-2000:]
    assert "Сайт занят, попробуйте ещё раз" in html
    assert "Internal Server Error" not in done.stderr


PG_RESTART = textwrap.dedent(
    """
    import subprocess, sys
    import django
    from django.conf import settings
    settings.DATABASES["default"]["CONN_MAX_AGE"] = 60  # as in production
    settings.ROOT_URLCONF = "tests.core.busy_urls"
    django.setup()
    from django.test import Client
    client = Client(raise_request_exception=False, HTTP_HOST="127.0.0.1")
    from django.db import close_old_connections

    def get():
        status = client.get("/en/read/").status_code
        close_old_connections()  # as a server does after each request (the test client not)
        return status

    statuses = [get()]
    subprocess.run(sys.argv[1:], check=True, capture_output=True)  # pg_ctl restart
    statuses += [get(), get()]
    print(" ".join(map(str, statuses)))
    """
)


def _pg_bindir() -> str | None:
    for folder in (os.environ.get("PG_BINDIR"), "/usr/lib/postgresql/15/bin"):
        if folder and os.access(os.path.join(folder, "pg_ctl"), os.X_OK):
            return folder
    return None


def test_a_real_postgresql_restart_is_a_503_then_the_site_is_back():
    """A throwaway PostgreSQL cluster (as scripts/ci-postgres.sh starts one) is restarted
    between two requests of a process that keeps its connection: the request on the dead
    connection gets the busy page, the next one a new connection."""
    bindir = _pg_bindir()
    if bindir is None:
        pytest.skip("no PostgreSQL server binaries (apt-get install postgresql-15): skipped.")
    import pwd
    import shutil

    as_user: list[str] = []
    if os.getuid() == 0:  # PostgreSQL will not run as root
        owner = "postgres" if _has_user("postgres") else "nobody"
        as_user = ["runuser", "-u", owner, "--"]
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser: skipped.")
    # Under /tmp, not pytest's root-only tmp_path: the server's user must reach it. A
    # lower-case path: it becomes DATABASE_URL's host, which URL parsing lower-cases.
    home = Path(tempfile.mkdtemp(prefix="codex-pg-", dir="/tmp"))
    (home / "sock").mkdir(mode=0o700)
    if as_user:
        user = pwd.getpwnam(as_user[2])
        for path in (home, home / "sock"):
            os.chown(path, user.pw_uid, user.pw_gid)
    data, sock = str(home / "data"), str(home / "sock")
    ctl = [*as_user, f"{bindir}/pg_ctl", "-D", data, "-l", str(home / "log"), "-w", "-t", "60"]
    options = ["-o", f"-c listen_addresses='' -k {sock} -c fsync=off"]
    subprocess.run(
        [*as_user, f"{bindir}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"],
        check=True,
        capture_output=True,
    )
    subprocess.run([*ctl, *options, "start"], check=True, capture_output=True)
    try:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": "postgres://postgres@" + sock.replace("/", "%2F") + "/postgres",
        }
        done = subprocess.run(
            [sys.executable, "-c", PG_RESTART, *ctl, *options, "-m", "fast", "restart"],
            cwd=settings.BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
    finally:
        subprocess.run([*ctl, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["200", "503", "200"], done.stdout + done.stderr[-3000:]


def _has_user(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
