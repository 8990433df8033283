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

``read_rows(path)`` parses; ``check_rows(rows, known)`` finds every problem and names its
place ("line 4 (asset_id)"), so a feed is fixed in one go. The service
(``arena.services.import_values``) writes all rows or none.
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

from .models import ASSET_ID_MAX, VALUE_MAX_DIGITS

__all__ = ["FIELDS", "FeedError", "FeedRow", "RawRow", "check_rows", "read_rows"]

FIELDS = ("asset_id", "date", "value")
MAX_ROWS = 1_000_000
DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
GROUPED = re.compile(r"\d{1,3}(,\d{3})+(\.\d*)?", re.ASCII)  # 1,234 or 12,345.50


class FeedError(ValueError):
    """The file cannot be read as a feed at all (``problems`` lists why)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


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


def read_rows(path: Path) -> list[RawRow]:
    """The rows of a CSV or JSON feed (by its content: JSON starts with ``[`` or ``{``)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise FeedError([f"{path}: no such file"]) from None
    except UnicodeDecodeError as exc:
        raise FeedError([f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})"]) from None
    except OSError as exc:
        raise FeedError([f"{path}: cannot read ({exc.strerror})"]) from None
    if text.lstrip()[:1] in ("[", "{"):
        return _json_rows(text)
    return _csv_rows(text)


def _json_rows(text: str) -> list[RawRow]:
    try:
        data = json.loads(text, parse_float=_Float, parse_int=_int)
    except ValueError as exc:
        raise FeedError([f"not valid JSON: {exc}"]) from None
    except RecursionError:
        raise FeedError(
            ["not valid JSON: nested too deeply to read (a feed is a flat list)"]
        ) from None
    if isinstance(data, dict) and isinstance(data.get("values"), list):
        data = data["values"]
    if not isinstance(data, list):
        raise FeedError(['JSON: expected a list of {"asset_id", "date", "value"} objects'])
    rows = []
    for i, item in enumerate(data[:MAX_ROWS]):
        where = f"item {i + 1}"
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
        raise FeedError(["the file is empty"]) from None
    except csv.Error as exc:
        raise FeedError([f"line 1: not CSV ({exc})"]) from None
    names = [h.strip().lower() for h in header]
    missing = [f for f in FIELDS if f not in names]
    if missing:
        raise FeedError(
            [f"line 1: the header must name {', '.join(FIELDS)} (missing: {', '.join(missing)})"]
        )
    index = {f: names.index(f) for f in FIELDS}
    rows = []
    try:
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            where = f"line {reader.line_num}"
            get = [cells[index[f]] if index[f] < len(cells) else _Missing for f in FIELDS]
            rows.append(RawRow(where, *get))
            if len(rows) > MAX_ROWS:
                break
    except csv.Error as exc:
        raise FeedError([f"line {reader.line_num}: not CSV ({exc})"]) from None
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


def _date(raw: Any, where: str, problems: list[str], today: dt.date) -> dt.date | None:
    if raw is _Missing or raw in ("", None):
        problems.append(f"{where} (date): missing")
        return None
    text = str(raw).strip()
    try:
        if not DATE.fullmatch(text):  # fromisoformat also reads "2026-W01-1"
            raise ValueError
        day = dt.date.fromisoformat(text)
    except ValueError:
        problems.append(f"{where} (date): {text!r} is not a date like 2026-01-31")
        return None
    if day > today:
        problems.append(f"{where} (date): {day} is after today ({today}, UTC): not locked yet")
        return None
    return day


def _value(raw: Any, where: str, problems: list[str]) -> Decimal | None:
    if raw is _Missing or raw in ("", None):
        problems.append(f"{where} (value): missing")
        return None
    if isinstance(raw, _Float | float):
        problems.append(
            f'{where} (value): {raw} is a JSON number with a fraction; write it as "{raw}"'
        )
        return None
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        problems.append(f"{where} (value): not an amount of dollars")
        return None
    shown = f"{str(raw)[:20]!r}… ({len(str(raw))} characters)" if len(str(raw)) > 40 else repr(raw)
    text = str(raw).strip().removeprefix("$") if isinstance(raw, str) else raw
    if isinstance(text, str) and "," in text:
        if not GROUPED.fullmatch(text):
            problems.append(
                f"{where} (value): {raw!r} is ambiguous: a comma only groups thousands "
                "(1,234.50); write cents with a point (1.50)"
            )
            return None
        text = text.replace(",", "")
    try:
        if isinstance(text, str) and not text.isascii():
            raise InvalidOperation
        amount = Decimal(text)
    except (InvalidOperation, ValueError):
        problems.append(f"{where} (value): {shown} is not an amount like 12.40")
        return None
    if not amount.is_finite() or amount < 0:
        problems.append(f"{where} (value): {shown} must be 0 or more")
        return None
    # Before any arithmetic: a huge exponent makes quantize raise.
    if amount and amount.adjusted() >= VALUE_MAX_DIGITS - 2:
        problems.append(f"{where} (value): {shown} is too large")
        return None
    if (amount and amount.adjusted() < -2) or amount != amount.quantize(Decimal("0.01")):
        problems.append(f"{where} (value): {shown} has more than two decimals (cents)")
        return None
    return amount.quantize(Decimal("0.01"))


def check_rows(
    rows: list[RawRow], known: set[str], today: dt.date
) -> tuple[list[FeedRow], list[str]]:
    """The rows that are sound, and every problem found (empty: the feed can be stored).

    ``known`` is the set of asset IDs in the database. A feed that gives one slab and day
    twice with different values is a problem (the same value twice is harmless).
    """
    problems: list[str] = []
    if not rows:
        problems.append("the file has no rows")
    if len(rows) > MAX_ROWS:
        problems.append(f"the file has more than {MAX_ROWS} rows")
    clean: list[FeedRow] = []
    seen: dict[tuple[str, dt.date], tuple[str, Decimal]] = {}
    for row in rows[:MAX_ROWS]:
        before = len(problems)
        asset_id = row.asset_id
        if asset_id is _Missing or not isinstance(asset_id, str) or not asset_id.strip():
            problems.append(f"{row.where} (asset_id): missing")
            asset_id = None
        else:
            asset_id = asset_id.strip()
            if len(asset_id) > ASSET_ID_MAX:
                problems.append(f"{row.where} (asset_id): longer than {ASSET_ID_MAX} characters")
            elif asset_id not in known:
                problems.append(f"{row.where} (asset_id): no slab {asset_id!r} (add it first)")
        day = _date(row.date, row.where, problems, today)
        value = _value(row.value, row.where, problems)
        if len(problems) > before or asset_id is None or day is None or value is None:
            continue
        key = (asset_id, day)
        if key in seen and seen[key][1] != value:
            problems.append(
                f"{row.where}: {asset_id} on {day} is already {seen[key][1]} at {seen[key][0]}"
            )
            continue
        if key not in seen:
            seen[key] = (row.where, value)
            clean.append(FeedRow(row.where, asset_id, day, value))
    return clean, problems
