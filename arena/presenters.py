"""What the arena's templates show: plain, typed view objects built from rows and engine
values. Labels are in the visitor's language, numbers formatted, links reversed; the
templates hold no logic beyond loops and ifs on these fields."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.formats import date_format, localize, number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core import versions
from core.labels import label, label_of
from engine.arena.match import A, ArenaState, Attack, B, Pass, Replace, Swap, legal_actions
from engine.arena.slabs import (
    BASIC_ATTACK_COST,
    BRACKETS,
    ELEMENT_BEATS,
    ENERGY_BANK_MAX,
    HP_BY_VALUE,
    SWAP_COST,
    TEAM_SIZE,
    TIER_BY_VALUE,
    TIMEOUTS_TO_FORFEIT,
    TURN_LIMIT,
    Bracket,
    Element,
    SlabMove,
    SlabStats,
    SlabTier,
    StatBook,
    team_checks,
    team_value,
)

from . import narration
from .art import SlabArt, slab_art
from .charts import ValueChart, value_chart
from .formatting import either, money
from .selectors import SlabDay

__all__ = [
    "BoardView",
    "SlabCard",
    "StepView",
    "TeamView",
    "board",
    "grade_text",
    "slab_card",
    "stat_steps",
    "team_view",
]


def grade_text(grade: Decimal) -> str:
    value = Decimal(grade)
    return number_format(value, decimal_pos=0 if value == int(value) else 1, use_l10n=True)


def day_text(day: dt.date | None) -> str:
    return date_format(day, "DATE_FORMAT") if day else ""


def short_day(day: dt.date) -> str:
    return date_format(day, "j M")


def power_text(stats: SlabStats | None) -> str:
    """ "power move +20 for 2 energy", or "no power move"."""
    if stats is None or stats.power is None:
        return _("no power move")
    return _("power move +%(bonus)s for %(cost)s energy") % {
        "bonus": stats.power.bonus,
        "cost": stats.power.cost,
    }


# ---------------------------------------------------------------------------
# A slab in a list


class SlabCard:
    """A slab in a list (explorer, team slots, showcase). Its fields are worked out when a
    template reads them, so a card whose fragment is cached costs almost nothing."""

    def __init__(
        self,
        d: SlabDay,
        fits: tuple[Sequence[Bracket], Decimal | None] | None,
        team: Iterable[str],
        today: dt.date | None,
    ) -> None:
        self._d = d
        self._fits = tuple(fits[0]) if fits else ()
        self._today = today
        self.asset_id = d.asset_id
        self.in_team = d.asset_id in set(team)
        self.tier = d.stats.tier.value if d.stats else "none"
        self.has_value = d.stats is not None
        self.element = d.element.value

    @property
    def cache_key(self) -> str:
        """What the card's cached fragment depends on (not the team)."""
        d = self._d
        return ":".join(
            (versions.current("arena"), get_language() or "", d.asset_id, str(d.day),
             str(self._today), ",".join(self._fits))
        )  # fmt: skip

    @cached_property
    def _stats(self) -> SlabStats | None:
        return self._d.stats

    @property
    def name(self) -> str:
        return self._d.row.name

    @property
    def grade(self) -> str:
        return grade_text(self._d.row.grade)

    @property
    def year(self) -> int:
        return self._d.row.year

    @property
    def value(self) -> str:
        return money(self._d.value) if self._d.value is not None else ""

    @property
    def value_date(self) -> str:
        return day_text(self._d.value_date)

    @property
    def tier_label(self) -> str:
        return label(self._stats.tier) if self._stats else _("no value")

    @property
    def element_label(self) -> str:
        return label(self._d.element)

    @property
    def hp(self) -> int | None:
        return self._stats.hp if self._stats else None

    @property
    def attack(self) -> int | None:
        return self._stats.attack if self._stats else None

    @property
    def armor(self) -> int | None:
        return self._stats.armor if self._stats else None

    @property
    def power(self) -> str:
        return power_text(self._stats)

    @property
    def ko_points(self) -> int | None:
        return self._stats.ko_points if self._stats else None

    @property
    def brackets(self) -> list[str]:
        return [label(Bracket(b)) for b in self._fits]

    @cached_property
    def url(self) -> str:
        return slab_url(self.asset_id, self._d.day, self._today)

    @cached_property
    def picture_url(self) -> str:
        return picture_url(self.asset_id, self._d.day, self._today)


