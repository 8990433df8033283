"""The wiki macro ``{{ balance_report }}``: the latest balance report as translated tables.

Registered from ``PlayConfig.ready()`` into the wiki's macro registry (a live macro:
it reads the database, so it is filled in on every view).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.labels import label_of
from engine.types import Rarity, Role
from wiki.macros import Col, num, percent, rarity_cell, register_macro, table

from .models import BalanceReport

__all__ = ["balance_report_html"]

_RARITY_ORDER = [r.value for r in Rarity]


def _rate(wins: int, games: int) -> str:
    return percent(wins / games) if games else "—"


def _mix_label(key: str) -> str:
    parts = []
    for part in key.split(","):
        rarity, _sep, count = part.partition(":")
        parts.append(f"{count} × {label_of(Rarity, rarity)}")
    return " + ".join(parts)


def _mix_order(key: str) -> tuple[float, str]:
    total = count = 0
    for part in key.split(","):
        rarity, _sep, n = part.partition(":")
        total += _RARITY_ORDER.index(rarity) * int(n)
        count += int(n)
    return (total / count if count else 0, key)


def _rows(
    table_data: dict[str, Sequence[int]], label, order: Sequence[str] | None = None
) -> list[list[object]]:
    keys = list(order) if order is not None else list(table_data)
    rows = []
    for key in keys:
        if key not in table_data:
            continue
        games, wins, draws = table_data[key]
        rows.append([label(key), num(games), _rate(wins, games), _rate(draws, games)])
    return rows


def balance_report_html(report: BalanceReport | None) -> str:
    """The report as HTML tables (or a note that it is being prepared: ``make install``
    computes one when none is stored, so a visitor never needs to run anything)."""
    if report is None:
        return format_html(
            '<p class="macro-caption">{}</p>',
            _(
                "The balance report is being prepared: these tables fill in once the bots "
                "have played their matches between random decks."
            ),
        )
    data = report.data
    summary = format_html(
        '<p class="macro-caption">{}</p>',
        _(
            "%(matches)s matches between random %(size)s-card decks of %(cards)s cards "
            "(%(bots)s bots, seed %(seed)s), played on %(date)s in %(seconds)s s; "
            "on average %(rounds)s rounds a match."
        )
        % {
            "matches": num(report.matches),
            "size": report.deck_size,
            "cards": num(report.cards),
            "bots": report.bots.replace(",", " / "),
            "seed": report.seed,
            "date": date_format(report.created_at, "DATE_FORMAT"),
            "seconds": num(report.seconds, 1),
            "rounds": num(data.get("average_rounds", 0), 1),
        },
    )
    cols = [
        Col(""),
        Col(_("Games"), num=True),
        Col(_("Win rate"), num=True),
        Col(_("Draws"), num=True),
    ]
    parts = [summary]
    edge = data.get("higher_rarity", {})
    if edge.get("games"):
        parts.append(
            format_html(
                '<p class="macro-caption">{}</p>',
                ngettext(
                    "The deck with more rarity (the higher sum of rarity ranks) won %(rate)s "
                    "of the %(games)s match where the decks differed.",
                    "The deck with more rarity (the higher sum of rarity ranks) won %(rate)s "
                    "of the %(games)s matches where the decks differed.",
                    edge["games"],
                )
                % {"rate": _rate(edge["wins"], edge["games"]), "games": num(edge["games"])},
            )
        )
        gap_cols = [Col(_("Rarity gap")), *cols[1:]]
        gap_cols[2] = Col(_("Stronger deck wins"), num=True)
        parts.append(
            table(
                "balance_report",
                gap_cols,
                _rows(data.get("by_rarity_gap", {}), str, ("1-2", "3-4", "5+")),
                _("By how far apart the decks' rarity sums are"),
            )
        )
    rarity_cols = [Col(_("Rarity")), *cols[1:]]
    parts.append(
        table(
            "balance_report",
            rarity_cols,
            [
                [rarity_cell(key), *row[1:]]
                for key, row in zip(
                    [k for k in _RARITY_ORDER if k in data.get("by_rarity", {})],
                    _rows(data.get("by_rarity", {}), partial(label_of, Rarity), _RARITY_ORDER),
                    strict=True,
                )
            ],
            _("Win rate of the decks a card of each rarity played in (one row per card)"),
        )
    )
    role_cols = [Col(_("Role")), *cols[1:]]
    parts.append(
        table(
            "balance_report",
            role_cols,
            _rows(data.get("by_role", {}), partial(label_of, Role), [r.value for r in Role]),
            _("Win rate of the decks a card of each role played in (one row per card)"),
        )
    )
    mix_cols = [Col(_("Rarity mix")), *cols[1:]]
    mixes = data.get("by_mix", {})
    parts.append(
        table(
            "balance_report",
            mix_cols,
            _rows(mixes, _mix_label, sorted(mixes, key=_mix_order)),
            _("Win rate by the deck's rarity mix"),
        )
    )
    return "".join(str(p) for p in parts)


if register_macro is not None:

    @register_macro("balance_report", live=True)
    def balance_report(arg: str | None) -> str:
        return balance_report_html(BalanceReport.objects.order_by("-created_at", "-id").first())
