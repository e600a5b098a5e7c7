"""``cabo-log puzzles``: the puzzles of a database as static pages in a folder.

``index.html`` lists them; ``SLUG.html`` is a puzzle (the table as its player saw it, the options
as links) and ``SLUG-answer-K.html`` the answer after option K; ``games/`` holds the timeline
page of each game a puzzle comes from, which the answers link at the puzzle's step. The pages
need no server: plotly.js and the timeline's script are written next to the game pages.
Every file is written whole (to a temporary name, then renamed).
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from cabo_log.pages.assets import plotly_js, static
from cabo_log.pages.timeline import build_timeline
from cabo_log.pages.timeline_html import served_page
from cabo_log.puzzles.pages import answer_html, question_html, title
from cabo_log.puzzles.position import Position, position
from cabo_log.puzzles.selection import (
    MIN_MARGIN,
    MIN_Z,
    THEME_WORDS,
    PuzzleError,
    PuzzleRef,
    Theme,
    find_puzzles,
    option_figures,
    source_of,
)

GAMES = "games"


@dataclass
class WriteSummary:
    index: Path
    puzzles: int = 0
    files: int = 0
    skipped: list[str] = field(default_factory=list)   # "game seq: why"


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _write(path: Path, text: str | bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    if isinstance(text, str):
        tmp.write_text(text, encoding="utf-8")
    else:
        tmp.write_bytes(text)
    os.replace(tmp, path)


def page(heading: str, body: str, nav: str) -> str:
    """A whole self-contained page (the report pages' stylesheet inline, no script)."""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(heading)} \u00b7 cabo-log</title><style>{static('report.css')}"
            f"</style></head><body><header><h1>{esc(heading)}</h1><p class=\"meta\">{nav}</p>"
            f"</header><main>{body}</main><footer>Made by cabo-log puzzles.</footer>"
            "</body></html>\n")


def write_puzzles(con: duckdb.DuckDBPyConnection, out: Path, *, ruleset: str | None = None,
                  theme: Theme | None = None, limit: int | None = None) -> WriteSummary:
    """Write the pages (see the module docstring); PuzzleError when the database has no
    analysis."""
    refs = find_puzzles(con, ruleset=ruleset, theme=theme, limit=limit)
    out.mkdir(parents=True, exist_ok=True)
    summary = WriteSummary(out / "index.html")
    listed: list[PuzzleRef] = []
    games: dict[str, str] = {}     # game id -> its page's file name under games/
    for ref in refs:
        try:
            pos = position(ref, source_of(con, ref.game_id),
                           option_figures(con, ref.game_id, ref.seq))
        except PuzzleError as exc:
            summary.skipped.append(f"{ref.game_id} seq {ref.seq}: {exc}")
            continue
        games.setdefault(ref.game_id, ref.slug.rsplit("-", 1)[0] + ".html")
        summary.files += _write_puzzle(out, pos, f"{GAMES}/{games[ref.game_id]}")
        listed.append(ref)
    summary.files += _write_games(con, out / GAMES, games)
    _write(summary.index, page("Puzzles", _index_body(listed, ruleset, theme), ""))
    summary.files += 1
    summary.puzzles = len(listed)
    return summary


def _write_puzzle(out: Path, pos: Position, game_page: str) -> int:
    ref = pos.ref
    nav = '<a href="index.html">all puzzles</a>'

    def answer(i: int) -> str:
        return f"{ref.slug}-answer-{i}.html"

    _write(out / f"{ref.slug}.html",
           page(title(ref), question_html(pos, answer), nav))
    for o in pos.options:
        body = answer_html(pos, o.index, f"{game_page}#seq={ref.seq}", f"{ref.slug}.html")
        _write(out / answer(o.index), page(title(ref) + ": the answer", body, nav))
    return 1 + len(pos.options)


def _write_games(con: duckdb.DuckDBPyConnection, folder: Path, games: dict[str, str]) -> int:
    """The timeline page of each game, with the scripts it links (none inline)."""
    if not games:
        return 0
    folder.mkdir(exist_ok=True)
    _write(folder / "plotly.min.js", plotly_js())
    _write(folder / "timeline.js", static("timeline.js"))
    written = 2
    for game_id, name in games.items():
        source = source_of(con, game_id)
        if source is None or not Path(source).is_file():
            continue
        tl = build_timeline(Path(source))
        _write(folder / name, served_page(tl, "plotly.min.js", "timeline.js"))
        written += 1
    return written


def _index_body(refs: list[PuzzleRef], ruleset: str | None, theme: Theme | None) -> str:
    chosen = ", ".join(x for x in (ruleset and f"ruleset {ruleset}",
                                   theme and f"theme {THEME_WORDS[theme]}") if x)
    lead = (f'<section class="panel"><p class="lead">Real mistakes from analysed games, each '
            "with one clearly best answer: the table as the player saw it, the options, and "
            "after your answer the expected round points of each. A decision is a puzzle when "
            "the player missed the best move and the best move is ahead of every other by at "
            f"least {MIN_MARGIN:g} expected round points and by more than {MIN_Z:g} standard "
            f"errors.</p><p class=\"meta\">{len(refs)} puzzle{'' if len(refs) == 1 else 's'}"
            f"{' (' + esc(chosen) + ')' if chosen else ''}.</p></section>")
    if not refs:
        return lead
    by_theme: Callable[[PuzzleRef], int] = lambda r: list(Theme).index(r.theme)  # noqa: E731
    rows = "".join(
        f'<tr><td><a href="{esc(r.slug)}.html">{esc(r.game_id)} \u00b7 step {r.seq}</a></td>'
        f"<td>{esc(THEME_WORDS[r.theme])}</td><td>{esc(r.ruleset)}</td><td>{esc(r.player)}</td>"
        f'<td class="n">{r.round}</td><td class="n">{r.margin:.1f}</td></tr>'
        for r in sorted(refs, key=lambda r: (by_theme(r), r.game_id, r.seq)))
    return (lead + '<section class="panel"><div class="table-box"><table class="data puzzles">'
            "<thead><tr><th>puzzle</th><th>theme</th><th>ruleset</th><th>player</th>"
            '<th class="n">round</th><th class="n">best ahead by</th></tr></thead><tbody>'
            f"{rows}</tbody></table></div></section>")
