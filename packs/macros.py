"""Live wiki tables of the booster pools (registered from ``PacksConfig.ready()``).

- ``{{ booster_pools }}`` — every pool, linked, with its size and the chance that one
  pack holds at least one Rare, Epic or Legendary card.
- ``{{ booster_pool_odds SLUG }}`` — one pool's exact odds of a pack, per tier.
- ``{{ power_promise }}`` — per pool, how power changes from tier to tier and how many
  cards break the promise; ``{{ power_promise SLUG }}`` — one pool's power by tier.

They read the database, so they are live: filled in on every view of the page.
"""

from __future__ import annotations

import itertools

from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _

from core.labels import label
from engine.data import PACK_TIERS
from engine.packs import offer_odds, power_report
from engine.types import Rarity
from wiki.macros import Col, MacroError, register_macro, table

from . import presenters, selectors
from .models import Pool

__all__ = ["booster_pool_odds", "booster_pools", "power_promise"]


def _pool_link(pool: Pool):
    name = presenters.localized(pool, "name")
    if name.fallback:
        return format_html(
            '<a href="{}" lang="{}">{}</a>', pool.get_absolute_url(), name.lang, name.value
        )
    return format_html('<a href="{}">{}</a>', pool.get_absolute_url(), name.value)


def _rarity(tier: Rarity):
    return format_html('<span class="rarity rarity-{}">{}</span>', tier.value, label(tier))


def _chance_cell(value) -> str:
    shown = presenters.chance(value)
    return f"{shown.percent} ({shown.one_in})"


def _pool(arg: str | None) -> Pool | None:
    slug = (arg or "").strip()
    if not slug:
        raise MacroError(_("Name a pool by its address, for example “whole-collection”."))
    return Pool.objects.filter(slug=slug).first()


def _no_pool(arg: str | None) -> str:
    """A pool a page names that does not exist (any more): a note, not an error box,
    since editors may remove a pool a page still mentions."""
    return format_html(
        '<p class="macro-caption">{}</p>',
        _("There is no pool “%(slug)s” at the moment.") % {"slug": (arg or "").strip()},
    )


@register_macro("booster_pools", live=True)
def booster_pools(arg: str | None) -> str:
    pools = list(Pool.objects.all())
    candidates = selectors.candidates_by_pool([p.id for p in pools])
    rare_tiers = [t for t in PACK_TIERS if t is not Rarity.COMMON]
    rows = []
    for pool in pools:
        pool_now = candidates.get(pool.id)
        if pool_now is None:
            rows.append((_pool_link(pool), "0", str(pool.pack_size), *("—" for _ in rare_tiers)))
            continue
        odds = offer_odds(pool_now, pool.pack_size)
        rows.append(
            (
                _pool_link(pool),
                presenters.num(len(pool_now)),
                str(pool.pack_size),
                *(_chance_cell(odds.tier(t).at_least_one) for t in rare_tiers),
            )
        )
    if not rows:
        return format_html('<p class="macro-caption">{}</p>', _("There is no booster pool yet."))
    return table(
        "booster_pools",
        (
            Col(_("Pool")),
            Col(_("Cards"), num=True),
            Col(_("Pack size"), num=True),
            *(Col(_("At least one %(tier)s") % {"tier": label(t)}, num=True) for t in rare_tiers),
        ),
        rows,
        caption=_(
            "Exact chance that one pack holds at least one card of the tier, as a percentage "
            "and as “1 in N” packs; computed now from each pool's cards."
        ),
    )


@register_macro("booster_pool_odds", live=True)
def booster_pool_odds(arg: str | None) -> str:
    pool = _pool(arg)
    if pool is None:
        return _no_pool(arg)
    odds = offer_odds(selectors.candidates(pool), pool.pack_size)
    rows = [
        (
            _rarity(t.rarity),
            presenters.num(t.cards),
            _chance_cell(t.at_least_one),
            presenters.count(t.expected),
            _chance_cell(t.per_card),
        )
        for t in odds.tiers
    ]
    name = presenters.localized(pool, "name").value
    return table(
        "booster_pool_odds",
        (
            Col(_("Tier")),
            Col(_("Cards"), num=True),
            Col(_("At least one"), num=True),
            Col(_("Expected in a pack"), num=True),
            Col(_("Each card"), num=True),
        ),
        rows,
        caption=_("One pack of %(picks)s cards from “%(pool)s” (%(cards)s cards), exactly.")
        % {
            "picks": odds.picks,
            "pool": name,
            "cards": presenters.num(sum(t.cards for t in odds.tiers)),
        },
    )


