"""``cabo-log host``: the web app of the tables (Starlette; live over WebSockets) and of the
score sheets (``sheet_app``: plain forms).

Pages: the list of tables with the form that opens one (``/``), the invitation links shown
once when a table opens, a table's page (``/t/{id}``: a seat's page when the link's fragment
carries its token, a spectator's without) and, once the match is over, its timeline. The
table's page is a shell: everything it shows comes over its WebSocket, a view built for that
seat (``Table.view``). The seat token travels in the URL's fragment (never sent in a request
line, a log or a Referer) and then in the socket's first message.

Every call into a table runs in a worker thread holding that table's lock (``locked``): a
table never sees two moves at once, and one table's fsync never holds up the others (the
socket handlers and the ticker, every ``HostSettings.tick`` seconds, stay on the event
loop). ``create_app`` returns a plain ASGI app (tests drive it with uvicorn on a free port;
the security middleware wraps it in one line).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from cabo_log.pages.assets import plotly_js, static
from cabo_log.pages.guard import LOOPBACK, Guard
from cabo_log.pages.table.host import Host, OpenError, SeatSpec, house_rules
from cabo_log.pages.table.model import Status, Table
from cabo_log.pages.table.seats import Seat, SeatKind
from cabo_log.pages.table.sheet_app import MAX_PLAYERS, SheetPages
from cabo_log.pages.table.views import Mode
from cabo_log.play.bots import BOTS
from engine.rulesets import BUILTINS

__all__ = ["create_app"]

log = logging.getLogger("cabo_log.host")
T = TypeVar("T")

MAX_MESSAGE = 8192            # characters in one message from a page
MAX_FORM = 16384              # bytes of the form that opens a table
MAX_SEATS = 6
STATIC = {"table.js": "text/javascript", "table.css": "text/css"}


class Connection:
    def __init__(self, ws: WebSocket, table: Table, seat: Seat | None) -> None:
        self.ws, self.table, self.seat = ws, table, seat

    @property
    def name(self) -> str | None:
        return self.seat.name if self.seat is not None else None


async def locked(table: Table, call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` in a worker thread, holding the table's lock."""
    def run() -> T:
        with table.lock:
            return call(*args)
    return await asyncio.to_thread(run)