def slab_url(asset_id: str, day: dt.date | None = None, today: dt.date | None = None) -> str:
    url = reverse("arena:slab-detail", kwargs={"asset_id": asset_id})
    if day is not None and day != today:
        url += "?" + urlencode({"date": day.isoformat()})
    return url


def picture_url(asset_id: str, day: dt.date | None = None, today: dt.date | None = None) -> str:
    url = reverse("arena:slab-picture", kwargs={"asset_id": asset_id})
    if day is not None and day != today:
        url += "?" + urlencode({"date": day.isoformat()})
    return url


def slab_card(
    d: SlabDay,
    fits: tuple[Sequence[Bracket], Decimal | None] | None = None,
    *,
    team: Iterable[str] = (),
    today: dt.date | None = None,
) -> SlabCard:
    return SlabCard(d, fits, team, today)


def art_of(d: SlabDay) -> SlabArt:
    stats = d.stats
    return slab_art(
        d.asset_id,
        d.row.name,
        grade_text(d.row.grade),
        d.row.year,
        d.element,
        label(d.element),
        stats.tier if stats else None,
        label(stats.tier) if stats else _("no value"),
        _("Graded case of %(name)s: grade %(grade)s, %(element)s")
        % {
            "name": d.row.name,
            "grade": grade_text(d.row.grade),
            "element": label(d.element),
        },
    )


# ---------------------------------------------------------------------------
# The slab page


@dataclass
class StepView:
    code: str
    title: str
    value: str
    sentence: str
    url: str


_STEP_TITLES = {
    "slab.hp": lambda: _("HP"),
    "slab.tier": lambda: _("Tier"),
    "slab.power": lambda: _("Power move"),
    "slab.ko_points": lambda: _("KO points"),
    "slab.next_band": lambda: _("Next band"),
    "slab.attack": lambda: _("Attack"),
    "slab.armor": lambda: _("Armor"),
    "slab.element": lambda: _("Element"),
}


def _step_value(step: Any) -> str:
    code, v = step.code, step.value
    if code == "slab.tier":
        return label_of(SlabTier, v)
    if code == "slab.element":
        return label_of(Element, v)
    if code == "slab.power":
        return _("+%(bonus)s / %(cost)s energy") % v if v else _("none")
    if code == "slab.next_band":
        return money(v) if v is not None else "—"
    return str(v)


def stat_steps(book: StatBook) -> list[StepView]:
    """The stat book's steps, each with its title, value, sentence and rule link."""
    return [
        StepView(
            step.code,
            _STEP_TITLES[step.code](),
            _step_value(step),
            narration.step_sentence(step),
            narration.step_url(step),
        )
        for step in book.trace
    ]


def band_edges() -> list[tuple[Decimal, str]]:
    """Every value edge with what it brings: ``($50, "80 HP")``, ``($75, "rare")``."""
    edges: dict[Decimal, list[str]] = {}
    for i, band in enumerate(HP_BY_VALUE[:-1]):
        assert band.below is not None  # only the last band is open-ended
        edges.setdefault(band.below, []).append(_("%(hp)s HP") % {"hp": HP_BY_VALUE[i + 1].hp})
    for i, tier_band in enumerate(TIER_BY_VALUE[:-1]):
        assert tier_band.below is not None
        edges.setdefault(tier_band.below, []).append(label(TIER_BY_VALUE[i + 1].tier))
    return [(amount, " · ".join(names)) for amount, names in sorted(edges.items())]


def history_chart(
    values: list[tuple[dt.date, Decimal]], day: dt.date, worded: Callable[[Decimal], str] = money
) -> ValueChart | None:
    return value_chart(values, band_edges(), day, worded, short_day)


def history_rows(
    values: list[tuple[dt.date, Decimal]], row: Any, worded: Callable[[Decimal], str] = money
) -> SafeString:
    """The history as table rows, newest first, with the stats each value gives: the
    ``<tr>``s themselves, since a slab has a row per day, a few hundred, too many for a
    template loop to print in its page's budget (issue 27). ``worded`` is ``money``, or the
    same words already worked out."""
    from . import specs

    rows = []
    previous = None
    for day, value in values:
        stats = specs.stats_of(row, value)
        changed = previous is not None and (previous.hp, previous.tier) != (stats.hp, stats.tier)
        start = '<tr class="band-change">' if changed else "<tr>"
        rows.append(
            f"{start}"
            f'<td><a href="?date={day.isoformat()}" rel="nofollow">{escape(day_text(day))}</a></td>'
            f'<td class="align-right">{escape(worded(value))}</td>'
            f'<td class="align-right">{escape(localize(stats.hp))}</td>'
            f"<td>{escape(label(stats.tier))}</td></tr>"
        )
        previous = stats
    rows.reverse()
    return mark_safe("".join(rows))


