"""The arena's wiki tables, registered from ``ArenaConfig.ready()``:

- ``{{ arena_match_rules }}`` — the match's numbers (energy, costs, points, clock, turn
  limit), from ``engine.arena.slabs``.
- ``{{ arena_bots }}`` — the bots a player can face.
- ``{{ arena_balance }}`` (live) — the latest balance report: the first player's results
  against the second's, win rates by tier, by element advantage, by the opening slabs'
  elements and by bracket.

No number is typed here: rules come from the engine, results from the stored report.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from core.labels import describe, label, label_of
from engine.arena import slabs
from engine.arena.bots import ArenaBot
from engine.arena.slabs import Bracket, Element, SlabTier
from wiki.macros import Col, num, percent, register_macro, table

from .formatting import money

# How sure the balance verdict must be: a 95 % interval (normal approximation).
Z_95 = 1.96


@register_macro("arena_match_rules")
def arena_match_rules(arg: str | None) -> str:
    """The arena match's rule numbers."""
    rows = [
        (_("Slabs in a team (on the field, on the bench)"),
         f"{num(slabs.TEAM_SIZE)} ({num(slabs.FIELD_SLABS)} + {num(slabs.TEAM_SIZE - slabs.FIELD_SLABS)})"),
        (_("Energy at the start"), num(slabs.ENERGY_AT_START)),
        (_("Energy gained at the start of each turn"), num(slabs.ENERGY_PER_TURN)),
        (_("Energy gained on the first player's first turn"),
         num(0 if slabs.FIRST_PLAYER_SKIPS_FIRST_GAIN else slabs.ENERGY_PER_TURN)),
        (_("Most energy banked"), num(slabs.ENERGY_BANK_MAX)),
        (_("Swap (at most once a turn)"), _("%(n)s energy") % {"n": slabs.SWAP_COST}),
        (_("Basic attack (ends the turn)"), _("%(n)s energy") % {"n": slabs.BASIC_ATTACK_COST}),
        (_("Power move (ends the turn)"), _("the tier's cost")),
        (_("Bringing a slab on after a KO"), _("free, not a swap")),
        (_("Points to win"), num(slabs.POINTS_TO_WIN)),
        (_("A turn lasts"), _("%(n)s seconds") % {"n": slabs.TURN_SECONDS}),
        (_("Timeouts that forfeit"), num(slabs.TIMEOUTS_TO_FORFEIT)),
        (_("Turn limit (every player's turn counts)"), num(slabs.TURN_LIMIT)),
    ]  # fmt: skip
    return table(
        "arena_match_rules",
        (Col(_("Rule")), Col(_("Number"), num=True)),
        rows,
        caption=_("The match in numbers"),
    )


@register_macro("arena_bots")
def arena_bots(arg: str | None) -> str:
    """The bots of the arena."""
    return table(
        "arena_bots",
        (Col(_("Bot")), Col(_("How it plays"))),
        [(label(bot), describe(bot)) for bot in (ArenaBot.PLANNER, ArenaBot.GREEDY)],
        caption=_("Who you can play against"),
    )


def _share(part: int, whole: int) -> str:
    return percent(Fraction(part, whole)) if whole else "—"


def _interval(wins: int, games: int) -> tuple[float, float]:
    """A 95 % interval for a win share (normal approximation)."""
    if not games:
        return 0.0, 1.0
    p = wins / games
    half = Z_95 * math.sqrt(p * (1 - p) / games)
    return max(0.0, p - half), min(1.0, p + half)


def first_player_verdict(first_wins: int, second_wins: int) -> tuple[str, tuple[float, float]]:
    """Handicap, advantage or no clear effect, from the decided games."""
    decided = first_wins + second_wins
    low, high = _interval(first_wins, decided)
    if high < 0.5:
        return _("a handicap for the first player"), (low, high)
    if low > 0.5:
        return _("an advantage for the first player"), (low, high)
    return _("no clear effect"), (low, high)


def _pairing_label(bots: list[str]) -> str:
    return " – ".join(label_of(ArenaBot, b) for b in bots)


def _sum_rows(pairings: list[dict[str, Any]], key: str) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for pairing in pairings:
        for name, row in pairing.get(key, {}).items():
            total = out.setdefault(name, [0, 0, 0])
            for i in range(3):
                total[i] += row[i]
    return out


