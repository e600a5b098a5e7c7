"""The score sheets' pages of ``cabo-log host``: plain HTML forms and redirects, no script, so
a phone's browser needs nothing else.

``POST /sheets`` opens a sheet (the index's form) and redirects to its page with its key
(``/s/ID?key=KEY``: that link is the right to enter rounds). ``GET /s/ID`` is the sheet: with
a valid key the form of the next round as well, without one the scores alone, for anyone.
``POST /s/ID/rounds`` enters a round and redirects back to the page (303: a reload sends
nothing twice), or answers with the page again, the form as typed and why the round was
refused; ``POST /s/ID/leave`` writes a forfeit. Every write runs in a worker thread holding
the sheet's lock; a finished sheet is loaded into ``--db`` in the background.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from cabo_log.pages.table.host import OpenError, house_rules
from cabo_log.pages.table.sheet import Refused, Sheet
from cabo_log.pages.table.sheet_views import form_texts, sheet_context
from engine.rulesets import BUILTINS

if TYPE_CHECKING:
    from cabo_log.pages.table.app import TableApp

T = TypeVar("T")
MAX_FORM = 16384              # bytes of a form
MAX_PLAYERS = 6


async def under_lock(sheet: Sheet, call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` in a worker thread, holding the sheet's lock (a write fsyncs)."""
    def run() -> T:
        with sheet.lock:
            return call(*args)
    return await asyncio.to_thread(run)


async def read_form(request: Request) -> dict[str, str] | None:
    """The form's fields (the first value of each); None when it is too long."""
    body = await request.body()
    if len(body) > MAX_FORM:
        return None
    return {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}


def read_sheet_form(form: dict[str, str]) -> tuple[str | dict[str, Any], dict[str, Any],
                                                    list[str]]:
    """The index's form that opens a sheet: ruleset (or house rules), two decks, names."""
    ruleset: str | dict[str, Any] = form.get("sheet_ruleset", "edition1")
    house = form.get("sheet_house", "").strip()
    if house:
        ruleset = house_rules(house)
    elif ruleset not in BUILTINS:
        raise OpenError(f"unknown ruleset {ruleset!r}")
    options: dict[str, Any] = {"decks": 2} if form.get("sheet_decks") == "2" else {}
    names = [form.get(f"player{i}", "").strip() for i in range(MAX_PLAYERS)]
    return ruleset, options, [n for n in names if n]


class SheetPages:
    """The routes of the score sheets, beside the tables' (``TableApp``)."""

    def __init__(self, app: TableApp) -> None:
        self.app = app
        self.host = app.host
        self.loads: set[asyncio.Task[None]] = set()

    def routes(self) -> list[Route]:
        return [Route("/sheets", self.open_sheet, methods=["POST"]),
                Route("/s/{sheet_id}", self.page),
                Route("/s/{sheet_id}/rounds", self.enter, methods=["POST"]),
                Route("/s/{sheet_id}/leave", self.leave, methods=["POST"])]

    async def open_sheet(self, request: Request) -> Response:
        form = await read_form(request)
        if form is None:
            return self.app.error(413, "Too much", "The form is too long.")
        try:
            ruleset, options, names = read_sheet_form(form)
            opened = await asyncio.to_thread(self.host.open_sheet, ruleset, names,
                                             options=options)
        except OpenError as exc:
            return await self.app.index(request, sheet_problem=str(exc), sheet_form=form)
        return RedirectResponse(f"/s/{opened.sheet.id}?key={opened.key}&new=1#link",
                                status_code=303)

    def _sheet(self, request: Request) -> Sheet | None:
        return self.host.sheets.get(request.path_params["sheet_id"])

    def missing(self) -> Response:
        return self.app.error(404, "No such score sheet",
                              "This host holds no score sheet by that name (a finished one "
                              "is let go when the host restarts; its log stays in --dir).")

    def wrong_key(self, sheet: Sheet) -> Response:
        return self.app.error(403, "Not this sheet's link",
                              "This link's key does not open this score sheet, so it cannot "
                              f"enter rounds. The scores are at /s/{sheet.id}.")

    async def page(self, request: Request) -> Response:
        sheet = self._sheet(request)
        if sheet is None:
            return self.missing()
        key = request.query_params.get("key", "")
        if key and not sheet.accepts(key):
            return self.wrong_key(sheet)
        return self.render(request, sheet, key, new=request.query_params.get("new") == "1")

    def render(self, request: Request, sheet: Sheet, key: str, *, status: int = 200,
               problem: str | None = None, typed: dict[str, str] | None = None,
               new: bool = False) -> Response:
        context = sheet_context(sheet, can_enter=bool(key),
                                load_note=self.host.load_notes.get(sheet.id))
        link = f"{request.url.scheme}://{request.url.netloc}/s/{sheet.id}?key={key}" \
            if key else None
        return self.app.html("sheet.html", status, sheet=context, key=key, link=link,
                             problem=problem, typed=typed or {}, new=new)

    async def enter(self, request: Request) -> Response:
        return await self._write(request, self._enter)

    async def leave(self, request: Request) -> Response:
        return await self._write(request, lambda sheet, form: sheet.leave(
            form.get("player", "")))

    @staticmethod
    def _enter(sheet: Sheet, form: dict[str, str]) -> None:
        try:
            round_no: int | None = int(form.get("round", ""))
        except ValueError:
            round_no = None
        sheet.enter(round_no, form.get("caller"), form_texts(sheet, form))

    async def _write(self, request: Request,
                     call: Callable[[Sheet, dict[str, str]], None]) -> Response:
        """A write from one of the sheet's forms: the key checked first, then ``call``
        under the sheet's lock; back to the page, or the page with why not."""
        sheet = self._sheet(request)
        if sheet is None:
            return self.missing()
        form = await read_form(request)
        if form is None:
            return self.app.error(413, "Too much", "The form is too long.")
        key = form.get("key", "")
        if not sheet.accepts(key):
            return self.wrong_key(sheet)
        try:
            await under_lock(sheet, call, sheet, form)
        except Refused as exc:
            return self.render(request, sheet, key, status=400, problem=str(exc), typed=form)
        if sheet.state.complete and self.host.settings.db is not None:
            task = asyncio.get_running_loop().create_task(self._load(sheet))
            self.loads.add(task)
            task.add_done_callback(self.loads.discard)
        return RedirectResponse(f"/s/{sheet.id}?key={key}#totals", status_code=303)

    async def _load(self, sheet: Sheet) -> None:
        """Load the finished sheet into ``--db`` (the page then says how it went)."""
        await under_lock(sheet, self.host.load, sheet.id, sheet.path)