class SlabDetail:
    """The slab page's body: the stat book's steps, the next band, the brackets, the value
    history as a chart and a table. Worked out only when the page's cached fragment is
    rendered (``cache_key`` says what it depends on)."""

    def __init__(self, d: SlabDay, today: dt.date) -> None:
        self._d = d
        self._today = today

    @property
    def cache_key(self) -> str:
        d = self._d
        return ":".join(
            (
                versions.current("arena"),
                get_language() or "",
                d.asset_id,
                str(d.day),
                str(self._today),
            )
        )

    @cached_property
    def _values(self) -> list[tuple[dt.date, Decimal]]:
        from .selectors import history

        return history(self._d.row)

    @cached_property
    def _book(self) -> StatBook | None:
        from . import specs

        d = self._d
        return specs.book_of(d.row, d.value) if d.value is not None else None  # type: ignore[arg-type]

    @property
    def steps(self) -> list[StepView]:
        return stat_steps(self._book) if self._book else []

    @property
    def next_band(self) -> str:
        if self._book is None:
            return ""
        return narration.next_band_text(self._book.step("slab.next_band").params)

    @property
    def value(self) -> str:
        return money(self._d.value) if self._d.value is not None else ""

    @property
    def value_date(self) -> str:
        return day_text(self._d.value_date)

    @property
    def value_is_older(self) -> bool:
        return self._d.value_date != self._d.day

    @cached_property
    def _fits(self) -> tuple[Sequence[Bracket], Decimal | None]:
        from .selectors import fits_on

        return fits_on(self._d.day).get(self._d.asset_id, ((), None))

    @property
    def fits(self) -> list[str]:
        return [label(b) for b in self._fits[0]]

    @property
    def fits_total(self) -> str:
        return money(self._fits[1]) if self._fits[1] is not None else ""

    @cached_property
    def _worded(self) -> dict[Decimal, str]:
        """Each value as money, worded once for both the chart and the table."""
        return {value: money(value) for _day, value in self._values}

    def _money(self, amount: Decimal) -> str:
        worded = self._worded.get(amount)
        return worded if worded is not None else money(amount)

    @property
    def chart(self) -> ValueChart | None:
        return history_chart(self._values, self._d.day, self._money)

    @property
    def history(self) -> SafeString:
        return history_rows(self._values, self._d.row, self._money)

    @property
    def first_value(self) -> str:
        return day_text(self._values[0][0]) if self._values else ""

    @property
    def first_value_url(self) -> str:
        if not self._values:
            return ""
        return slab_url(self._d.asset_id, self._values[0][0], self._today)


# ---------------------------------------------------------------------------
# The team


@dataclass
class Check:
    ok: bool
    title: str
    reason: str


@dataclass
class BracketRow:
    bracket: str
    label: str
    cap: str
    fits: bool
    note: str


@dataclass
class ElementRow:
    element: str
    label: str
    count: int
    beats_label: str
    strong_against: int  # how many of the team's slabs beat this element


@dataclass
class TeamView:
    slots: list[SlabCard | None]
    size: int
    checks: list[Check]
    valid: bool
    total: str
    brackets: list[BracketRow]
    fit: list[str]
    elements: list[ElementRow]
    permalink: str
    asset_ids: list[str]
    day: str
    has_slabs: bool = field(default=False)


