"""Plotly figures: the three charts of a game's timeline page, and a generic chart of a report.

Every string that comes from a log (player ids, card codes, descriptions) is data, not markup:
plotly.js renders a small subset of HTML in texts, so such strings go through ``esc`` (which
plotly.js turns back into the literal characters when it draws them).
"""

from __future__ import annotations

import html
import textwrap
from collections.abc import Sequence
from functools import cache
from typing import Any

import plotly.graph_objects as go

from cabo_log.log.render import special_hand
from cabo_log.pages.timeline import KINDS, TABLE, Timeline, TurnTotals
from engine import RoundResult

PLAYER_COLOURS = ("#4C78A8", "#F58518", "#54A24B", "#B279A2", "#E45756", "#72B7B2")
KIND_COLOURS = {
    "deal": "#8c8c8c", "peek": "#17becf", "draw": "#4C78A8", "discard": "#9ecae9",
    "replace": "#54A24B", "power": "#9467bd", "skip": "#c5b0d5", "cabo": "#E45756",
    "snap": "#F58518", "reshuffle": "#bcbd22", "forfeit": "#222222", "round end": "#8c564b",
    "claim": "#e377c2",
}
KIND_SYMBOLS = {"cabo": "star", "forfeit": "x", "round end": "diamond", "deal": "square",
                "reshuffle": "hexagon", "claim": "diamond-open", "skip": "circle-open"}
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


def esc(text: object) -> str:
    """A data string made safe for plotly's pseudo-HTML texts (shown literally)."""
    return html.escape(str(text), quote=False)


def wrap(text: str, width: int = 72) -> str:
    """Escape and break a long sentence into hover lines."""
    return "<br>".join(esc(part) for part in textwrap.wrap(text, width)) or esc(text)


def player_colour(index: int) -> str:
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


def _base_layout(fig: go.Figure, title: str, height: int) -> None:
    """Title top left, the legend in a line under it, room for axis titles below."""
    fig.update_layout(
        height=height,             # the template is added by figure_json (see there)
        title={"text": title, "x": 0.01, "xanchor": "left", "y": 0.98, "yanchor": "top"},
        font={"family": FONT, "size": 13}, margin={"l": 60, "r": 20, "t": 84, "b": 50},
        hoverlabel={"font": {"family": FONT}},
        legend={"orientation": "h", "x": 0, "xanchor": "left", "y": 1.01, "yanchor": "bottom"},
    )


# --- 1. cumulative score per round -------------------------------------------------------------

