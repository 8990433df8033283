"""core.sessions.session_key: the one way play, packs and the arena name a visitor."""

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory

from core.sessions import session_key


@pytest.mark.django_db
def test_a_key_is_made_only_when_asked_for_and_then_kept():
    request = RequestFactory().get("/")
    request.session = SessionStore()
    assert session_key(request) is None
    key = session_key(request, create=True)
    assert key and SessionStore().exists(key)
    assert session_key(request, create=True) == key == session_key(request)
