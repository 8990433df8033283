"""Production's absolute links come from a configured origin, never from a request's Host."""

import os
import subprocess
import sys

import pytest
from django.conf import settings

PROBE = (
    "import django; django.setup(); from django.conf import settings; print(settings.SITE_ORIGIN)"
)


def _origin(**env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k != "DJANGO_SITE_ORIGIN"}
    full = {
        **base,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "DJANGO_SECRET_KEY": "k" * 60,
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=settings.BASE_DIR,
        env=full,
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize(
    ("env", "origin"),
    [
        (
            {"DJANGO_ALLOWED_HOSTS": "cards.example.org,www.example.org"},
            "https://cards.example.org",
        ),
        (
            {"DJANGO_ALLOWED_HOSTS": ".example.org", "DJANGO_SITE_ORIGIN": "https://example.org/"},
            "https://example.org",
        ),
    ],
)
def test_production_takes_its_origin_from_the_environment(env, origin):
    result = _origin(**env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == origin


@pytest.mark.parametrize(
    "env",
    [
        {"DJANGO_ALLOWED_HOSTS": ".example.org"},  # a pattern names no one host
        {"DJANGO_ALLOWED_HOSTS": "example.org", "DJANGO_SITE_ORIGIN": "example.org"},
        {"DJANGO_ALLOWED_HOSTS": "example.org", "DJANGO_SITE_ORIGIN": "https://example.org/x"},
    ],
)
def test_an_unusable_origin_stops_the_start(env):
    result = _origin(**env)
    assert result.returncode != 0
    assert "DJANGO_SITE_ORIGIN" in result.stderr


def test_development_and_tests_take_it_from_the_request():
    assert settings.SITE_ORIGIN == ""
