"""Under the production settings, session and CSRF cookies are HttpOnly and Secure.

The settings are read from config/settings/prod.py itself (with the environment it needs),
then applied to a real request cycle: the admin login form sets the CSRF cookie and a
successful login sets the session cookie, and both must carry the flags.
"""

import importlib
import sys

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

COOKIE_SETTINGS = [
    "SESSION_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "CSRF_COOKIE_SECURE",
    "CSRF_COOKIE_HTTPONLY",
    "LANGUAGE_COOKIE_SECURE",
    "LANGUAGE_COOKIE_HTTPONLY",
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
]


@pytest.fixture
def prod(monkeypatch):
    monkeypatch.setenv("DJANGO_SECRET_KEY", "p" * 60)
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "cards.example.org")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    sys.modules.pop("config.settings.prod", None)
    try:
        module = importlib.import_module("config.settings.prod")
    finally:
        sys.modules.pop("config.settings.prod", None)
    return module


def test_prod_settings_flag_every_cookie(prod):
    for name in COOKIE_SETTINGS[:6]:
        assert getattr(prod, name) is True, name
    assert getattr(prod, "SESSION_COOKIE_SAMESITE", "Lax") in ("Lax", "Strict")
    assert prod.DEBUG is False


def test_cookies_set_under_prod_settings_are_httponly_and_secure(
    prod, settings, client, django_user_model
):
    for name in COOKIE_SETTINGS:
        setattr(settings, name, getattr(prod, name))
    settings.ALLOWED_HOSTS = ["cards.example.org"]
    settings.CSRF_TRUSTED_ORIGINS = prod.CSRF_TRUSTED_ORIGINS
    django_user_model.objects.create_user("staff", password="pw-staff-123", is_staff=True)
    secure = {"secure": True, "headers": {"host": "cards.example.org"}}

    # Plain HTTP is redirected to HTTPS before anything else happens.
    plain = client.get("/en/", headers={"host": "cards.example.org"})
    assert plain.status_code == 301
    assert plain["Location"].startswith("https://")

    page = client.get(reverse("admin:login"), **secure)
    assert page.status_code == 200
    csrf = page.cookies[settings.CSRF_COOKIE_NAME]
    assert csrf["secure"] and csrf["httponly"], csrf.output()
    token = page.context["csrf_token"]

    login = client.post(
        reverse("admin:login"),
        {"username": "staff", "password": "pw-staff-123", "csrfmiddlewaretoken": str(token)},
        secure=True,
        headers={
            "host": "cards.example.org",
            "referer": "https://cards.example.org/en/admin/login/",
        },
    )
    assert login.status_code == 302, login.content[:300]
    session = login.cookies[settings.SESSION_COOKIE_NAME]
    assert session["secure"] and session["httponly"], session.output()
    assert session["samesite"] in ("Lax", "Strict")
