"""A visitor's own cards: where other apps learn which cards a session holds.

The booster packs keep each session's openings (its binder); the match demo lets a
visitor build a deck from them. Neither app imports the other: packs registers its
binder here (``PacksConfig.ready``) and play asks ``session_tokens``. With no source
registered (packs not installed) a session holds no cards.

>>> session_tokens(None)
[]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

__all__ = ["register", "session_tokens"]

Source = Callable[[str], Iterable[int]]
_sources: list[Source] = []


def register(source: Source) -> None:
    """Add a source of a session's cards (a function of the session key → tokens)."""
    if source not in _sources:
        _sources.append(source)


def session_tokens(session_key: str | None) -> list[int]:
    """The tokens of every card the session holds, once each, in token order."""
    if not session_key:
        return []
    return sorted({token for source in _sources for token in source(session_key)})
