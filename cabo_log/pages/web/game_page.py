"""A game's page in the explorer: its timeline page (the same as ``cabo-log timeline``), built
from the log file the database recorded, with a bar back to the explorer, links to its key
moments (``#seq=N`` opens the page at that event) and, when the database has a ``decisions``
table (``load --analyse``), the analysis marks of the game.

The timeline is rebuilt from the file on each visit unless the file is unchanged (a small
cache keyed on path, size and mtime): the page shows the log as it is, and a game still being
written shows its latest state.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import duckdb

from cabo_log.db.reports import text
from cabo_log.pages.timeline import build_timeline
from cabo_log.pages.timeline_html import served_page
from cabo_log.pages.web.games import game_row, table_exists

__all__ = ["GamePage", "game_page"]

PLOTLY_URL = "/static/plotly.min.js"
SCRIPT_URL = "/static/timeline.js"   # served, not inline: the explorer's CSP runs no inline script
MOMENT_TYPES = ("deal", "cabo", "snap", "forfeit", "reshuffle")
MAX_MARKS = 500


@dataclass(frozen=True)
class GamePage:
    status: int
    text: str          # the page, or the sentence of an error page


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


@lru_cache(maxsize=32)
def _timeline_page(path: str, size: int, mtime_ns: int) -> str:
    """The timeline page of a log with its key moments, for this version of the file."""
    tl = build_timeline(Path(path))
    page = served_page(tl, PLOTLY_URL, SCRIPT_URL)
    moments = _moments([(s.number, s.round, s.type, s.actor) for s in tl.steps
                        if s.type in MOMENT_TYPES])
    anchor = '<section class="panel"><div class="chart" id="chart-events">'
    if anchor in page:          # right under the step view; else at the end of the page
        return page.replace(anchor, moments + "\n" + anchor, 1)
    return page.replace("</main>", moments + "\n</main>", 1)


def game_page(con: duckdb.DuckDBPyConnection, game_id: str) -> GamePage:
    row = game_row(con, game_id)
    if row is None:
        return GamePage(404, f"No game {game_id!r} in this database.")
    source = row["source_file"]
    path = Path(source) if source else None
    if path is None or not path.is_file():
        return GamePage(404, f"Game {game_id!r} was loaded from {source}, which is no longer "
                             "there: load it again from where it is now.")
    st = path.stat()
    page = _timeline_page(str(path), st.st_size, st.st_mtime_ns)
    bar = ('<nav class="explorer" style="background:#1d2330;padding:8px 20px">'
           '<a href="/" style="color:#fff;text-decoration:none;font-weight:700">cabo-log</a>'
           ' <a href="/" style="color:#fff;margin-left:14px">\u2039 all games</a></nav>')
    page = page.replace("<body>", "<body>\n" + bar, 1)
    marks = _marks(con, game_id)
    if marks:
        page = page.replace("</main>", marks + "\n</main>", 1)
    return GamePage(200, page)


def _rows(con: duckdb.DuckDBPyConnection, sql: str, params: list[Any]
          ) -> tuple[list[str], list[tuple[Any, ...]]]:
    cur = con.cursor()
    try:
        result = cur.execute(sql, params)
        columns = [d[0] for d in result.description or []]
        return columns, result.fetchall()
    finally:
        cur.close()


def _moments(steps: list[tuple[int, int, str, str | None]]) -> str:
    """Links to each round's deal and every Cabo call, snap, reshuffle and forfeit:
    (seq, round, type, player) of those steps."""
    if not steps:
        return ""
    links = []
    for seq, rnd, kind, player in steps:
        words = f"round {rnd} dealt" if kind == "deal" else f"{player or 'table'}: {kind}"
        links.append(f'<a class="seq-link" href="#seq={int(seq)}">{esc(words)}</a>')
    return ('<section class="panel" id="moments"><h2>Key moments</h2><p class="meta">'
            + " \u00b7 ".join(links) + "</p></section>")


_MARK_COLUMNS = ("seq", "player", "kind", "chosen_text", "best_text", "loss", "mark")
"""What a reader needs of a ``decisions`` row (the analysis's own table has more)."""


def _marks(con: duckdb.DuckDBPyConnection, game_id: str) -> str:
    """The analysis marks, when ``load --analyse`` made a ``decisions`` table; each row links
    to its event. Without the table (or without the columns it needs) nothing is shown."""
    if not table_exists(con, "decisions"):
        return ""
    try:
        columns, rows = _rows(con, f"SELECT * FROM decisions WHERE game_id = $1 "
                                   f"ORDER BY seq LIMIT {MAX_MARKS}", [game_id])
    except duckdb.Error:
        return ""
    if not rows:   # this game was not analysed (load --analyse): nothing to show
        return ""
    if "mark" in columns:
        at = columns.index("mark")
        rows = [r for r in rows if r[at] is not None]
    if not rows:
        return ('<section class="panel" id="analysis"><h2>Analysis</h2><p class="meta">'
                "No marked decision in this game.</p></section>")
    shown = [c for c in _MARK_COLUMNS if c in columns] \
        or [c for c in columns if c not in ("game_id", "ruleset")]
    head = "".join(f"<th>{esc(c)}</th>" for c in shown)
    body = []
    for r in rows:
        data = dict(zip(columns, r, strict=True))
        cells = []
        for c in shown:
            value = esc(text(data[c]))
            if c == "seq":
                value = f'<a class="seq-link" href="#seq={quote(str(data[c]))}">{value}</a>'
            cells.append(f"<td>{value}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return ('<section class="panel" id="analysis"><h2>Analysis marks</h2>'
            '<div style="overflow:auto"><table class="rounds"><thead><tr>' + head +
            f'</tr></thead><tbody>{"".join(body)}</tbody></table></div></section>')
