"""A shared cache for several hosts: DJANGO_CACHE_URL=redis://… puts the page cache in Redis,
so a page one process rendered is served by every other process.

Runs against a real redis-server on loopback when Debian's package is installed (`make test`
installs it as root); skips, saying so, otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core import checks
from django.core.cache import cache
from django.test import Client, override_settings

from config.settings.base import cache_from_url

ROOT = settings.BASE_DIR


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """A redis-server on a free loopback port, for one module or one destructive test."""

    def __init__(self, workdir) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (apt-get install redis-server): skipped.")
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--dir",
             workdir],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            self.stop()
            pytest.fail("redis-server did not start")

    def client(self):
        import redis

        return redis.Redis.from_url(self.url, socket_timeout=2)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a paused server cannot terminate
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory) -> Iterator[str]:
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def own_redis(tmp_path) -> Iterator[RedisServer]:
    """A server of this test's own, which the test may kill, pause or fill."""
    from core import cache_backends

    server = RedisServer(tmp_path)
    cache_backends.reset()
    try:
        yield server
    finally:
        server.stop()
        cache_backends.reset()


def test_the_cache_url_picks_the_backend():
    assert cache_from_url("")["BACKEND"].endswith("LocMemCache")
    entry = cache_from_url("redis://cache.internal:6379/2")
    assert entry["BACKEND"] == "core.cache_backends.FailSoftRedisCache"
    assert entry["LOCATION"] == "redis://cache.internal:6379/2"
    # Tens of milliseconds, not the operating system's minutes, to connect or to answer.
    assert entry["OPTIONS"]["socket_connect_timeout"] <= 0.1
    assert entry["OPTIONS"]["socket_timeout"] <= 0.1


def test_an_unknown_cache_scheme_is_refused():
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="DJANGO_CACHE_URL"):
        cache_from_url("memcache://somewhere")


