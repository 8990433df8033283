"""Side-by-side differences between two page snapshots, per field and language.

Lines are compared with difflib; in a changed line the changed words are marked with
``<del>`` / ``<ins>``. Every piece of text is HTML-escaped here, so the result is safe
to show as is.

>>> rows = diff_text("one\\ntwo", "one\\nthree")
>>> [(r.kind, str(r.left), str(r.right)) for r in rows]
[('equal', 'one', 'one'), ('change', '<del>two</del>', '<ins>three</ins>')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .models import Section
from .selectors import LANGUAGE_CODES, TRANSLATED_FIELDS

CONTEXT = 2
_TOKEN = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a side-by-side diff. ``kind``: equal, change, delete, insert or skip."""

    kind: str
    left_no: int | None
    left: SafeString
    right_no: int | None
    right: SafeString


@dataclass(frozen=True, slots=True)
class FieldDiff:
    key: str
    label: str
    lang: str | None
    rows: tuple[Row, ...]


def _words(old: str, new: str) -> tuple[SafeString, SafeString]:
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    left: list[str] = []
    right: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        old_part, new_part = escape("".join(a[i1:i2])), escape("".join(b[j1:j2]))
        if op == "equal":
            left.append(old_part)
            right.append(new_part)
            continue
        if old_part:
            left.append(f"<del>{old_part}</del>")
        if new_part:
            right.append(f"<ins>{new_part}</ins>")
    return mark_safe("".join(left)), mark_safe("".join(right))


def diff_text(old: str, new: str, context: int = CONTEXT) -> list[Row]:
    """Rows of a side-by-side diff of two texts (unchanged stretches shortened)."""
    a, b = (old or "").splitlines(), (new or "").splitlines()
    rows: list[Row] = []
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    for group in matcher.get_grouped_opcodes(context) if a != b else []:
        if rows:
            rows.append(Row("skip", None, mark_safe(""), None, mark_safe("")))
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                for k in range(i2 - i1):
                    line = escape(a[i1 + k])
                    rows.append(Row("equal", i1 + k + 1, line, j1 + k + 1, escape(b[j1 + k])))
                continue
            if op == "replace":
                pairs = min(i2 - i1, j2 - j1)
                for k in range(pairs):
                    left, right = _words(a[i1 + k], b[j1 + k])
                    rows.append(Row("change", i1 + k + 1, left, j1 + k + 1, right))
                i1, j1 = i1 + pairs, j1 + pairs
            for k in range(i1, i2):
                rows.append(
                    Row(
                        "delete",
                        k + 1,
                        mark_safe(f"<del>{escape(a[k])}</del>"),
                        None,
                        mark_safe(""),
                    )
                )
            for k in range(j1, j2):
                rows.append(
                    Row(
                        "insert",
                        None,
                        mark_safe(""),
                        k + 1,
                        mark_safe(f"<ins>{escape(b[k])}</ins>"),
                    )
                )
    return rows


def _language_name(code: str) -> str:
    names = dict(settings.LANGUAGES)
    return str(names.get(code, code))


def _field_label(field: str) -> str:
    labels = {
        "title": _("Title"),
        "summary": _("Summary"),
        "body": _("Body"),
        "slug": _("Slug"),
        "section": _("Section"),
        "order": _("Order"),
        "published": _("Published"),
        "related": _("Related pages"),
    }
    return labels.get(field, field)


def _plain(key: str, value: Any) -> str:
    if key == "section":
        return str(dict(Section.choices).get(value, value or ""))
    if key == "published":
        return _("yes") if value else _("no")
    if key == "related":
        return "\n".join(value or ())
    return "" if value is None else str(value)


def diff_snapshots(old: dict[str, Any], new: dict[str, Any]) -> list[FieldDiff]:
    """The fields that differ between two snapshots, translated fields first."""
    diffs: list[FieldDiff] = []
    for field in TRANSLATED_FIELDS:
        for code in LANGUAGE_CODES:
            key = f"{field}_{code}"
            a, b = old.get(key) or "", new.get(key) or ""
            if a != b:
                label = _("%(field)s (%(language)s)") % {
                    "field": _field_label(field),
                    "language": _language_name(code),
                }
                diffs.append(FieldDiff(key, label, code, tuple(diff_text(a, b))))
    for key in ("slug", "section", "order", "published", "related"):
        a, b = _plain(key, old.get(key)), _plain(key, new.get(key))
        if a != b:
            diffs.append(FieldDiff(key, _field_label(key), None, tuple(diff_text(a, b))))
    return diffs
