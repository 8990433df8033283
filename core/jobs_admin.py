"""The task results in the admin with each job's progress and result (``core.jobs``).

The backport's own admin (``django_tasks_db``) lists id, task, status and times; this one
adds the progress a running job reports, its attempt and last error, and the result.
Registered from ``CoreConfig.ready`` (after the backport's admin is loaded).
"""

from __future__ import annotations

import json

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_tasks_db.admin import DBTaskResultAdmin
from django_tasks_db.models import DBTaskResult

from .jobs import progress_of


class JobAdmin(DBTaskResultAdmin):
    list_display: tuple[str, ...] = (  # type: ignore[assignment]
        "task_name",
        "status",
        "progress",
        "result",
        "enqueued_at",
        "started_at",
        "finished_at",
    )

    @admin.display(description=_("progress"))
    def progress(self, obj: DBTaskResult) -> str:
        state = progress_of(obj.id)
        if not state:
            return "—"
        done, total = state.get("done", 0), state.get("total", 0)
        text = f"{done:,} / {total:,}" if total else f"{done:,}"
        if state.get("attempt", 1) > 1:
            text += " · " + str(_("attempt %(n)s") % {"n": state["attempt"]})
        if state.get("error"):
            text += " · " + state["error"]
        return text

    @admin.display(description=_("result"))
    def result(self, obj: DBTaskResult) -> str:
        if obj.return_value is None:
            return obj.exception_class_path or "—"
        return json.dumps(obj.return_value, ensure_ascii=False)[:200]

    def get_readonly_fields(
        self, request: HttpRequest, obj: DBTaskResult | None = None
    ) -> list[str]:
        return [*super().get_readonly_fields(request, obj), "progress", "result"]


def register() -> None:
    if admin.site.is_registered(DBTaskResult):
        admin.site.unregister(DBTaskResult)
    admin.site.register(DBTaskResult, JobAdmin)