@pytest.mark.django_db
def test_a_page_rendered_here_is_served_from_redis_to_another_process(client, redis_url):
    caches_ = {**settings.CACHES, "default": cache_from_url(redis_url)}  # the fragments too
    with override_settings(CACHES=caches_, PAGE_CACHE_SECONDS=60):
        cache.clear()
        response = client.get("/en/")
        assert response.status_code == 200
        import redis

        server = redis.Redis.from_url(redis_url)
        keys = [k.decode() for k in server.keys("card-codex:*page:*")]
        assert len(keys) == 1, keys
        # Another process (another host, for the cache) reads the same entry.
        raw_key = keys[0].split(":", 2)[2]  # KEY_PREFIX:VERSION:key
        probe = (
            "import json, django; django.setup(); from django.core.cache import cache;"
            f"hit = cache.get({raw_key!r}); print(json.dumps(hit is not None and"
            " b'<html' in hit[0]))"
        )
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
        env["DJANGO_CACHE_URL"] = redis_url
        result = subprocess.run(
            [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) is True
        # A second visit is a hit: no new entry, the same page (its CSRF token masked anew).
        again = client.get("/en/")
        assert again.status_code == 200
        assert len(again.content) == len(response.content)
        assert len(server.keys("card-codex:*page:*")) == 1
        cache.clear()


# ---------------------------------------------------------------------------
# Faults: a Redis that is stopped, frozen or full costs speed, never an error page (M1)

#: Pages that read and write the cache (page cache, content versions, fragments, memos).
PAGES = ["/en/", "/ru/", "/en/cards/", "/en/cards/?q=rank", "/en/wiki/", "/en/arena/slabs/",
         "/en/cards/stats/", "/en/packs/", "/api/cards?q=a", "/en/search/?q=a"]  # fmt: skip


def _visit_all(client: Client) -> list[tuple[str, int, float]]:
    seen = []
    for path in PAGES:
        started = time.monotonic()
        response = client.get(path)
        seen.append((path, response.status_code, time.monotonic() - started))
    return seen


def _redis_settings(url: str):
    caches_ = {**settings.CACHES, "default": cache_from_url(url)}  # the fragments too
    return override_settings(CACHES=caches_, PAGE_CACHE_SECONDS=60)


@pytest.mark.django_db
def test_the_health_check_reports_the_database_and_the_cache(redis_url):
    with _redis_settings(redis_url):
        response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_a_stopped_redis_is_a_miss_and_the_health_check_names_it(own_redis):
    client = Client(raise_request_exception=False)
    with _redis_settings(own_redis.url):
        assert all(status == 200 for _, status, _ in _visit_all(client))  # cached now
        own_redis.process.kill()
        own_redis.process.wait(timeout=10)
        seen = _visit_all(client)
        health = client.get("/healthz")
    assert [(path, status) for path, status, _ in seen if status != 200] == []
    assert health.status_code == 503
    report = health.json()
    assert report["status"] == "unavailable"
    assert report["database"] == "ok"
    assert report["cache"].startswith("error: ConnectionError")


@pytest.mark.django_db
def test_a_paused_redis_costs_a_socket_timeout_not_a_hang(own_redis):
    client = Client(raise_request_exception=False)
    with _redis_settings(own_redis.url):
        assert all(status == 200 for _, status, _ in _visit_all(client))
        own_redis.process.send_signal(signal.SIGSTOP)
        try:
            seen = _visit_all(client)
            started = time.monotonic()
            health = client.get("/healthz")
            health_seconds = time.monotonic() - started
        finally:
            own_redis.process.send_signal(signal.SIGCONT)
    assert [(path, status) for path, status, _ in seen if status != 200] == []
    slow = [(path, round(seconds, 2)) for path, _, seconds in seen if seconds > 1.0]
    assert slow == []
    assert health.status_code == 503 and "Timeout" in health.json()["cache"]
    assert health_seconds < 1.0


@pytest.mark.django_db
def test_a_full_redis_under_noeviction_skips_the_writes(own_redis):
    server = own_redis.client()
    server.set("ballast", b"x" * 2_000_000)  # more than the limit below: every write fails
    server.config_set("maxmemory", "1mb")
    server.config_set("maxmemory-policy", "noeviction")
    import redis

    with pytest.raises(redis.exceptions.ResponseError, match="maxmemory"):
        server.set("probe", b"y")
    client = Client(raise_request_exception=False)
    with _redis_settings(own_redis.url):
        first = _visit_all(client)
        second = _visit_all(client)
        health = client.get("/healthz")
    assert [(path, status) for path, status, _ in first + second if status != 200] == []
    assert health.status_code == 503 and "maxmemory" in health.json()["cache"]


def test_a_cache_error_is_a_miss_or_a_skipped_write_without_a_server(caplog):
    """No server at all on the port (connection refused): every call degrades, the outage
    is logged once, and a counter raises the ValueError of a missing key."""
    from core import cache_backends

    cache_backends.reset()
    url = f"redis://127.0.0.1:{_free_port()}/0"
    with override_settings(CACHES={**settings.CACHES, "default": cache_from_url(url)}):
        assert cache.get("k", "default") == "default"
        assert cache.get_many(["a", "b"]) == {}
        assert cache.add("k", 1) is False
        cache.set("k", 1)
        assert cache.set_many({"a": 1}) == ["a"]
        assert cache.delete("k") is False
        assert cache.has_key("k") is False
        assert cache.get_or_set("k", 5) == 5
        with pytest.raises(ValueError):
            cache.incr("k")
        with pytest.raises(cache_backends.CacheUnavailable):
            cache.decr("k")
    warnings = [r for r in caplog.records if r.name == "core.cache_backends"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    cache_backends.reset()


def test_the_start_up_check_asks_for_maxmemory_with_an_lru_policy(own_redis):
    from core.checks import redis_memory_policy

    server = own_redis.client()
    with _redis_settings(own_redis.url):
        warned = redis_memory_policy()  # a fresh server: no limit, noeviction
        assert "core.W001" in {m.id for m in checks.run_checks(tags=[checks.Tags.caches])}
        server.config_set("maxmemory", "64mb")
        still = redis_memory_policy()  # a limit, but writes refused when full
        server.config_set("maxmemory-policy", "allkeys-lru")
        fine = redis_memory_policy()
    assert [m.id for m in warned] == ["core.W001"]
    assert "maxmemory 0" in warned[0].msg and "noeviction" in warned[0].msg
    assert [m.id for m in still] == ["core.W001"]
    assert fine == []


def test_the_start_up_check_says_nothing_of_an_unreachable_or_local_cache():
    from core.checks import redis_memory_policy

    assert redis_memory_policy() == []  # the tests' memory cache
    with override_settings(
        CACHES={
            **settings.CACHES,
            "default": cache_from_url(f"redis://127.0.0.1:{_free_port()}/0"),
        }
    ):
        assert redis_memory_policy() == []