def team_view(
    days: list[SlabDay],
    day: dt.date,
    *,
    today: dt.date,
) -> TeamView:
    """The team as the builder shows it: every rule checked with its reason, the total,
    each bracket (fits, or over its cap by how much), the element spread, a permalink."""
    stats = [d.stats for d in days if d.stats is not None]
    no_value = [d for d in days if d.stats is None]
    checks: list[Check] = []
    engine_checks = {c.code: c for c in team_checks(stats)}
    count = len(days)
    if count == TEAM_SIZE:
        reason = _("%(count)s of %(size)s: complete.")
    elif count < TEAM_SIZE:
        reason = _("%(count)s of %(size)s: add %(more)s more.")
    else:
        reason = _("%(count)s of %(size)s: remove %(less)s.")
    checks.append(
        Check(
            count == TEAM_SIZE,
            _("%(n)s slabs") % {"n": TEAM_SIZE},
            reason
            % {
                "count": count,
                "size": TEAM_SIZE,
                "more": TEAM_SIZE - count,
                "less": count - TEAM_SIZE,
            },
        )
    )
    ids = [d.asset_id for d in days]
    twice = sorted({a for a in ids if ids.count(a) > 1})
    checks.append(
        Check(
            not twice,
            _("All different"),
            _("No slab twice.")
            if not twice
            else _("Twice: %(slabs)s.") % {"slabs": ", ".join(twice)},
        )
    )
    limited = engine_checks["too_many_limited"]
    names = [
        d.row.name for d in days if d.stats is not None and d.asset_id in limited.params["slabs"]
    ]
    tiers = either([label_of(SlabTier, t) for t in limited.params["tiers"]])
    checks.append(
        Check(
            limited.ok,
            _("At most %(most)s %(tiers)s") % {"most": limited.params["most"], "tiers": tiers},
            (
                (
                    _("%(count)s now: %(names)s.")
                    % {"count": limited.params["count"], "names": ", ".join(names)}
                    if names
                    else _("None now.")
                )
                if limited.ok
                else _("%(count)s now (%(names)s): remove %(less)s.")
                % {
                    "count": limited.params["count"],
                    "names": ", ".join(names),
                    "less": limited.params["count"] - limited.params["most"],
                }
            ),
        )
    )
    checks.append(
        Check(
            not no_value,
            _("A value on the match day"),
            (
                _("Every slab has a value on %(day)s.") % {"day": day_text(day)}
                if not no_value
                else _("No value on %(day)s: %(slabs)s.")
                % {"day": day_text(day), "slabs": ", ".join(d.row.name for d in no_value)}
            ),
        )
    )
    valid = all(c.ok for c in checks)
    total = team_value(stats)
    rows = []
    for cap in BRACKETS:
        fits = cap.cap is None or total <= cap.cap
        if cap.cap is None:
            note = _("no cap")
        elif fits:
            note = _("%(left)s under the cap") % {"left": money(cap.cap - total)}
        else:
            note = _("over the cap by %(over)s") % {"over": money(total - cap.cap)}
        rows.append(
            BracketRow(
                cap.bracket.value,
                label(cap.bracket),
                money(cap.cap) if cap.cap is not None else _("no cap"),
                fits,
                note,
            )
        )
    counts = Counter(d.element for d in days)
    elements = [
        ElementRow(
            e.value,
            label(e),
            counts.get(e, 0),
            label(ELEMENT_BEATS[e]),
            sum(n for mine, n in counts.items() if ELEMENT_BEATS[mine] is e),
        )
        for e in Element
    ]
    query = urlencode(
        [("slab", a) for a in ids] + ([("date", day.isoformat())] if day != today else [])
    )
    permalink = reverse("arena:team") + ("?" + query if query else "")
    slots: list[SlabCard | None] = [slab_card(d, None, today=today) for d in days]
    slots += [None] * max(0, TEAM_SIZE - len(slots))
    return TeamView(
        slots=slots,
        size=count,
        checks=checks,
        valid=valid,
        total=money(total),
        brackets=rows,
        fit=[r.label for r in rows if r.fits] if valid else [],
        elements=elements,
        permalink=permalink,
        asset_ids=ids,
        day=day_text(day),
        has_slabs=bool(days),
    )


# ---------------------------------------------------------------------------
# The match board


@dataclass
class FighterView:
    index: int
    asset_id: str
    name: str
    tier: str
    tier_label: str
    element: str
    element_label: str
    hp: int
    hp_max: int
    hp_pct: int
    hp_level: str
    attack: int
    armor: int
    power: str
    knocked_out: bool
    on_field: bool
    picture_url: str


@dataclass
class SideView:
    side: str
    title: str
    points: int
    energy: int
    energy_max: int
    pips: list[bool]
    timeouts: int
    timeouts_limit: int
    field: FighterView | None
    bench: list[FighterView]
    team: list[FighterView]
    to_move: bool


@dataclass
class MoveButton:
    value: str
    text: str
    detail: str
    enabled: bool
    kind: str


@dataclass
class BoardView:
    turn: int
    turn_limit: int
    over: bool
    player_to_move: bool
    turn_owner: str
    player: SideView
    bot: SideView
    sides: list[SideView]
    moves: list[MoveButton]
    swaps: list[MoveButton]
    replaces: list[MoveButton]
    must_replace: bool
    can_pass: bool
    score: str


