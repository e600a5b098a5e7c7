"""Timeline pages as files: one game's page (``cabo-log timeline FILE``), or a folder of logs
rendered by worker processes into a folder of pages with an index page listing every game
(``cabo-log timeline DIR``); the pages of a folder share one copy of plotly.js.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cabo_log.analysis.analyse import GameAnalysis
from cabo_log.log.logfile import find_logs
from cabo_log.pages.assets import CDN, INLINE, esc, head, plotly_js
from cabo_log.pages.timeline import NotAPlayer, Timeline, build_timeline
from cabo_log.pages.timeline_html import render_page

__all__ = ["FolderResult", "GameSummary", "default_output", "render_index", "write_folder",
           "write_timeline"]


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
    return f"""{head(title)}
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
                   plotly: str = INLINE, analysis: GameAnalysis | None = None) -> Timeline:
    """Render one log's page to ``out``. An invalid log still gets a page of its valid part
    (with the error shown on it) unless not even its header could be read; the caller reports
    ``timeline.error``. Raises ``NotAPlayer`` for an unknown ``viewer``."""
    tl = build_timeline(log, viewer)
    if tl.players:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render_page(tl, plotly, analysis), encoding="utf-8")
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
