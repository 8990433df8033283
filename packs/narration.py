"""The booster feature's engine codes in words (``core.narration.Registry``).

- ``STEPS``: how power changes from one tier to the next (``engine.packs.PromiseStep``),
  with ``lower``, ``upper`` (tier names) and ``points`` (signed percentage points).
- ``CHECK``: why a chi-square test of "check the odds" did not run
  (``engine.packs.CheckSkip``), with ``packs`` (how many packs would be enough).

A test proves every code the engine can emit has its sentence here.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.narration import Registry
from engine.packs import POWER_STEP_LIMIT, CheckSkip, PromiseStep

__all__ = ["CHECK", "STEPS"]

STEPS = Registry("packs.promise_step", [step.value for step in PromiseStep])
CHECK = Registry("packs.check_skip", [skip.value for skip in CheckSkip])


@STEPS.register(PromiseStep.MODEST.value, section=None)
def _modest(p, v) -> str:
    return _(
        "%(lower)s → %(upper)s: %(points)s points, a modest step (under %(limit)s): "
        "the promise kept."
    ) % {**p, "limit": POWER_STEP_LIMIT}


@STEPS.register(PromiseStep.STEEP.value, section=None)
def _steep(p, v) -> str:
    return _(
        "%(lower)s → %(upper)s: %(points)s points, too steep (the promise is under "
        "%(limit)s): rarity here is a multiplier, not a spike."
    ) % {**p, "limit": POWER_STEP_LIMIT}


@STEPS.register(PromiseStep.NOT_RISING.value, section=None)
def _not_rising(p, v) -> str:
    return (
        _(
            "%(lower)s → %(upper)s: %(points)s points: the rarer tier is not stronger, so its "
            "colour promises nothing."
        )
        % p
    )


@CHECK.register(CheckSkip.ONE_OUTCOME.value, section=None)
def _one_outcome(p, v) -> str:
    return _("Nothing to test: this pool can only give one result here.")


@CHECK.register(CheckSkip.TOO_FEW_PACKS.value, section=None)
def _too_few(p, v) -> str:
    return _("Too few packs for a reliable test: check at least %(packs)s packs.") % p
