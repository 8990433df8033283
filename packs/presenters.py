"""What the booster pages show, as typed values: chances worded as a percentage and as
"1 in N", tier rows, card tiles with their pictures, SVG chart geometry, the power
promise, a check's results. Templates only print these.

Chances are exact fractions from ``engine.packs``; they are rounded only here, half up,
from the exact value (never through a float that would turn 2/3 into 66.6%).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.conf import settings
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from cards.art import CardArt, card_art
from cards.models import Card
from core import versions
from core.labels import label, label_of
from core.links import token_path
from core.translated import LocalizedText, localized
from engine.data import PACK_TIERS
from engine.packs import (
    POWER_STEP_LIMIT,
    CardPower,
    ChiSquareTest,
    OddsCheck,
    OfferOdds,
    PowerFlag,
    PowerReport,
    TierPower,
)
from engine.types import Rarity, Role

from .models import Pool, PowerRun
from .narration import CHECK, STEPS

DEFAULT_LANGUAGE = settings.MODELTRANSLATION_DEFAULT_LANGUAGE

# ---------------------------------------------------------------------------
# Numbers


def num(value: int | float | Decimal, decimals: int = 0) -> str:
    """A number in the visitor's locale, grouped (1,000 / 1 000)."""
    return number_format(value, decimals, use_l10n=True, force_grouping=True)


def _decimal(value: Fraction, places: int) -> Decimal:
    """``value`` rounded half up (away from zero) to ``places`` decimals, from the exact
    fraction, in whole numbers: a collection chance over 1,000 packs is a fraction of
    tens of thousands of bits, which a ``Decimal`` conversion took milliseconds to read."""
    scaled = abs(value.numerator) * 10**places
    halves = (2 * scaled + value.denominator) // (2 * value.denominator)
    return Decimal(-halves if value < 0 else halves).scaleb(-places)


def percent(chance: Fraction) -> str:
    """A chance as a percentage: one decimal from 1% up, more below, none when whole.

    Rounded half up from the exact value; a chance too small to show reads "< 0.001%".
    """
    value = chance * 100
    if value.denominator == 1:
        return _("%(value)s%%") % {"value": num(int(value))}
    places = 1 if value >= 1 else (2 if value >= Fraction(1, 10) else 3)
    shown = _decimal(value, places)
    if shown == 0:
        return _("< %(value)s%%") % {"value": num(Decimal("0.001"), 3)}
    if shown == 100:  # not a certainty: never round it up to one
        return _("> %(value)s%%") % {"value": num(Decimal("99.9"), 1)}
    return _("%(value)s%%") % {"value": num(shown, places)}


def one_in(chance: Fraction) -> str:
    """A chance as "1 in N" (N = 1 / chance): a decimal below 10, whole from there."""
    if chance <= 0:
        return _("never")
    if chance >= 1:
        return _("every pack")
    n = 1 / chance
    if _decimal(n, 2) == 1:
        return _("almost every pack")
    if n < 10:
        places = 2 if _decimal(n, 1) == 1 else 1  # 97.8% reads "1 in 1.02", not "1 in 1.0"
        shown = num(_decimal(n, places), places)
    else:
        shown = num(_decimal(n, 0), 0)
    return _("1 in %(n)s") % {"n": shown}


def points(value: Fraction) -> str:
    """Percentage points with a sign, one decimal: "+6.5", "−2.0"."""
    shown = _decimal(abs(value), 1)
    sign = "+" if value > 0 else ("−" if value < 0 else "±")
    return f"{sign}{num(shown, 1)}"


@dataclass(frozen=True, slots=True)
class Chance:
    """One chance, worded three ways, and its value for charts and JSON."""

    percent: str
    one_in: str
    fraction: str
    value: float


def chance(value: Fraction) -> Chance:
    return Chance(percent(value), one_in(value), str(value), float(value))


