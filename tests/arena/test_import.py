"""``manage.py import_slab_values FILE``: CSV or JSON, checked in full first, all or
nothing, every problem located, idempotent; and the models' own rules."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from arena.models import Slab, SlabValue
from arena.selectors import match_day

pytestmark = pytest.mark.django_db


def run(path) -> str:
    out = StringIO()
    call_command("import_slab_values", str(path), stdout=out)
    return out.getvalue()


def test_csv_rows_are_stored_and_a_second_import_changes_nothing(tmp_path, slabs) -> None:
    today = match_day()
    path = tmp_path / "feed.csv"
    path.write_text(
        "date,asset_id,value,note\n"
        f"{today},cc-7,11.25,up\n"
        f"{today - dt.timedelta(days=1)},cc-7,10.00,same\n"
        f"{today - dt.timedelta(days=40)},cc-3,$1,200.50,\n".replace("$1,200.50", '"$1,200.50"'),
        encoding="utf-8",
    )
    assert run(path).strip() == "3 rows: 1 created, 1 updated, 1 unchanged."
    assert SlabValue.objects.get(slab__asset_id="cc-7", date=today).value == Decimal("11.25")
    assert SlabValue.objects.get(
        slab__asset_id="cc-3", date=today - dt.timedelta(days=40)
    ).value == Decimal("1200.50")
    before = list(SlabValue.objects.order_by("id").values_list("id", "value"))
    assert run(path).strip() == "3 rows: 0 created, 0 updated, 3 unchanged."
    assert list(SlabValue.objects.order_by("id").values_list("id", "value")) == before


def test_json_rows(tmp_path, slabs) -> None:
    today = match_day()
    path = tmp_path / "feed.json"
    path.write_text(json.dumps({"values": [{"asset_id": "a", "date": str(today), "value": "70"},
                                           {"asset_id": "cc-1", "date": str(today), "value": 150}]}))  # fmt: skip
    assert "0 created, 2 updated" in run(path)
    assert SlabValue.objects.get(slab__asset_id="cc-1", date=today).value == Decimal("150.00")


def test_every_problem_is_located_and_nothing_is_written(tmp_path, slabs) -> None:
    today = match_day()
    path = tmp_path / "bad.csv"
    path.write_text(
        "asset_id,date,value\n"
        f"cc-7,{today},12.00\n"  # fine, but the file as a whole is refused
        f"nope,{today},1\n"
        f"cc-3,2026-13-45,1\n"
        f"cc-3,{today},12.345\n"
        f"cc-3,{today},-1\n"
        f"cc-3,{today + dt.timedelta(days=2)},1\n"
        f",{today},1\n"
        f"cc-1,{today},abc\n"
        f"cc-1,²,1\n"
        f"cc-2,{today},1\n"
        f"cc-2,{today},2\n",
        encoding="utf-8",
    )
    before = SlabValue.objects.count()
    with pytest.raises(CommandError) as info:
        run(path)
    text = str(info.value)
    for expected in (
        "line 3 (asset_id): no slab 'nope'",
        "line 4 (date): '2026-13-45' is not a date",
        "line 5 (value): '12.345' has more than two decimals",
        "line 6 (value): '-1' must be 0 or more",
        "line 7 (date):",
        "line 8 (asset_id): missing",
        "line 9 (value): 'abc' is not an amount",
        "line 10 (date): '²' is not a date",
        "line 12: cc-2 on",
        "nothing was imported",
    ):
        assert expected in text, (expected, text)
    assert SlabValue.objects.count() == before
    assert SlabValue.objects.get(slab__asset_id="cc-7", date=today).value == Decimal("10.00")


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (
            '[{"asset_id": "cc-7", "date": "2020-01-01", "value": 12.4}]',
            "a JSON number with a fraction",
        ),
        ('[{"asset_id": "cc-7", "date": "2020-01-01"}]', "item 1 (value): missing"),
        ("[1, 2]", "item 1 (asset_id): missing"),
        ('{"rows": []}', "expected a list"),
        ("{nope", "not valid JSON"),
        ("asset_id,value\ncc-7,1\n", "the header must name asset_id, date, value"),
        ("", "the file is empty"),
        ("asset_id,date,value\n", "the file has no rows"),
    ],
)
def test_bad_files(tmp_path, slabs, content: str, problem: str) -> None:
    path = tmp_path / "feed.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError) as info:
        run(path)
    assert problem in str(info.value)


def test_a_missing_or_binary_file(tmp_path, slabs) -> None:
    with pytest.raises(CommandError, match="no such file"):
        run(tmp_path / "nope.csv")
    path = tmp_path / "bin.csv"
    path.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(CommandError, match="not UTF-8"):
        run(path)


def test_grades_go_in_half_steps(db) -> None:
    slab = Slab(asset_id="x-1", name="X", grade=Decimal("9.25"), year=2000)
    with pytest.raises(ValidationError) as info:
        slab.full_clean()
    assert "grade" in info.value.message_dict
    Slab(asset_id="x-2", name="X", grade=Decimal("9.5"), year=2000).full_clean()
    with pytest.raises(ValidationError):
        Slab(asset_id="bad id/", name="X", grade=Decimal("9"), year=2000).full_clean()


def test_one_value_per_slab_and_day(slabs) -> None:
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        SlabValue.objects.create(slab=slabs["cc-7"], date=match_day(), value=Decimal(1))


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("1,5", "line 2 (value): '1,5' is ambiguous"),
        ("12,50", "line 2 (value): '12,50' is ambiguous"),
        ("1,2345", "line 2 (value): '1,2345' is ambiguous"),
        (",100", "line 2 (value): ',100' is ambiguous"),
        ("1" * 5000, "line 2 (value): "),
        ("9e999999999", "line 2 (value): '9e999999999' is too large"),
        ("1e-999999999", "line 2 (value): '1e-999999999' has more than two decimals"),
    ],
)
def test_ambiguous_and_huge_values_are_located_problems(tmp_path, slabs, value, problem) -> None:
    """Issue 26: "1,5" was read as $15.00; a huge value was a raw traceback."""
    path = tmp_path / "feed.csv"
    path.write_text(f'asset_id,date,value\ncc-7,2020-01-01,"{value}"\n', encoding="utf-8")
    with pytest.raises(CommandError) as info:
        run(path)
    assert problem in str(info.value)
    assert "Traceback" not in str(info.value)


def test_thousands_grouped_in_threes_are_dollars(tmp_path, slabs) -> None:
    today = match_day()
    path = tmp_path / "feed.csv"
    path.write_text(
        f'asset_id,date,value\ncc-7,{today},"1,234.50"\ncc-3,{today},"$12,000"\n', encoding="utf-8"
    )
    run(path)
    assert SlabValue.objects.get(slab__asset_id="cc-7", date=today).value == Decimal("1234.50")
    assert SlabValue.objects.get(slab__asset_id="cc-3", date=today).value == Decimal("12000.00")


@pytest.mark.parametrize("day", ["2026-W01-1", "2026-W011", "2026-001", "+2026-01-01"])
def test_only_calendar_dates_are_dates(tmp_path, slabs, day) -> None:
    """Issue 26: an ISO week date ("2026-W01-1") was read as a day."""
    path = tmp_path / "feed.csv"
    path.write_text(f"asset_id,date,value\ncc-7,{day},1\n", encoding="utf-8")
    with pytest.raises(CommandError) as info:
        run(path)
    assert f"line 2 (date): {day!r} is not a date like 2026-01-31" in str(info.value)


def test_deeply_nested_or_huge_json_is_a_located_problem(tmp_path, slabs) -> None:
    path = tmp_path / "feed.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(CommandError, match="nested too deeply"):
        run(path)
    huge = json.dumps([{"asset_id": "cc-7", "date": "2020-01-01", "value": 0}])
    path.write_text(huge.replace("0}", "9" * 5000 + "}"), encoding="utf-8")
    with pytest.raises(CommandError, match=r"item 1 \(value\): .* is too large"):
        run(path)
