"""The bulk file as a task (``core.jobs``): written by a worker after the collection
changes, so that the first request for ``/api/bulk/cards.json`` finds it ready."""

from __future__ import annotations

from typing import Any

from django_tasks import TaskContext, TaskResultStatus, task

from core.jobs import run_job

from . import bulk


@task(takes_context=True)
def bulk_file_task(context: TaskContext) -> Any:
    def body(progress) -> dict[str, Any]:
        current = bulk.current_file()
        return {"file": str(current.path), "bytes": current.size, "etag": current.etag}

    return run_job(context, body)


@task(takes_context=True)
def statistics_task(context: TaskContext) -> Any:
    """Count the statistics page's figures for the collection's current version, so that
    no view counts a million cards."""
    from .presenters import statistics_figures

    def body(progress) -> dict[str, Any]:
        counts, _supply, _rarest = statistics_figures()
        return {"catalogue": counts["catalogue"], "starters": counts["starters"]}

    return run_job(context, body)


#: The jobs that change the cards' stored fields: a success is followed by the new figures.
CHANGING_CARDS = frozenset({"cards.tasks.recompute_task", "cards.tasks.market_import_task"})


def after_recompute(sender: object, task_result: Any, **kwargs: Any) -> None:
    """When a recompute or market import job succeeds, its follow-ups: the statistics and
    the bulk file of the new version (``django_tasks.signals.task_finished``; connected in
    ``apps.py``)."""
    if task_result.task.module_path not in CHANGING_CARDS:
        return
    if task_result.status != TaskResultStatus.SUCCESSFUL:
        return
    statistics_task.enqueue()
    bulk_file_task.enqueue()