@register_macro("arena_balance", live=True)
def arena_balance(arg: str | None) -> str:
    """The latest arena balance report."""
    from .selectors import latest_report

    report = latest_report()
    if report is None:
        return table(
            "arena_balance",
            (Col(_("Balance report")),),
            [(_("No balance report has been computed yet."),)],
        )
    data = report.data
    pairings = data.get("pairings", [])
    first_rows = []
    all_first = all_second = 0
    for p in pairings:
        f = p["first_player"]
        verdict, (low, high) = first_player_verdict(f["first_wins"], f["second_wins"])
        all_first += f["first_wins"]
        all_second += f["second_wins"]
        first_rows.append(
            (
                _pairing_label(p["bots"]),
                num(f["games"]),
                _share(f["first_wins"], f["games"]),
                _share(f["second_wins"], f["games"]),
                f"{percent(low)} – {percent(high)}: {verdict}",
            )
        )
    verdict, (low, high) = first_player_verdict(all_first, all_second)
    first = table(
        "arena_balance first",
        (
            Col(_("Bots")),
            Col(_("Games"), num=True),
            Col(_("First player wins"), num=True),
            Col(_("Second player wins"), num=True),
            Col(_("First player's share of decided games, 95 % interval")),
        ),
        first_rows,
        caption=_(
            "First against second player: %(games)s games over %(slabs)s slabs with a value on "
            "%(day)s (seed %(seed)s). In all, the first player won %(share)s of decided games "
            "(%(low)s – %(high)s): %(verdict)s."
        )
        % {
            "games": num(report.games),
            "slabs": num(report.slabs),
            "day": report.match_day.isoformat(),
            "seed": report.seed,
            "share": _share(all_first, all_first + all_second),
            "low": percent(low),
            "high": percent(high),
            "verdict": verdict,
        },
    )
    tiers = _sum_rows(pairings, "by_tier")
    tier_table = table(
        "arena_balance tiers",
        (Col(_("Tier in the team")), Col(_("Teams"), num=True), Col(_("Win rate"), num=True),
         Col(_("Draws"), num=True)),
        [
            (label(SlabTier(t)), num(row[0]), _share(row[1], row[0]), _share(row[2], row[0]))
            for t, row in tiers.items()
            if t in {x.value for x in SlabTier}
        ],
        caption=_("Win rate of teams holding at least one slab of the tier (all bot pairings)."),
    )  # fmt: skip
    advantage = _sum_rows(pairings, "by_advantage")
    names = {
        "behind": _("more pairs where their element beats yours"),
        "even": _("level"),
        "ahead": _("more pairs where your element beats theirs"),
    }
    advantage_table = table(
        "arena_balance advantage",
        (Col(_("Element advantage of the team")), Col(_("Teams"), num=True),
         Col(_("Win rate"), num=True)),
        [(names[k], num(row[0]), _share(row[1], row[0])) for k, row in advantage.items()
         if k in names],
        caption=_(
            "Each slab against each enemy slab: a pair counts for the side whose element beats "
            "the other's (+%(bonus)s damage)."
        ) % {"bonus": slabs.ELEMENT_BONUS},
    )  # fmt: skip
    leads = _sum_rows(pairings, "by_lead")
    lead_rows = []
    for mine in Element:
        cells = [label(mine)]
        for theirs in Element:
            row = leads.get(f"{mine.value}:{theirs.value}", [0, 0, 0])
            cells.append(_share(row[1], row[0]))
        lead_rows.append(tuple(cells))
    lead_table = table(
        "arena_balance leads",
        (Col(_("Your opening slab")), *(Col(pgettext("against element", "vs %(element)s")
                                            % {"element": label(e)}, num=True) for e in Element)),
        lead_rows,
        caption=_("Win rate by the elements of the two slabs that start on the field."),
    )  # fmt: skip
    bracket_totals: dict[str, dict[str, int]] = {}
    for p in pairings:
        for name, row in p.get("by_bracket", {}).items():
            total = bracket_totals.setdefault(name, {"games": 0, "first_wins": 0, "second_wins": 0})
            for key in total:
                total[key] += row.get(key, 0)
    caps = {b.bracket.value: b.cap for b in slabs.BRACKETS}
    bracket_table = table(
        "arena_balance brackets",
        (Col(_("Bracket")), Col(_("Cap"), num=True), Col(_("Games"), num=True),
         Col(_("First player wins"), num=True), Col(_("Second player wins"), num=True)),
        [
            (label(Bracket(name)), money(caps[name]) if caps.get(name) is not None else _("no cap"),
             num(row["games"]), _share(row["first_wins"], row["games"]),
             _share(row["second_wins"], row["games"]))
            for name, row in bracket_totals.items() if name in caps
        ],
        caption=_("The first player's results by bracket (both teams drawn to fit it)."),
    )  # fmt: skip
    return first + tier_table + advantage_table + lead_table + bracket_table
