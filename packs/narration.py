"""The booster feature's engine codes in words (``core.narration.Registry``).

- ``STEPS``: how power changes from one tier to the next (``engine.packs.PromiseStep``),
  with ``lower``, ``upper`` (tier names) and ``points`` (signed percentage points).
- ``CHECK``: why a chi-square test of "check the odds" did not run
  (``engine.packs.CheckSkip``), with ``packs`` (how many packs would be enough).
- ``REFUSALS``: what the booster pages refuse (``Refusal``): an empty pool, a client
  seed empty or too long, a ledger date that is not a date, is to come, or has no ledger.
- ``LEDGER``: a ledger check's faults (``engine.ledger.LedgerFault``), with ``n`` (the
  opening's number) or ``detail``.

A test proves every code the engine can emit has its sentence here.
"""

from __future__ import annotations

import enum

from django.utils.translation import gettext as _

from core.narration import Registry
from engine.ledger import LedgerFault
from engine.packs import POWER_STEP_LIMIT, CheckSkip, PromiseStep

__all__ = ["CHECK", "LEDGER", "REFUSALS", "STEPS", "Refusal"]


class Refusal(enum.StrEnum):
    """What the booster pages refuse (``REFUSALS``), with the parameters each sentence takes."""

    EMPTY_POOL = "empty_pool"
    RESENT = "resent"  # not a refusal: the same form sent twice finds its pack
    CLIENT_SEED_EMPTY = "client_seed_empty"  # max
    CLIENT_SEED_LONG = "client_seed_long"  # max, length
    BAD_DATE = "bad_date"  # date
    FUTURE_DATE = "future_date"  # date
    NO_LEDGER = "no_ledger"  # date


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


# ---------------------------------------------------------------------------
# Refusals of the booster pages, and the ledger check's faults

REFUSALS = Registry("packs.refusal", [refusal.value for refusal in Refusal])
LEDGER = Registry("packs.ledger_fault", [fault.value for fault in LedgerFault])


@REFUSALS.register(Refusal.EMPTY_POOL.value, section=None)
def _empty_pool(p, v) -> str:
    return _("This pool has no cards yet, so there is no pack to open.")


@REFUSALS.register(Refusal.RESENT.value, section=None)
def _resent(p, v) -> str:
    return _("That form was already sent: here is the pack it opened.")


@REFUSALS.register(Refusal.CLIENT_SEED_EMPTY.value, section=None)
def _client_seed_empty(p, v) -> str:
    return _("Give a client seed: any text of 1 to %(max)s characters.") % p


@REFUSALS.register(Refusal.CLIENT_SEED_LONG.value, section=None)
def _client_seed_long(p, v) -> str:
    return _("A client seed has at most %(max)s characters (this one has %(length)s).") % p


@REFUSALS.register(Refusal.BAD_DATE.value, section=None)
def _bad_date(p, v) -> str:
    return _("“%(date)s” is not a date: write it as YYYY-MM-DD, say 2026-12-07.") % p


@REFUSALS.register(Refusal.FUTURE_DATE.value, section=None)
def _future_date(p, v) -> str:
    return _("%(date)s has not come yet (UTC): its ledger does not exist yet.") % p


@REFUSALS.register(Refusal.NO_LEDGER.value, section=None)
def _no_ledger(p, v) -> str:
    return _("There is no ledger for %(date)s: no pack was opened on the site that day.") % p


@LEDGER.register(LedgerFault.SHAPE.value, section=None)
def _fault_shape(p, v) -> str:
    return _("This is not a ledger in the expected shape: %(detail)s.") % p


@LEDGER.register(LedgerFault.COMMITMENT.value, section=None)
def _fault_commitment(p, v) -> str:
    return _("The revealed server seed does not hash to the day's commitment.")


@LEDGER.register(LedgerFault.NUMBER.value, section=None)
def _fault_number(p, v) -> str:
    return _("Opening %(n)s is out of order in the ledger.") % p


@LEDGER.register(LedgerFault.PREV.value, section=None)
def _fault_prev(p, v) -> str:
    return _("Opening %(n)s does not link to the one before it: the chain is broken.") % p


@LEDGER.register(LedgerFault.HASH.value, section=None)
def _fault_hash(p, v) -> str:
    return _("Opening %(n)s was altered: its hash is not the hash of its contents.") % p


@LEDGER.register(LedgerFault.VERSION.value, section=None)
def _fault_version(p, v) -> str:
    return _("Opening %(n)s names odds the ledger does not hold.") % p


@LEDGER.register(LedgerFault.PICKS.value, section=None)
def _fault_picks(p, v) -> str:
    return _("Opening %(n)s: drawing again from the seeds gives other cards.") % p
