"""A game's timeline page: the header, the step view of the table, the three charts (and,
analysed, the marks and the evaluation graph), the rounds table, and the data the page's
script reads.

A page is one HTML file: the stylesheet and script from ``cabo_log/static`` are inlined, the
data (snapshots and figures) is one JSON block, and plotly.js is embedded (default), linked
from its CDN, or taken from a file beside the page (``assets``). Strings from the log are
escaped in markup and in the JSON block (see ``assets``).
"""

from __future__ import annotations

from typing import Any

from cabo_log.analysis.analyse import GameAnalysis
from cabo_log.log.render import special_hand
from cabo_log.pages.analysis_charts import (
    MARK_COLOURS,
    add_mark_trace,
    analysis_marks,
    evaluation_figure,
)
from cabo_log.pages.assets import INLINE, esc, head, plotly_note, plotly_tag, script_json, static
from cabo_log.pages.charts import KIND_COLOURS, events_figure, score_figure, totals_figure
from cabo_log.pages.plot import figure_json
from cabo_log.pages.timeline import Timeline

__all__ = ["page_data", "render_page"]


def page_data(tl: Timeline, analysis: GameAnalysis | None = None) -> dict[str, Any]:
    """Everything the page's script reads: snapshots, figures, colours (and, analysed, the
    marks and the evaluation graph: ``analysis_charts``)."""
    events = events_figure(tl)
    if analysis is not None:
        add_mark_trace(events, tl, analysis)
    data: dict[str, Any] = {
        "game": tl.game_id, "players": list(tl.players), "viewer": tl.viewer,
        "sheet": tl.sheet,   # a score sheet: no turns, no piles to show
        "steps": [s.as_json() for s in tl.steps],
        "figures": {
            "events": figure_json(events),
            "score": figure_json(score_figure(tl)),
            "totals": figure_json(totals_figure(tl)),
        },
        "kindColours": KIND_COLOURS,
    }
    if analysis is not None:
        data["figures"]["analysis"] = figure_json(evaluation_figure(tl, analysis))
        data["analysis"] = {"marks": analysis_marks(tl, analysis), "colours": MARK_COLOURS}
    return data


def _player_list(tl: Timeline) -> str:
    out = []
    for p in tl.players:
        name = tl.names.get(p)
        about = [name] if isinstance(name, str) and name != p else []
        about += [tl.kinds[p]] if p in tl.kinds else []
        out.append(esc(f"{p} ({', '.join(about)})" if about else p))
    return ", ".join(out)


def _status(tl: Timeline) -> str:
    left = (f" \u00b7 forfeited: {esc(', '.join(tl.forfeited))}" if tl.forfeited else "")
    if tl.complete:
        word = "winner" if len(tl.winners) == 1 else "winners"
        return f"{word} <b>{esc(', '.join(tl.winners))}</b>{left}"
    return ("in progress" if tl.ok else "stopped by an error") + left


def _banners(tl: Timeline) -> str:
    parts = []
    if tl.error is not None:
        shown = (f"shows the {len(tl.steps)} events before it" if tl.steps
                 else "has only the game's header")
        parts.append(f'<p class="banner error" role="alert"><b>This log is invalid.</b> '
                     f"{esc(str(tl.error))}<br>The page {shown}.</p>")
    elif not tl.complete:
        parts.append('<p class="banner note">The log stops before the end of the match: '
                     "this is a game in progress.</p>")
    return "\n".join(parts)


def _view_note(tl: Timeline) -> str:
    if tl.sheet:
        return ("A score sheet: each step is a round, with the cards each player turned over "
                "at its end. Who drew what, the powers and the turns were not recorded.")
    if tl.viewer is None:
        return ("Omniscient view: every card is shown. A dashed card with a ? is one its "
                "owner did not know.")
    return (f"As <b>{esc(tl.viewer)}</b> knew it: cards {esc(tl.viewer)} had not seen are "
            "face down, and the texts name only cards they saw.")


