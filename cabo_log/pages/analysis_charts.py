"""What ``timeline --analyse`` adds to a game's page: the marks of ``cabo-log analyse`` on the
event lanes and in the step view, and an evaluation graph (each player's expected round points
at each of their decisions, as the analysis estimated them from that player's knowledge).

Additive on purpose: ``page_data`` and ``render_page`` call these when an analysis is given,
the page's script draws any figure it finds and shows a step's mark when there is one.
"""

from __future__ import annotations

from typing import Any

from cabo_log.analysis.analyse import DecisionResult, GameAnalysis
from cabo_log.pages.charts import lanes
from cabo_log.pages.plot import HOVER, Figure, Trace, esc, layout, player_colour, scatter, wrap
from cabo_log.pages.timeline import Timeline

MARK_COLOURS = {"??": "#d62728", "?": "#ff7f0e", "?!": "#bcbd22"}


def visible_decisions(tl: Timeline, analysis: GameAnalysis) -> list[DecisionResult]:
    """The decisions a page shows: all of them, or only the viewer's own (``--as``)."""
    return [d for d in analysis.decisions if tl.viewer is None or d.player == tl.viewer]


def mark_text(tl: Timeline, d: DecisionResult) -> str:
    """A decision in words; seen as a player, without naming cards they may not have seen."""
    if tl.viewer is None:
        return d.text()
    did = next((o.text for o in d.options if o.move == d.chosen), d.best_text)
    return (f"seq {d.seq} {d.player} chose to {did}: {d.given_away()}; best was "
            f"to {d.best_text}: {d.mark}")


def analysis_marks(tl: Timeline, analysis: GameAnalysis) -> dict[str, dict[str, Any]]:
    """Page data: seq -> the mark shown in the step view."""
    return {str(d.seq): {"mark": str(d.mark), "player": d.player, "text": mark_text(tl, d)}
            for d in visible_decisions(tl, analysis) if d.mark is not None}


def add_mark_trace(fig: Figure, tl: Timeline, analysis: GameAnalysis) -> None:
    """Marked decisions on the events figure's lanes, as their mark in a coloured label."""
    lane = lanes(tl)
    marked = [d for d in visible_decisions(tl, analysis) if d.mark is not None]
    if not marked:
        return
    fig["data"].append(scatter(
        x=[d.seq for d in marked], y=[lane[d.player] + 0.32 for d in marked],
        mode="text", name="analysis marks", text=[str(d.mark) for d in marked],
        textfont={"color": [MARK_COLOURS[str(d.mark)] for d in marked], "size": 14},
        customdata=[d.seq for d in marked],
        hovertext=[wrap(mark_text(tl, d)) for d in marked], hovertemplate=HOVER))


def evaluation_figure(tl: Timeline, analysis: GameAnalysis) -> Figure:
    """Each player's expected round points at their decisions (lower is better)."""
    data: list[Trace] = []
    shown = visible_decisions(tl, analysis)
    for i, p in enumerate(tl.players):
        mine = [d for d in shown if d.player == p and d.expected is not None]
        if not mine:
            continue
        data.append(scatter(
            x=[d.seq for d in mine], y=[d.expected for d in mine], name=esc(p),
            mode="lines+markers", line={"color": player_colour(i), "width": 1.5},
            marker={"size": [12 if d.mark else 5 for d in mine],
                    "color": [MARK_COLOURS.get(str(d.mark), player_colour(i)) for d in mine],
                    "symbol": ["x" if d.mark else "circle" for d in mine]},
            customdata=[d.seq for d in mine],
            hovertext=[wrap(mark_text(tl, d)) if d.mark else
                       esc(f"seq {d.seq} {p}: {d.expected:.1f} expected round points")
                       for d in mine],
            hovertemplate=HOVER))
    accuracy = ", ".join(f"{esc(p)} {a:.0f} %" for p, a in analysis.accuracy().items()
                         if a is not None and (tl.viewer is None or p == tl.viewer))
    title = (f"Expected round points at each decision ({analysis.settings.rollouts} rollouts; "
             f"accuracy: {accuracy or 'n/a'})")
    return {"data": data, "layout": layout(
        title, 360, xaxis={"title": {"text": "event"}, "zeroline": False},
        yaxis={"title": {"text": "expected round points"}, "zeroline": True},
        hovermode="closest")}
