"""The Jinja2 environment of the templates under ``templates/jinja2/``.

Django's template language renders every page; Jinja2 renders only the fragments a profile
showed to be dominated by the template engine itself: the card breakdown (≈ 730 nodes,
half of a card page's first view in Django's engine, ≈ 6× less in Jinja2's compiled
code; docs/PERFORMANCE.md). The vocabulary is the same as in Django's templates:

- ``{{ _("Text") }}`` is ``gettext``, in the visitor's language. Write translatable text
  only as ``{{ _("…") }}`` with a literal, optionally followed by ``|format(name=…)`` for
  ``%(name)s`` placeholders: ``makemessages`` reads that form (it reads the file as a
  Django template, whose ``_("…")`` variables it extracts), so the strings land in the
  same catalogue. Plurals are worded by the presenter (``ngettext``).
- ``url(name, *args)`` is ``{% url %}``; ``static(path)`` is ``{% static %}``.
- The filters ``label``, ``card_title`` and ``capfirst`` are the Django ones of
  ``core.templatetags.codex`` and ``django.template.defaultfilters``.

Autoescaping is on (Django's backend default), and Django's safe strings stay safe.
"""

from __future__ import annotations

from typing import Any

from django.templatetags.static import static
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext
from jinja2 import Environment

from core.templatetags.codex import card_title, label


def url(name: str, *args: Any) -> str:
    return reverse(name, args=args or None)


def environment(**options: Any) -> Environment:
    env = Environment(**options)
    env.globals.update({"_": gettext, "url": url, "static": static})
    env.filters.update({"label": label, "card_title": card_title, "capfirst": capfirst})
    return env
