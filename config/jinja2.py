"""The Jinja2 environment of the templates under ``templates/jinja2/``.

Django's template language renders every page; Jinja2 renders only what a profile showed
to be dominated by the template engine itself: the card breakdown (≈ 730 nodes, half of a
card page's first view in Django's engine; ≈ 3× cheaper in Jinja2's compiled code,
docs/PERFORMANCE.md), the card picture it and other pages show, the card list's results
(a third of a first view of a search in Django's engine), whose card tile the home page
and the site search show too (``{% card_tiles %}``), and the wiki search's results (two
fifths of a first view of a wiki search). The vocabulary:

- ``{{ _("Text") }}`` is ``gettext``, in the visitor's language. Write translatable text
  only as ``{{ _("…") }}`` with a literal, optionally followed by ``|format(name=…)`` for
  ``%(name)s`` placeholders: ``makemessages`` reads that form (it reads the file as a
  Django template, whose ``_("…")`` variables it extracts), so the strings land in the
  same catalogue. (Keep the literal out of Jinja2 comments spanning lines: a Django
  comment is one line, so ``makemessages`` would extract it.) Plurals are worded by the
  presenter (``ngettext``).
- The filters ``label``, ``capfirst`` and ``localize`` are the Django ones
  (``core.templatetags.codex``, ``django.utils.text``, ``django.utils.formats``: a
  decimal in the visitor's format; integers print as Django prints them without a
  thousands separator). Links come ready from the presenter.
- ``kept_tile(card, small=False)`` is a card's tile (the ``tile`` macro of
  ``explorer/partials/card_tile.html``), kept by its row (``explorer.tiles``).

Autoescaping is on (Django's backend default), and Django's safe strings stay safe.

Each language gets its own compiled copy of a template (``CodexEnvironment``), in which
every ``_("literal")`` is already its translation (``TranslatedLiterals``): the card
breakdown has about 200 of them, and calling ``gettext`` for each on every render was a
sixth of its cost. Anything else passed to ``_`` is translated when rendered, as before.
When the development server sees a catalogue (``.mo``) change, it reloads translations
without restarting; the compiled copies are dropped then too (``_catalogue_changed``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any
from weakref import WeakSet

from django.conf import settings
from django.utils import translation
from django.utils.autoreload import file_changed
from django.utils.formats import localize
from django.utils.text import capfirst
from django.utils.translation import gettext
from jinja2 import Environment, Template
from jinja2.ext import Extension
from jinja2.lexer import TOKEN_DOT, TOKEN_LPAREN, TOKEN_NAME, TOKEN_RPAREN, TOKEN_STRING, Token

from core.templatetags.codex import label
from explorer.tiles import kept_tile

_CALL = (TOKEN_LPAREN, TOKEN_STRING, TOKEN_RPAREN)


class TranslatedLiterals(Extension):
    """In an environment with a ``language``, ``_("literal")`` is compiled as the literal's
    translation in it (so Jinja2 escapes it once, at compile time, too)."""

    def filter_stream(self, stream: Iterable[Token]) -> Iterator[Token]:
        language = getattr(self.environment, "language", None)
        if language is None:
            yield from stream
            return
        tokens = list(stream)
        i = 0
        with translation.override(language):
            while i < len(tokens):
                token = tokens[i]
                call = tokens[i + 1 : i + 4]
                if (
                    token.type == TOKEN_NAME
                    and token.value == "_"
                    and tuple(t.type for t in call) == _CALL
                    and (i == 0 or tokens[i - 1].type != TOKEN_DOT)
                ):
                    yield Token(token.lineno, TOKEN_STRING, gettext(call[1].value))
                    i += 4
                else:
                    yield token
                    i += 1


class CodexEnvironment(Environment):
    """Hands out each template compiled for the active language: one overlay environment
    (with its own template cache) per language, made on first use."""

    language: str | None = None

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._by_language: dict[str, CodexEnvironment] = {}
        _environments.add(self)

    def in_language(self, language: str) -> CodexEnvironment:
        env = self._by_language.get(language)
        if env is None:
            env = self.overlay()
            env.language = language
            self._by_language[language] = env
        return env

    def get_template(self, name: Any, parent: str | None = None, globals: Any = None) -> Template:
        if self.language is None:
            language = translation.get_language() or settings.LANGUAGE_CODE
            return self.in_language(language).get_template(name, parent, globals)
        return super().get_template(name, parent, globals)


_environments: WeakSet[CodexEnvironment] = WeakSet()


def _catalogue_changed(sender: Any, file_path: Any, **kwargs: Any) -> None:
    """Drop every language's compiled templates when a ``.mo`` file changes: Django's
    own receiver reloads the catalogues then instead of restarting the server."""
    if str(file_path).endswith(".mo"):
        for env in list(_environments):
            env._by_language.clear()


file_changed.connect(_catalogue_changed)


def environment(**options: Any) -> Environment:
    options["extensions"] = [*options.get("extensions", ()), TranslatedLiterals]
    env = CodexEnvironment(**options)
    env.globals["_"] = gettext
    env.globals["kept_tile"] = kept_tile
    env.filters.update({"label": label, "capfirst": capfirst, "localize": localize})
    return env
