"""The explorer's questions to the database: the filtered, sorted, paged list of games, one
game's row and file (a player's record and the ratings: ``standings``).

Filters come from a URL's query string: each is checked here (a bad one is a ``BadRequest``
with a sentence, the page answers 400) and bound as a DuckDB parameter; the only text pasted
into SQL is a sort column chosen from a fixed list.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import duckdb

__all__ = ["PAGE_SIZE", "SORTS", "BadRequest", "GameFilter", "GamePage", "game_row",
           "list_games", "prepare", "table_exists"]

PAGE_SIZE = 50
MAX_PAGE_SIZE = 500


class BadRequest(Exception):
    """A parameter of the URL that does not fit: the message says which and why."""


class Complete(StrEnum):
    ANY = ""
    YES = "yes"
    NO = "no"


# sort key -> the ORDER BY expression (game_id breaks ties, so pages never overlap)
SORTS: dict[str, str] = {
    "started": "started_at", "game": "game_id", "ruleset": "ruleset", "rounds": "rounds",
    "players": "n_players", "events": "events",
}


@dataclass(frozen=True)
class GameFilter:
    ruleset: str | None = None
    player: str | None = None
    winner: str | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    min_rounds: int | None = None
    max_rounds: int | None = None
    special: bool = False
    complete: Complete = Complete.ANY
    sort: str = "started"
    descending: bool = True
    page: int = 1
    size: int = PAGE_SIZE

    @classmethod
    def parse(cls, query: Mapping[str, str]) -> GameFilter:
        """The filters of a query string; BadRequest naming the first one that does not fit."""
        def text(key: str) -> str | None:
            value = query.get(key, "").strip()
            return value or None

        sort = query.get("sort", "started") or "started"
        if sort not in SORTS:
            raise BadRequest(f"sort must be one of {', '.join(SORTS)}, not {sort!r}")
        order = query.get("order", "desc") or "desc"
        if order not in ("asc", "desc"):
            raise BadRequest(f"order must be asc or desc, not {order!r}")
        try:
            complete = Complete(query.get("complete", ""))
        except ValueError:
            raise BadRequest(f"complete must be yes, no or empty, not "
                             f"{query.get('complete')!r}") from None
        return cls(
            ruleset=text("ruleset"), player=text("player"), winner=text("winner"),
            date_from=_date(query, "from"), date_to=_date(query, "to"),
            min_rounds=_int(query, "min_rounds", 0, 10_000),
            max_rounds=_int(query, "max_rounds", 0, 10_000),
            special=query.get("special", "") in ("1", "on", "yes", "true"),
            complete=complete, sort=sort, descending=order == "desc",
            page=_int(query, "page", 1, 10_000_000) or 1,
            size=_int(query, "size", 1, MAX_PAGE_SIZE) or PAGE_SIZE)

    def where(self) -> tuple[str, dict[str, Any]]:
        """The WHERE clause over ``games`` and its bound parameters."""
        conds: list[str] = []
        params: dict[str, Any] = {}

        def add(cond: str, name: str, value: Any) -> None:
            conds.append(cond)
            params[name] = value

        if self.ruleset is not None:
            add("ruleset = $ruleset", "ruleset", self.ruleset)
        if self.player is not None:
            add("list_contains(players, $player)", "player", self.player)
        if self.winner is not None:
            add("list_contains(winners, $winner)", "winner", self.winner)
        if self.date_from is not None:
            add("left(started_at, 10) >= $date_from", "date_from", self.date_from.isoformat())
        if self.date_to is not None:
            add("left(started_at, 10) <= $date_to", "date_to", self.date_to.isoformat())
        if self.min_rounds is not None:
            add("rounds >= $min_rounds", "min_rounds", self.min_rounds)
        if self.max_rounds is not None:
            add("rounds <= $max_rounds", "max_rounds", self.max_rounds)
        if self.special:
            conds.append("special")
        if self.complete is not Complete.ANY:
            add("complete = $complete", "complete", self.complete is Complete.YES)
        return (" AND ".join(conds) or "TRUE"), params


def _int(query: Mapping[str, str], key: str, low: int, high: int) -> int | None:
    raw = query.get(key, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"{key} must be a whole number, not {raw!r}") from None
    if not low <= value <= high:
        raise BadRequest(f"{key} must be between {low:,} and {high:,}, not {value:,}")
    return value


def _date(query: Mapping[str, str], key: str) -> dt.date | None:
    raw = query.get(key, "").strip()
    if not raw:
        return None
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise BadRequest(f"{key} must be a date like 2024-05-31, not {raw!r}") from None


@dataclass
class GamePage:
    total: int
    rows: list[dict[str, Any]] = field(default_factory=list)


_COLUMNS = ("game_id", "ruleset", "players", "n_players", "rounds", "complete", "winners",
            "started_at", "events")
_LISTED = (*_COLUMNS, "kinds")   # the list's columns: each player's kind too


def prepare(con: duckdb.DuckDBPyConnection) -> None:
    """Tables made once when the server starts (TEMP tables: in memory, on a read-only
    database; seen by this connection only, not by its cursors, so the functions that read
    them take the connection itself and the app serialises them), so no page scans the big
    tables: ``game_list``, the columns the list shows, each player's kind (``kinds``, in
    seat order) and whether a special hand decided a round, sorted newest first (the
    players' records: ``standings.prepare_standings``)."""
    con.execute("""CREATE OR REPLACE TEMP TABLE game_list AS
        SELECT g.game_id, g.ruleset, g.players, g.n_players, g.rounds, g.complete, g.winners,
               g.started_at, g.events, s.game_id IS NOT NULL AS special, k.kinds
        FROM games AS g
        LEFT JOIN (SELECT DISTINCT game_id FROM rounds WHERE len(special_holders) > 0) AS s
            USING (game_id)
        LEFT JOIN (SELECT game_id, list(kind ORDER BY seat) AS kinds FROM game_players
                   GROUP BY game_id) AS k USING (game_id)
        ORDER BY g.started_at DESC NULLS LAST, g.game_id DESC""")


def list_games(con: duckdb.DuckDBPyConnection, f: GameFilter) -> GamePage:
    """One page of the games that pass the filter, and how many pass it in all (from the
    ``game_list`` table ``prepare`` made)."""
    where, params = f.where()
    total = con.execute(f"SELECT count(*) FROM game_list WHERE {where}", params).fetchone()
    order = "DESC" if f.descending else "ASC"
    sql = (f"SELECT {', '.join(_LISTED)} FROM game_list WHERE {where} "
           f"ORDER BY {SORTS[f.sort]} {order} NULLS LAST, game_id {order} "
           f"LIMIT {f.size} OFFSET {(f.page - 1) * f.size}")
    rows = con.execute(sql, params).fetchall()
    return GamePage(int(total[0]) if total else 0,
                    [dict(zip(_LISTED, r, strict=True)) for r in rows])


def game_row(con: duckdb.DuckDBPyConnection, game_id: str) -> dict[str, Any] | None:
    cur = con.cursor()
    try:
        cur.execute(f"SELECT {', '.join(_COLUMNS)}, source_file FROM games WHERE game_id = $1",
                    [game_id])
        row = cur.fetchone()
    finally:
        cur.close()
    return None if row is None else dict(zip((*_COLUMNS, "source_file"), row, strict=True))


def table_exists(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    cur = con.cursor()
    try:
        row = cur.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = $1",
                          [name]).fetchone()
    finally:
        cur.close()
    return bool(row and row[0])
