"""A market import as a job (issues 29 and 32): the file is checked in the request or the
command, then ``market_import_task`` applies its rows and records the changes, all or
nothing. The test settings' immediate backend runs a task at once; one test enqueues in
the database backend to see the link staff get."""

from __future__ import annotations

import datetime
import json
from contextlib import contextmanager

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from django_tasks import TaskResultStatus
from django_tasks.signals import task_enqueued

from cards import history
from cards.market import check, rows_as_data, rows_from_data
from cards.models import Attribute, Card, CardChange, RankRecord, SupplyRecord
from cards.tasks import market_import_task
from core import jobs

TODAY = datetime.date.today()
DAY = (TODAY - datetime.timedelta(days=3)).isoformat()
LATER = (TODAY - datetime.timedelta(days=1)).isoformat()
URL = "/en/admin/cards/supplyrecord/import/"
GOOD = [
    {"date": DAY, "slot": "paw", "attribute": "Axe", "supply": 4},
    {"date": LATER, "card": 42, "getgems_rank": 40},
]


@pytest.fixture(autouse=True)
def no_retry_wait(monkeypatch):
    monkeypatch.setattr(jobs, "RETRY_DELAY", 0)


@pytest.fixture
def enqueued():
    """The market import jobs enqueued while the test runs (the backend's
    ``task_enqueued`` signal; a successful one enqueues its follow-ups too)."""
    seen: list = []

    def note(sender, task_result, **kwargs):
        if task_result.task.module_path == "cards.tasks.market_import_task":
            seen.append(task_result)

    task_enqueued.connect(note)
    yield seen
    task_enqueued.disconnect(note)


def _file(rows) -> SimpleUploadedFile:
    return SimpleUploadedFile("m.json", json.dumps(rows).encode())


def test_the_checked_rows_travel_as_json_and_come_back_the_same(legend):
    supplies, ranks = check(json.dumps([*GOOD, {"date": DAY, "card": 42, "getgems_rank": None}]))
    data = rows_as_data(supplies, ranks)
    assert json.loads(json.dumps(data)) == data  # dates as ISO strings
    assert data["supply"][0][1] == DAY
    assert rows_from_data(data) == (supplies, ranks)


def test_a_valid_file_from_the_admin_runs_the_job_and_records_the_changes(
    admin_client, legend, enqueued
):
    followups: list = []

    def note(sender, task_result, **kwargs):
        if task_result.task.module_path.startswith("explorer.tasks."):
            followups.append(task_result)

    task_enqueued.connect(note)
    try:
        response = admin_client.post(URL, {"file": _file(GOOD)}, follow=True)
    finally:
        task_enqueued.disconnect(note)
    assert response.status_code == 200
    (queued,) = enqueued
    assert queued.task.module_path == "cards.tasks.market_import_task"
    assert queued.status == TaskResultStatus.SUCCESSFUL
    assert queued.return_value["supply_rows"] == 1 and queued.return_value["rank_rows"] == 1
    assert queued.return_value["days"] == 2 and queued.return_value["changes"] >= 1
    assert "2 rows imported;" in response.content.decode()
    assert {r.task.module_path.rsplit(".", 1)[1] for r in followups} == {
        "statistics_task",
        "bulk_file_task",
    }
    legend.refresh_from_db()
    assert (legend.rarity, legend.getgems_rank) == ("epic", 40)
    assert SupplyRecord.objects.filter(date=DAY, supply=4).exists()
    assert RankRecord.objects.filter(date=LATER, getgems_rank=40).exists()
    change = CardChange.objects.get(card=legend, field="rarity")
    assert change.causes[0]["attribute"] == "Axe"
    progress = jobs.progress_of(queued.id)
    assert progress["done"] == progress["total"] == 2  # one step per day


def test_an_invalid_file_writes_nothing_and_enqueues_nothing(admin_client, legend, enqueued):
    bad = [*GOOD, {"date": DAY, "slot": "paw", "attribute": "Nope", "supply": -1}]
    response = admin_client.post(URL, {"file": _file(bad)})
    assert response.status_code == 400
    text = response.content.decode()
    assert "row 3, attribute" in text and "row 3, supply" in text
    assert enqueued == []
    assert not SupplyRecord.objects.exists() and not RankRecord.objects.exists()
    assert not CardChange.objects.exists()
    assert Attribute.objects.get(name="Axe").supply == 3


def test_a_failure_inside_the_job_leaves_nothing_half_applied(
    admin_client, legend, enqueued, monkeypatch
):
    recorded = history.record_changes
    attempts = []

    def record_then_fail(*args, **kwargs):
        count = recorded(*args, **kwargs)
        assert CardChange.objects.exists() and SupplyRecord.objects.exists()  # writes made
        attempts.append(count)
        raise RuntimeError("disk full")

    monkeypatch.setattr(history, "record_changes", record_then_fail)
    response = admin_client.post(URL, {"file": _file(GOOD)}, follow=True)
    (queued,) = enqueued
    assert queued.status == TaskResultStatus.FAILED
    assert "disk full" in queued.errors[0].traceback
    assert len(attempts) == jobs.ATTEMPTS  # retried, then reported
    assert jobs.progress_of(queued.id)["error"] == "RuntimeError: disk full"
    assert "The market import failed; nothing was imported." in response.content.decode()
    assert not SupplyRecord.objects.exists() and not RankRecord.objects.exists()
    assert not CardChange.objects.exists()
    legend.refresh_from_db()
    assert (legend.rarity, legend.getgems_rank) == ("legendary", 300)
    assert Attribute.objects.get(name="Axe").supply == 3


