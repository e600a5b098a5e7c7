"""``cabo-log serve``: a Starlette app over a database ``load`` made, read-only.

``create_app(db)`` returns the ASGI app (tests drive it with Starlette's ``TestClient``; the
CLI runs it on uvicorn), wrapped in ``pages.guard.Guard``: only requests addressed to the
served host are answered, and every answer carries a Content-Security-Policy and the other
protective headers. One DuckDB connection, opened read-only with external access off
(``db.readonly``), is shared; each request works on a cursor of its own. Pages are Jinja2
templates with autoescaping on, so every string from a log is text. A game's page is its
timeline page (``pages.timeline_html``), built from the log file the database recorded.
Errors are pages: 404 for an unknown game, player or report, 400 for a bad parameter, 500
with a sentence (never a traceback) for anything else.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import duckdb
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from cabo_log.db import reports
from cabo_log.db.console import Console, ConsoleBusy, ConsoleError, Limits
from cabo_log.db.database import check_version
from cabo_log.db.event_tables import STORED
from cabo_log.db.readonly import open_readonly
from cabo_log.pages.assets import plotly_js, static
from cabo_log.pages.guard import LOOPBACK, Guard
from cabo_log.pages.plot import white_template
from cabo_log.pages.rating_charts import history_figure
from cabo_log.pages.report_page import (
    ChartBlock,
    chart_blocks,
    charts_html,
    legend_html,
    note_html,
    prose_html,
    table_html,
)
from cabo_log.pages.web import puzzle_pages
from cabo_log.pages.web.game_page import game_page
from cabo_log.pages.web.games import (
    SORTS,
    BadRequest,
    GameFilter,
    GamePage,
    list_games,
    prepare,
)
from cabo_log.pages.web.standings import (
    DEFAULT_MIN_GAMES,
    game_changes,
    leaderboards,
    player_record,
    prepare_standings,
    rating_history,
)

__all__ = ["Settings", "create_app"]

log = logging.getLogger("cabo_log.serve")


@dataclass(frozen=True)
class Settings:
    db: Path
    dataset: Path | None = None   # the Parquet folder of a database of views
    sql_rows: int = 1000          # rows the console shows at most
    sql_bytes: int = 2_000_000    # and bytes of them
    sql_seconds: float = 5.0      # time a console query may run
    sql_memory_mb: int = 512      # memory a console query may take
    sql_concurrent: int = 2       # console queries at once
    memory_limit: str = "1GB"     # DuckDB's, for the pages' own queries


def _env() -> Environment:
    env = Environment(loader=PackageLoader("cabo_log.pages.web", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.globals["pct"] = lambda x: "\u2013" if x is None else f"{100 * x:.1f} %"
    return env


class Explorer:
    """The app's state and its pages (each page a method, so tests can reach the state)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.con = open_readonly(settings.db, dataset=settings.dataset,
                                 memory_limit=settings.memory_limit)
        self.console = Console(settings.db, settings.dataset, Limits(
            rows=settings.sql_rows, bytes=settings.sql_bytes, seconds=settings.sql_seconds,
            memory_mb=settings.sql_memory_mb, concurrent=settings.sql_concurrent))
        check_version(self.con, settings.db)
        prepare(self.con)
        prepare_standings(self.con)
        self.env = _env()
        self.db_name = settings.db.name
        # the database cannot change while it is open read-only here (DuckDB's file lock keeps
        # writers out), so what was computed once stays true: report results, the game count.
        # _lock also serialises the queries on self.con itself (the TEMP tables of prepare)
        self._reports: OrderedDict[tuple[str, tuple[tuple[str, Any], ...]], dict[str, Markup]] \
            = OrderedDict()
        self._lock = threading.Lock()
        self.total_games = int(self.scalar_list("SELECT count(*) FROM games")[0])
        self.rulesets = [str(r) for r in
                         self.scalar_list("SELECT DISTINCT ruleset FROM games ORDER BY 1")]

    def html(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        page = self.env.get_template(template).render(db_name=self.db_name, **context)
        return HTMLResponse(page, status_code=status)

    def error(self, status: int, heading: str, message: str) -> HTMLResponse:
        return self.html("error.html", status, heading=heading, message=message)

    def scalar_list(self, sql: str) -> list[Any]:
        cur = self.con.cursor()
        try:
            return [r[0] for r in cur.execute(sql).fetchall()]
        finally:
            cur.close()

    # --- pages --------------------------------------------------------------------------------

    def games(self, request: Request) -> Response:
        try:
            f = GameFilter.parse(request.query_params)
        except BadRequest as exc:
            return self.error(400, "Bad filter", str(exc))
        with self._lock:
            page = list_games(self.con, f)
            changes = self._changes(page)
        pages = max(1, math.ceil(page.total / f.size))

        def url(n: int) -> str:
            query = dict(request.query_params)
            query["page"] = str(n)
            return "/?" + urlencode(query)

        return self.html(
            "games.html", f=f, page=page, pages=pages, sorts=list(SORTS), changes=changes,
            all_games=self.total_games, rulesets=self.rulesets,
            prev_url=url(f.page - 1) if f.page > 1 else None,
            next_url=url(f.page + 1) if f.page < pages else None)

    def game(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        page = game_page(self.con, game_id)
        if page.status != 200:
            return self.error(page.status, "No such game" if page.status == 404 else
                              "Cannot show this game", page.text)
        return HTMLResponse(page.text)

    def _changes(self, page: GamePage) -> dict[str, dict[str, float]]:
        """The rating change of each player of each listed game (under ``_lock``)."""
        return game_changes(self.con, [str(g["game_id"]) for g in page.rows])

    def player(self, request: Request) -> Response:
        """A player's record per ruleset (or the ``?ruleset=`` one), their rating history in
        each as a chart, and their latest games."""
        name = request.path_params["player"]
        ruleset = request.query_params.get("ruleset", "").strip() or None
        with self._lock:
            rec = player_record(self.con, name, ruleset)
            page = list_games(self.con, GameFilter(player=name, ruleset=ruleset, size=20))
            changes = self._changes(page)
            histories = {r.ruleset: rating_history(self.con, name, r.ruleset)
                         for r in (rec.rulesets if rec is not None else []) if r.rated}
        if rec is None:
            return self.error(404, "No such player",
                              f"No game in this database has a player {name!r}.")
        if not rec.rulesets:
            return self.error(404, "No such games",
                              f"{name} has played no game of the ruleset {ruleset!r}.")
        blocks = [ChartBlock(f"Rating at {r}", history_figure(name, r, points))
                  for r, points in histories.items()]
        query = {"player": name, **({"ruleset": ruleset} if ruleset else {})}
        return self.html("player.html", rec=rec, page=page, ruleset=ruleset, changes=changes,
                         charts=Markup(charts_html(blocks)), all_url="/?" + urlencode(query))

    def ratings(self, request: Request) -> Response:
        """Each ruleset's leaderboard (or the ``?ruleset=`` one), players with at least
        ``?min_games=`` rated games."""
        ruleset = request.query_params.get("ruleset", "").strip() or None
        raw = request.query_params.get("min_games", "").strip()
        try:
            min_games = int(raw) if raw else DEFAULT_MIN_GAMES
            if not 1 <= min_games <= 1_000_000:
                raise ValueError
        except ValueError:
            return self.error(400, "Bad filter", f"min_games must be a whole number from 1 to "
                                                 f"1,000,000, not {raw!r}")
        if ruleset is not None and ruleset not in self.rulesets:
            return self.error(404, "No such ruleset",
                              f"No game in this database is of the ruleset {ruleset!r}.")
        with self._lock:
            boards = leaderboards(self.con, ruleset, min_games)
        return self.html("ratings.html", boards=boards, ruleset=ruleset, min_games=min_games,
                         rulesets=self.rulesets)

    def report_list(self, request: Request) -> Response:
        return self.html("reports.html", reports=list(reports.available().values()))

    def report(self, request: Request) -> Response:
        name = request.path_params["name"]
        try:
            report = reports.get(name)
        except reports.ReportError as exc:
            return self.error(404, "No such report", str(exc))
        raw = {k: v for k, v in request.query_params.items()}
        cur = self.con.cursor()
        try:
            choices = {p.name: reports.choices(cur, p) for p in report.params.values()
                       if p.source is not None}
            try:
                values = reports.bind(report, raw)
                reports.check_values(cur, report, values)
            except reports.ReportError as exc:
                return self.html("report.html", 400, report=report, raw=raw, choices=choices,
                                 error=str(exc))
            parts = self.report_parts(cur, report, values)
        finally:
            cur.close()
        return self.html("report.html", 200, report=report, raw=raw, choices=choices,
                         error=None, **parts)

    def report_parts(self, cur: duckdb.DuckDBPyConnection, report: reports.Report,
                     values: dict[str, Any]) -> dict[str, Markup]:
        """A report's prose, charts and table for these values, computed once (an LRU of
        the last 64 asked for)."""
        key = (report.name, tuple(sorted(values.items())))
        with self._lock:
            if key in self._reports:
                self._reports.move_to_end(key)
                return self._reports[key]
        columns, rows = reports.run(cur, report, values)
        note = note_html(reports.left_out(cur, report, values))
        parts = {"prose": Markup(prose_html(report.doc, values)),
                 "charts": Markup(charts_html(chart_blocks(report, columns, rows))),
                 "table": Markup(table_html(columns, rows) + note
                                 + legend_html(report, columns, values))}
        with self._lock:
            self._reports[key] = parts
            while len(self._reports) > 64:
                self._reports.popitem(last=False)
        return parts

    def sql(self, request: Request) -> Response:
        query = request.query_params.get("q", "").strip()
        tables = [name for name in self.scalar_list(
            "SELECT table_name FROM information_schema.tables ORDER BY 1")
            if name not in STORED]   # ``events``' own tables: query the view ``events``
        context: dict[str, Any] = {"query": query, "tables": tables, "error": None,
                                   "table": None, "truncated": False,
                                   "max_rows": self.settings.sql_rows, "shown": 0,
                                   "max_size": f"{self.settings.sql_bytes / 1e6:g} MB",
                                   "memory": f"{self.settings.sql_memory_mb:,} MB",
                                   "seconds": f"{self.settings.sql_seconds:g}"}
        if not query:
            if not request.query_params.get("q", "X"):
                context["error"] = "Type a query first."
            return self.html("sql.html", **context)
        try:
            result = self.console.run(query)
        except ConsoleError as exc:
            context["error"] = _one_line(exc)
            return self.html("sql.html", 503 if isinstance(exc, ConsoleBusy) else 400, **context)
        context["table"] = Markup(table_html(result.columns, result.rows))
        context["truncated"] = result.truncated
        context["shown"] = len(result.rows)
        return self.html("sql.html", **context)

    def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        media = {"report.css": "text/css", "report.js": "text/javascript",
                 "timeline.js": "text/javascript", "plotly.min.js": "text/javascript"}
        if name not in media:
            return self.error(404, "Not found", f"There is no file {name!r} here.")
        body = plotly_js() if name == "plotly.min.js" else static(name)
        return Response(body, media_type=media[name],
                        headers={"Cache-Control": "public, max-age=3600"})


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def create_app(db: Path | str, *, hosts: Iterable[str] = LOOPBACK, port: int | None = None,
               **options: Any) -> Guard:
    """The explorer over ``db`` (DatabaseError if it cannot be opened), behind a ``Guard``
    that answers only to ``hosts`` on ``port`` (None: the port the request came in on) and
    sends the protective headers; ``options`` go to ``Settings``. The Starlette app is
    ``.app`` of what it returns."""
    explorer = Explorer(Settings(Path(db), **options))

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 404
        if status == 405:
            return explorer.error(405, "Method not allowed", "This page only answers GET.")
        return explorer.error(404, "Not found", f"There is no page at {request.url.path}.")

    async def server_error(request: Request, exc: Exception) -> Response:
        log.error("error on %s: %s", request.url.path, _one_line(exc))
        return explorer.error(500, "Something went wrong",
                              f"The page could not be made: {_one_line(exc)}")

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        white_template()     # read once at start: the first game page need not wait for it
        explorer.console.start()
        yield
        explorer.console.close()
        explorer.con.close()

    routes = [
        Route("/", explorer.games), Route("/games/{game_id:path}", explorer.game),
        Route("/players/{player:path}", explorer.player), Route("/ratings", explorer.ratings),
        Route("/reports", explorer.report_list), Route("/reports/{name}", explorer.report),
        Route("/sql", explorer.sql), Route("/static/{name}", explorer.static),
        Route("/puzzles", lambda r: puzzle_pages.index(explorer, r)),
        Route("/puzzles/random", lambda r: puzzle_pages.random_puzzle(explorer, r)),
        Route("/puzzles/{game_id:path}/{seq:int}/answer",
              lambda r: puzzle_pages.answer(explorer, r)),
        Route("/puzzles/{game_id:path}/{seq:int}", lambda r: puzzle_pages.puzzle(explorer, r)),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found, 500: server_error,
                                        Exception: server_error})
    app.state.explorer = explorer
    return Guard(app, hosts=hosts, port=port)