def count(value: Fraction) -> str:
    """An expected count: two decimals (whole numbers without)."""
    if value.denominator == 1:
        return num(int(value))
    return num(_decimal(value, 2), 2)


# ---------------------------------------------------------------------------
# Pools


@dataclass(frozen=True, slots=True)
class TierRow:
    rarity: str
    label: str
    cards: int
    at_least_one: Chance
    expected: str
    per_card: Chance


def tier_rows(odds: OfferOdds) -> list[TierRow]:
    return [
        TierRow(
            t.rarity.value,
            label(t.rarity),
            t.cards,
            chance(t.at_least_one),
            count(t.expected),
            chance(t.per_card),
        )
        for t in odds.tiers
    ]


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    rarity: str
    y: int
    width: int
    value: str
    ghost_width: int = 0  # a second, outlined bar (the exact odds next to what was seen)
    ghost_value: str = ""


@dataclass(frozen=True, slots=True)
class Chart:
    title: str
    bars: tuple[Bar, ...]
    width: int
    height: int
    label_width: int
    bar_area: int
    bar_height: int
    ticks: tuple[tuple[int, str], ...]

    @property
    def label_x(self) -> int:
        return self.label_width - 8

    @property
    def value_x(self) -> int:
        return self.label_width + self.bar_area + 8

    @property
    def axis_y(self) -> int:
        return self.height - 4

    @property
    def text_y(self) -> int:  # a bar's text baseline, inside its row
        return self.bar_height - 7

    @property
    def ghost_y(self) -> int:  # the outlined bar, under the filled one
        return self.bar_height + 4

    @property
    def ghost_text_y(self) -> int:
        return self.ghost_y + self.bar_height - 7


CHART_WIDTH = 440
CHART_LABEL = 96
CHART_VALUE = 124
BAR = 24
GAP = 14


def percent_chart(title: str, rows: Sequence[tuple[str, str, Fraction, Fraction | None]]) -> Chart:
    """Horizontal bars on a fixed 0–100% scale: (label, rarity, value, ghost value or None).

    >>> chart = percent_chart("Odds", [("Common", "common", Fraction(1, 2), None)])
    >>> chart.bars[0].width, chart.bar_area, [x for x, _ in chart.ticks]
    (110, 220, [0, 55, 110, 165, 220])
    """
    area = CHART_WIDTH - CHART_LABEL - CHART_VALUE
    bars = []
    step = BAR * 2 + 4 if any(r[3] is not None for r in rows) else BAR
    for i, (name, rarity, value, ghost) in enumerate(rows):
        bars.append(
            Bar(
                name,
                rarity,
                i * (step + GAP),
                max(round(area * float(value)), 1 if value else 0),
                percent(value),
                max(round(area * float(ghost)), 1 if ghost else 0) if ghost is not None else 0,
                percent(ghost) if ghost is not None else "",
            )
        )
    height = max(len(bars) * (step + GAP) - GAP, BAR) + 22
    ticks = tuple((round(area * q / 4), percent(Fraction(q, 4))) for q in range(5))
    return Chart(title, tuple(bars), CHART_WIDTH, height, CHART_LABEL, area, BAR, ticks)


@dataclass(frozen=True, slots=True)
class PoolSummary:
    slug: str
    name: LocalizedText
    description: LocalizedText
    pack_size: int
    cards: int
    tiers: tuple[tuple[str, str, int], ...]  # (rarity, label, count)
    url: str


def pool_summary(pool: Pool, counts: Mapping[str, int]) -> PoolSummary:
    return PoolSummary(
        pool.slug,
        localized(pool, "name"),
        localized(pool, "description"),
        pool.pack_size,
        sum(counts.values()),
        tuple((t.value, label(t), counts.get(t.value, 0)) for t in PACK_TIERS),
        reverse("packs:pool-detail", kwargs={"slug": pool.slug}),
    )


# ---------------------------------------------------------------------------
# Cards


