"""What every chart of cabo-log shares: plotly figures as plain JSON data, the colours, the
font, the layout, and the escaping of strings from a log.

Figures are built as dicts (``{"data": [...], "layout": {...}}``), exactly what plotly.js
reads, never as plotly's graph objects: those validate and deep-copy every property on every
update, which made a long match's timeline page take seconds to build.

Every string that comes from a log or a database (player ids, card codes, descriptions) is
data, not markup: plotly.js renders a small subset of HTML in texts, so such strings go
through ``esc`` (which plotly.js turns back into the literal characters when it draws them).
"""

from __future__ import annotations

import html
import textwrap
from functools import cache
from typing import Any

__all__ = ["FONT", "HOVER", "PLAYER_COLOURS", "Figure", "Trace", "esc", "figure_json", "layout",
           "player_colour", "scatter", "white_template", "wrap"]

Figure = dict[str, Any]      # plotly JSON: {"data": [traces], "layout": {...}}
Trace = dict[str, Any]

PLAYER_COLOURS = ("#4C78A8", "#F58518", "#54A24B", "#B279A2", "#E45756", "#72B7B2")
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
HOVER = "%{hovertext}<extra></extra>"     # the hover shows the trace's ``hovertext`` alone


def esc(text: object) -> str:
    """A data string made safe for plotly's pseudo-HTML texts (shown literally)."""
    return html.escape(str(text), quote=False)


def wrap(text: str, width: int = 72) -> str:
    """Escape and break a long sentence into hover lines."""
    return "<br>".join(esc(part) for part in textwrap.wrap(text, width)) or esc(text)


def player_colour(index: int) -> str:
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


def scatter(**props: Any) -> Trace:
    """A scatter trace (points, lines or texts) with these properties."""
    return {"type": "scatter", **props}


def layout(title: str, height: int, **more: Any) -> dict[str, Any]:
    """Title top left, the legend in a line under it, room for axis titles below; ``more``
    adds or replaces top-level properties (axes, shapes, annotations)."""
    out: dict[str, Any] = {
        "height": height,            # the template is added by figure_json (see there)
        "title": {"text": title, "x": 0.01, "xanchor": "left", "y": 0.98, "yanchor": "top"},
        "font": {"family": FONT, "size": 13}, "margin": {"l": 60, "r": 20, "t": 84, "b": 50},
        "hoverlabel": {"font": {"family": FONT}},
        "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.01,
                   "yanchor": "bottom"},
    }
    out.update(more)
    return out


def figure_json(fig: Figure) -> Figure:
    """A figure ready to embed in a page: the same data, the white template in its layout."""
    return {"data": fig["data"], "layout": {**fig["layout"], "template": white_template()}}


@cache
def white_template() -> dict[str, Any]:
    """plotly's "plotly_white" template as JSON, made once per process (it is the only part
    of the python plotly package a figure needs)."""
    import plotly.io as pio

    template: dict[str, Any] = pio.templates["plotly_white"].to_plotly_json()
    return template
