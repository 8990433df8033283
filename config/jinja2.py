"""The Jinja2 environment of the templates under ``templates/jinja2/``.

Django's template language renders every page; Jinja2 renders only what a profile showed
to be dominated by the template engine itself: the card breakdown (≈ 730 nodes, half of a
card page's first view in Django's engine; ≈ 3× cheaper in Jinja2's compiled code,
docs/PERFORMANCE.md) and the card picture it and other pages show. The vocabulary:

- ``{{ _("Text") }}`` is ``gettext``, in the visitor's language. Write translatable text
  only as ``{{ _("…") }}`` with a literal, optionally followed by ``|format(name=…)`` for
  ``%(name)s`` placeholders: ``makemessages`` reads that form (it reads the file as a
  Django template, whose ``_("…")`` variables it extracts), so the strings land in the
  same catalogue. (Keep the literal out of Jinja2 comments spanning lines: a Django
  comment is one line, so ``makemessages`` would extract it.) Plurals are worded by the
  presenter (``ngettext``).
- The filters ``label`` and ``capfirst`` are the Django ones (``core.templatetags.codex``,
  ``django.utils.text``). Links come ready from the presenter.

Autoescaping is on (Django's backend default), and Django's safe strings stay safe.
"""

from __future__ import annotations

from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext
from jinja2 import Environment

from core.templatetags.codex import label


def environment(**options: Any) -> Environment:
    env = Environment(**options)
    env.globals["_"] = gettext
    env.filters.update({"label": label, "capfirst": capfirst})
    return env
