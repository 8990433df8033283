"""The daily value feed: rows of (asset ID, date, value) from a CSV or JSON file, checked
in full before anything is written.

CSV: a header row naming ``asset_id``, ``date`` and ``value`` (any order, other columns
ignored), one row per value. JSON: a list of objects with those keys (or ``{"values":
[...]}``). Dates are ``YYYY-MM-DD`` and nothing else (the UTC day the value locked; an ISO
week or ordinal date is refused); values are US dollars with at most two decimals, written
as a string or a whole number (a JSON number with a fraction is refused: money is never a
float). A comma only groups thousands, in threes ("1,234.50"): any other comma ("1,5",
"12,50") is ambiguous and refused rather than guessed. A value of more than 10 digits
before the point, or JSON nested too deeply to read, is a located problem too.

``read_rows(path)`` (or ``parse(data, name)``, an upload's bytes) parses;
``check_rows(rows, known, today)`` finds every problem and names its place: a ``Problem``
with the row ("line 4", "item 2"), the column ("asset_id") and why, in the active
language, so a feed is fixed in one go. ``arena.services.import_feed`` runs these checks
and writes all rows or none: ``manage.py import_slab_values`` and the admin both call it.

>>> rows = parse(b'asset_id,date,value\\nx,2020-01-31,"1,5"\\n', "feed.csv")
>>> problem = check_rows(rows, {"x"}, dt.date(2026, 1, 1))[1][0]
>>> problem.row, problem.column, str(problem)[:40]
('line 2', 'value', "line 2 (value): '1,5' is ambiguous: a co")
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _

from .models import ASSET_ID_MAX, VALUE_MAX_DIGITS

__all__ = [
    "FIELDS",
    "FeedError",
    "FeedRow",
    "Problem",
    "RawRow",
    "check_rows",
    "parse",
    "read_rows",
]

FIELDS = ("asset_id", "date", "value")
MAX_ROWS = 1_000_000
DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
GROUPED = re.compile(r"\d{1,3}(,\d{3})+(\.\d*)?", re.ASCII)  # 1,234 or 12,345.50


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem of a feed: where (``row``: "line 4", "item 2", or "" for the whole
    file; ``column``: a name of ``FIELDS``, or "") and why, in words."""

    row: str
    column: str
    why: str

    def __str__(self) -> str:
        if self.column:
            return f"{self.row} ({self.column}): {self.why}"
        return f"{self.row}: {self.why}" if self.row else self.why


class FeedError(ValueError):
    """A feed that cannot be stored: unreadable as a feed at all, or with problems in its
    rows (``problems`` lists each one)."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(map(str, problems)))


@dataclass(frozen=True, slots=True)
class RawRow:
    """A row as read: where it is and its three raw fields."""

    where: str
    asset_id: Any
    date: Any
    value: Any


@dataclass(frozen=True, slots=True)
class FeedRow:
    """A checked row."""

    where: str
    asset_id: str
    date: dt.date
    value: Decimal


def _file(why: str) -> FeedError:
    return FeedError([Problem("", "", why)])


def _line(n: int) -> str:
    return _("line %(n)s") % {"n": n}


def read_rows(path: Path) -> list[RawRow]:
    """The rows of a CSV or JSON feed file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise _file(_("%(file)s: no such file") % {"file": path}) from None
    except OSError as exc:
        why = _("%(file)s: cannot read (%(why)s)") % {"file": path, "why": exc.strerror}
        raise _file(why) from None
    return parse(data, str(path))


