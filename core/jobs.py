"""Long jobs off the request path: Django's task framework (the ``django-tasks`` backport
with its database backend, ``django_tasks_db``), its progress and its retries.

A job is a task (``@task(takes_context=True)``) whose body runs through ``run_job``:

- **never half-applied**: each attempt runs in one transaction; a failure rolls it back
  whole;
- **retried and reported**: a failed attempt is logged and tried again, up to
  ``ATTEMPTS`` times; the last failure is raised, so the task result is FAILED with its
  traceback in the admin (Tasks → DB task results);
- **progress**: ``progress(done, total)`` from the body is kept in the ``jobs`` cache
  (Redis when the site has one, so every host's admin sees every worker's; else a file
  cache shared by the processes of one host) under the task result's id, and the admin
  list shows it beside the status; the result (the return value) is stored by the
  backend when the job ends.

Workers: ``manage.py db_worker`` (the backport's, on any host sharing the database);
``make run`` starts one beside the server. A management command that wraps a job runs it
in its own process by default (its output as before) or, with ``--background``, enqueues
it for a worker and prints the task result's id.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import caches
from django.db import transaction

logger = logging.getLogger(__name__)

__all__ = ["ATTEMPTS", "Progress", "progress_of", "run_job"]

#: How many times a failing job is tried before it is reported as failed.
ATTEMPTS = 3
#: Seconds to wait before each retry (a database busy for a moment gets time to settle).
RETRY_DELAY = 1.0
_KEY = "job-progress:{}"
_KEEP = 7 * 24 * 60 * 60

T = TypeVar("T")
Progress = Callable[[int, int], None]


def _store(task_id: str, value: dict[str, Any]) -> None:
    try:
        caches["jobs"].set(_KEY.format(task_id), value, _KEEP)
    except Exception:  # progress is a courtesy: never fail a job for it
        logger.warning("Job progress of %s could not be stored.", task_id, exc_info=True)


def progress_of(task_id: object) -> dict[str, Any] | None:
    """The last progress a job reported: ``{"done", "total", "attempt", "error"}``."""
    try:
        return caches["jobs"].get(_KEY.format(task_id))
    except Exception:
        return None


def run_job(context: Any, body: Callable[[Progress], T], *, attempts: int = ATTEMPTS) -> T:
    """Run ``body(progress)`` for the task of ``context`` (a ``TaskContext``, or None when
    called in-process): one transaction per attempt, retried up to ``attempts`` times."""
    task_id = str(context.task_result.id) if context is not None else ""
    state: dict[str, Any] = {"done": 0, "total": 0, "attempt": 1, "error": ""}

    def progress(done: int, total: int) -> None:
        state.update(done=done, total=total)
        if task_id:
            _store(task_id, dict(state))

    for attempt in range(1, attempts + 1):
        state["attempt"] = attempt
        try:
            with transaction.atomic():
                result = body(progress)
        except Exception as error:
            state["error"] = f"{type(error).__name__}: {error}"
            if task_id:
                _store(task_id, dict(state))
            logger.warning(
                "Job %s failed (attempt %d of %d): %s",
                task_id or body,
                attempt,
                attempts,
                error,
                exc_info=attempt == attempts,
            )
            if attempt == attempts:
                raise
            time.sleep(RETRY_DELAY)
            continue
        if task_id:
            state["error"] = ""
            _store(task_id, {**state, "done": state["total"] or state["done"]})
        return result
    raise AssertionError("unreachable")  # pragma: no cover