def score_figure(tl: Timeline) -> go.Figure:
    """Match score of every player after each round, with Cabo calls and 100 -> 50 resets."""
    fig = go.Figure()
    rounds = [0] + [r.round for r in tl.rounds]
    steps = [0] + [tl.round_end_steps.get(r.round, 0) for r in tl.rounds]
    left = {s.actor: (s.round, s.number) for s in tl.steps if s.type == "forfeit" and s.actor}
    gone: list[tuple[str, int, int, int]] = []       # player, round, score, step
    for i, p in enumerate(tl.players):
        ys: list[int | None] = [0]
        hover = [f"{esc(p)}: 0 before round 1"]
        for r in tl.rounds:
            if p in left and r.round >= left[p][0] and p not in r.points:
                ys.append(None)                          # left the match: the line ends
                hover.append("")
                continue
            ys.append(r.cumulative.get(p))
            if p in r.points:
                hover.append(f"{esc(p)}, round {r.round}: {r.totals[p]} in hand, "
                             f"+{r.points[p]} points, score {r.cumulative[p]}")
            else:
                hover.append(f"{esc(p)} did not play round {r.round}; score {r.cumulative[p]}")
        if p in left:
            last = max(x for x, y in zip(rounds, ys, strict=True) if y is not None)
            gone.append((p, last, ys[rounds.index(last)] or 0, left[p][1]))
        fig.add_trace(go.Scatter(
            x=rounds, y=ys, name=esc(p), mode="lines+markers", customdata=steps,
            line={"color": player_colour(i), "width": 3}, marker={"size": 8},
            hovertext=hover, hovertemplate="%{hovertext}<extra></extra>"))
    _call_traces(fig, tl)
    resets = [(r, p) for r in tl.rounds for p in r.resets]
    if resets:
        fig.add_trace(go.Scatter(
            x=[r.round for r, _ in resets], y=[r.cumulative[p] for r, p in resets],
            name=f"reset {tl.target} \u2192 {tl.target // 2}", mode="markers+text",
            text=["reset"] * len(resets), textposition="bottom center",
            customdata=[tl.round_end_steps.get(r.round, 0) for r, _ in resets],
            marker={"symbol": "triangle-down", "size": 14, "color": "#222"},
            hovertext=[f"{esc(p)} reached exactly {tl.target} in round {r.round}: back to "
                       f"{r.cumulative[p]}" for r, p in resets],
            hovertemplate="%{hovertext}<extra></extra>"))
    if gone:
        fig.add_trace(go.Scatter(
            x=[x for _, x, _, _ in gone], y=[y for _, _, y, _ in gone], name="forfeited",
            mode="markers", customdata=[step for _, _, _, step in gone],
            marker={"symbol": "x", "size": 12, "color": KIND_COLOURS["forfeit"]},
            hovertext=[f"{esc(p)} forfeited in round {left[p][0]}" for p, _, _, _ in gone],
            hovertemplate="%{hovertext}<extra></extra>"))
    fig.add_hline(y=tl.target, line={"dash": "dot", "color": "#999"},
                  annotation_text=f"target {tl.target}", annotation_position="top left")
    _base_layout(fig, "Score after each round", 380)
    fig.update_xaxes(title="round", tickmode="array", tickvals=rounds,
                     ticktext=["start"] + [str(r) for r in rounds[1:]])
    fig.update_yaxes(title="match score", rangemode="tozero")
    return fig


def _call_colour(success: bool | None) -> str:
    return {True: "#54A24B", False: "#E45756", None: "#bbbbbb"}[success]


def _call_word(success: bool | None) -> str:
    return {True: "success", False: "failure", None: "not scored as the caller"}[success]


def _call_traces(fig: go.Figure, tl: Timeline) -> None:
    """One trace (so one legend entry) per outcome of a Cabo call: success, failure, not
    scored, and a special hand (Kamikaze / shoot the moon), which is none of these."""
    groups: dict[str, list[tuple[RoundResult, str]]] = {}
    for r in tl.rounds:
        special = special_hand(r, tl.special_name)
        if special is not None:
            who = r.caller if r.caller is not None else r.special[0]
            groups.setdefault(tl.special_name, []).append((r, who))
        elif r.caller is not None:
            groups.setdefault(_call_word(r.cabo_success), []).append((r, r.caller))
    colours = {"success": _call_colour(True), "failure": _call_colour(False),
               "not scored as the caller": _call_colour(None), tl.special_name: "#B279A2"}
    for label in ("success", "failure", "not scored as the caller", tl.special_name):
        items = groups.get(label)
        if not items:
            continue
        hover = [f"{esc(who)} called Cabo in round {r.round}: {label}" if special is None
                 else f"round {r.round}: {esc(special)}"
                 for r, who in items for special in [special_hand(r, tl.special_name)]]
        fig.add_trace(go.Scatter(
            x=[r.round for r, _ in items], y=[r.cumulative[who] for r, who in items],
            name=f"Cabo call: {label}" if label != tl.special_name
            else esc(tl.special_name[:1].upper() + tl.special_name[1:]),
            mode="markers", customdata=[tl.round_end_steps.get(r.round, 0) for r, _ in items],
            marker={"symbol": "star" if label != tl.special_name else "diamond", "size": 17,
                    "line": {"width": 1, "color": "#333"}, "color": colours[label]},
            hovertext=hover, hovertemplate="%{hovertext}<extra></extra>"))


