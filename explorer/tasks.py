"""The bulk file as a task (``core.jobs``): written by a worker after the collection
changes, so that the first request for ``/api/bulk/cards.json`` finds it ready."""

from __future__ import annotations

from typing import Any

from django_tasks import TaskContext, task

from core.jobs import run_job

from . import bulk


@task(takes_context=True)
def bulk_file_task(context: TaskContext) -> Any:
    def body(progress) -> dict[str, Any]:
        current = bulk.current_file()
        return {"file": str(current.path), "bytes": current.size, "etag": current.etag}

    return run_job(context, body)
