"""Bar charts: the numbers and shares computed here, drawn by a template.

Labels and numbers are HTML text (they keep the page's font size on a phone); each bar
is a small SVG whose rectangle's width is the bar's share of the largest bar, in percent.
"""

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
    share: float  # of what the chart counts over (``of``), 0..1
    css_class: str
    y: int
    width: float  # percent of the largest bar, 0..100
    href: str = ""

    @property
    def percent(self) -> str:
        return f"{self.share * 100:.0f}"


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
    of: int | None = None,
) -> BarChart:
    """Horizontal bars scaled to the largest value; rows are (label, value, class, link).

    Shares are of ``of`` (the cards counted over) or of the bars' sum.

    >>> chart = bar_chart("Rarity", [("Rare", 30, "rare", ""), ("Epic", 10, "epic", "")])
    >>> [(round(b.width, 1), round(b.share, 2), b.percent) for b in chart.bars]
    [(100.0, 0.75, '75'), (33.3, 0.25, '25')]
    """
    total = sum(value for _label, value, _css, _href in rows) if of is None else of
    largest = max((value for _label, value, _css, _href in rows), default=0)
    bar_area = CHART_WIDTH - LABEL_WIDTH - VALUE_WIDTH
    bars = []
    for index, (label, value, css_class, href) in enumerate(rows):
        width = 100 * value / largest if largest else 0.0
        bars.append(
            Bar(
                label=label,
                value=value,
                share=(value / total) if total else 0.0,
                css_class=css_class,
                y=index * (BAR_HEIGHT + BAR_GAP),
                width=max(width, 0.5 if value else 0.0),
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