# --- 2. hand totals turn by turn ----------------------------------------------------------------

def totals_figure(tl: Timeline) -> go.Figure:
    """Each row's hand total after every turn; ``--as``: the sum of the cards the viewer saw.

    x is the turn's index over the whole match; the line breaks between rounds. Seen as a
    player, the hands shown at a round's end are separate markers, not part of the line.
    """
    fig = go.Figure()
    turns = tl.turns
    xs = list(range(len(turns)))
    apart = tl.viewer is not None          # the final reveal is not what the player knew
    for i, p in enumerate(tl.players):
        px: list[float] = []
        ys: list[float | None] = []
        hover: list[str] = []
        steps: list[int] = []
        shown: list[tuple[int, int, str, int]] = []
        for x, t in zip(xs, turns, strict=True):
            if x and t.round != turns[x - 1].round:      # break the line between rounds
                px.append(x - 0.5)
                ys.append(None)
                hover.append("")
                steps.append(t.step)
            total = t.totals.get(p)
            text = _turn_hover(tl, p, t, total)
            y: float | None = total
            if apart and t.revealed and total is not None:
                shown.append((x, total, text, t.step))
                y = None
            elif apart:                      # unseen cards at the deck's average value
                y = _shown_total(tl, t, p)
            px.append(x)
            ys.append(y)
            hover.append(text)
            steps.append(t.step)
        fig.add_trace(go.Scatter(
            x=px, y=ys, name=esc(p), mode="lines+markers", customdata=steps,
            line={"color": player_colour(i), "width": 2}, marker={"size": 5},
            legendgroup=f"p{i}", connectgaps=False, hovertext=hover,
            hovertemplate="%{hovertext}<extra></extra>"))
        if shown:
            fig.add_trace(go.Scatter(
                x=[x for x, _, _, _ in shown], y=[y for _, y, _, _ in shown],
                name=f"{esc(p)}: hand shown", mode="markers", legendgroup=f"p{i}",
                showlegend=False, customdata=[s for _, _, _, s in shown],
                marker={"symbol": "circle-open", "size": 9, "color": player_colour(i),
                        "line": {"width": 2}},
                hovertext=[h for _, _, h, _ in shown],
                hovertemplate="%{hovertext}<extra></extra>"))
    calls = [(x, t) for x, t in zip(xs, turns, strict=True) if t.cabo is not None]
    if calls:
        fig.add_trace(go.Scatter(
            x=[x for x, _ in calls], y=[_shown_total(tl, t, t.cabo or "") for _, t in calls],
            name="Cabo call", mode="markers", customdata=[t.step for _, t in calls],
            marker={"symbol": "star", "size": 17, "color": KIND_COLOURS["cabo"],
                    "line": {"width": 1, "color": "#333"}},
            hovertext=[f"{esc(t.cabo)} calls Cabo (round {t.round}, turn {t.turn})"
                       for _, t in calls],
            hovertemplate="%{hovertext}<extra></extra>"))
    starts = [x for x, t in zip(xs, turns, strict=True) if x == 0 or t.round != turns[x - 1].round]
    # one layout update for every round boundary (add_vline per line costs ~20 ms each)
    fig.update_layout(shapes=[
        {"type": "line", "xref": "x", "yref": "paper", "x0": x - 0.5, "x1": x - 0.5, "y0": 0,
         "y1": 1, "line": {"color": "#ccc", "width": 1}} for x in starts[1:]])
    if apart:
        title = f"Hand totals as {esc(tl.viewer)} could estimate them"
        ytitle = f"estimated total (unseen card = {tl.mean_value:.1f})"
    else:
        title, ytitle = "Hand totals, turn by turn", "hand total"
    _base_layout(fig, title, 400)
    fig.update_xaxes(title="turns, round by round", tickmode="array", tickvals=starts,
                     ticktext=[f"R{turns[x].round}" for x in starts], showgrid=False)
    fig.update_yaxes(title=ytitle)
    return fig


