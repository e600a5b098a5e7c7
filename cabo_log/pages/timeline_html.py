"""Assembling a game's timeline page, and the index page of a folder of games.

A page is one HTML file: the stylesheet and script from ``cabo_log/static`` are inlined, the
data (snapshots and figures) is one JSON block, and plotly.js is embedded (default), linked
from its CDN, or taken from a file beside the page (a folder of pages shares one copy).

Player ids, names and every other string from a log are data: they are HTML-escaped in markup,
and the JSON block escapes ``<``, ``>`` and ``&`` so no string can close the ``<script>``.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from cabo_log.log.logfile import find_logs
from cabo_log.log.render import special_hand
from cabo_log.pages.charts import (
    KIND_COLOURS,
    events_figure,
    figure_json,
    score_figure,
    totals_figure,
)
from cabo_log.pages.timeline import NotAPlayer, Timeline, build_timeline

INLINE = "inline"
CDN = "cdn"

_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                 "\u2028": "\\u2028", "\u2029": "\\u2029"}



def _head(title: str, extra: str = "") -> str:
    """The document start shared by game pages and the index: meta, title, styles."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="cabo-log timeline">
<title>{esc(title)}</title>
<style>{_static("timeline.css")}</style>
{extra}
</head>
<body>"""

def script_json(obj: Any) -> str:
    """JSON text that is safe inside a ``<script>`` element: no ``</script>``, no ``<!--``."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char, escaped in _JSON_ESCAPES.items():
        text = text.replace(char, escaped)
    return text


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


@cache
def _static(name: str) -> str:
    return (resources.files("cabo_log") / "static" / name).read_text(encoding="utf-8")


@cache
def plotly_js() -> str:
    """The plotly.js bundle shipped with the plotly package (works offline)."""
    from plotly.offline import get_plotlyjs

    return str(get_plotlyjs())


def _plotly_tag(plotly: str) -> str:
    if plotly == INLINE:
        return f"<script>{plotly_js()}</script>"
    if plotly == CDN:
        from plotly.io._utils import plotly_cdn_url

        digest = hashlib.sha384(plotly_js().encode("utf-8")).digest()
        sri = "sha384-" + base64.b64encode(digest).decode("ascii")
        return (f'<script src="{esc(plotly_cdn_url())}" integrity="{sri}" '
                'crossorigin="anonymous" charset="utf-8"></script>')
    return f'<script src="{esc(plotly)}" charset="utf-8"></script>'


@dataclass
class GameSummary:
    """One line of a folder's index page."""

    file: str
    page: str | None
    game_id: str
    ruleset: str
    players: tuple[str, ...]
    rounds: int
    winners: tuple[str, ...]
    complete: bool
    error: str | None
    scores: dict[str, int] = field(default_factory=dict)      # the last match scores
    forfeited: tuple[str, ...] = ()

    @classmethod
    def of(cls, tl: Timeline, file: str, page: str | None) -> GameSummary:
        return cls(file, page, tl.game_id, tl.ruleset, tl.players, len(tl.rounds),
                   tl.winners, tl.complete, str(tl.error) if tl.error else None,
                   dict(tl.steps[-1].scores) if tl.steps else {}, tl.forfeited)


def page_data(tl: Timeline) -> dict[str, Any]:
    """Everything the page's script reads: snapshots, figures, colours."""
    return {
        "game": tl.game_id, "players": list(tl.players), "viewer": tl.viewer,
        "steps": [s.as_json() for s in tl.steps],
        "figures": {
            "events": figure_json(events_figure(tl)),
            "score": figure_json(score_figure(tl)),
            "totals": figure_json(totals_figure(tl)),
        },
        "kindColours": KIND_COLOURS,
    }


def _player_list(tl: Timeline) -> str:
    out = []
    for p in tl.players:
        name = tl.names.get(p)
        label = f"{p} ({name})" if isinstance(name, str) and name != p else p
        out.append(esc(label))
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
    if tl.viewer is None:
        return ("Omniscient view: every card is shown. A dashed card with a ? is one its "
                "owner did not know.")
    return (f"As <b>{esc(tl.viewer)}</b> knew it: cards {esc(tl.viewer)} had not seen are "
            "face down, and the texts name only cards they saw.")


