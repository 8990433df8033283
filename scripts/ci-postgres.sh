#!/usr/bin/env bash
# The test suite again, against a throwaway PostgreSQL 15 cluster this script starts itself.
#
# Used by .ci/run after `make test` (which runs on SQLite). When the PostgreSQL server
# binaries are missing it prints one line saying so and exits 0. The cluster lives in a
# fresh directory under /tmp, owned by an unprivileged user (PostgreSQL refuses to run as
# root), listens only on a unix socket in that directory (no TCP at all), and is stopped and
# deleted on exit whatever happens. Browser tests are left out of this pass: they exercise
# the browser, not the database, and already ran in the SQLite pass.
#
# Extra arguments are passed to pytest, e.g. `scripts/ci-postgres.sh tests/wiki -x`.
# PG_BINDIR overrides where the server binaries are looked for.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-.venv/bin/python}
bindir=${PG_BINDIR:-/usr/lib/postgresql/15/bin}
if [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ]; then
  echo "PostgreSQL pass SKIPPED: no PostgreSQL 15 server binaries in $bindir" \
    "(apt-get install postgresql-15, or set PG_BINDIR)."
  exit 0
fi

# PostgreSQL will not run as root: as root, run the server as an unprivileged system user.
as_user=()
owner=$(id -un)
if [ "$(id -u)" = "0" ]; then
  if id postgres >/dev/null 2>&1; then owner=postgres; else owner=nobody; fi
  as_user=(runuser -u "$owner" --)
fi

# A lower-case path: it becomes the "host" of DATABASE_URL, and URL parsing lower-cases hosts.
tmp="/tmp/codex-pg-$$-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')"
mkdir -m 700 "$tmp"
mkdir -m 700 "$tmp/sock"

cleanup() {
  local rc=$?
  if [ -f "$tmp/data/postmaster.pid" ]; then
    "${as_user[@]}" "$bindir/pg_ctl" -D "$tmp/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

chown -R "$owner" "$tmp"

# A UTF-8 locale so the database folds Cyrillic case the way the search expects.
pg_locale=C.UTF-8
if ! locale -a 2>/dev/null | grep -qix 'c\.utf-\?8'; then pg_locale=en_US.UTF-8; fi

version=$("$bindir/postgres" --version)
echo "PostgreSQL pass: $version, cluster in $tmp as user $owner (unix socket only)."
"${as_user[@]}" "$bindir/initdb" -D "$tmp/data" -U postgres --auth=trust -E UTF8 \
  --locale="$pg_locale" >"$tmp/initdb.log" 2>&1 || {
  cat "$tmp/initdb.log"
  exit 1
}
# Durability is pointless for a throwaway cluster; turning it off makes the suite faster.
"${as_user[@]}" "$bindir/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w -t 60 \
  -o "-c listen_addresses='' -k $tmp/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null || {
  cat "$tmp/server.log"
  exit 1
}
"${as_user[@]}" "$bindir/createdb" -h "$tmp/sock" -U postgres codex

export DATABASE_URL="postgres://postgres@${tmp//\//%2F}%2Fsock/codex"
# Make sure the test settings really use it (a silent fallback to SQLite would prove nothing).
DJANGO_SETTINGS_MODULE=config.settings.test "$PY" -c '
import django
django.setup()
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("SELECT version()")
    print("Test settings connect to:", cursor.fetchone()[0].split(" on ")[0])
assert connection.vendor == "postgresql", connection.vendor
'
rc=0
# In parallel like `make test` (PYTEST_WORKERS, exported by the Makefile; each process gets
# its own test database); PYTEST_WORKERS= runs it in one process.
# shellcheck disable=SC2086
"$PY" -m pytest ${PYTEST_WORKERS--n auto --maxprocesses 4 --dist loadfile} --ignore=tests/browser \
  -p no:cacheprovider "$@" || rc=$?
if [ "$rc" -ne 0 ]; then
  # Tests that check constraints make the server log ERRORs on purpose: show only the grave.
  echo "PostgreSQL pass FAILED (pytest exit $rc). Server FATAL/PANIC lines, if any:"
  grep -E "FATAL|PANIC" "$tmp/server.log" | tail -n 20 || true
fi
exit "$rc"