def test_an_attribute_deleted_before_the_job_runs_fails_it_by_row(legend):
    data = rows_as_data(*check(json.dumps(GOOD)))
    Card.objects.filter(token=42).delete()
    result = market_import_task.enqueue(rows=data)
    assert result.status == TaskResultStatus.FAILED
    assert "row 2, card: deleted after the file was checked" in result.errors[0].traceback
    assert not SupplyRecord.objects.exists()


@contextmanager
def worker_backend():
    """The site's own backend: jobs wait in the database for a worker."""
    from django_tasks import task_backends

    with override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}):
        task_backends._settings = None  # the handler re-reads TASKS
        yield


def test_with_a_worker_backend_staff_are_told_it_is_queued_and_a_worker_applies_it(
    admin_client, legend
):
    from django_tasks_db.management.commands.db_worker import Worker
    from django_tasks_db.models import DBTaskResult

    with worker_backend():
        response = admin_client.post(URL, {"file": _file(GOOD)}, follow=True)
        queued = DBTaskResult.objects.get()
        link = f"/en/admin/django_tasks_database/dbtaskresult/{queued.id}/change/"
        text = response.content.decode()
        assert "The market import (2 rows) is queued for a worker." in text
        assert f'href="{link}"' in text
        assert admin_client.get(link).status_code == 200
        assert queued.task_path == "cards.tasks.market_import_task"
        assert queued.args_kwargs["kwargs"]["rows"]["supply"][0][1] == DAY
        assert not SupplyRecord.objects.exists()  # nothing applied until a worker runs it
        assert Attribute.objects.get(name="Axe").supply == 3
        # A worker takes it from the database (db_worker's own loop body) and applies it.
        queued.claim("test-worker")
        Worker(
            queue_names=["*"],
            interval=0,
            batch=True,
            backend_name="default",
            startup_delay=False,
            max_tasks=1,
            worker_id="test-worker",
        ).run_task(queued)
        queued.refresh_from_db()
        assert queued.status == TaskResultStatus.SUCCESSFUL, queued.traceback
        assert queued.return_value["supply_rows"] == 1 and queued.return_value["days"] == 2
        assert "cards_derived" in admin_client.get(link).content.decode()  # its result
    assert Attribute.objects.get(name="Axe").supply == 4
    assert CardChange.objects.filter(card=legend, field="rarity", after="epic").exists()


def test_staff_read_in_russian_that_the_import_is_queued_or_done(admin_client, legend):
    with worker_backend():
        response = admin_client.post(
            URL.replace("/en/", "/ru/"), {"file": _file(GOOD)}, follow=True
        )
    text = response.content.decode()
    assert "Импорт рыночных данных (строк: 2) поставлен в очередь" in text
    assert "Ход выполнения и результат</a>" in text
    response = admin_client.post(URL.replace("/en/", "/ru/"), {"file": _file(GOOD)}, follow=True)
    assert "Импортировано строк: 2" in response.content.decode()  # run at once


def test_the_command_enqueues_with_background_and_runs_here_without(
    legend, tmp_path, capsys, enqueued
):
    path = tmp_path / "m.json"
    path.write_text(json.dumps([{"date": DAY, "slot": "paw", "attribute": "Axe", "supply": 4}]))
    call_command("import_market", str(path), "--background")
    assert "Enqueued the market import as task" in capsys.readouterr().out
    (queued,) = enqueued
    assert queued.status == TaskResultStatus.SUCCESSFUL  # the immediate backend ran it
    assert Attribute.objects.get(name="Axe").supply == 4
    path.write_text(json.dumps([{"date": LATER, "slot": "paw", "attribute": "Axe", "supply": 5}]))
    call_command("import_market", str(path))  # in this process, as before
    assert "1 supply rows and 0 rank rows over 1 days" in capsys.readouterr().out
    assert len(enqueued) == 1
    assert Attribute.objects.get(name="Axe").supply == 5


def test_the_command_with_background_refuses_a_bad_file_before_enqueueing(
    legend, tmp_path, capsys, enqueued
):
    path = tmp_path / "m.json"
    path.write_text(json.dumps([{"date": "2999-01-01", "slot": "paw", "attribute": "Axe"}]))
    with pytest.raises(CommandError) as failed:
        call_command("import_market", str(path), "--background")
    assert failed.value.returncode == 2
    err = capsys.readouterr().err
    assert "row 1, date" in err and "row 1, supply" in err
    assert enqueued == []
    assert not SupplyRecord.objects.exists()
