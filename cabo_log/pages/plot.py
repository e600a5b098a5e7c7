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
import json
import re
import textwrap
from functools import cache
from importlib import resources
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
    """Escape and break a long sentence into hover lines (as ``textwrap.wrap`` breaks it)."""
    return "<br>".join(esc(part) for part in wrap_lines(text, width)) or esc(text)


def wrap_lines(text: str, width: int = 72) -> list[str]:
    """``textwrap.wrap(text, width)``, without its cost for the plain sentences of a replay
    (a timeline wraps one per event): words between single spaces, none longer than a line,
    no hyphen, are filled greedily here; anything else goes to ``textwrap``."""
    if len(text) <= width and _PLAIN.fullmatch(text):
        return [text] if text else []
    words = text.split(" ")
    if not _PLAIN.fullmatch(text) or max(map(len, words)) > width:
        return textwrap.wrap(text, width)
    lines: list[str] = []
    line = [words[0]]
    size = len(words[0])
    for word in words[1:]:
        if size + 1 + len(word) > width:
            lines.append(" ".join(line))
            line, size = [word], len(word)
        else:
            line.append(word)
            size += 1 + len(word)
    lines.append(" ".join(line))
    return lines


# words of no white space and no hyphen, between single spaces (or nothing at all)
_PLAIN = re.compile(r"(?:[^\s-]+(?: [^\s-]+)*)?")


def player_colour(index: int) -> str:
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


def scatter(**props: Any) -> Trace:
    """A scatter trace (points, lines or texts) with these properties."""
    return {"type": "scatter", **props}


def layout(title: str, height: int, **more: Any) -> dict[str, Any]:
    """Title top left, the legend in a line under it, room for axis titles below; ``more``
    adds or replaces top-level properties (axes, shapes, annotations; an empty list is left
    out, as plotly itself leaves it out of a figure's JSON)."""
    out: dict[str, Any] = {
        "height": height,            # the template is added by figure_json (see there)
        "title": {"text": title, "x": 0.01, "xanchor": "left", "y": 0.98, "yanchor": "top"},
        "font": {"family": FONT, "size": 13}, "margin": {"l": 60, "r": 20, "t": 84, "b": 50},
        "hoverlabel": {"font": {"family": FONT}},
        "legend": {"orientation": "h", "x": 0, "xanchor": "left", "y": 1.01,
                   "yanchor": "bottom"},
    }
    out.update((key, value) for key, value in more.items() if value != [])
    return out


def figure_json(fig: Figure) -> Figure:
    """A figure ready to embed in a page: the same data, the white template in its layout."""
    return {"data": fig["data"], "layout": {**fig["layout"], "template": white_template()}}


@cache
def white_template() -> dict[str, Any]:
    """plotly's "plotly_white" template as JSON, read once per process from the file plotly
    ships it in (a fifth of the time ``plotly.io.templates`` takes to build and export it;
    the same data), or from ``plotly.io`` if that file has moved."""
    try:
        text = (resources.files("plotly") / "package_data" / "templates" /
                "plotly_white.json").read_text(encoding="utf-8")
    except OSError:  # pragma: no cover - another layout of the plotly package
        import plotly.io as pio

        template: dict[str, Any] = pio.templates["plotly_white"].to_plotly_json()
        return template
    loaded: dict[str, Any] = json.loads(text)
    return loaded