def _shown_total(tl: Timeline, t: TurnTotals, p: str) -> float | None:
    """The y of a row's total: exact when omniscient, else seen + unseen x deck average."""
    total = t.totals.get(p)
    if total is None or tl.viewer is None:
        return total
    return total + t.unknown.get(p, 0) * tl.mean_value


def _turn_hover(tl: Timeline, p: str, t: TurnTotals, total: int | None) -> str:
    where = f"round {t.round}, " + ("after the deal" if t.turn == 0 else f"after turn {t.turn}")
    if t.revealed:
        where += ", round over: hands shown"
    if total is None:
        return f"{esc(p)} is not in play ({where})"
    if tl.viewer is None:
        return f"{esc(p)}: hand total {total} ({where})"
    unseen = t.unknown.get(p, 0)
    if not unseen or t.revealed:
        return f"{esc(p)}: {total}, every card seen by {esc(tl.viewer)} ({where})"
    estimate = total + unseen * tl.mean_value
    return (f"{esc(p)}: about {estimate:.0f} (estimate) = {total} in the cards "
            f"{esc(tl.viewer)} saw + {unseen} card{'s' if unseen != 1 else ''} unseen "
            f"\u00d7 {tl.mean_value:.1f}, the deck average ({where})")


# --- 3. the event timeline ------------------------------------------------------------------------

def lanes(tl: Timeline) -> dict[str, int]:
    """y position of each lane: the table on top, then the players in seat order."""
    count = len(tl.players)
    out = {p: count - 1 - i for i, p in enumerate(tl.players)}
    out[TABLE] = count
    return out


def events_figure(tl: Timeline) -> go.Figure:
    """One lane per player, a marker per event coloured by its kind, the story in the hover."""
    fig = go.Figure()
    lane = lanes(tl)
    by_kind: dict[str, list[tuple[int, int, str]]] = {}
    for s in tl.steps:
        y = lane[TABLE] if s.actor is None else lane[s.actor]
        head = f"<b>step {s.number}</b> (line {s.line}) \u00b7 round {s.round}, turn {s.turn}"
        by_kind.setdefault(s.kind, []).append((s.number, y, f"{head}<br>{wrap(s.text)}"))
        if s.round_end is not None:
            by_kind.setdefault("round end", []).append(
                (s.number, lane[TABLE], f"{head}<br>{wrap(s.text)}"))
    for kind in KINDS:
        points = by_kind.get(kind)
        if not points:
            continue
        big = kind in ("cabo", "forfeit", "round end")
        fig.add_trace(go.Scatter(
            x=[x for x, _, _ in points], y=[y for _, y, _ in points], name=kind,
            mode="markers", customdata=[x for x, _, _ in points],
            marker={"color": KIND_COLOURS[kind], "symbol": KIND_SYMBOLS.get(kind, "circle"),
                    "size": 15 if big else 10, "line": {"width": 1, "color": "#fff"}},
            hovertext=[h for _, _, h in points], hovertemplate="%{hovertext}<extra></extra>"))
    count = len(tl.players)
    # shape 0 is the cursor of the step view (moved by the page's script)
    first = tl.steps[0].number if tl.steps else 0
    shapes: list[dict[str, Any]] = [
        {"type": "line", "x0": first, "x1": first, "y0": -0.6, "y1": count + 0.6,
         "xref": "x", "yref": "y", "line": {"color": "#111", "width": 2, "dash": "dot"},
         "name": "cursor"}]
    notes: list[dict[str, Any]] = []
    for number, start, end in _round_spans(tl):   # built as one list: add_vrect is slow
        if number % 2 == 0:
            shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": start - 0.5,
                           "x1": end + 0.5, "y0": 0, "y1": 1, "fillcolor": "#f0f0f0",
                           "line": {"width": 0}, "layer": "below"})
        notes.append({"x": (start + end) / 2, "y": count + 0.85, "text": f"round {number}",
                      "showarrow": False, "font": {"size": 11, "color": "#666"}})
    fig.update_layout(shapes=shapes, annotations=notes)
    _base_layout(fig, "Events (click one to show the table after it)", 170 + 42 * (count + 1))
    fig.update_yaxes(tickmode="array", tickvals=list(lane.values()),
                     ticktext=[esc(p) for p in lane if p != TABLE] + ["<i>table</i>"],
                     range=[-0.7, count + 1.1], showgrid=True, zeroline=False, fixedrange=True)
    fig.update_xaxes(title="event", zeroline=False)
    fig.update_layout(hovermode="closest")
    return fig