def parse(data: bytes, name: str) -> list[RawRow]:
    """The rows of a feed's bytes (by their content: JSON starts with ``[`` or ``{``);
    ``name`` is the file's, for a problem with the whole file."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _file(
            _("%(file)s: not UTF-8 text (%(why)s at byte %(byte)s)")
            % {"file": name, "why": exc.reason, "byte": exc.start}
        ) from None
    if text.lstrip()[:1] in ("[", "{"):
        return _json_rows(text)
    return _csv_rows(text)


def _json_rows(text: str) -> list[RawRow]:
    try:
        data = json.loads(text, parse_float=_Float, parse_int=_int)
    except ValueError as exc:
        raise _file(_("not valid JSON: %(why)s") % {"why": exc}) from None
    except RecursionError:
        raise _file(
            _("not valid JSON: nested too deeply to read (a feed is a flat list)")
        ) from None
    if isinstance(data, dict) and isinstance(data.get("values"), list):
        data = data["values"]
    if not isinstance(data, list):
        raise _file(_('JSON: expected a list of {"asset_id", "date", "value"} objects'))
    rows = []
    for i, item in enumerate(data[:MAX_ROWS]):
        where = _("item %(n)s") % {"n": i + 1}
        if not isinstance(item, dict):
            rows.append(RawRow(where, _Missing, _Missing, _Missing))
            continue
        rows.append(
            RawRow(
                where,
                item.get("asset_id", _Missing),
                item.get("date", _Missing),
                item.get("value", _Missing),
            )
        )
    return rows


def _csv_rows(text: str) -> list[RawRow]:
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise _file(_("the file is empty")) from None
    except csv.Error as exc:
        raise FeedError([Problem(_line(1), "", _("not CSV (%(why)s)") % {"why": exc})]) from None
    names = [h.strip().lower() for h in header]
    missing = [f for f in FIELDS if f not in names]
    if missing:
        why = _("the header must name %(fields)s (missing: %(missing)s)") % {
            "fields": ", ".join(FIELDS),
            "missing": ", ".join(missing),
        }
        raise FeedError([Problem(_line(1), "", why)])
    index = {f: names.index(f) for f in FIELDS}
    rows = []
    try:
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            get = [cells[index[f]] if index[f] < len(cells) else _Missing for f in FIELDS]
            rows.append(RawRow(_line(reader.line_num), *get))
            if len(rows) > MAX_ROWS:
                break
    except csv.Error as exc:
        why = _("not CSV (%(why)s)") % {"why": exc}
        raise FeedError([Problem(_line(reader.line_num), "", why)]) from None
    return rows


class _Float(str):
    """A JSON number with a fraction, kept as text so it can be refused by name."""


class _BigInt(str):
    """A JSON whole number too long to be an int cheaply: text, refused as too large."""


def _int(text: str) -> int | str:
    return int(text) if len(text) <= 30 else _BigInt(text)


class _MissingType:
    def __repr__(self) -> str:
        return "missing"


_Missing: Any = _MissingType()


def _missing(raw: Any) -> bool:
    return raw is _Missing or raw in ("", None)


def _date(raw: Any, where: str, problems: list[Problem], today: dt.date) -> dt.date | None:
    def problem(why: str) -> None:
        problems.append(Problem(where, "date", why))

    if _missing(raw):
        return problem(_("missing"))
    text = str(raw).strip()
    try:
        if not DATE.fullmatch(text):  # fromisoformat also reads "2026-W01-1"
            raise ValueError
        day = dt.date.fromisoformat(text)
    except ValueError:
        return problem(_("%(date)r is not a date like 2026-01-31") % {"date": text})
    if day > today:
        return problem(
            _("%(date)s is after today (%(today)s, UTC): not locked yet")
            % {"date": day, "today": today}
        )
    return day


def _value(raw: Any, where: str, problems: list[Problem]) -> Decimal | None:
    def problem(why: str) -> None:
        problems.append(Problem(where, "value", why))

    if _missing(raw):
        return problem(_("missing"))
    if isinstance(raw, _Float | float):
        return problem(
            _('%(value)s is a JSON number with a fraction; write it as "%(value)s"')
            % {"value": raw}
        )
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        return problem(_("not an amount of dollars"))
    size = len(str(raw))
    shown = (
        _("%(start)r… (%(n)s characters)") % {"start": str(raw)[:20], "n": size}
        if size > 40
        else repr(raw)
    )
    text = str(raw).strip().removeprefix("$") if isinstance(raw, str) else raw
    if isinstance(text, str) and "," in text:
        if not GROUPED.fullmatch(text):
            return problem(
                _(
                    "%(value)r is ambiguous: a comma only groups thousands (1,234.50); "
                    "write cents with a point (1.50)"
                )
                % {"value": raw}
            )
        text = text.replace(",", "")
    try:
        if isinstance(text, str) and not text.isascii():
            raise InvalidOperation
        amount = Decimal(text)
    except (InvalidOperation, ValueError):
        return problem(_("%(value)s is not an amount like 12.40") % {"value": shown})
    if not amount.is_finite() or amount < 0:
        return problem(_("%(value)s must be 0 or more") % {"value": shown})
    # Before any arithmetic: a huge exponent makes quantize raise.
    if amount and amount.adjusted() >= VALUE_MAX_DIGITS - 2:
        return problem(_("%(value)s is too large") % {"value": shown})
    if (amount and amount.adjusted() < -2) or amount != amount.quantize(Decimal("0.01")):
        return problem(_("%(value)s has more than two decimals (cents)") % {"value": shown})
    return amount.quantize(Decimal("0.01"))


def _asset_id(raw: Any, where: str, problems: list[Problem], known: set[str]) -> str | None:
    def problem(why: str) -> None:
        problems.append(Problem(where, "asset_id", why))

    if raw is _Missing or not isinstance(raw, str) or not raw.strip():
        return problem(_("missing"))
    asset_id = raw.strip()
    if len(asset_id) > ASSET_ID_MAX:
        problem(_("longer than %(n)s characters") % {"n": ASSET_ID_MAX})
    elif asset_id not in known:
        problem(_("no slab %(asset_id)r (add it first)") % {"asset_id": asset_id})
    return asset_id


def check_rows(
    rows: list[RawRow], known: set[str], today: dt.date
) -> tuple[list[FeedRow], list[Problem]]:
    """The rows that are sound, and every problem found (empty: the feed can be stored).

    ``known`` is the set of asset IDs in the database. A feed that gives one slab and day
    twice with different values is a problem (the same value twice is harmless).
    """
    problems: list[Problem] = []
    if not rows:
        problems.append(Problem("", "", _("the file has no rows")))
    if len(rows) > MAX_ROWS:
        problems.append(Problem("", "", _("the file has more than %(n)s rows") % {"n": MAX_ROWS}))
    clean: list[FeedRow] = []
    seen: dict[tuple[str, dt.date], tuple[str, Decimal]] = {}
    for row in rows[:MAX_ROWS]:
        before = len(problems)
        asset_id = _asset_id(row.asset_id, row.where, problems, known)
        day = _date(row.date, row.where, problems, today)
        value = _value(row.value, row.where, problems)
        if len(problems) > before or asset_id is None or day is None or value is None:
            continue
        key = (asset_id, day)
        if key in seen and seen[key][1] != value:
            why = _("%(asset_id)s on %(date)s is already %(value)s at %(where)s") % {
                "asset_id": asset_id,
                "date": day,
                "value": seen[key][1],
                "where": seen[key][0],
            }
            problems.append(Problem(row.where, "", why))
            continue
        if key not in seen:
            seen[key] = (row.where, value)
            clean.append(FeedRow(row.where, asset_id, day, value))
    return clean, problems
