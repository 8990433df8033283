"""A shared cache for several hosts: DJANGO_CACHE_URL=redis://… puts the page cache in Redis,
so a page one process rendered is served by every other process.

Runs against a real redis-server on loopback when Debian's package is installed (`make test`
installs it as root); skips, saying so, otherwise.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import override_settings

from config.settings.base import cache_from_url

ROOT = settings.BASE_DIR


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server): skipped.")
    port = _free_port()
    workdir = tmp_path_factory.mktemp("redis")
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", workdir],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail("redis-server did not start")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_cache_url_picks_the_backend():
    assert cache_from_url("")["BACKEND"].endswith("LocMemCache")
    entry = cache_from_url("redis://cache.internal:6379/2")
    assert entry["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert entry["LOCATION"] == "redis://cache.internal:6379/2"


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
