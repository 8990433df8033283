"""The balance report as a task (``core.jobs``): bot against bot, win rates stored."""

from __future__ import annotations

from typing import Any

from django_tasks import TaskContext, task

from core.jobs import run_job
from engine.data import DECK_MAX

from .services import run_balance_report


@task(takes_context=True)
def balance_report_task(
    context: TaskContext,
    matches: int = 10_000,
    seed: int = 0,
    deck_size: int = DECK_MAX,
    bots: tuple[str, str] | list[str] = ("greedy", "greedy"),
) -> Any:
    def body(progress):
        report = run_balance_report(
            matches,
            seed,
            deck_size=deck_size,
            bots=(bots[0], bots[1]),
            progress=lambda done: progress(done, matches),
        )
        return {"report": report.pk, "matches": report.matches, "cards": report.cards}

    return run_job(context, body)
