"""The collection's long jobs as tasks (``core.jobs``): recompute every card after a rules
change, apply a market import and record what it changes, and write the collection's
export file."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django_tasks import TaskContext, task

from core.jobs import Progress, run_job

from .history import record_rules_version
from .market import apply_market, rows_from_data
from .models import DerivationStamp
from .services import engine_fingerprint, recompute_cards


def recompute(
    *,
    batch_size: int = 2000,
    if_stale: bool = False,
    progress: Progress | None = None,
    processes: int = 1,
):
    """Derive every card again and store what changed (``cards.services.recompute_cards``),
    then stamp the engine's fingerprint; ``{"skipped": True}`` when ``if_stale`` and the
    stored fields are already the engine's. A new rules version is recorded first, with
    every card it changes and why (``cards.history.record_rules_version``); its name is the
    result's ``rules_version``."""
    recorded = record_rules_version()
    version = recorded.version if recorded is not None else None
    fingerprint = engine_fingerprint()
    stamp = DerivationStamp.objects.first()
    if if_stale and stamp is not None and stamp.fingerprint == fingerprint:
        return {"skipped": True, "checked": 0, "changed": 0, "rules_version": version}
    result = recompute_cards(
        batch_size=max(1, batch_size), progress=progress, processes=max(1, processes)
    )
    DerivationStamp.objects.exclude(pk=getattr(stamp, "pk", None)).delete()
    DerivationStamp.objects.update_or_create(
        pk=getattr(stamp, "pk", None), defaults={"fingerprint": fingerprint}
    )
    return {
        "skipped": False,
        "checked": result.checked,
        "changed": result.changed,
        "rules_version": version,
    }


@task(takes_context=True)
def recompute_task(
    context: TaskContext, batch_size: int = 2000, if_stale: bool = False, processes: int = 1
) -> Any:
    """Recompute as a job: one transaction, retried on failure, progress per batch; the
    derivation in ``processes`` processes (2 on this machine's two cores)."""
    return run_job(
        context,
        lambda progress: recompute(
            batch_size=batch_size, if_stale=if_stale, progress=progress, processes=processes
        ),
    )


@task(takes_context=True)
def market_import_task(context: TaskContext, rows: dict[str, list[list[Any]]]) -> Any:
    """Apply a market file's checked rows (``cards.market.rows_as_data``; the request or
    the command checked them) and record the changes they make, with their causes: one
    transaction, all or nothing, retried on failure, progress per day. The result counts
    the rows, days, cards derived again and changes recorded."""

    def body(progress: Progress) -> dict[str, Any]:
        supplies, ranks = rows_from_data(rows)
        return asdict(apply_market(supplies, ranks, progress=progress))

    return run_job(context, body)


@task(takes_context=True)
def export_task(context: TaskContext, path: str) -> Any:
    """Write the whole collection as JSON (the import format) to ``path`` on the worker."""
    from .transfer import export_collection

    def body(progress: Progress) -> dict[str, Any]:
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            counts = export_collection(out)
        return {**counts, "file": path}

    return run_job(context, body)