def _round_spans(tl: Timeline) -> list[tuple[int, int, int]]:
    spans: dict[int, list[int]] = {}
    for s in tl.steps:
        if s.round:
            spans.setdefault(s.round, [s.number, s.number])[1] = s.number
    return [(r, a, b) for r, (a, b) in sorted(spans.items())]


# --- a report's chart ---------------------------------------------------------------------------

def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def report_figure(name: str, columns: list[str], rows: list[tuple[Any, ...]]) -> go.Figure | None:
    """A bar chart of a report's table: the first text column gives the categories, every
    numeric column a series. ``None`` when there is nothing sensible to draw (no rows, no
    numeric column, no text column)."""
    if not rows or not columns:
        return None

    def column(i: int) -> list[Any]:
        return [row[i] if i < len(row) else None for row in rows]

    kinds: list[str] = []
    for i in range(len(columns)):
        present = [v for v in column(i) if v is not None]
        if present and all(_is_number(v) for v in present):
            kinds.append("number")
        elif present and all(isinstance(v, str) for v in present):
            kinds.append("text")
        else:
            kinds.append("other")
    texts = [i for i, k in enumerate(kinds) if k == "text"]
    numbers = [i for i, k in enumerate(kinds) if k == "number"]
    if not texts or not numbers:
        return None
    categories = [str(v) if v is not None else "" for v in column(texts[0])]
    if len(set(categories)) < len(categories) and len(texts) > 1:
        # the first text column repeats: label each bar with all the text columns
        categories = [" \u00b7 ".join(str(row[i]) if row[i] is not None else ""
                                      for i in texts) for row in rows]
    labels = [esc(c) for c in categories]
    fig = go.Figure()
    for i in numbers:
        fig.add_trace(go.Bar(x=labels, y=column(i), name=esc(columns[i]),
                             hovertemplate="%{x}: %{y}<extra>" + esc(columns[i]) + "</extra>"))
    _base_layout(fig, esc(name), 420)
    fig.update_layout(barmode="group", showlegend=len(numbers) > 1)
    fig.update_xaxes(title=esc(columns[texts[0]]), type="category")
    if len(numbers) == 1:
        fig.update_yaxes(title=esc(columns[numbers[0]]))
    return fig


def figure_json(fig: go.Figure) -> dict[str, Any]:
    """A figure as plain JSON data (``data``, ``layout``) for embedding in a page."""
    import json

    out: dict[str, Any] = json.loads(fig.to_json(validate=False))
    layout = out.get("layout", {})
    layout["template"] = white_template()
    return {"data": out.get("data", []), "layout": layout}


@cache
def white_template() -> dict[str, Any]:
    """plotly's "plotly_white" template as JSON, made once. Setting it on a figure object
    costs ~0.3-0.9 s each time (plotly validates and deep-copies it); as data it is free."""
    import plotly.io as pio

    template: dict[str, Any] = pio.templates["plotly_white"].to_plotly_json()
    return template


__all__: Sequence[str] = ("events_figure", "figure_json", "report_figure", "score_figure",
                          "totals_figure")