@register_macro("power_promise", live=True)
def power_promise(arg: str | None) -> str:
    run = selectors.latest_power_run()
    if run is None:
        return format_html(
            '<p class="macro-caption">{}</p>', _("The power promise has not been measured yet.")
        )
    when = _(
        "Measured on %(date)s: %(matches)s bot-against-bot matches against a gauntlet of "
        "%(decks)s one-card decks."
    ) % {
        "date": date_format(run.created_at, "DATE_FORMAT"),
        "matches": presenters.num(run.matches),
        "decks": len(run.gauntlet),
    }
    if not selectors.power_is_current(run):
        when += " " + _("The collection has changed since.")
    if arg and arg.strip():
        pool = _pool(arg)
        if pool is None:
            return _no_pool(arg)
        report = power_report(selectors.pool_powers(run, pool).values())
        rows = [
            (
                _rarity(t.rarity),
                presenters.num(t.cards),
                presenters.percent(t.mean),
                presenters.percent(t.median),
                presenters.band_text(t),
                presenters.num(t.weak + t.dominant),
            )
            for t in report.tiers
        ]
        return table(
            "power_promise",
            (
                Col(_("Tier")),
                Col(_("Cards measured"), num=True),
                Col(_("Mean win rate"), num=True),
                Col(_("Median"), num=True),
                Col(_("Band (medians of the tiers around)")),
                Col(_("Cards outside the band"), num=True),
            ),
            rows,
            caption=when,
        )
    steps = list(itertools.pairwise(PACK_TIERS))
    rows = []
    for pool in Pool.objects.all():
        report = power_report(selectors.pool_powers(run, pool).values())
        by_pair = {(s.lower, s.upper): s for s in report.steps}
        cells = []
        for lower, upper in steps:
            step = by_pair.get((lower, upper))
            cells.append(
                "—" if step is None else f"{presenters.points(step.points)} ({label(step.verdict)})"
            )
        verdict = _("kept") if report.kept else (_("not kept") if report.steps else "—")
        rows.append((_pool_link(pool), *cells, verdict, presenters.num(len(report.flags))))
    return table(
        "power_promise",
        (
            Col(_("Pool")),
            *(
                Col(_("%(lower)s → %(upper)s") % {"lower": label(a), "upper": label(b)}, num=True)
                for a, b in steps
            ),
            Col(_("Promise")),
            Col(_("Cards flagged"), num=True),
        ),
        rows,
        caption=when
        + " "
        + _(
            "A step is the change of mean win rate, in percentage points, from a tier to the "
            "next one up (— when the pool lacks one of the two)."
        ),
    )


@register_macro("booster_numbers")
def booster_numbers(arg: str | None) -> str:
    """The booster feature's own numbers, from the constants the code uses."""
    from engine import ledger
    from engine import packs as rules

    from .forms import CHECK_PACKS_MAX

    rows = [
        (
            _("Pack size"),
            _("%(low)s to %(high)s cards, %(default)s for a new pool")
            % {
                "low": rules.PACK_SIZE_MIN,
                "high": rules.PACK_SIZE_MAX,
                "default": rules.PACK_SIZE_DEFAULT,
            },
        ),
        (_("Most packs in one check of the odds"), presenters.num(CHECK_PACKS_MAX)),
        (
            _("Fewest packs a group of a chi-square test expects"),
            presenters.num(rules.MIN_EXPECTED),
        ),
        (_("Gauntlet decks of each tier"), presenters.num(rules.GAUNTLET_PER_TIER)),
        (_("Gauntlet seed"), str(rules.GAUNTLET_SEED)),
        (
            _("Matches per gauntlet deck, from each side"),
            presenters.num(rules.GAUNTLET_GAMES_PER_SIDE),
        ),
        (_("Bots"), " / ".join(rules.POWER_BOTS)),
        (
            _("The day's server seed"),
            _("%(count)s random bytes") % {"count": ledger.SERVER_SEED_BYTES},
        ),
        (
            _("A client seed"),
            _("1 to %(most)s characters") % {"most": ledger.CLIENT_SEED_MAX},
        ),
        (
            _("Limit of a modest step between tiers"),
            _("%(points)s percentage points") % {"points": rules.POWER_STEP_LIMIT},
        ),
    ]
    return table(
        "booster_numbers",
        (Col(_("Setting")), Col(_("Value"))),
        rows,
        caption=_("The numbers of the booster pages, as the code uses them."),
    )
