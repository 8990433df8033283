"""Dated market data: supply per attribute and GetGems rank per card, by day.

``import_market(text)`` reads a JSON list of rows (``{"date": "YYYY-MM-DD", "slot": "paw",
"attribute": "Rusty Ring", "supply": 12}`` or ``{"date": …, "card": 42, "getgems_rank":
40}``; a null rank removes the card's rank) or a CSV file with the columns
``date,slot,attribute,card,supply,getgems_rank``. Every row is checked first and every
problem is reported with its row, its column and why (an unknown attribute or card, a
date in the future, a supply below 1, a row given twice…): then nothing is written.
Otherwise the rows are stored day by day, oldest first, in one transaction: each day's
values that are the newest known become the collection's current values, and the cards
they touch are derived again and their changes recorded with the causes
(``cards.history.record_changes``). Importing the same file again changes nothing.

The two halves also run apart: ``check`` (fast, in the request or the command) and
``apply_market`` (the heavy part, as the job ``cards.tasks.market_import_task``), the
checked rows passed between them as JSON (``rows_as_data`` / ``rows_from_data``).
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from core.jobs import Progress
from engine.card import causes as why
from engine.types import CardSpec, Slot

from . import history, services
from .models import Attribute, Card, RankRecord, SupplyRecord

__all__ = [
    "CSV_COLUMNS",
    "MarketImportError",
    "MarketResult",
    "Problem",
    "apply_market",
    "check",
    "import_market",
    "rows_as_data",
    "rows_from_data",
]

CSV_COLUMNS: tuple[str, ...] = ("date", "slot", "attribute", "card", "supply", "getgems_rank")
MAX_ROWS = 1_000_000
# The date of a value the collection held before its first dated record (written with
# that record): from then on, until the record's date.
EPOCH = datetime.date(1970, 1, 1)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the file: where (row from 1, column) and why."""

    row: int
    column: str
    message: str

    def __str__(self) -> str:
        return _("row %(row)s, %(column)s: %(message)s") % {
            "row": self.row,
            "column": self.column or "-",
            "message": self.message,
        }


class MarketImportError(Exception):
    """The file was refused; ``problems`` says every reason. Nothing was written."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems[:20]))
        self.problems = problems


@dataclass
class MarketResult:
    """What an import did."""

    supply_rows: int = 0
    rank_rows: int = 0
    days: int = 0
    cards_derived: int = 0
    changes: int = 0
    current: dict[str, int] = field(default_factory=lambda: {"supply": 0, "rank": 0})


@dataclass(frozen=True, slots=True)
class _Supply:
    row: int
    day: datetime.date
    attribute_id: int
    supply: int


@dataclass(frozen=True, slots=True)
class _Rank:
    row: int
    day: datetime.date
    card_id: int
    rank: int | None


# ---------------------------------------------------------------------------
# Reading


def _records(text: str | bytes) -> list[dict[str, Any]]:
    """The file's rows as dicts (JSON list, or CSV with a header); raises on a bad file."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise MarketImportError([Problem(0, "", _("the file is not UTF-8 text"))]) from None
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as error:
            message = _("not valid JSON (line %(line)s): %(why)s") % {
                "line": error.lineno,
                "why": error.msg,
            }
            raise MarketImportError([Problem(0, "", message)]) from None
        return data
    reader = csv.DictReader(io.StringIO(text))
    header = tuple(reader.fieldnames or ())
    if header != CSV_COLUMNS:
        message = _("the header must be exactly %(columns)s") % {"columns": ",".join(CSV_COLUMNS)}
        raise MarketImportError([Problem(1, "", message)])
    rows = []
    for record in reader:
        if None in record:
            rows.append({"__extra__": True})
            continue
        row: dict[str, Any] = {k: v.strip() for k, v in record.items() if v and v.strip()}
        if record.get("card", "").strip() and "getgems_rank" not in row:
            row["getgems_rank"] = None  # an empty rank in a card's row removes its rank
        rows.append(row)
    return rows


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif (
        isinstance(value, str)
        and value.isascii()  # "²" and "٣" pass isdigit(); only 0-9 are a number here
        and value.lstrip("-").isdigit()
        and len(value) < 12
    ):
        number = int(value)
    else:
        return None
    return number