def _rounds_table(tl: Timeline) -> str:
    if not tl.rounds:
        return ""
    head = "".join(f'<th class="num">{esc(p)}</th>' for p in tl.players)
    unknown = '<span title="a score sheet does not record it">\u2013</span>'
    body = []
    for r in tl.rounds:
        special = special_hand(r, tl.special_name)
        if special is not None:
            call = (f"{esc(r.caller)} \u00b7 " if r.caller else "") + \
                f'<span class="special">{esc(special)}</span>'
        elif r.caller is None:
            call = "nobody"
        elif r.cabo_success is None:
            call = f"{esc(r.caller)} (not scored)"
        else:
            mark = ('<span class="ok">\u2713</span>' if r.cabo_success
                    else '<span class="fail">\u2717</span>')
            call = f"{esc(r.caller)} {mark}"
        end = {"cabo": "Cabo", "deck_empty": "empty deck", "forfeit": "forfeit"}.get(r.end, r.end)
        cells = []
        for p in tl.players:
            if p in r.points:
                reset = " \u21ba" if p in r.resets else ""
                cells.append(f'<td class="num">+{r.points[p]} \u2192 {r.cumulative[p]}{reset}</td>')
            elif p in r.players:
                cells.append('<td class="num left">left</td>')
            else:
                cells.append('<td class="num">\u2013</td>')
        step = tl.round_end_steps.get(r.round, 0)
        body.append(f'<tr data-step="{step}" title="show the table at the end of round '
                    f'{r.round}"><td>{r.round}{" (tie-break)" if r.tiebreak else ""}</td>'
                    f"<td>{esc(r.first) if not tl.sheet else unknown}</td><td>{call}</td>"
                    f"<td>{end}</td><td class=\"num\">{r.turns if not tl.sheet else unknown}</td>"
                    f"{''.join(cells)}</tr>")
    return ('<section class="panel"><h2>Rounds</h2><table class="rounds"><thead><tr>'
            '<th>round</th><th>first</th><th>Cabo</th><th>ended by</th>'
            f'<th class="num">turns</th>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
            "</table><p class=\"meta\">points scored \u2192 match score"
            + (f"; \u21ba: reset to {tl.target // 2}" if any(r.resets for r in tl.rounds) else "")
            + ". Click a round to see its last table.</p></section>")


def served_page(tl: Timeline, plotly_url: str, script_url: str,
                analysis: GameAnalysis | None = None) -> str:
    """The page as a server sends it: plotly and the page's script loaded from the server
    (``plotly_url``, ``script_url``), so that a Content-Security-Policy that runs no inline
    script (``pages.guard``) still runs the page; the game's data stays an inline JSON block,
    which is data, not script."""
    page = render_page(tl, plotly_url, analysis)
    return page.replace(f"<script>{static('timeline.js')}</script>",
                        f'<script src="{script_url}"></script>', 1)


def render_page(tl: Timeline, plotly: str = INLINE,
                analysis: GameAnalysis | None = None) -> str:
    """The whole HTML page of one game. ``plotly``: ``"inline"``, ``"cdn"`` or a script URL."""
    title = f"Cabo game {tl.game_id}" + (f" as {tl.viewer}" if tl.viewer else "")
    meta = (f"ruleset <b>{esc(tl.ruleset)}</b> \u00b7 players {_player_list(tl)} \u00b7 "
            f"{len(tl.rounds)} round{'s' if len(tl.rounds) != 1 else ''} \u00b7 {_status(tl)}")
    source = f" \u00b7 {esc(tl.file)}" if tl.file else ""
    data = script_json(page_data(tl, analysis))
    return f"""{head(title, plotly_tag(plotly))}
<header>
<h1>Cabo game <span class="game-id">{esc(tl.game_id)}</span></h1>
<p class="meta">{meta}</p>
<p class="view">{_view_note(tl)}</p>
{_banners(tl)}
</header>
<main>
<section class="panel" id="table-view">
<h2>The table, step by step</h2>
<div class="controls">
<button type="button" id="step-first" title="first event (Home)">\u00ab first</button>
<button type="button" id="step-prev" title="previous event (\u2190)">\u2039 back</button>
<input type="range" id="step-slider" min="0" max="0" value="0" aria-label="event">
<button type="button" id="step-next" title="next event (\u2192)">next \u203a</button>
<button type="button" id="step-last" title="last event (End)">last \u00bb</button>
<select id="step-round" aria-label="jump to a round">
<option value="">jump to\u2026</option></select>
<span class="where" id="step-where"></span>
</div>
<p class="story" id="step-story"></p>
<p class="status" id="step-status"></p>
<div class="table">
<div class="rows" id="step-rows"></div>
<div class="centre" id="step-centre"></div>
</div>
<div class="legend">
<span><span class="card down"></span> face down (not seen)</span>
<span><span class="card up">5</span> lies face up</span>
<span><span class="card blind">5</span> its owner does not know it</span>
<span><span class="card changed">5</span> touched by this event</span>
<span>the coloured edge grows red with the card's value</span>
</div>
</section>
<section class="panel"><div class="chart" id="chart-events"></div></section>
{_ANALYSIS_PANEL if analysis is not None else ""}<div class="two">
<section class="panel"><div class="chart" id="chart-score"></div></section>
<section class="panel"><div class="chart" id="chart-totals"></div></section>
</div>
{_rounds_table(tl)}
</main>
<footer>Made by cabo-log from the log{source}. Keys: \u2190 \u2192 step, Home/End.
{plotly_note(plotly)}</footer>
<script type="application/json" id="cabo-timeline-data">{data}</script>
<script>{static("timeline.js")}</script>
</body>
</html>
"""


_ANALYSIS_PANEL = '<section class="panel"><div class="chart" id="chart-analysis"></div></section>\n'
