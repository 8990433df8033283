"""The value-history chart: geometry computed here (an SVG polyline, band edges, axis
labels, the day's marker), drawn by ``templates/arena/partials/value_chart.svg``."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 480
HEIGHT = 240
LEFT = 64
RIGHT = 12
TOP = 12
BOTTOM = 28


@dataclass(frozen=True, slots=True)
class Edge:
    y: float
    label: str


@dataclass(frozen=True, slots=True)
class Tick:
    x: float
    label: str


@dataclass(frozen=True, slots=True)
class ValueChart:
    width: int
    height: int
    left: int
    right_x: int
    top: int
    bottom_y: int
    points: str
    dots: tuple[tuple[float, float, str], ...]
    edges: tuple[Edge, ...]
    ticks: tuple[Tick, ...]
    y_labels: tuple[tuple[float, str], ...]
    marker_x: float | None
    marker_y: float | None

    @property
    def dots_svg(self) -> SafeString:
        """A dot per value with its tooltip, as SVG: a slab has one per day, a few hundred,
        too many for a template loop to print in its page's budget (issue 27)."""
        return mark_safe(
            "".join(
                f'<circle class="value-dot" cx="{x}" cy="{y}" r="2.5"><title>{escape(text)}'
                "</title></circle>"
                for x, y, text in self.dots
            )
        )


def value_chart(
    values: list[tuple[dt.date, Decimal]],
    edges: list[tuple[Decimal, str]],
    day: dt.date | None,
    money,
    date_label,
) -> ValueChart | None:
    """The chart of ``values`` (oldest first), with the band ``edges`` (amount, label)
    that fall inside its range, and a marker on ``day``. None without values.

    >>> import datetime as dt
    >>> from decimal import Decimal as D
    >>> days = [(dt.date(2026, 1, d), D(v)) for d, v in ((1, "40"), (2, "55"), (3, "60"))]
    >>> chart = value_chart(days, [(D(50), "80 HP")], dt.date(2026, 1, 2), str, str)
    >>> len(chart.dots), [e.label for e in chart.edges], chart.marker_x is not None
    (3, ['80 HP'], True)
    """
    if not values:
        return None
    amounts = [v for _d, v in values]
    low, high = min(amounts), max(amounts)
    # Show the nearest edge above and below too, so a value close to one shows it.
    near = [a for a, _l in edges]
    above = [a for a in near if a > high]
    below = [a for a in near if a < low]
    if above:
        high = max(high, min(above))
    if below:
        low = min(low, max(below))
    if high == low:
        high, low = high + 1, max(Decimal(0), low - 1)
    pad = (high - low) * Decimal("0.08")
    high, low = high + pad, max(Decimal(0), low - pad)
    span = float(high - low)
    right_x = WIDTH - RIGHT
    bottom_y = HEIGHT - BOTTOM
    first, last = values[0][0], values[-1][0]
    days = max(1, (last - first).days)

    def x_of(day_: dt.date) -> float:
        return round(LEFT + (right_x - LEFT) * (day_ - first).days / days, 1)

    def y_of(amount: Decimal) -> float:
        return round(bottom_y - (bottom_y - TOP) * float(amount - low) / span, 1)

    dots = tuple((x_of(d), y_of(v), f"{date_label(d)}: {money(v)}") for d, v in values)
    points = " ".join(f"{x},{y}" for x, y, _t in dots)
    shown_edges = tuple(Edge(y_of(a), label) for a, label in edges if low <= a <= high)
    step = max(1, len(values) // 5)
    ticks = tuple(Tick(x_of(d), date_label(d)) for d, _v in values[::step])
    y_labels = tuple((y_of(a), money(a)) for a in (low, (low + high) / 2, high))
    marker_x = marker_y = None
    if day is not None and first <= day:
        shown = [v for d, v in values if d <= day]
        if shown:
            marker_x, marker_y = x_of(min(day, last)), y_of(shown[-1])
    return ValueChart(WIDTH, HEIGHT, LEFT, right_x, TOP, bottom_y, points, dots, shown_edges,
                      ticks, y_labels, marker_x, marker_y)  # fmt: skip