class _Checker:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.attributes = {
            (slot, name): pk
            for pk, slot, name in Attribute.objects.values_list("id", "slot", "name")
        }
        self.today = history.today()
        self.seen: dict[tuple, int] = {}
        self.supplies: list[_Supply] = []
        self.ranks: list[_Rank] = []
        self.tokens: dict[int, int] = {}

    def fail(self, row: int, column: str, message: str) -> None:
        self.problems.append(Problem(row, column, message))

    def date(self, number: int, record: dict[str, Any]) -> datetime.date | None:
        raw = record.get("date")
        if raw in (None, ""):
            self.fail(number, "date", _("missing"))
            return None
        try:
            day = datetime.date.fromisoformat(str(raw)) if len(str(raw)) == 10 else None
        except ValueError:
            day = None
        if day is None:
            self.fail(number, "date", _("%(value)r is not a date (YYYY-MM-DD)") % {"value": raw})
            return None
        if day > self.today:
            self.fail(number, "date", _("%(day)s is in the future") % {"day": day.isoformat()})
            return None
        return day

    def check(self, number: int, record: Any) -> None:
        if not isinstance(record, dict):
            self.fail(number, "", _("a row must be an object"))
            return
        if record.get("__extra__"):
            self.fail(number, "", _("more values than columns"))
            return
        unknown = sorted(set(record) - set(CSV_COLUMNS))
        if unknown:
            self.fail(number, unknown[0], _("unknown column"))
            return
        day = self.date(number, record)
        is_rank = "card" in record or "getgems_rank" in record
        is_supply = any(k in record for k in ("slot", "attribute", "supply"))
        if is_rank and is_supply:
            self.fail(number, "", _("a row gives either a supply or a card's rank, not both"))
        elif is_supply:
            self.supply(number, day, record)
        elif is_rank:
            self.rank(number, day, record)
        else:
            self.fail(number, "", _("a row gives a supply or a card's rank"))

    def supply(self, number: int, day: datetime.date | None, record: dict[str, Any]) -> None:
        slot, name = record.get("slot"), record.get("attribute")
        if slot not in {s.value for s in Slot}:
            choices = ", ".join(s.value for s in Slot)
            self.fail(number, "slot", _("must be one of %(choices)s") % {"choices": choices})
            return
        if not isinstance(name, str) or not name:
            self.fail(number, "attribute", _("missing"))
            return
        attribute_id = self.attributes.get((slot, name))
        if attribute_id is None:
            message = _("there is no %(slot)s attribute %(name)r") % {"slot": slot, "name": name}
            self.fail(number, "attribute", message)
        supply = _int(record.get("supply"))
        if supply is None:
            self.fail(number, "supply", _("must be a whole number"))
        elif supply < 1:
            self.fail(number, "supply", _("must be at least 1 (got %(value)s)") % {"value": supply})
        if day is None or attribute_id is None or supply is None or supply < 1:
            return
        if self._twice(number, ("supply", day, attribute_id), "attribute"):
            return
        self.supplies.append(_Supply(number, day, attribute_id, supply))

    def rank(self, number: int, day: datetime.date | None, record: dict[str, Any]) -> None:
        token = _int(record.get("card"))
        card_id = None
        if token is None or token < 1:
            self.fail(number, "card", _("must be a card's token (a whole number ≥ 1)"))
        else:
            card_id = self.tokens.get(token)
            if card_id is None:
                self.fail(number, "card", _("there is no card #%(token)s") % {"token": token})
        raw = record.get("getgems_rank")
        rank = None if raw is None else _int(raw)
        if raw is not None and (rank is None or rank < 1):
            self.fail(number, "getgems_rank", _("must be a whole number ≥ 1, or empty for none"))
            return
        if day is None or card_id is None:
            return
        if self._twice(number, ("rank", day, card_id), "card"):
            return
        self.ranks.append(_Rank(number, day, card_id, rank))

    def _twice(self, number: int, key: tuple, column: str) -> bool:
        first = self.seen.setdefault(key, number)
        if first != number:
            self.fail(
                number, column, _("the same as row %(row)s (a row given twice)") % {"row": first}
            )
            return True
        return False