class Hub:
    """The sockets open on each table, and the sending of views after a change."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.open: dict[str, set[Connection]] = {}
        self.loading: set[str] = set()

    async def change(self, table: Table, call: Callable[..., T], *args: Any,
                     always: bool = False) -> T:
        """``call(*args)`` on the table (in a worker thread, under its lock); if it changed
        the table (or ``always``), each of the table's sockets gets its seat's view, made in
        the same hop (classic flashes, taken once per seat, go to every socket of that
        seat)."""
        conns = list(self.open.get(table.id, ()))

        def run() -> tuple[T, list[tuple[Connection, str]], Status]:
            before = table.version
            result = call(*args)
            out: list[tuple[Connection, str]] = []
            if always or table.version != before:
                flashes: dict[str, list[dict[str, Any]]] = {}
                for conn in conns:
                    name = conn.name
                    if name is not None and name not in flashes:
                        flashes[name] = table.take_flashes(name)
                    view = table.view(name)
                    view["flashes"] = flashes.get(name, []) if name is not None else []
                    out.append((conn, json.dumps(view)))
            return result, out, table.status

        result, made, status = await locked(table, run)
        for conn, text in made:
            await self.send_text(conn, text)
        if status == Status.OVER and self.host.settings.db is not None \
                and table.id not in self.loading and table.id not in self.host.load_notes:
            self.loading.add(table.id)
            asyncio.get_running_loop().create_task(self.load(table))
        return result

    async def broadcast(self, table: Table) -> None:
        await self.change(table, lambda: None, always=True)

    async def send(self, conn: Connection, message: dict[str, Any]) -> None:
        await self.send_text(conn, json.dumps(message))

    async def send_text(self, conn: Connection, text: str) -> None:
        try:
            await conn.ws.send_text(text)
        except (RuntimeError, OSError, WebSocketDisconnect):
            pass    # the socket closed meanwhile: its handler cleans up

    async def load(self, table: Table) -> None:
        """Load the game into the database off the event loop, then tell the table."""
        try:
            # under the table's lock: no line is being appended while the loader reads
            note = await locked(table, self.host.load, table.id, table.path)
        finally:
            self.loading.discard(table.id)
        await self.change(table, table.say, f"The game was {note}"
                          if note.startswith("loaded") else f"Database: {note}")

    async def ticker(self) -> None:
        while True:
            await asyncio.sleep(self.host.settings.tick)
            now = self.host.clock.now()
            tables = [t for t in self.host.tables.values() if t.due(now)]
            done = await asyncio.gather(*(self.change(t, t.tick, now) for t in tables),
                                        return_exceptions=True)
            for table, outcome in zip(tables, done, strict=True):
                if isinstance(outcome, BaseException):
                    log.error("%s: %s", table.id, outcome)   # its log could not be written


def _env() -> Environment:
    return Environment(loader=PackageLoader("cabo_log.pages.table", "templates"),
                       autoescape=select_autoescape(default=True, default_for_string=True))


class TableApp:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.hub = Hub(host)
        self.env = _env()

    def html(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        page = self.env.get_template(template).render(**context)
        return HTMLResponse(page, status_code=status)

    def error(self, status: int, heading: str, message: str) -> HTMLResponse:
        return self.html("error.html", status, heading=heading, message=message)

    # --- pages ------------------------------------------------------------------------------
    async def index(self, request: Request, problem: str | None = None,
                    form: dict[str, str] | None = None, sheet_problem: str | None = None,
                    sheet_form: dict[str, str] | None = None) -> Response:
        """The tables and score sheets, and the forms that open them (with why the last
        one was refused, and what was typed into it)."""
        tables = [t.summary() for t in self.host.tables.values()]
        sheets = [s.summary() for s in list(self.host.sheets.values())]  # (opened in threads)
        return self.html("index.html", 400 if problem or sheet_problem else 200,
                         tables=tables, sheets=sheets,
                         rulesets=[(r.name, r.description, r.forfeits)
                                   for r in BUILTINS.values()],
                         bots=sorted(BOTS), seats=MAX_SEATS,
                         steps=self.host.settings.step_choices, problem=problem,
                         form=form or {}, sheet_problem=sheet_problem,
                         sheet_form=sheet_form or {}, sheet_players=MAX_PLAYERS)

    async def open_table(self, request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_FORM:
            return self.error(413, "Too much", "The form is too long.")
        form = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}
        try:
            ruleset, options, seats, step, mode = _read_form(form)
            opened = self.host.open_table(ruleset, seats, step=step, mode=mode,
                                          options=options)
        except OpenError as exc:
            return await self.index(request, str(exc), form)
        table = opened.table
        base = f"{request.url.scheme}://{request.url.netloc}/t/{table.id}"
        links = [(name, f"{base}#seat={token}") for name, token in opened.tokens.items()]
        rules = table.state.rules
        if not rules.forfeits:
            hold = self.host.settings.timing.hold
            await locked(table, table.say, f"{rules.name} has no forfeits: a player who leaves, "
                         f"or stays away {hold:g} s, is replaced by a bot")
        return self.html("invite.html", table=table.summary(), links=links, spectate=base,
                         forfeits=rules.forfeits, hold=self.host.settings.timing.hold)

    async def table_page(self, request: Request) -> Response:
        table = self.host.tables.get(request.path_params["table_id"])
        if table is None:
            return self.error(404, "No such table", "This host has no table by that name.")
        return self.html("table.html", table=table.summary(),
                         over=table.status == Status.OVER)

    async def timeline(self, request: Request) -> Response:
        table = self.host.tables.get(request.path_params["table_id"])
        if table is None:
            return self.error(404, "No such table", "This host has no table by that name.")
        if table.status != Status.OVER:
            return self.error(409, "Not yet", "The timeline shows every card: it opens when "
                              "the match is over.")
        from cabo_log.pages.timeline import timeline_from_bytes
        from cabo_log.pages.timeline_html import served_page

        data = table.log.sink.committed()
        page = served_page(timeline_from_bytes(data, str(table.path)), "/static/plotly.min.js",
                           "/static/timeline.js")
        return HTMLResponse(page)

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name == "plotly.min.js":
            return Response(plotly_js(), media_type="text/javascript")
        if name == "timeline.js":
            return Response(static(name), media_type="text/javascript")
        if name not in STATIC:
            return self.error(404, "Not found", "There is no such file here.")
        from importlib.resources import files

        body = files("cabo_log.pages.table").joinpath("static", name).read_bytes()
        return Response(body, media_type=STATIC[name],
                        headers={"Cache-Control": "no-cache"})

    # --- the socket -------------------------------------------------------------------------
    async def socket(self, ws: WebSocket) -> None:
        table = self.host.tables.get(ws.path_params["table_id"])
        if table is None or not _same_origin(ws) \
                or self.host.connections >= self.host.settings.max_connections:
            await ws.close(code=1008 if table is None else 1013)
            return
        await ws.accept()
        self.host.connections += 1
        conn: Connection | None = None
        try:
            hello = await self._receive(ws)
            seat = None
            token = hello.get("hello") if hello is not None else None
            if isinstance(token, str) and token:
                seat = next((s for s in table.seats.values() if s.accepts(token)), None)
                if seat is None:
                    await ws.send_text(json.dumps({"type": "error", "message":
                                                   "This invitation link is not valid here."}))
            conn = Connection(ws, table, seat)
            self.hub.open.setdefault(table.id, set()).add(conn)
            if seat is not None:
                await self.hub.change(table, table.connect, seat, always=True)
            else:
                await self.hub.broadcast(table)
            while True:
                message = await self._receive(ws)
                if message is None:
                    break
                await self._handle(conn, message)
        except WebSocketDisconnect:
            pass
        finally:
            self.host.connections -= 1
            if conn is not None:
                self.hub.open.get(table.id, set()).discard(conn)
                if conn.seat is not None:
                    await self.hub.change(table, table.disconnect, conn.seat)

    async def _receive(self, ws: WebSocket) -> dict[str, Any] | None:
        """The next message as an object (None when the socket closed or sent nonsense)."""
        text = await ws.receive_text()
        if len(text) > MAX_MESSAGE:
            await ws.close(code=1009)
            return None
        try:
            message = json.loads(text)
        except ValueError:
            return {}
        return message if isinstance(message, dict) else {}

    async def _handle(self, conn: Connection, message: dict[str, Any]) -> None:
        table, name = conn.table, conn.name
        if name is None:
            return    # a spectator only watches
        if "move" in message:
            refused = await self.hub.change(table, table.act, name, message["move"])
            if refused is not None:
                await self.hub.send(conn, {"type": "refused", "message": refused})
        elif message.get("confirm"):
            await self.hub.change(table, table.confirm, name)
        elif message.get("leave"):
            await self.hub.change(table, table.leave, name)
        elif message.get("load"):
            if table.id not in self.hub.loading:
                self.hub.loading.add(table.id)
                asyncio.get_running_loop().create_task(self.hub.load(table))


def _same_origin(ws: WebSocket) -> bool:
    """A socket opened by a page of this host (a page elsewhere cannot drive it)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host", "")