def _rounds_table(tl: Timeline) -> str:
    if not tl.rounds:
        return ""
    head = "".join(f'<th class="num">{esc(p)}</th>' for p in tl.players)
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
                    f"<td>{esc(r.first)}</td><td>{call}</td><td>{end}</td>"
                    f"<td class=\"num\">{r.turns}</td>{''.join(cells)}</tr>")
    return ('<section class="panel"><h2>Rounds</h2><table class="rounds"><thead><tr>'
            '<th>round</th><th>first</th><th>Cabo</th><th>ended by</th>'
            f'<th class="num">turns</th>{head}</tr></thead><tbody>{"".join(body)}</tbody>'
            "</table><p class=\"meta\">points scored \u2192 match score"
            + (f"; \u21ba: reset to {tl.target // 2}" if any(r.resets for r in tl.rounds) else "")
            + ". Click a round to see its last table.</p></section>")


def _plotly_note(plotly: str) -> str:
    if plotly == INLINE:
        return ("This page embeds plotly.js (a few MB) so it works offline; "
                "<code>cabo-log timeline --cdn</code> links it from its CDN instead.")
    if plotly == CDN:
        return "plotly.js is linked from its CDN: the charts need a network connection."
    return f"plotly.js is read from {esc(plotly)} beside the page."


def render_page(tl: Timeline, plotly: str = INLINE) -> str:
    """The whole HTML page of one game. ``plotly``: ``"inline"``, ``"cdn"`` or a script URL."""
    title = f"Cabo game {tl.game_id}" + (f" as {tl.viewer}" if tl.viewer else "")
    meta = (f"ruleset <b>{esc(tl.ruleset)}</b> \u00b7 players {_player_list(tl)} \u00b7 "
            f"{len(tl.rounds)} round{'s' if len(tl.rounds) != 1 else ''} \u00b7 {_status(tl)}")
    source = f" \u00b7 {esc(tl.file)}" if tl.file else ""
    return f"""{_head(title, _plotly_tag(plotly))}
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
<div class="two">
<section class="panel"><div class="chart" id="chart-score"></div></section>
<section class="panel"><div class="chart" id="chart-totals"></div></section>
</div>
{_rounds_table(tl)}
</main>
<footer>Made by cabo-log from the log{source}. Keys: \u2190 \u2192 step, Home/End.
{_plotly_note(plotly)}</footer>
<script type="application/json" id="cabo-timeline-data">{script_json(page_data(tl))}</script>
<script>{_static("timeline.js")}</script>
</body>
</html>
"""


def render_index(title: str, games: list[GameSummary]) -> str:
    """The index page of a folder: one line per game with its final scores, linking its page;
    invalid logs in a table of their own below, with their error."""
    lines, bad = [], []
    for g in games:
        name = esc(g.file)
        link = f'<a href="{esc(g.page)}">{name}</a>' if g.page else name
        if g.error:
            bad.append(f"<tr><td>{link}</td><td>{esc(g.error)}</td></tr>")
            continue
        status = "complete" if g.complete else "in progress"
        winners = esc(", ".join(g.winners)) or "\u2013"
        scores = ", ".join(f"{esc(p)} {s}" + (" (left)" if p in g.forfeited else "")
                           for p, s in g.scores.items()) or "\u2013"
        lines.append(f"<tr><td>{link}</td><td class=\"id\">{esc(g.game_id)}</td>"
                     f"<td>{esc(g.ruleset)}</td><td class=\"num\">{g.rounds}</td>"
                     f"<td>{scores}</td><td>{winners}</td><td>{status}</td></tr>")
    count = f"{len(lines)} game{'s' if len(lines) != 1 else ''}"
    if bad:
        count += f", {len(bad)} invalid log{'s' if len(bad) != 1 else ''}"
    invalid = ("" if not bad else
               '<section class="panel"><h2>Invalid logs</h2><table class="rounds index">'
               "<thead><tr><th>log</th><th>error (the page shows the valid part)</th></tr>"
               f"</thead><tbody>{''.join(bad)}</tbody></table></section>")
    return f"""{_head(title)}
<header><h1>{esc(title)}</h1><p class="meta">{count}</p></header>
<main><section class="panel">
<table class="rounds index"><thead><tr><th>log</th><th>game</th><th>ruleset</th>
<th class="num">rounds</th><th>final scores</th><th>winner</th><th>status</th></tr></thead>
<tbody>{"".join(lines)}</tbody></table>
</section>
{invalid}</main>
<footer>Made by cabo-log. Each page embeds nothing but its data; they share plotly.js from
plotly.min.js beside this index (or its CDN with --cdn), so the folder works offline.</footer>
</body>
</html>
"""