def check(text: str | bytes) -> tuple[list[_Supply], list[_Rank]]:
    """Every row of the file, checked against the collection; ``MarketImportError`` lists
    every problem when there is one."""
    records = _records(text)
    if not isinstance(records, list):
        raise MarketImportError([Problem(0, "", _("the file must hold a list of rows"))])
    if len(records) > MAX_ROWS:
        raise MarketImportError([Problem(0, "", _("too many rows"))])
    checker = _Checker()
    tokens = {_int(r.get("card")) for r in records if isinstance(r, dict) and "card" in r}
    tokens.discard(None)
    found = Card.objects.filter(token__in=list(tokens)).values_list("token", "id")
    checker.tokens = dict(found) if tokens else {}
    for number, record in enumerate(records, start=1):
        checker.check(number, record)
    if checker.problems:
        raise MarketImportError(checker.problems)
    return checker.supplies, checker.ranks


# ---------------------------------------------------------------------------
# Writing


def import_market(text: str | bytes) -> MarketResult:
    """Check the whole file, then store it day by day and record what it changed.

    Raises ``MarketImportError`` (nothing written) when any row is wrong.
    """
    return apply_market(*check(text))


def rows_as_data(supplies: list[_Supply], ranks: list[_Rank]) -> dict[str, list[list[Any]]]:
    """Checked rows as JSON-able data (a task's argument): ``{"supply": [[row, "YYYY-MM-DD",
    attribute id, supply], …], "rank": [[row, "YYYY-MM-DD", card id, rank or null], …]}``."""
    return {
        "supply": [[s.row, s.day.isoformat(), s.attribute_id, s.supply] for s in supplies],
        "rank": [[r.row, r.day.isoformat(), r.card_id, r.rank] for r in ranks],
    }


def rows_from_data(data: dict[str, list[list[Any]]]) -> tuple[list[_Supply], list[_Rank]]:
    """The rows ``rows_as_data`` gave; ``MarketImportError`` names each row whose attribute
    or card was deleted since the file was checked."""
    day = datetime.date.fromisoformat
    supplies = [_Supply(n, day(d), int(pk), int(v)) for n, d, pk, v in data.get("supply", ())]
    ranks = [
        _Rank(n, day(d), int(pk), None if v is None else int(v))
        for n, d, pk, v in data.get("rank", ())
    ]
    problems: list[Problem] = []
    for rows, model, column in ((supplies, Attribute, "attribute"), (ranks, Card, "card")):
        wanted = {getattr(r, f"{column}_id") for r in rows}
        found: set[int] = set()
        ids = list(wanted)
        for start in range(0, len(ids), 5000):
            chunk = ids[start : start + 5000]
            found.update(model.objects.filter(id__in=chunk).values_list("id", flat=True))
        problems += [
            Problem(r.row, column, _("deleted after the file was checked"))
            for r in rows
            if getattr(r, f"{column}_id") not in found
        ]
    if problems:
        raise MarketImportError(problems)
    return supplies, ranks


def apply_market(
    supplies: list[_Supply], ranks: list[_Rank], *, progress: Progress | None = None
) -> MarketResult:
    """Store checked rows day by day, oldest first, in one transaction, and record what
    they change; ``progress(days done, days)`` after each day."""
    result = MarketResult(supply_rows=len(supplies), rank_rows=len(ranks))
    by_day: dict[datetime.date, tuple[list[_Supply], list[_Rank]]] = defaultdict(lambda: ([], []))
    for s in supplies:
        by_day[s.day][0].append(s)
    for r in ranks:
        by_day[r.day][1].append(r)
    days = sorted(by_day)
    with transaction.atomic(), services.signals_paused():
        for done, day in enumerate(days, start=1):
            record_market_day(day, *by_day[day], result=result)
            if progress is not None:
                progress(done, len(days))
        result.days = len(by_day)
    return result


def _newest(model, key: str, ids: Iterable[int]) -> dict[int, datetime.date]:
    ids = list(ids)
    out: dict[int, datetime.date] = {}
    for start in range(0, len(ids), 5000):
        chunk = ids[start : start + 5000]
        rows = model.objects.filter(**{f"{key}__in": chunk}).values(key).annotate(m=Max("date"))
        out.update((row[key], row["m"]) for row in rows)
    return out


