"""Dated market data: import_market's checks, its writes, and the changes it records."""

from __future__ import annotations

import datetime
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cards.market import EPOCH, MarketImportError, import_market
from cards.models import Attribute, Card, CardChange, RankRecord, SupplyRecord

TODAY = datetime.date.today()
DAY = (TODAY - datetime.timedelta(days=3)).isoformat()
LATER = (TODAY - datetime.timedelta(days=1)).isoformat()


def _json(rows) -> str:
    return json.dumps(rows)


def test_a_supply_row_changes_the_card_and_records_why(legend):
    result = import_market(_json([{"date": DAY, "slot": "paw", "attribute": "Axe", "supply": 4}]))
    legend.refresh_from_db()
    assert legend.rarity == "epic"
    assert Attribute.objects.get(name="Axe").supply == 4
    assert SupplyRecord.objects.get(date=DAY).supply == 4
    # The value it replaced held before it: a record of it from the epoch.
    assert SupplyRecord.objects.get(date=EPOCH).supply == 3
    change = CardChange.objects.get(card=legend, field="rarity")
    assert (change.date.isoformat(), change.before, change.after) == (DAY, "legendary", "epic")
    assert change.tier_change
    assert change.causes == [
        {
            "kind": "market",
            "what": "supply",
            "slot": "paw",
            "attribute": "Axe",
            "before": 3,
            "after": 4,
        }
    ]
    assert result.changes >= 1


def test_repeating_a_file_changes_nothing(legend):
    text = _json([{"date": DAY, "slot": "paw", "attribute": "Axe", "supply": 4}])
    import_market(text)
    count = CardChange.objects.count()
    again = import_market(text)
    assert again.changes == 0 and again.cards_derived == 0
    assert CardChange.objects.count() == count
    assert SupplyRecord.objects.count() == 2


def test_a_rank_row_and_a_null_rank(legend):
    import_market(_json([{"date": DAY, "card": 42, "getgems_rank": 40}]))
    legend.refresh_from_db()
    assert legend.getgems_rank == 40
    import_market(_json([{"date": LATER, "card": 42, "getgems_rank": None}]))
    legend.refresh_from_db()
    assert legend.getgems_rank is None
    assert list(RankRecord.objects.order_by("date").values_list("getgems_rank", flat=True)) == [
        300,
        40,
        None,
    ]


def test_of_two_changed_inputs_only_the_one_that_matters_is_the_cause(legend):
    import_market(
        _json(
            [
                {"date": DAY, "slot": "paw", "attribute": "Axe", "supply": 4},
                {"date": DAY, "card": 42, "getgems_rank": 250},
            ]
        )
    )
    change = CardChange.objects.get(card=legend, field="rarity")
    assert [c["what"] for c in change.causes] == ["supply"]


def test_an_older_value_is_history_only(legend):
    import_market(_json([{"date": LATER, "slot": "paw", "attribute": "Axe", "supply": 3}]))
    import_market(_json([{"date": DAY, "slot": "paw", "attribute": "Axe", "supply": 9}]))
    assert Attribute.objects.get(name="Axe").supply == 3
    assert SupplyRecord.objects.count() == 2
    assert not CardChange.objects.exists()


def test_csv_with_the_issue_columns(legend):
    text = (
        "date,slot,attribute,card,supply,getgems_rank\n"
        f"{DAY},paw,Axe,,4,\n"
        f"{DAY},,,42,,7\n"
        f"{LATER},,,42,,\n"
    )
    result = import_market(text)
    assert (result.supply_rows, result.rank_rows, result.days) == (1, 2, 2)
    legend.refresh_from_db()
    assert legend.getgems_rank is None
    assert legend.rarity == "epic"


