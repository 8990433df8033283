"""The power promise as a task (``core.jobs``): every catalogue card against the gauntlet."""

from __future__ import annotations

from typing import Any

from django_tasks import TaskContext, task

from core.jobs import run_job
from engine.packs import GAUNTLET_GAMES_PER_SIDE, GAUNTLET_PER_TIER, GAUNTLET_SEED

from .services import compute_power


@task(takes_context=True)
def power_task(
    context: TaskContext,
    seed: int = GAUNTLET_SEED,
    per_tier: int = GAUNTLET_PER_TIER,
    games: int = GAUNTLET_GAMES_PER_SIDE,
) -> Any:
    def body(progress):
        run = compute_power(seed=seed, per_tier=per_tier, games=games, progress=progress)
        return {"run": run.pk, "matches": run.matches, "seconds": round(run.seconds, 1)}

    return run_job(context, body)