# --- writing files ----------------------------------------------------------------------------

def default_output(log: Path) -> Path:
    """``games/g1.jsonl`` -> ``./g1.html`` (in the current directory)."""
    return Path(log.name).with_suffix(".html")


def write_timeline(log: Path, out: Path, viewer: str | None = None,
                   plotly: str = INLINE) -> Timeline:
    """Render one log's page to ``out``. An invalid log still gets a page of its valid part
    (with the error shown on it) unless not even its header could be read; the caller reports
    ``timeline.error``. Raises ``NotAPlayer`` for an unknown ``viewer``."""
    tl = build_timeline(log, viewer)
    if tl.players:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render_page(tl, plotly), encoding="utf-8")
    return tl


@dataclass
class FolderResult:
    index: Path
    games: list[GameSummary]
    errors: list[str]        # one ``FILE:LINE: code: message`` per invalid log
    skipped: list[str]       # logs the viewer does not play in


def write_folder(folder: Path, outdir: Path, viewer: str | None = None,
                 cdn: bool = False, *, jobs: int | None = None,
                 progress: Callable[[int], None] | None = None) -> FolderResult:
    """Render every ``*.jsonl`` under ``folder`` into ``outdir`` (same relative paths, ``.html``)
    plus ``index.html``. The pages share one ``plotly.min.js`` in ``outdir`` unless ``cdn``.
    They are rendered by ``jobs`` worker processes (default one per core, see
    ``workers.worker_count``); ``progress`` is called with 1 as each page is done."""
    from cabo_log.workers import Pool, worker_count

    outdir.mkdir(parents=True, exist_ok=True)
    shared = outdir / "plotly.min.js"
    if not cdn:
        shared.write_text(plotly_js(), encoding="utf-8")
    pages: list[_Page] = []
    for log in find_logs([folder]):
        rel = log.relative_to(folder).with_suffix(".html")
        if rel == Path("index.html"):
            rel = Path("index-game.html")
        page = outdir / rel
        plotly = CDN if cdn else os.path.relpath(shared, page.parent).replace(os.sep, "/")
        pages.append(_Page(log, log.relative_to(folder).as_posix(), rel.as_posix(), page,
                           viewer, plotly))
    games: list[GameSummary] = []
    errors: list[str] = []
    skipped: list[str] = []
    with Pool(worker_count(jobs, len(pages)), preload=[__name__]) as pool:
        for job, (summary, error) in zip(pages, pool.imap(_render, pages), strict=True):
            if summary is None:
                skipped.append(str(job.log))
            else:
                games.append(summary)
            if error is not None:
                errors.append(error)
            if progress is not None:
                progress(1)
    index = outdir / "index.html"
    title = f"Cabo games in {folder.resolve().name or folder}"
    if viewer is not None:
        title += f", as {viewer} knew them"
    index.write_text(render_index(title, games), encoding="utf-8")
    return FolderResult(index, games, errors, skipped)


@dataclass(frozen=True)
class _Page:
    """One page of ``write_folder`` (sent to a worker)."""

    log: Path
    file: str           # the log, relative to the folder
    rel: str            # the page, relative to the output folder
    page: Path
    viewer: str | None
    plotly: str


def _render(job: _Page) -> tuple[GameSummary | None, str | None]:
    """Write one page: its line of the index (None: the viewer does not play in it) and the
    log's error, if any."""
    try:
        tl = write_timeline(job.log, job.page, job.viewer, job.plotly)
    except NotAPlayer:
        return None, None
    summary = GameSummary.of(tl, job.file, job.rel if tl.players else None)
    return summary, str(tl.error) if tl.error is not None else None
