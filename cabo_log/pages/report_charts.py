"""The charts of a report, drawn as its SQL header declares them (``@chart`` lines).

Each kind fixes its marks and its value axis, so a chart answers the question it is drawn for:
rates on a fixed 0-1 axis (a rate of 0.3 never vanishes beside a count of 60,000), counts as
bars from zero, values along an ordered x as lines, a histogram column as the share of values
per bucket, percentile columns as box plots. The chart's title is HTML around the figure, not
inside it, so it can never overlap the legend.

Figures are plain plotly JSON (``{"data": [...], "layout": {...}}``) built as dicts: plotly's
graph objects validate and deep-copy on every update, which cost most of a report page's time.
Strings from the database are data: they go through ``plot.esc`` before plotly draws them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from cabo_log.db.report_header import ChartKind, ChartSpec
from cabo_log.pages.plot import FONT, PLAYER_COLOURS, esc

__all__ = ["Figure", "Row", "figure", "label"]

Row = dict[str, Any]
Figure = dict[str, Any]      # plotly JSON: data and layout
Trace = dict[str, Any]


def label(column: str) -> str:
    """A column name as words on an axis: ``avg_points`` -> ``avg points``."""
    return column.replace("_", " ")


def _value(value: Any) -> str:
    if value is None:
        return "?"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _series_name(spec: ChartSpec, row: Row) -> str:
    """Text values name a series by themselves; numbers and flags say which column they are."""
    parts = []
    for col in spec.series:
        value = row.get(col)
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, bool) or value is None:
            parts.append(f"{label(col)}: {_value(value)}")     # "knew all: yes"
        else:
            parts.append(f"{_value(value)} {label(col)}")      # "3 players"
    return " \u00b7 ".join(parts)


def _groups(spec: ChartSpec, rows: list[Row]) -> dict[str, list[Row]]:
    """The rows the chart reads (``where``), split into its series, in order of appearance."""
    out: dict[str, list[Row]] = {}
    for row in rows:
        if all(_value(row.get(col)) == want for col, want in spec.where.items()):
            out.setdefault(_series_name(spec, row), []).append(row)
    return out


def figure(spec: ChartSpec, rows: list[Row]) -> Figure | None:
    """The figure of one declared chart, or None when the rows leave nothing to draw."""
    groups = _groups(spec, rows)
    if not groups:
        return None
    data = _DRAW[spec.kind](spec, groups)
    if not data:
        return None
    layout = _layout(spec, len(data))
    if spec.x and spec.kind is not ChartKind.HISTOGRAM:
        order = _category_order(spec.x, groups)
        layout["xaxis"].update(type="category", categoryorder="array", categoryarray=order)
        for trace in data:   # a line runs left to right: its points in the axis' order
            if trace.get("type") == "scatter" and "x" in trace:
                at = {cat: i for i, cat in enumerate(order)}
                pairs = sorted(zip(trace["x"], trace["y"], strict=True),
                               key=lambda p: at.get(p[0], len(at)))
                trace["x"], trace["y"] = [x for x, _ in pairs], [y for _, y in pairs]
    return {"data": data, "layout": layout}


# a number (a minus after a digit is a range's dash), or "?" (not known: after every number)
_NUMBER = re.compile(r"\?|(?<![\d.])-?\d+(?:\.\d+)?")
_LETTER = re.compile(r"[^\W\d_]")


def _by_value(categories: list[str]) -> list[str] | None:
    """Buckets named by numbers alone (``36-40``, ``-5--1``, ``50+``) in the order of their
    numbers, ``known/cards`` (``3/4``) by the share it is (``?/4`` last); None when any
    category has a letter or no number (names keep the rows' order): merged over series that
    each lack some buckets, the rows' order alone can put ``51-55`` before ``41-45``."""
    keys: dict[str, tuple[float, ...]] = {}
    for cat in categories:
        numbers = _NUMBER.findall(cat)
        if not numbers or numbers == ["?"] * len(numbers) or _LETTER.search(cat):
            return None
        values = [float("inf") if n == "?" else float(n) for n in numbers]
        if len(values) == 2 and "/" in cat and values[1] > 0:   # "3/4": a share, by its value
            values = [values[0] / values[1], values[1]]
        keys[cat] = tuple(values)
    return sorted(categories, key=lambda c: keys[c])


def _category_order(x: str, groups: dict[str, list[Row]]) -> list[str]:
    """The x categories: by value when they are numbers (``_by_value``), else in the order
    the rows give them, merged over the series: a category that one series lacks still lands
    between its neighbours (plotly alone would put it after every category of the first
    series)."""
    merged: list[str] = []
    for rows in groups.values():
        at = 0
        for row in rows:
            cat = esc(_value(row.get(x)))
            if cat in merged:
                at = merged.index(cat) + 1
            else:
                merged.insert(at, cat)
                at += 1
    return _by_value(merged) or merged


def _colour(i: int) -> str:
    return PLAYER_COLOURS[i % len(PLAYER_COLOURS)]


def _trace_name(spec: ChartSpec, series: str, y: str) -> str:
    if len(spec.y) > 1:
        return esc(f"{label(y)} \u00b7 {series}" if series else label(y))
    return esc(series or label(y))


def _per_column(spec: ChartSpec, groups: dict[str, list[Row]],
                style: Callable[[int], Trace]) -> list[Trace]:
    """A trace per series and ``y`` column, over the rows' ``x``; ``style(i)`` gives the
    i-th trace its type and look (bars, lines)."""
    out: list[Trace] = []
    for series, rows in groups.items():
        xs = [esc(_value(r.get(spec.x or ""))) for r in rows]
        for y in spec.y:
            name = _trace_name(spec, series, y)
            out.append({**style(len(out)), "x": xs, "y": [r.get(y) for r in rows],
                        "name": name,
                        "hovertemplate": f"{name}<br>%{{x}}: %{{y}}<extra></extra>"})
    return out


def _bars(spec: ChartSpec, groups: dict[str, list[Row]]) -> list[Trace]:
    return _per_column(spec, groups, lambda i: {"type": "bar", "marker": {"color": _colour(i)}})


def _lines(spec: ChartSpec, groups: dict[str, list[Row]]) -> list[Trace]:
    return _per_column(spec, groups, lambda i: {
        "type": "scatter", "mode": "lines+markers", "line": {"color": _colour(i), "width": 2},
        "marker": {"size": 7}})


def _histograms(spec: ChartSpec, groups: dict[str, list[Row]]) -> list[Trace]:
    """Each row's map column {lower bound: count} as shares of its values (series have
    different totals, so counts would not compare): bars for one series, step outlines for
    several. Empty buckets between the first and the last are drawn as 0, not skipped."""
    column = spec.y[0]
    series_counts: dict[str, dict[int, int]] = {}
    for series, rows in groups.items():
        counts = series_counts.setdefault(series, {})
        for row in rows:
            for bound, count in (row.get(column) or {}).items():
                counts[int(bound)] = counts.get(int(bound), 0) + int(count)
    every = sorted({b for counts in series_counts.values() for b in counts})
    width = 0
    for a, b in zip(every, every[1:], strict=False):
        width = math.gcd(width, b - a)
    width = width or 1
    out: list[Trace] = []
    for i, (series, counts) in enumerate(series_counts.items()):
        total = sum(counts.values())
        if not total:
            continue
        bounds = list(range(min(counts), max(counts) + width, width))
        name = esc(series or label(column))
        shares = [counts.get(b, 0) / total for b in bounds]
        numbers = [counts.get(b, 0) for b in bounds]
        hover = f"{name}<br>from %{{x}}: %{{y:.1%}} (%{{customdata}})<extra></extra>"
        if len(series_counts) == 1:
            out.append({"type": "bar", "x": bounds, "y": shares, "name": name,
                        "marker": {"color": _colour(i)}, "offset": 0, "width": width,
                        "customdata": numbers, "hovertemplate": hover})
        else:
            out.append({"type": "scatter", "x": [bounds[0]] + bounds + [bounds[-1] + width],
                        "y": [0.0] + shares + [0.0], "name": name, "mode": "lines",
                        "line": {"color": _colour(i), "width": 2, "shape": "hv"},
                        "customdata": [0] + numbers + [0], "hovertemplate": hover})
    return out


def _boxes(spec: ChartSpec, groups: dict[str, list[Row]]) -> list[Trace]:
    """``y`` names five percentile columns, low to high: whisker, box, median, box, whisker."""
    low, q1, mid, q3, high = spec.y
    out: list[Trace] = []
    for i, (series, rows) in enumerate(groups.items()):
        out.append({
            "type": "box", "name": esc(series or "values"),
            "x": [esc(_value(r.get(spec.x or ""))) for r in rows],
            "lowerfence": [r.get(low) for r in rows], "q1": [r.get(q1) for r in rows],
            "median": [r.get(mid) for r in rows], "q3": [r.get(q3) for r in rows],
            "upperfence": [r.get(high) for r in rows], "marker": {"color": _colour(i)},
            "line": {"color": _colour(i)}, "hoverinfo": "x+y+name"})
    return out


_DRAW: dict[ChartKind, Callable[[ChartSpec, dict[str, list[Row]]], list[Trace]]] = {
    ChartKind.BAR: _bars, ChartKind.RATE: _bars, ChartKind.LINE: _lines,
    ChartKind.HISTOGRAM: _histograms, ChartKind.BOX: _boxes,
}

_GRID = "#e5e9f0"


def _axis(title: str | None, **more: Any) -> dict[str, Any]:
    """A white-background axis (the look of plotly's "plotly_white" template)."""
    out: dict[str, Any] = {"gridcolor": _GRID, "linecolor": _GRID, "zerolinecolor": _GRID,
                           "automargin": True, "ticks": ""}
    if title:
        out["title"] = {"text": title}
    out.update(more)
    return out


def _layout(spec: ChartSpec, traces: int) -> dict[str, Any]:
    """The legend in a row above the plot (no title inside the figure to collide with), the
    value axis fixed by the chart's kind."""
    x_title = esc(label(spec.x)) if spec.x else None
    y_title: str | None = esc(label(spec.y[0])) if len(spec.y) == 1 else None
    yaxis: dict[str, Any] = {}
    if spec.kind is ChartKind.HISTOGRAM:
        x_title = esc(f"{label(spec.y[0])}: lower bound of the bucket")
        y_title = "share of the values"
        yaxis = {"tickformat": ".0%", "rangemode": "tozero"}
    elif spec.kind is ChartKind.RATE or (spec.kind is ChartKind.LINE and "rate" in spec.y[0]):
        y_title = y_title or "rate"
        yaxis = {"range": [0, 1.02], "tickformat": ".0%"}
    elif spec.kind is ChartKind.BOX:
        y_title = "value"
    elif spec.kind is ChartKind.BAR:
        yaxis = {"rangemode": "tozero"}
    barmode = "stack" if spec.stack else "group"
    return {
        "height": 400, "font": {"family": FONT, "size": 13, "color": "#2a3f5f"},
        "paper_bgcolor": "#fff", "plot_bgcolor": "#fff", "colorway": list(PLAYER_COLOURS),
        "margin": {"l": 64, "r": 16, "t": 16 if traces < 2 else 48, "b": 16},
        "showlegend": traces > 1, "hoverlabel": {"font": {"family": FONT}},
        "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.02,
                   "yanchor": "bottom", "traceorder": "normal"},
        "barmode": barmode, "boxmode": "group",
        "xaxis": _axis(x_title), "yaxis": _axis(y_title, **yaxis),
    }
