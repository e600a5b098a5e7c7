"""The three charts of a game's timeline page: the match score round by round, the hand
totals turn by turn, and every event on a lane per player.

Each is plotly JSON built as dicts (see ``plot``); the page's script draws them and moves the
step view to the event a click names (every point's ``customdata`` is its step).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cabo_log.log.render import special_hand
from cabo_log.pages.plot import HOVER, Figure, Trace, esc, layout, player_colour, scatter, wrap
from cabo_log.pages.timeline import KINDS, TABLE, Timeline, TurnTotals
from engine import RoundResult

__all__ = ["KIND_COLOURS", "events_figure", "lanes", "score_figure", "totals_figure"]

KIND_COLOURS = {
    "deal": "#8c8c8c", "peek": "#17becf", "draw": "#4C78A8", "discard": "#9ecae9",
    "replace": "#54A24B", "power": "#9467bd", "skip": "#c5b0d5", "cabo": "#E45756",
    "snap": "#F58518", "reshuffle": "#bcbd22", "forfeit": "#222222", "round end": "#8c564b",
    "claim": "#e377c2",
}
KIND_SYMBOLS = {"cabo": "star", "forfeit": "x", "round end": "diamond", "deal": "square",
                "reshuffle": "hexagon", "claim": "diamond-open", "skip": "circle-open"}
_CALL_STAR = {"symbol": "star", "size": 17, "line": {"width": 1, "color": "#333"}}
LABEL_GAP = 0.05        # the least distance between two round names, as a share of the axis
LEGEND_ROW = 3          # legend entries in a row of a half-width chart
LEGEND_ROW_HEIGHT = 22  # pixels


# --- 1. cumulative score per round -------------------------------------------------------------

def score_figure(tl: Timeline) -> Figure:
    """Match score of every player after each round, with Cabo calls and 100 -> 50 resets."""
    rounds = [0] + [r.round for r in tl.rounds]
    steps = [0] + [tl.round_end_steps.get(r.round, 0) for r in tl.rounds]
    left = {s.actor: (s.round, s.number) for s in tl.steps if s.type == "forfeit" and s.actor}
    data: list[Trace] = []
    gone: list[tuple[str, int, int, int]] = []       # player, round, score, step
    for i, p in enumerate(tl.players):
        ys, hover = _score_line(tl, p, left.get(p))
        if p in left:
            last = max(x for x, y in zip(rounds, ys, strict=True) if y is not None)
            gone.append((p, last, ys[rounds.index(last)] or 0, left[p][1]))
        data.append(scatter(
            x=rounds, y=ys, name=esc(p), mode="lines+markers", customdata=steps,
            line={"color": player_colour(i), "width": 3}, marker={"size": 8},
            hovertext=hover, hovertemplate=HOVER))
    data += _call_traces(tl)
    data += _reset_traces(tl)
    if gone:
        data.append(scatter(
            x=[x for _, x, _, _ in gone], y=[y for _, _, y, _ in gone], name="forfeited",
            mode="markers", customdata=[step for _, _, _, step in gone],
            marker={"symbol": "x", "size": 12, "color": KIND_COLOURS["forfeit"]},
            hovertext=[f"{esc(p)} forfeited in round {left[p][0]}" for p, _, _, _ in gone],
            hovertemplate=HOVER))
    target = {"xref": "x domain", "y": tl.target, "yref": "y"}
    extra = _legend_room(len(data))
    return {"data": data, "layout": layout(
        "Score after each round", 380 + extra, **_more_margin(extra),
        shapes=[{"type": "line", "x0": 0, "x1": 1, "y0": tl.target, "y1": tl.target,
                 "xref": "x domain", "yref": "y", "line": {"dash": "dot", "color": "#999"}}],
        annotations=[{"showarrow": False, "text": f"target {tl.target}", "x": 0,
                      "xanchor": "left", "yanchor": "bottom", **target}],
        xaxis={"title": {"text": "round"}, "tickmode": "array", "tickvals": rounds,
               "ticktext": ["start"] + [str(r) for r in rounds[1:]]},
        yaxis={"title": {"text": "match score"}, "rangemode": "tozero"})}


def _legend_room(entries: int) -> int:
    """Pixels more at the top for a legend of more than two rows (in a half-width chart about
    three entries make a row), so that it never covers the chart's title."""
    rows = -(-entries // LEGEND_ROW)
    return LEGEND_ROW_HEIGHT * max(0, rows - 2)


def _more_margin(extra: int) -> dict[str, Any]:
    return {"margin": {"l": 60, "r": 20, "t": 84 + extra, "b": 50}} if extra else {}


def _score_line(tl: Timeline, p: str, left: tuple[int, int] | None
                ) -> tuple[list[int | None], list[str]]:
    """A player's score after each round (None once they left the match) and its hovers."""
    ys: list[int | None] = [0]
    hover = [f"{esc(p)}: 0 before round 1"]
    for r in tl.rounds:
        if left is not None and r.round >= left[0] and p not in r.points:
            ys.append(None)                          # left the match: the line ends
            hover.append("")
            continue
        ys.append(r.cumulative.get(p))
        if p in r.points:
            hover.append(f"{esc(p)}, round {r.round}: {r.totals[p]} in hand, "
                         f"+{r.points[p]} points, score {r.cumulative[p]}")
        else:
            hover.append(f"{esc(p)} did not play round {r.round}; score {r.cumulative[p]}")
    return ys, hover


def _reset_traces(tl: Timeline) -> list[Trace]:
    resets = [(r, p) for r in tl.rounds for p in r.resets]
    if not resets:
        return []
    return [scatter(
        x=[r.round for r, _ in resets], y=[r.cumulative[p] for r, p in resets],
        name=f"reset {tl.target} \u2192 {tl.target // 2}", mode="markers+text",
        text=["reset"] * len(resets), textposition="bottom center",
        customdata=[tl.round_end_steps.get(r.round, 0) for r, _ in resets],
        marker={"symbol": "triangle-down", "size": 14, "color": "#222"},
        hovertext=[f"{esc(p)} reached exactly {tl.target} in round {r.round}: back to "
                   f"{r.cumulative[p]}" for r, p in resets],
        hovertemplate=HOVER)]


_CALL_COLOURS = {"success": "#54A24B", "failure": "#E45756", "not scored as the caller": "#bbbbbb"}


def _call_word(success: bool | None) -> str:
    return {True: "success", False: "failure", None: "not scored as the caller"}[success]


def _call_traces(tl: Timeline) -> list[Trace]:
    """One trace (so one legend entry) per outcome of a Cabo call: success, failure, not
    scored, and a special hand (Kamikaze / shoot the moon), which is none of these."""
    groups: dict[str, list[tuple[RoundResult, str]]] = {}
    for r in tl.rounds:
        if special_hand(r, tl.special_name) is not None:
            who = r.caller if r.caller is not None else r.special[0]
            groups.setdefault(tl.special_name, []).append((r, who))
        elif r.caller is not None:
            groups.setdefault(_call_word(r.cabo_success), []).append((r, r.caller))
    colours = {**_CALL_COLOURS, tl.special_name: "#B279A2"}
    out: list[Trace] = []
    for label in (*_CALL_COLOURS, tl.special_name):
        items = groups.get(label)
        if not items:
            continue
        hover = [f"{esc(who)} called Cabo in round {r.round}: {label}" if special is None
                 else f"round {r.round}: {esc(special)}"
                 for r, who in items for special in [special_hand(r, tl.special_name)]]
        out.append(scatter(
            x=[r.round for r, _ in items], y=[r.cumulative[who] for r, who in items],
            name=f"Cabo call: {label}" if label != tl.special_name
            else esc(tl.special_name[:1].upper() + tl.special_name[1:]),
            mode="markers", customdata=[tl.round_end_steps.get(r.round, 0) for r, _ in items],
            marker={**_CALL_STAR, "symbol": "star" if label != tl.special_name else "diamond",
                    "color": colours[label]},
            hovertext=hover, hovertemplate=HOVER))
    return out


# --- 2. hand totals turn by turn ----------------------------------------------------------------

def totals_figure(tl: Timeline) -> Figure:
    """Each row's hand total after every turn; ``--as``: the sum of the cards the viewer saw.

    x is the turn's index over the whole match; the line breaks between rounds. Seen as a
    player, the hands shown at a round's end are separate markers, not part of the line.
    """
    turns = tl.turns
    data: list[Trace] = []
    for i, p in enumerate(tl.players):
        data += _totals_traces(tl, i, p)
    calls = [(x, t) for x, t in enumerate(turns) if t.cabo is not None]
    if calls:
        data.append(scatter(
            x=[x for x, _ in calls], y=[_shown_total(tl, t, t.cabo or "") for _, t in calls],
            name="Cabo call", mode="markers", customdata=[t.step for _, t in calls],
            marker={**_CALL_STAR, "color": KIND_COLOURS["cabo"]},
            hovertext=[f"{esc(t.cabo)} calls Cabo (round {t.round}, turn {t.turn})"
                       for _, t in calls],
            hovertemplate=HOVER))
    starts = [x for x, t in enumerate(turns) if x == 0 or t.round != turns[x - 1].round]
    ticks = [x for x, shown in zip(starts, _room(starts, len(turns)), strict=True) if shown]
    if tl.viewer is not None:
        title = f"Hand totals as {esc(tl.viewer)} could estimate them"
        ytitle = f"estimated total (unseen card = {tl.mean_value:.1f})"
    else:
        title, ytitle = "Hand totals, turn by turn", "hand total"
    between = [{"type": "line", "xref": "x", "yref": "paper", "x0": x - 0.5, "x1": x - 0.5,
                "y0": 0, "y1": 1, "line": {"color": "#ccc", "width": 1}} for x in starts[1:]]
    return {"data": data, "layout": layout(
        title, 400, shapes=between,
        xaxis={"title": {"text": "turns, round by round"}, "tickmode": "array",
               "tickvals": ticks, "ticktext": [f"R{turns[x].round}" for x in ticks],
               "showgrid": False},
        yaxis={"title": {"text": ytitle}})}


def _totals_traces(tl: Timeline, i: int, p: str) -> list[Trace]:
    """A player's line of totals (broken between rounds) and, seen as a player, the hands
    shown at the rounds' ends as separate markers (not what the player knew)."""
    turns = tl.turns
    apart = tl.viewer is not None
    px: list[float] = []
    ys: list[float | None] = []
    hover: list[str] = []
    steps: list[int] = []
    shown: list[tuple[int, int, str, int]] = []
    for x, t in enumerate(turns):
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
    out = [scatter(x=px, y=ys, name=esc(p), mode="lines+markers", customdata=steps,
                   line={"color": player_colour(i), "width": 2}, marker={"size": 5},
                   legendgroup=f"p{i}", connectgaps=False, hovertext=hover,
                   hovertemplate=HOVER)]
    if shown:
        out.append(scatter(
            x=[x for x, _, _, _ in shown], y=[y for _, y, _, _ in shown],
            name=f"{esc(p)}: hand shown", mode="markers", legendgroup=f"p{i}",
            showlegend=False, customdata=[s for _, _, _, s in shown],
            marker={"symbol": "circle-open", "size": 9, "color": player_colour(i),
                    "line": {"width": 2}},
            hovertext=[h for _, _, h, _ in shown], hovertemplate=HOVER))
    return out


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


def events_figure(tl: Timeline) -> Figure:
    """One lane per player, a marker per event coloured by its kind, the story in the hover."""
    lane = lanes(tl)
    by_kind: dict[str, list[tuple[int, int, str]]] = {}
    for s in tl.steps:
        y = lane[TABLE] if s.actor is None else lane[s.actor]
        head = f"<b>step {s.number}</b> (line {s.line}) \u00b7 round {s.round}, turn {s.turn}"
        text = f"{head}<br>{wrap(s.text)}"
        by_kind.setdefault(s.kind, []).append((s.number, y, text))
        if s.round_end is not None:
            by_kind.setdefault("round end", []).append((s.number, lane[TABLE], text))
    data: list[Trace] = []
    for kind in KINDS:
        points = by_kind.get(kind)
        if not points:
            continue
        big = kind in ("cabo", "forfeit", "round end")
        data.append(scatter(
            x=[x for x, _, _ in points], y=[y for _, y, _ in points], name=kind,
            mode="markers", customdata=[x for x, _, _ in points],
            marker={"color": KIND_COLOURS[kind], "symbol": KIND_SYMBOLS.get(kind, "circle"),
                    "size": 15 if big else 10, "line": {"width": 1, "color": "#fff"}},
            hovertext=[h for _, _, h in points], hovertemplate=HOVER))
    count = len(tl.players)
    return {"data": data, "layout": layout(
        "Events (click one to show the table after it)", 170 + 42 * (count + 1),
        **_round_bands(tl),
        xaxis={"title": {"text": "event"}, "zeroline": False},
        yaxis={"tickmode": "array", "tickvals": list(lane.values()),
               "ticktext": [esc(p) for p in lane if p != TABLE] + ["<i>table</i>"],
               "range": [-0.7, count + 1.1], "showgrid": True, "zeroline": False,
               "fixedrange": True},
        hovermode="closest")}


def _round_bands(tl: Timeline) -> dict[str, Any]:
    """The events chart's shapes (the step cursor, a grey band every other round) and the
    rounds' names above the lanes."""
    count = len(tl.players)
    first = tl.steps[0].number if tl.steps else 0
    shapes: list[dict[str, Any]] = [    # shape 0 is the step view's cursor (the page moves it)
        {"type": "line", "x0": first, "x1": first, "y0": -0.6, "y1": count + 0.6,
         "xref": "x", "yref": "y", "line": {"color": "#111", "width": 2, "dash": "dot"},
         "name": "cursor"}]
    notes: list[dict[str, Any]] = []
    spans = _round_spans(tl)
    named = _room([(start + end) / 2 for _, start, end in spans],
                  (spans[-1][2] - spans[0][1]) if spans else 0)
    for (number, start, end), shown in zip(spans, named, strict=True):
        if number % 2 == 0:
            shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": start - 0.5,
                           "x1": end + 0.5, "y0": 0, "y1": 1, "fillcolor": "#f0f0f0",
                           "line": {"width": 0}, "layer": "below"})
        if shown:
            notes.append({"x": (start + end) / 2, "y": count + 0.85, "text": f"round {number}",
                          "showarrow": False, "font": {"size": 11, "color": "#666"}})
    return {"shapes": shapes, "annotations": notes}


def _room(xs: Sequence[float], extent: float) -> list[bool]:
    """Which labels along an axis to show: not one that would run into the label shown before
    it (closer than ``LABEL_GAP`` of the axis), so a long match's rounds are named sparsely
    instead of on top of each other."""
    out: list[bool] = []
    last: float | None = None
    for x in xs:
        shown = last is None or x - last >= LABEL_GAP * extent
        out.append(shown)
        last = x if shown else last
    return out


def _round_spans(tl: Timeline) -> list[tuple[int, int, int]]:
    spans: dict[int, list[int]] = {}
    for s in tl.steps:
        if s.round:
            spans.setdefault(s.round, [s.number, s.number])[1] = s.number
    return [(r, a, b) for r, (a, b) in sorted(spans.items())]
