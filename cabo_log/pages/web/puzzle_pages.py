"""The explorer's puzzles (``/puzzles``): the index with its filters, a random one, each puzzle
at its own address and its answer on a second page (links, no script: the explorer's CSP runs
only the server's own files). What makes a puzzle: ``cabo_log.puzzles.selection``.

| address | page |
|---|---|
| ``/puzzles?ruleset=R&theme=T`` | the puzzles, filtered |
| ``/puzzles/random?ruleset=R&theme=T`` | a redirect to a random one of them |
| ``/puzzles/GAME_ID/SEQ`` | the puzzle: the table as the player saw it, the options |
| ``/puzzles/GAME_ID/SEQ/answer?choice=K`` | the verdict on option K and every option's figures |
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote, urlencode

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

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

if TYPE_CHECKING:
    from cabo_log.pages.web.app import Explorer

MAX_LISTED = 500


def puzzle_url(ref: PuzzleRef) -> str:
    return f"/puzzles/{quote(ref.game_id, safe='')}/{ref.seq}"


class _Bad(Exception):
    def __init__(self, status: int, heading: str, message: str) -> None:
        super().__init__(message)
        self.status, self.heading, self.message = status, heading, message


def _filters(ex: Explorer, request: Request) -> tuple[str | None, Theme | None]:
    ruleset = request.query_params.get("ruleset", "").strip() or None
    raw = request.query_params.get("theme", "").strip()
    if ruleset is not None and ruleset not in ex.rulesets:
        raise _Bad(404, "No such ruleset",
                   f"No game in this database is of the ruleset {ruleset!r}.")
    try:
        theme = Theme(raw) if raw else None
    except ValueError:
        raise _Bad(400, "Bad filter", f"theme must be one of "
                   f"{', '.join(t.value for t in Theme)}, not {raw!r}") from None
    return ruleset, theme


def index(ex: Explorer, request: Request) -> Response:
    try:
        ruleset, theme = _filters(ex, request)
        with ex._lock:
            refs = find_puzzles(ex.con, ruleset=ruleset, theme=theme)
    except _Bad as bad:
        return ex.error(bad.status, bad.heading, bad.message)
    except PuzzleError as exc:
        return ex.html("puzzles.html", refs=[], shown=[], missing=str(exc), ruleset=None,
                       theme=None, themes=THEME_WORDS, rulesets=ex.rulesets, random_url="",
                       url=puzzle_url, min_margin=MIN_MARGIN, min_z=MIN_Z)
    query = {k: v for k, v in (("ruleset", ruleset), ("theme", theme and str(theme))) if v}
    return ex.html("puzzles.html", refs=refs, shown=refs[:MAX_LISTED], missing=None,
                   ruleset=ruleset, theme=theme, themes=THEME_WORDS, rulesets=ex.rulesets,
                   random_url="/puzzles/random" + ("?" + urlencode(query) if query else ""),
                   url=puzzle_url, min_margin=MIN_MARGIN, min_z=MIN_Z)


def random_puzzle(ex: Explorer, request: Request) -> Response:
    try:
        ruleset, theme = _filters(ex, request)
        with ex._lock:
            refs = find_puzzles(ex.con, ruleset=ruleset, theme=theme, random=True, limit=1)
    except _Bad as bad:
        return ex.error(bad.status, bad.heading, bad.message)
    except PuzzleError as exc:
        return ex.error(404, "No puzzles", str(exc) + ".")
    if not refs:
        return ex.error(404, "No puzzles", "No puzzle matches these filters.")
    return RedirectResponse(puzzle_url(refs[0]), status_code=303)


def _position(ex: Explorer, request: Request) -> Position:
    game_id = request.path_params["game_id"]
    seq = int(request.path_params["seq"])
    try:
        with ex._lock:
            refs = find_puzzles(ex.con, game_id=game_id, seq=seq)
            if not refs:
                raise _Bad(404, "No such puzzle", f"The decision at seq {seq} of game "
                           f"{game_id!r} is not a puzzle in this database.")
            options = option_figures(ex.con, game_id, seq)
            source = source_of(ex.con, game_id)
        return position(refs[0], source, options)
    except PuzzleError as exc:
        raise _Bad(404, "Cannot show this puzzle", str(exc) + ".") from None


def puzzle(ex: Explorer, request: Request) -> Response:
    try:
        pos = _position(ex, request)
    except _Bad as bad:
        return ex.error(bad.status, bad.heading, bad.message)
    base = puzzle_url(pos.ref)
    body = question_html(pos, lambda i: f"{base}/answer?choice={i}")
    return ex.html("puzzle.html", heading=title(pos.ref), body=Markup(body), ref=pos.ref,
                   next_url="/puzzles/random?" + urlencode({"theme": str(pos.ref.theme)}))


def answer(ex: Explorer, request: Request) -> Response:
    raw = request.query_params.get("choice", "").strip()
    try:
        choice = int(raw) if raw else None
    except ValueError:
        return ex.error(400, "Bad answer", f"choice must be an option's number, not {raw!r}")
    try:
        pos = _position(ex, request)
    except _Bad as bad:
        return ex.error(bad.status, bad.heading, bad.message)
    ref = pos.ref
    body = answer_html(pos, choice, f"/games/{quote(ref.game_id, safe='')}#seq={ref.seq}",
                       puzzle_url(ref))
    return ex.html("puzzle.html", heading=title(ref) + ": the answer", body=Markup(body),
                   ref=ref,
                   next_url="/puzzles/random?" + urlencode({"theme": str(ref.theme)}))
