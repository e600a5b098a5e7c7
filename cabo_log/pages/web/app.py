"""``cabo-log serve``: a Starlette app over a database ``load`` made, read-only.

``create_app(db)`` returns the ASGI app (tests drive it with Starlette's ``TestClient``; the
CLI runs it on uvicorn). One DuckDB connection, opened read-only with external access off
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
from collections.abc import AsyncIterator
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
from cabo_log.db.database import check_version
from cabo_log.db.event_tables import STORED
from cabo_log.db.readonly import QueryTimeout, open_readonly, run_limited
from cabo_log.pages.assets import plotly_js, static
from cabo_log.pages.plot import white_template
from cabo_log.pages.report_page import (
    chart_blocks,
    charts_html,
    note_html,
    prose_html,
    table_html,
)
from cabo_log.pages.web.game_page import game_page
from cabo_log.pages.web.games import (
    SORTS,
    BadRequest,
    GameFilter,
    list_games,
    player_record,
    prepare,
)

__all__ = ["Settings", "create_app"]

log = logging.getLogger("cabo_log.serve")


@dataclass(frozen=True)
class Settings:
    db: Path
    sql_rows: int = 1000          # rows the console shows at most
    sql_seconds: float = 5.0      # time a console query may run
    memory_limit: str = "1GB"


def _env() -> Environment:
    env = Environment(loader=PackageLoader("cabo_log.pages.web", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    env.globals["pct"] = lambda x: "\u2013" if x is None else f"{100 * x:.1f} %"
    return env


class Explorer:
    """The app's state and its pages (each page a method, so tests can reach the state)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.con = open_readonly(settings.db, memory_limit=settings.memory_limit)
        check_version(self.con, settings.db)
        prepare(self.con)
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
        pages = max(1, math.ceil(page.total / f.size))

        def url(n: int) -> str:
            query = dict(request.query_params)
            query["page"] = str(n)
            return "/?" + urlencode(query)

        return self.html(
            "games.html", f=f, page=page, pages=pages, sorts=list(SORTS),
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

    def player(self, request: Request) -> Response:
        name = request.path_params["player"]
        with self._lock:
            rec = player_record(self.con, name)
            page = list_games(self.con, GameFilter(player=name, size=20))
        if rec is None:
            return self.error(404, "No such player",
                              f"No game in this database has a player {name!r}.")
        return self.html("player.html", rec=rec, page=page,
                         all_url="/?" + urlencode({"player": name}))

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
                 "table": Markup(table_html(columns, rows) + note)}
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
                                   "max_rows": self.settings.sql_rows,
                                   "seconds": f"{self.settings.sql_seconds:g}"}
        if not query:
            if not request.query_params.get("q", "X"):
                context["error"] = "Type a query first."
            return self.html("sql.html", **context)
        try:
            result = run_limited(self.con, query, max_rows=self.settings.sql_rows,
                                 seconds=self.settings.sql_seconds)
        except (duckdb.Error, QueryTimeout) as exc:
            context["error"] = _one_line(exc)
            return self.html("sql.html", 400, **context)
        context["table"] = Markup(table_html(result.columns, result.rows))
        context["truncated"] = result.truncated
        return self.html("sql.html", **context)

    def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        media = {"report.css": "text/css", "report.js": "text/javascript",
                 "plotly.min.js": "text/javascript"}
        if name not in media:
            return self.error(404, "Not found", f"There is no file {name!r} here.")
        body = plotly_js() if name == "plotly.min.js" else static(name)
        return Response(body, media_type=media[name],
                        headers={"Cache-Control": "public, max-age=3600"})


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def create_app(db: Path | str, **options: Any) -> Starlette:
    """The explorer over ``db`` (DatabaseError if it cannot be opened); ``options`` go to
    ``Settings``."""
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
        yield
        explorer.con.close()

    routes = [
        Route("/", explorer.games), Route("/games/{game_id:path}", explorer.game),
        Route("/players/{player:path}", explorer.player),
        Route("/reports", explorer.report_list), Route("/reports/{name}", explorer.report),
        Route("/sql", explorer.sql), Route("/static/{name}", explorer.static),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found, 500: server_error,
                                        Exception: server_error})
    app.state.explorer = explorer
    return app