def _pct(value: int, whole: int) -> int:
    return 0 if whole <= 0 else max(0, min(100, round(100 * value / whole)))


def _fighter(
    state: ArenaState, side: int, index: int, *, day: dt.date | None = None
) -> FighterView:
    slab = state.slab(side, index)
    hp = state.sides[side].hp[index]
    pct = _pct(hp, slab.hp)
    return FighterView(
        index=index,
        asset_id=slab.asset_id,
        name=slab.slab.name,
        tier=slab.tier.value,
        tier_label=label(slab.tier),
        element=slab.element.value,
        element_label=label(slab.element),
        hp=hp,
        hp_max=slab.hp,
        hp_pct=pct,
        hp_level="ok" if pct > 50 else ("warn" if pct > 25 else "danger"),
        attack=slab.attack,
        armor=slab.armor,
        power=power_text(slab),
        knocked_out=hp <= 0,
        on_field=state.sides[side].active == index,
        picture_url=picture_url(slab.asset_id),
    )


def _side(state: ArenaState, side: int) -> SideView:
    s = state.sides[side]
    team = [_fighter(state, side, i) for i in range(len(s.hp))]
    return SideView(
        side="a" if side == A else "b",
        title=_("You") if side == A else _("Bot"),
        points=s.points,
        energy=s.energy,
        energy_max=ENERGY_BANK_MAX,
        pips=[i < s.energy for i in range(ENERGY_BANK_MAX)],
        timeouts=s.timeouts,
        timeouts_limit=TIMEOUTS_TO_FORFEIT,
        field=team[s.active] if s.active is not None else None,
        bench=[f for f in team if not f.on_field],
        team=team,
        to_move=not state.over and state.to_move == side,
    )


def board(state: ArenaState) -> BoardView:
    """The board and the player's moves (legal ones enabled; the others shown with why)."""
    player, bot = _side(state, A), _side(state, B)
    legal = set(legal_actions(state, A))
    me = state.sides[A]
    foe = state.sides[B]
    moves: list[MoveButton] = []
    swaps: list[MoveButton] = []
    replaces: list[MoveButton] = []
    mine = me.active
    target = foe.active
    lineup = state.lineup
    if not state.over and state.to_move == A:
        if mine is not None and target is not None:
            basic, power = lineup.damage[A][mine][target]
            moves.append(
                MoveButton(
                    "attack:basic",
                    _("Basic attack"),
                    _("%(cost)s energy · %(damage)s damage")
                    % {"cost": BASIC_ATTACK_COST, "damage": basic},
                    Attack(A, SlabMove.BASIC) in legal,
                    "attack",
                )
            )
            cost = lineup.power_cost[A][mine]
            if cost:
                moves.append(
                    MoveButton(
                        "attack:power",
                        _("Power move"),
                        _("%(cost)s energy · %(damage)s damage") % {"cost": cost, "damage": power},
                        Attack(A, SlabMove.POWER) in legal,
                        "power",
                    )
                )
            for i in me.bench:
                fighter = player.team[i]
                hit = lineup.damage[A][i][target]
                swaps.append(
                    MoveButton(
                        f"swap:{i}",
                        _("Swap in %(name)s") % {"name": fighter.name},
                        _("%(cost)s energy · %(hp)s HP · hits for %(damage)s")
                        % {"cost": SWAP_COST, "hp": fighter.hp, "damage": hit[0]},
                        Swap(A, i) in legal,
                        "swap",
                    )
                )
        if mine is None:
            for i in me.bench:
                fighter = player.team[i]
                replaces.append(
                    MoveButton(
                        f"replace:{i}",
                        _("Send in %(name)s") % {"name": fighter.name},
                        _("free · %(hp)s HP · attack %(attack)s")
                        % {"hp": fighter.hp, "attack": fighter.attack},
                        Replace(A, i) in legal,
                        "replace",
                    )
                )
    return BoardView(
        turn=state.turn,
        turn_limit=TURN_LIMIT,
        over=state.over,
        player_to_move=not state.over and state.to_move == A,
        turn_owner=_("your turn") if state.to_move == A else _("the bot's turn"),
        player=player,
        bot=bot,
        sides=[player, bot],
        moves=moves,
        swaps=swaps,
        replaces=replaces,
        must_replace=not state.over and state.to_move == A and mine is None,
        can_pass=Pass(A) in legal,
        score=f"{player.points}–{bot.points}",
    )
