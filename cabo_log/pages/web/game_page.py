"""A game's page in the explorer: its timeline page (the same as ``cabo-log timeline``), built
from the log file the database recorded, with a bar back to the explorer, links to its key
moments (``#seq=N`` opens the page at that event) and, when the game was analysed (``load
--analyse``), its analysis drawn as ``timeline --analyse`` draws it (marks on the events'
lanes and in the step view, the evaluation graph) with the marked decisions listed.

The timeline is rebuilt from the file on each visit unless the file is unchanged (a small
cache keyed on path, size, mtime and the analysis shown): the page shows the log as it is,
and a game still being written shows its latest state.
"""

from __future__ import annotations

import html
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path

import duckdb

from cabo_log.analysis.analyse import GameAnalysis
from cabo_log.analysis.store import read_analysis
from cabo_log.pages.timeline import build_timeline
from cabo_log.pages.timeline_html import served_page
from cabo_log.pages.web.games import game_row
from engine import CaboLogError

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


_PAGES: OrderedDict[tuple[str, int, int, str], str] = OrderedDict()
_PAGES_KEPT = 32
_PAGES_LOCK = threading.Lock()


def _timeline_page(path: str, size: int, mtime_ns: int, analysis: GameAnalysis | None) -> str:
    """The timeline page of a log with its key moments (and, analysed, its marks on the lanes,
    in the step view and the evaluation graph, as ``timeline --analyse`` draws them), for this
    version of the file: the last 32 are kept (a served database cannot change while open)."""
    key = (path, size, mtime_ns, _fingerprint(analysis))
    with _PAGES_LOCK:
        if key in _PAGES:
            _PAGES.move_to_end(key)
            return _PAGES[key]
    tl = build_timeline(Path(path))
    if analysis is not None:   # drawn on the lanes of the game's own players only
        analysis = replace(analysis, decisions=[d for d in analysis.decisions
                                                if d.player in tl.players])
    page = served_page(tl, PLOTLY_URL, SCRIPT_URL, analysis)
    moments = _moments([(s.number, s.round, s.type, s.actor) for s in tl.steps
                        if s.type in MOMENT_TYPES])
    anchor = '<section class="panel"><div class="chart" id="chart-events">'
    if anchor in page:          # right under the step view; else at the end of the page
        page = page.replace(anchor, moments + "\n" + anchor, 1)
    else:
        page = page.replace("</main>", moments + "\n</main>", 1)
    with _PAGES_LOCK:
        _PAGES[key] = page
        while len(_PAGES) > _PAGES_KEPT:
            _PAGES.popitem(last=False)
    return page


def _fingerprint(analysis: GameAnalysis | None) -> str:
    """What of an analysis shows on the page, as a key."""
    if analysis is None:
        return ""
    return repr((analysis.settings.rollouts, [(d.seq, d.player, str(d.mark), d.loss,
                                              d.expected, d.chosen_text, d.best_text)
                                             for d in analysis.decisions]))


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
    analysis = _analysis(con, game_id)
    page = _timeline_page(str(path), st.st_size, st.st_mtime_ns, analysis)
    bar = ('<nav class="explorer" style="background:#1d2330;padding:8px 20px">'
           '<a href="/" style="color:#fff;text-decoration:none;font-weight:700">cabo-log</a>'
           ' <a href="/" style="color:#fff;margin-left:14px">\u2039 all games</a></nav>')
    page = page.replace("<body>", "<body>\n" + bar, 1)
    if analysis is not None:
        page = page.replace("</main>", _marks(analysis) + "\n</main>", 1)
    return GamePage(200, page)


def _analysis(con: duckdb.DuckDBPyConnection, game_id: str) -> GameAnalysis | None:
    """The game's stored analysis (``load --analyse``); None without one, or when the
    database's tables cannot give it (another program's rows)."""
    try:
        return read_analysis(con, game_id)
    except (duckdb.Error, ValueError, KeyError, TypeError, CaboLogError):
        return None


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


def _marks(analysis: GameAnalysis) -> str:
    """The marked decisions in words, each linked to its step (the lanes and the step view
    show them too)."""
    marked = analysis.marked()[:MAX_MARKS]
    if not marked:
        return ('<section class="panel" id="analysis"><h2>Analysis</h2><p class="meta">'
                "No marked decision in this game.</p></section>")
    items = "".join(
        f'<li><a class="seq-link" href="#seq={int(d.seq)}">{esc(d.mark)} seq {int(d.seq)}</a>'
        f" {esc(d.player)} {esc(d.chosen_text)}: {esc(d.given_away())}; best was to "
        f"{esc(d.best_text)}</li>" for d in marked)
    return ('<section class="panel" id="analysis"><h2>Analysis marks</h2><p class="meta">'
            f"Each option played in {analysis.settings.rollouts} sampled worlds or more (up "
            f"to {analysis.settings.most} while the verdict is undecided; none where exact), "
            f"rollout bots: {esc(analysis.settings.policy)}. The marks are on the events' "
            f"lanes and in the step view too.</p><ul class=\"marks\">{items}</ul></section>")