@pytest.mark.parametrize(
    ("row", "column", "words"),
    [
        (
            {"date": DAY, "slot": "paw", "attribute": "Rusty Ring", "supply": 4},
            "attribute",
            "no paw",
        ),
        ({"date": "2999-01-01", "slot": "paw", "attribute": "Axe", "supply": 4}, "date", "future"),
        ({"date": DAY, "slot": "paw", "attribute": "Axe", "supply": -1}, "supply", "at least 1"),
        ({"date": DAY, "slot": "paw", "attribute": "Axe", "supply": "²"}, "supply", "whole number"),
        ({"date": DAY, "card": 42, "getgems_rank": "٣"}, "getgems_rank", "whole number"),
        (
            {"date": "07/12/2026", "slot": "paw", "attribute": "Axe", "supply": 4},
            "date",
            "not a date",
        ),
        ({"date": DAY, "slot": "tail", "attribute": "Axe", "supply": 4}, "slot", "one of"),
        ({"date": DAY, "card": 999, "getgems_rank": 4}, "card", "no card"),
        ({"date": DAY, "card": 42, "getgems_rank": 0}, "getgems_rank", "≥ 1"),
        (
            {"date": DAY, "slot": "paw", "attribute": "Axe", "supply": 4, "colour": 1},
            "colour",
            "unknown",
        ),
    ],
)
def test_a_bad_row_is_refused_with_its_place_and_nothing_is_written(legend, row, column, words):
    good = {"date": DAY, "card": 42, "getgems_rank": 1}
    with pytest.raises(MarketImportError) as refused:
        import_market(_json([good, row]))
    (problem,) = refused.value.problems
    assert (problem.row, problem.column) == (2, column)
    assert words in problem.message
    assert not RankRecord.objects.exists() and not CardChange.objects.exists()
    assert Card.objects.get(token=42).getgems_rank == 300


def test_a_duplicated_row_is_refused(legend):
    row = {"date": DAY, "slot": "paw", "attribute": "Axe", "supply": 4}
    with pytest.raises(MarketImportError) as refused:
        import_market(_json([row, {**row, "supply": 5}]))
    (problem,) = refused.value.problems
    assert (problem.row, "row 1" in problem.message) == (2, True)
    assert not SupplyRecord.objects.exists()


def test_a_csv_with_other_columns_is_refused(legend):
    with pytest.raises(MarketImportError):
        import_market("date,card,rank\n2026-01-01,42,3\n")


def test_the_command_lists_every_problem_and_exits_2(legend, tmp_path, capsys):
    path = tmp_path / "m.json"
    path.write_text(
        _json(
            [
                {"date": "2999-01-01", "slot": "paw", "attribute": "Axe", "supply": 4},
                {"date": DAY, "slot": "paw", "attribute": "Nope", "supply": -2},
            ]
        )
    )
    with pytest.raises(CommandError) as failed:
        call_command("import_market", str(path))
    assert failed.value.returncode == 2
    err = capsys.readouterr().err
    assert "row 1, date" in err and "row 2, attribute" in err and "row 2, supply" in err
    path.write_text(_json([{"date": DAY, "slot": "paw", "attribute": "Axe", "supply": 4}]))
    call_command("import_market", str(path))
    assert "1 supply rows" in capsys.readouterr().out


def test_staff_import_from_the_admin(admin_client, legend):
    from django.core.files.uploadedfile import SimpleUploadedFile

    url = "/en/admin/cards/supplyrecord/import/"
    assert admin_client.get(url).status_code == 200
    bad = SimpleUploadedFile(
        "m.json", _json([{"date": DAY, "slot": "paw", "attribute": "X", "supply": 4}]).encode()
    )
    response = admin_client.post(url, {"file": bad})
    assert response.status_code == 400
    assert "row 1, attribute" in response.content.decode()
    good = SimpleUploadedFile(
        "m.json", _json([{"date": DAY, "slot": "paw", "attribute": "Axe", "supply": 4}]).encode()
    )
    response = admin_client.post(url, {"file": good})
    assert response.status_code == 302
    assert Attribute.objects.get(name="Axe").supply == 4
    assert admin_client.get("/en/admin/cards/supplyrecord/").status_code == 200
    assert admin_client.get("/en/admin/cards/cardchange/").status_code == 200