@dataclass(frozen=True, slots=True)
class CardTile:
    token: int
    name: str
    rarity: str
    rarity_label: str
    role_label: str
    art: CardArt
    url: str
    #: "In a pack: 1.2% (1 in 83)", worded once per tier (``odds_by_tier``).
    odds_line: str | None = None
    #: "Power: 54.5% of matches won".
    power_line: str | None = None
    flag: str | None = None
    flag_label: str | None = None
    count: int = 0
    #: The card picture's fragment key (``{% cache … card_art art_key LANGUAGE_CODE %}``):
    #: the token and the ``cards`` content version, so an edited card shows at once.
    art_key: str = ""


def card_tile(
    card: Card,
    *,
    odds: Mapping[str, str] | None = None,
    power: CardPower | None = None,
    flag: PowerFlag | None = None,
    count: int = 0,
    cards_version: str | None = None,
) -> CardTile:
    """A card with its picture (``cards.art.card_art``), its chance in a pack (by its
    tier, ``odds``: ``odds_by_tier``), its power and its promise flag, or how many times it was pulled.
    ``cards_version`` is ``versions.current("cards")``, read once by a view of many tiles."""
    if cards_version is None:
        cards_version = versions.current("cards")
    rate = power.rate if power is not None else None
    return CardTile(
        card.token,
        card.name,
        card.rarity,
        label_of(Rarity, card.rarity),
        label_of(Role, card.role),
        card_art(
            card.token,
            card.name,
            card.rarity,
            {slot: getattr(card, slot).name for slot in ("head", "body", "paw", "background")},
        ),
        token_path("explorer:card-detail", card.token),
        odds.get(card.rarity) if odds is not None else None,
        _("Power: %(power)s of matches won") % {"power": percent(rate)}
        if rate is not None
        else None,
        flag.value if flag is not None else None,
        label(flag) if flag is not None else None,
        count,
        f"{card.token}:{cards_version}",
    )


# ---------------------------------------------------------------------------
# The power promise


@dataclass(frozen=True, slots=True)
class PowerTierRow:
    rarity: str
    label: str
    cards: int
    mean: str
    median: str
    band: str
    weak: int
    dominant: int


@dataclass(frozen=True, slots=True)
class StepLine:
    verdict: str
    text: str


@dataclass(frozen=True, slots=True)
class PowerView:
    measured_on: object  # a datetime, formatted by the template
    current: bool
    matches: str
    gauntlet: int
    per_tier: int
    tiers: tuple[PowerTierRow, ...]
    steps: tuple[StepLine, ...]
    kept: bool
    verdict: str
    flagged: int
    unmeasured: int
    limit: int


def band_text(row: TierPower) -> str:
    if row.low is None and row.high is None:
        return "—"
    if row.low is None:
        return _("up to %(high)s") % {"high": percent(row.high)}
    if row.high is None:
        return _("from %(low)s") % {"low": percent(row.low)}
    return _("%(low)s to %(high)s") % {"low": percent(row.low), "high": percent(row.high)}


def power_view(run: PowerRun, report: PowerReport, current: bool) -> PowerView:
    tiers = tuple(
        PowerTierRow(
            t.rarity.value,
            label(t.rarity),
            t.cards,
            percent(t.mean),
            percent(t.median),
            band_text(t),
            t.weak,
            t.dominant,
        )
        for t in report.tiers
    )
    steps = tuple(
        StepLine(
            s.verdict.value,
            STEPS.say(
                s.verdict.value,
                {"lower": label(s.lower), "upper": label(s.upper), "points": points(s.points)},
            ),
        )
        for s in report.steps
    )
    if not report.steps:
        verdict = _("This pool has one tier only: there is no step between tiers to measure.")
    elif report.kept:
        verdict = _(
            "The promise is kept: each rarer tier is stronger, by less than %(limit)s "
            "percentage points."
        ) % {"limit": POWER_STEP_LIMIT}
    else:
        verdict = _(
            "The promise is not kept: a rarer tier should be stronger by less than %(limit)s "
            "percentage points, and here at least one step is not."
        ) % {"limit": POWER_STEP_LIMIT}
    return PowerView(
        run.created_at,
        current,
        num(run.matches),
        len(run.gauntlet),
        run.per_tier,
        tiers,
        steps,
        report.kept,
        verdict,
        len(report.flags),
        report.unmeasured,
        POWER_STEP_LIMIT,
    )