def record_market_day(
    day: datetime.date,
    supplies: list[_Supply],
    ranks: list[_Rank],
    *,
    result: MarketResult | None = None,
) -> MarketResult:
    """Store one day's market rows; where they are the newest values, make them current
    and record the changes of the cards they touch (with their causes)."""
    result = result or MarketResult()
    newest_supply = _newest(SupplyRecord, "attribute_id", (s.attribute_id for s in supplies))
    newest_rank = _newest(RankRecord, "card_id", (r.card_id for r in ranks))
    _upsert(
        SupplyRecord, "attribute_id", "supply", [(s.attribute_id, s.supply) for s in supplies], day
    )
    _upsert(RankRecord, "card_id", "getgems_rank", [(r.card_id, r.rank) for r in ranks], day)

    current_supply = dict(
        Attribute.objects.filter(id__in=[s.attribute_id for s in supplies]).values_list(
            "id", "supply"
        )
    )
    current_rank = dict(
        Card.objects.filter(id__in=[r.card_id for r in ranks]).values_list("id", "getgems_rank")
    )
    supply_now = {
        s.attribute_id: s.supply
        for s in supplies
        if newest_supply.get(s.attribute_id, day) <= day
        and current_supply[s.attribute_id] != s.supply
    }
    rank_now = {
        r.card_id: r.rank
        for r in ranks
        if newest_rank.get(r.card_id, day) <= day and current_rank[r.card_id] != r.rank
    }
    if not supply_now and not rank_now:
        return result
    # A first record: the value it replaces held before it (since the epoch, as known).
    baseline_supply = [(pk, current_supply[pk]) for pk in supply_now if pk not in newest_supply]
    baseline_rank = [(pk, current_rank[pk]) for pk in rank_now if pk not in newest_rank]
    _upsert(SupplyRecord, "attribute_id", "supply", baseline_supply, EPOCH)
    _upsert(RankRecord, "card_id", "getgems_rank", baseline_rank, EPOCH)
    touched = services.cards_affected_by_attributes(supply_now) | set(rank_now)
    before = history.load_specs(touched)
    services.set_columns(Attribute, ("supply",), [(pk, (v,)) for pk, v in supply_now.items()])
    services.set_columns(Card, ("getgems_rank",), [(pk, (v,)) for pk, v in rank_now.items()])
    names = {
        pk: (slot, name)
        for pk, slot, name in Attribute.objects.filter(id__in=list(supply_now)).values_list(
            "id", "slot", "name"
        )
    }
    supply_change = {
        names[pk]: why.SupplyChange(names[pk][0], names[pk][1], current_supply[pk], value)
        for pk, value in supply_now.items()
    }
    # Each card after the day's values: its inputs before, with them applied (undoing
    # the reverse change), rather than read again.
    after: dict[int, CardSpec] = {}
    changes: dict[int, list[why.Change]] = {}
    for card_id, spec in before.items():
        found: list[why.Change] = [
            supply_change[(a.slot.value, a.name)]
            for a in spec.owned
            if (a.slot.value, a.name) in supply_change
        ]
        if card_id in rank_now:
            found.append(why.RankChange(current_rank[card_id], rank_now[card_id]))
        for change in found:
            spec = _forward(change).revert(spec)
        after[card_id], changes[card_id] = spec, found
    result.changes += history.record_changes(day, before, after, changes)
    result.cards_derived += len(after)
    result.current["supply"] += len(supply_now)
    result.current["rank"] += len(rank_now)
    services.collection_changed()
    return result


def _forward(change: why.SupplyChange | why.RankChange) -> why.SupplyChange | why.RankChange:
    """The change the other way round: undoing it applies ``change``."""
    if isinstance(change, why.RankChange):
        return why.RankChange(change.after, change.before)
    return why.SupplyChange(change.slot, change.attribute, change.after, change.before)


def _upsert(model, key: str, column: str, rows: list[tuple[int, Any]], day: datetime.date) -> None:
    """Insert or replace the day's record of each (key, value)."""
    if not rows:
        return
    ids = [k for k, _ in rows]
    existing = {}
    for start in range(0, len(ids), 5000):
        existing.update(
            model.objects.filter(date=day, **{f"{key}__in": ids[start : start + 5000]}).values_list(
                key, "id"
            )
        )
    services.set_columns(model, (column,), [(existing[k], (v,)) for k, v in rows if k in existing])
    model.objects.bulk_create(
        [model(**{key: k, "date": day, column: v}) for k, v in rows if k not in existing],
        batch_size=2000,
    )
