"""What a page body may hold, checked before it is saved: every problem as a sentence in
the editor's language, naming the line.

``size_problems`` is cheap (it reads the text once, parses nothing) and runs first: a
body past ``wiki.limits`` is refused before anything renders it. ``content_problems``
parses and renders the body: unknown tables (``{{ macro }}`` lines nobody registered), too
many tables, and HTML past ``MAX_RENDERED_CHARS``.

>>> size_problems("## Fine\\n\\nShort text.\\n")
[]
>>> size_problems("x" * 2001)[0]
'Line 1 is 2,001 characters long; a line may hold at most 2,000. Break it into shorter paragraphs.'
"""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import macros
from .limits import MAX_BODY_CHARS, MAX_LINE_CHARS, MAX_LINES, MAX_MACROS, MAX_RENDERED_CHARS
from .rendering import LinkResolver, macro_calls, render_markdown

#: At most this many long lines are named one by one; the rest are counted.
NAMED_LINES = 3


def _n(value: int) -> str:
    return number_format(value, 0, use_l10n=True, force_grouping=True)


def lines_of(text: str) -> list[str]:
    """The text's lines as an editor's text box counts them."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def size_problems(text: str) -> list[str]:
    """The body's length, its number of lines and every line that is too long."""
    problems: list[str] = []
    if len(text) > MAX_BODY_CHARS:
        problems.append(
            _("The text is %(n)s characters long; a page may hold at most %(max)s.")
            % {"n": _n(len(text)), "max": _n(MAX_BODY_CHARS)}
        )
    lines = lines_of(text)
    if len(lines) > MAX_LINES:
        problems.append(
            _("The text has %(n)s lines; a page may hold at most %(max)s.")
            % {"n": _n(len(lines)), "max": _n(MAX_LINES)}
        )
    long_lines = [(i, len(line)) for i, line in enumerate(lines, 1) if len(line) > MAX_LINE_CHARS]
    for number, length in long_lines[:NAMED_LINES]:
        problems.append(
            _(
                "Line %(line)s is %(n)s characters long; a line may hold at most %(max)s. "
                "Break it into shorter paragraphs."
            )
            % {"line": number, "n": _n(length), "max": _n(MAX_LINE_CHARS)}
        )
    if len(long_lines) > NAMED_LINES:
        more = len(long_lines) - NAMED_LINES
        problems.append(
            ngettext("%(n)s more line is too long.", "%(n)s more lines are too long.", more)
            % {"n": _n(more)}
        )
    return problems


def unknown_macro_problems(text: str) -> list[str]:
    """Every ``{{ name }}`` outside code that names no table, on its own line or inside a
    paragraph, then the tables there are (empty: none).

    >>> unknown_macro_problems("Fine.\\n\\nA sentence with {{ no_such_macro }} in it.")[0]
    'Line 3: there is no table called “no_such_macro”.'
    """
    problems = [
        _("Line %(line)s: there is no table called “%(name)s”.")
        % {"line": call.line, "name": call.name}
        for call in macro_calls(text)
        if macros.get_macro(call.name) is None
    ]
    if problems:
        problems.append(
            _("The tables you can use: %(names)s.")
            % {"names": ", ".join(macros.registered_macros())}
        )
    return problems


def content_problems(text: str, *, lang: str, resolver: LinkResolver) -> list[str]:
    """Unknown tables, too many tables, and a rendered page past its size (parses ``text``:
    call it only on a body ``size_problems`` accepts)."""
    problems = unknown_macro_problems(text)
    calls = [call for call in macro_calls(text) if not call.inline]
    if len(calls) > MAX_MACROS:
        problems.append(
            _(
                "The text has %(n)s tables; a page may show at most %(max)s (line %(line)s is one too many)."
            )
            % {"n": len(calls), "max": MAX_MACROS, "line": calls[MAX_MACROS].line}
        )
    if not problems:
        html = render_markdown(text, lang=lang, resolver=resolver).html
        if len(html) > MAX_RENDERED_CHARS:
            problems.append(
                _(
                    "With its tables and links drawn, the page would be %(n)s characters of "
                    "HTML; a page may be at most %(max)s. Split it into several pages."
                )
                % {"n": _n(len(html)), "max": _n(MAX_RENDERED_CHARS)}
            )
    return problems


def body_problems(text: str, *, lang: str, resolver: LinkResolver) -> list[str]:
    """Every reason ``text`` cannot be saved as a page body in ``lang`` (empty: it can)."""
    return size_problems(text) or content_problems(text, lang=lang, resolver=resolver)
