"""The daily clean-up as a task (``core.jobs``): expired sessions, then each app's own."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone
from django_tasks import TaskContext, task

from .jobs import run_job


def cleanup() -> list[str]:
    """Delete expired sessions, then run each app's ``cleanup(now)``; the lines to report."""
    now = timezone.now()
    lines = [f"Removed {Session.objects.filter(expire_date__lt=now).count()} expired session(s)."]
    call_command("clearsessions")
    for config in apps.get_app_configs():
        hook = getattr(config, "cleanup", None)
        if callable(hook):
            lines.extend(hook(now))
    return lines


@task(takes_context=True)
def cleanup_task(context: TaskContext) -> Any:
    return run_job(context, lambda progress: {"report": cleanup()})