# ---------------------------------------------------------------------------
# Checking the odds


@dataclass(frozen=True, slots=True)
class ChiSquareView:
    ran: bool
    statistic: str
    df: int
    p_value: str
    suspicious: bool
    note: str


def chi_square_view(test: ChiSquareTest) -> ChiSquareView:
    """A chi-square test worded: its p-value, or why it did not run."""
    if test.skipped is not None:
        params = {"packs": num(test.packs_needed or 0)}
        return ChiSquareView(False, "", 0, "", False, CHECK.say(test.skipped.value, params))
    p = test.p_value or 0.0
    shown = num(p, 3) if p >= 0.001 else _("< %(value)s") % {"value": num(0.001, 3)}
    return ChiSquareView(True, num(test.statistic or 0.0, 2), test.df, shown, p < 0.01, "")


@dataclass(frozen=True, slots=True)
class CheckTierRow:
    rarity: str
    label: str
    cards: int
    packs_with: str
    packs_with_expected: str
    drawn: str
    drawn_expected: str
    test: ChiSquareView


@dataclass(frozen=True, slots=True)
class CheckCardRow:
    token: int
    name: str
    rarity: str
    observed: str
    expected: str
    url: str


@dataclass(frozen=True, slots=True)
class CheckGroup:
    rarity: str
    label: str
    rows: tuple[CheckCardRow, ...]


@dataclass(frozen=True, slots=True)
class CheckView:
    packs: str
    seed: int
    picks: int
    tiers: tuple[CheckTierRow, ...]
    groups: tuple[CheckGroup, ...]
    tier_test: ChiSquareView
    card_test: ChiSquareView
    chart: Chart


def check_view(check: OddsCheck, seed: int, names: Mapping[int, str]) -> CheckView:
    tiers = tuple(
        CheckTierRow(
            t.rarity.value,
            label(t.rarity),
            t.cards,
            num(t.packs_with),
            count(t.packs_with_expected),
            num(t.drawn),
            count(t.drawn_expected),
            chi_square_view(t.test),
        )
        for t in check.tiers
        if t.cards
    )
    groups = []
    for tier in PACK_TIERS:
        rows = tuple(
            CheckCardRow(
                int(c.card_id),
                names.get(int(c.card_id), f"#{c.card_id}"),
                c.rarity.value,
                num(c.observed),
                count(c.expected),
                token_path("explorer:card-detail", int(c.card_id)),
            )
            for c in check.cards
            if c.rarity is tier
        )
        if rows:
            groups.append(CheckGroup(tier.value, label(tier), rows))
    total = check.packs * check.picks
    chart = percent_chart(
        _("Share of the cards drawn, by tier: seen (filled) and exact (outlined)"),
        [
            (
                label(t.rarity),
                t.rarity.value,
                Fraction(t.drawn, total) if total else Fraction(0),
                t.drawn_expected / total if total else Fraction(0),
            )
            for t in check.tiers
            if t.cards
        ],
    )
    return CheckView(
        num(check.packs),
        seed,
        check.picks,
        tiers,
        tuple(groups),
        chi_square_view(check.tier_test),
        chi_square_view(check.card_test),
        chart,
    )


def odds_by_tier(rows: Sequence[TierRow]) -> dict[str, str]:
    """Each tier's chance per card as its tiles say it, worded once (from ``tier_rows``)
    for all the tier's tiles."""
    return {
        row.rarity: _("In a pack: %(percent)s (%(one_in)s)")
        % {"percent": row.per_card.percent, "one_in": row.per_card.one_in}
        for row in rows
    }
