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

from .limits import MAX_LINES, WORD_DIFF_BUDGET
from .models import Section
from .selectors import LANGUAGE_CODES, TRANSLATED_FIELDS

CONTEXT = 2
#: Line pairs compared exactly; past it difflib's junk heuristic keeps the diff fast.
LINE_DIFF_PAIRS = MAX_LINES * MAX_LINES
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


class _Budget:
    """Token pairs the word diff may still compare in one ``diff_text`` call."""

    def __init__(self, pairs: int) -> None:
        self.pairs = pairs

    def take(self, pairs: int) -> bool:
        if pairs > self.pairs:
            return False
        self.pairs -= pairs
        return True


def _common_ends(a: list[str], b: list[str]) -> tuple[int, int]:
    """How many tokens ``a`` and ``b`` share at the start and (after that) at the end."""
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return head, tail


def _words(old: str, new: str, budget: _Budget) -> tuple[SafeString, SafeString]:
    """Two changed lines with their changed words marked.

    The shared start and end are set aside first (cheap, and most edits touch a few
    words); difflib then compares the middles, within ``budget``. A middle past what is
    left of the budget is marked as one deletion and one insertion: difflib's cost grows
    with the square of repeated tokens, and such a middle is a rewrite anyway.
    """
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    head, tail = _common_ends(a, b)
    mid_a, mid_b = a[head : len(a) - tail], b[head : len(b) - tail]
    left: list[str] = [escape("".join(a[:head]))]
    right: list[str] = [escape("".join(b[:head]))]
    if budget.take(len(mid_a) * len(mid_b)):
        opcodes = SequenceMatcher(None, mid_a, mid_b, autojunk=False).get_opcodes()
    else:
        opcodes = [("replace", 0, len(mid_a), 0, len(mid_b))]
    for op, i1, i2, j1, j2 in opcodes:
        old_part, new_part = escape("".join(mid_a[i1:i2])), escape("".join(mid_b[j1:j2]))
        if op == "equal":
            left.append(old_part)
            right.append(new_part)
            continue
        if old_part:
            left.append(f"<del>{old_part}</del>")
        if new_part:
            right.append(f"<ins>{new_part}</ins>")
    left.append(escape("".join(a[len(a) - tail :])))
    right.append(escape("".join(b[len(b) - tail :])))
    return mark_safe("".join(left)), mark_safe("".join(right))


def diff_text(old: str, new: str, context: int = CONTEXT) -> list[Row]:
    """Rows of a side-by-side diff of two texts (unchanged stretches shortened).

    Lines are matched exactly while the texts are within ``LINE_DIFF_PAIRS`` line pairs
    (``wiki.limits`` keeps a saved body within that), with difflib's faster junk
    heuristic beyond, so an oversized old revision still diffs in bounded time.
    """
    a, b = (old or "").splitlines(), (new or "").splitlines()
    rows: list[Row] = []
    budget = _Budget(WORD_DIFF_BUDGET)
    matcher = SequenceMatcher(None, a, b, autojunk=len(a) * len(b) > LINE_DIFF_PAIRS)
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
                    left, right = _words(a[i1 + k], b[j1 + k], budget)
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
