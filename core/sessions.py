"""The visitor's session key: what play, packs and the arena store a visitor's things under.

>>> from django.test import RequestFactory
>>> from django.contrib.sessions.backends.signed_cookies import SessionStore
>>> request = RequestFactory().get("/")
>>> request.session = SessionStore()
>>> session_key(request) is None
True
"""

from __future__ import annotations

from django.http import HttpRequest

#: Set in a session the first time a key is asked for with ``create=True``.
MARKER = "visitor"


def session_key(request: HttpRequest, *, create: bool = False) -> str | None:
    """The session's key; with ``create``, a new session is saved first when there is none
    (a modified session is saved and its cookie set), so the key can own rows at once."""
    if create and request.session.session_key is None:
        request.session[MARKER] = True
        request.session.save()
    # The answer now depends on the session (a binder, a match): Django then sends
    # ``Vary: Cookie`` and no shared cache keeps it (core.http_cache).
    request.session.accessed = True
    return request.session.session_key
