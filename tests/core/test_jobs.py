"""Long jobs off the request path (issue 32): tasks on the django-tasks backport, run at
once by the test settings' immediate backend, except the last test, which enqueues jobs
in a throwaway database and lets a real ``db_worker`` process run them."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings
from django_tasks import TaskResultStatus

from cards.models import Card, DerivationStamp
from cards.specs import DERIVED_FIELDS
from cards.tasks import recompute_task
from core import jobs
from core.tasks import cleanup_task
from engine.data import RULES_VERSION
from tests.cards.conftest import make_card

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def no_retry_wait(monkeypatch):
    monkeypatch.setattr(jobs, "RETRY_DELAY", 0)


@pytest.mark.django_db
def test_recompute_runs_as_a_task_with_its_progress_and_result():
    card = make_card(1)
    Card.objects.filter(pk=card.pk).update(atk=999)  # stale: the engine says otherwise
    result = recompute_task.enqueue(batch_size=1)
    assert result.status == TaskResultStatus.SUCCESSFUL
    assert result.return_value == {
        "skipped": False,
        "checked": 1,
        "changed": 1,
        "rules_version": RULES_VERSION,  # the database's first: recorded by the job
    }
    card.refresh_from_db()
    assert card.atk != 999
    assert DerivationStamp.objects.count() == 1
    progress = jobs.progress_of(result.id)
    assert progress["done"] == progress["total"] == 1 and progress["error"] == ""
    again = recompute_task.enqueue(if_stale=True)
    assert again.return_value["skipped"] is True


@pytest.mark.django_db
def test_a_failing_job_is_retried_and_never_half_applied():
    calls = []

    def flaky(progress):
        calls.append(1)
        make_card(len(calls) + 10)  # a write…
        if len(calls) < 3:
            raise RuntimeError("database went away")  # …that this attempt rolls back
        return "done"

    assert jobs.run_job(None, flaky) == "done"
    assert len(calls) == 3
    assert list(Card.objects.values_list("token", flat=True)) == [13]


@pytest.mark.django_db
def test_a_job_failing_every_time_is_reported_with_nothing_applied():
    def broken(progress):
        make_card(7)
        raise ValueError("bad rules")

    with pytest.raises(ValueError, match="bad rules"):
        jobs.run_job(None, broken, attempts=2)
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_a_failed_task_is_failed_with_its_error_in_the_progress(monkeypatch):
    def boom(**kwargs):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr("cards.tasks.recompute_cards", boom)
    result = recompute_task.enqueue()
    assert result.status == TaskResultStatus.FAILED
    assert "engine exploded" in result.errors[0].traceback
    state = jobs.progress_of(result.id)
    assert state["attempt"] == jobs.ATTEMPTS and "engine exploded" in state["error"]


@pytest.mark.django_db
def test_the_commands_keep_running_in_process_and_can_enqueue(capsys):
    make_card(1)
    call_command("recompute")
    assert "1 cards checked" in capsys.readouterr().out
    call_command("recompute", "--background")  # the immediate backend runs it at once
    assert "Enqueued the recompute as task" in capsys.readouterr().out
    call_command("cleanup", "--background")
    assert "Enqueued clean-up as task" in capsys.readouterr().out
    call_command("cleanup")
    assert "expired session(s)" in capsys.readouterr().out


@pytest.mark.django_db
def test_staff_see_each_jobs_progress_and_result_in_the_admin(admin_client):
    with override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}):
        from django_tasks import task_backends

        task_backends._settings = None  # the handler re-reads TASKS
        queued = cleanup_task.using(backend="default").enqueue()
        jobs._store(str(queued.id), {"done": 5, "total": 8, "attempt": 2, "error": ""})
        page = admin_client.get("/en/admin/django_tasks_database/dbtaskresult/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "cleanup_task" in text and "5 / 8" in text and "attempt 2" in text


def test_a_real_worker_process_runs_enqueued_jobs(tmp_path):
    """``manage.py db_worker`` (the backport's worker) takes the jobs that the commands'
    ``--background`` enqueued in the shared database and runs them to success."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.bench",
        "BENCH_SQLITE_PATH": str(tmp_path / "jobs.sqlite3"),
        "DJANGO_CACHE_URL": "",
    }
    env.pop("DATABASE_URL", None)

    def manage(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    manage("migrate", "-v0")
    assert "Enqueued" in manage("cleanup", "--background")
    assert "Enqueued" in manage("recompute", "--background")
    manage("db_worker", "--batch", "--no-startup-delay", "--no-reload", "-v0")
    with sqlite3.connect(tmp_path / "jobs.sqlite3") as db:
        rows = db.execute(
            "SELECT task_path, status, return_value FROM django_tasks_database_dbtaskresult"
        ).fetchall()
    # The recompute's success enqueued its follow-ups, which the worker ran too.
    assert sorted((path.rsplit(".", 1)[1], status) for path, status, _ in rows) == [
        ("bulk_file_task", "SUCCESSFUL"),
        ("cleanup_task", "SUCCESSFUL"),
        ("recompute_task", "SUCCESSFUL"),
        ("statistics_task", "SUCCESSFUL"),
    ]


@pytest.mark.django_db
def test_the_bulk_file_is_written_by_a_task():
    from explorer.tasks import bulk_file_task

    make_card(1)
    result = bulk_file_task.enqueue()
    assert result.status == TaskResultStatus.SUCCESSFUL
    written = Path(result.return_value["file"])
    assert written.exists() and written.stat().st_size == result.return_value["bytes"]


@pytest.mark.django_db
def test_a_recompute_is_followed_by_the_statistics_and_the_bulk_file(
    django_assert_max_num_queries,
):
    from explorer.presenters import statistics_figures

    make_card(1)
    make_card(2, starter=True)
    recompute_task.enqueue()
    with django_assert_max_num_queries(1):  # the content versions at most: figures kept
        counts, _supply, _rarest = statistics_figures()
    assert counts["catalogue"] == 1 and counts["starters"] == 1


@pytest.mark.django_db
def test_a_recompute_derived_in_two_processes_stores_what_one_process_does():
    for token in range(1, 8):
        make_card(token, burned_stickers=token * 3, getgems_rank=token * 40)
    Card.objects.update(atk=0, rarity="common", rarity_rank=1)  # a rules change, say
    result = recompute_task.enqueue(batch_size=3, processes=2)
    assert result.return_value["changed"] == 7
    in_two = list(Card.objects.order_by("token").values_list(*DERIVED_FIELDS))
    Card.objects.update(atk=0, rarity="common", rarity_rank=1)
    recompute_task.enqueue(batch_size=3, processes=1)
    assert list(Card.objects.order_by("token").values_list(*DERIVED_FIELDS)) == in_two
