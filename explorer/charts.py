"""Server-rendered SVG bar charts: geometry computed here, drawn by a template."""

from __future__ import annotations

from dataclasses import dataclass

BAR_HEIGHT = 26
BAR_GAP = 10
LABEL_WIDTH = 120
CHART_WIDTH = 520
VALUE_WIDTH = 90


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    value: int
    share: float  # of the chart's total, 0..1
    css_class: str
    y: int
    width: int
    href: str = ""


@dataclass(frozen=True, slots=True)
class BarChart:
    title: str
    bars: tuple[Bar, ...]
    total: int
    width: int
    height: int
    label_width: int
    bar_area: int
    bar_height: int


def bar_chart(
    title: str,
    rows: list[tuple[str, int, str, str]],
) -> BarChart:
    """Horizontal bars scaled to the largest value; rows are (label, value, class, link).

    >>> chart = bar_chart("Rarity", [("Rare", 30, "rare", ""), ("Epic", 10, "epic", "")])
    >>> [(b.width, round(b.share, 2)) for b in chart.bars]
    [(310, 0.75), (103, 0.25)]
    """
    total = sum(value for _label, value, _css, _href in rows)
    largest = max((value for _label, value, _css, _href in rows), default=0)
    bar_area = CHART_WIDTH - LABEL_WIDTH - VALUE_WIDTH
    bars = []
    for index, (label, value, css_class, href) in enumerate(rows):
        width = round(bar_area * value / largest) if largest else 0
        bars.append(
            Bar(
                label=label,
                value=value,
                share=(value / total) if total else 0.0,
                css_class=css_class,
                y=index * (BAR_HEIGHT + BAR_GAP),
                width=max(width, 1 if value else 0),
                href=href,
            )
        )
    height = max(len(bars) * (BAR_HEIGHT + BAR_GAP) - BAR_GAP, BAR_HEIGHT)
    return BarChart(
        title=title,
        bars=tuple(bars),
        total=total,
        width=CHART_WIDTH,
        height=height,
        label_width=LABEL_WIDTH,
        bar_area=bar_area,
        bar_height=BAR_HEIGHT,
    )