def _read_form(form: dict[str, str]) -> tuple[str | dict[str, Any], dict[str, Any],
                                               list[SeatSpec], int, Mode]:
    """The form that opens a table: ruleset (or house rules as JSON), seats, timer, mode."""
    house = form.get("house", "").strip()
    ruleset: str | dict[str, Any] = form.get("ruleset", "online")
    if house:
        ruleset = house_rules(house)
    elif ruleset not in BUILTINS:
        raise OpenError(f"unknown ruleset {ruleset!r}")
    options: dict[str, Any] = {}
    if form.get("decks") == "2":
        options["decks"] = 2
    seats = []
    for i in range(MAX_SEATS):
        kind = form.get(f"kind{i}", "")
        name = form.get(f"name{i}", "").strip()
        if not kind:
            continue
        if kind == "person":
            seats.append(SeatSpec(name, SeatKind.PERSON))
        else:
            seats.append(SeatSpec(name or f"{kind}-{i + 1}", SeatKind.BOT, kind))
    try:
        step = int(form.get("step", "60"))
        mode = Mode(form.get("mode", "classic"))
    except ValueError:
        raise OpenError("choose a step timer and a mode from the lists") from None
    return ruleset, options, seats, step, mode


def create_app(host: Host, *, hosts: Iterable[str] = LOOPBACK,
               port: int | None = None) -> Guard:
    """The app over ``host`` (its tables resumed by the caller), behind a ``Guard``: only
    requests addressed to ``hosts`` on ``port`` (None: the port served) are answered, every
    page with the protective headers and a policy that runs only the server's own scripts."""
    app_state = TableApp(host)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.get_running_loop().create_task(app_state.hub.ticker())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            host.close()

    routes = [
        Route("/", app_state.index),
        Route("/tables", app_state.open_table, methods=["POST"]),
        Route("/t/{table_id}", app_state.table_page),
        Route("/t/{table_id}/timeline", app_state.timeline),
        Route("/static/{name}", app_state.static),
        WebSocketRoute("/t/{table_id}/ws", app_state.socket),
        *SheetPages(app_state).routes(),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.tables = app_state
    return Guard(app, hosts=hosts, port=port)
