"""core.limits: the rate limiter shared by play, arena and packs (issue 26, M1/M2)."""

from __future__ import annotations

import logging

import pytest
from django.test import RequestFactory

from core import limits

BUDGET = limits.Budget("test", per_session=2, per_new_visitor=3, per_address=5)


@pytest.fixture(autouse=True)
def _one_window(monkeypatch):
    monkeypatch.setattr(limits, "clock", lambda: 1_000_000.0)


def refused(session_key, address) -> bool:
    try:
        limits.count(BUDGET, session_key, address)
    except limits.RateLimited:
        return True
    return False


def test_a_session_then_its_address_run_out():
    assert [refused("s1", "1.2.3.4") for _ in range(3)] == [False, False, True]
    assert [refused("s2", "1.2.3.4") for _ in range(3)] == [False, False, True]
    # s1 and s2 spent 4 of the address's 5: one more session gets one, then none.
    assert [refused("s3", "1.2.3.4") for _ in range(2)] == [False, True]
    assert not refused("s4", "5.6.7.8")


def test_refused_requests_spend_nothing_of_the_address():
    budget = limits.Budget("wide", per_session=2, per_new_visitor=3, per_address=9)

    def allowed(session_key):
        try:
            limits.count(budget, session_key, "1.2.3.4")
        except limits.RateLimited:
            return False
        return True

    assert sum(allowed("greedy") for _ in range(50)) == 2
    assert sum(allowed(None) for _ in range(50)) == 3  # a client that drops its cookie
    # 100 requests, 5 of them allowed: the address keeps 4 for the others behind it.
    assert sum(allowed("neighbour") for _ in range(5)) == 2
    assert sum(allowed("another") for _ in range(5)) == 2
    assert not allowed("third")


class BrokenCache:
    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise ConnectionError("redis is down")

        return fail


def test_a_failing_cache_fails_open_and_says_so(monkeypatch, caplog):
    monkeypatch.setattr(limits, "cache", BrokenCache())
    with caplog.at_level(logging.WARNING, logger="core.limits"):
        assert not any(refused("s", "1.2.3.4") for _ in range(20))
        assert not any(refused(None, "1.2.3.4") for _ in range(20))
    assert "rate limiter: cache error" in caplog.text


def request(remote, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def test_forwarded_for_is_ignored_without_a_trusted_proxy(settings):
    settings.TRUSTED_PROXIES = []
    assert limits.client_address(request("10.0.0.1", "6.6.6.6")) == "10.0.0.1"


def test_forwarded_for_is_read_only_from_a_trusted_proxy(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.1", "192.168.0.0/24"]
    # From the proxy: the right-most hop that is not a proxy (the client may forge the left).
    assert limits.client_address(request("10.0.0.1", "6.6.6.6, 7.7.7.7")) == "7.7.7.7"
    assert limits.client_address(request("10.0.0.1", "7.7.7.7, 192.168.0.3")) == "7.7.7.7"
    # From anyone else: the header is the client's word, ignored.
    assert limits.client_address(request("8.8.8.8", "7.7.7.7")) == "8.8.8.8"
    # Nothing usable: the proxy's own address.
    assert limits.client_address(request("10.0.0.1")) == "10.0.0.1"
    assert limits.client_address(request("10.0.0.1", "junk")) == "10.0.0.1"
