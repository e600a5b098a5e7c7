"""Player ratings: openskill's Plackett-Luce model over the order of finish of each match,
per ruleset, kept in the ``ratings`` table (docs/ratings.md says what a rating means).

A match is a multiplayer result, not a set of duels: Plackett-Luce rates the whole order of
finish at once (final match scores, lowest first; equal scores share a place; a player who
left the match finishes after every player still in it). Each player starts at mu 25, sigma
25/3; the *rating* shown is the conservative ``ordinal`` mu - 3 sigma, which a player beats
with about 99.9 % confidence and which only rises with games played.

**Order.** The games of a ruleset are rated one after the other in *game order*: by the
header's ``started_at`` (games without one after all that have one), then by ``game_id``.
Only complete matches count (score sheets included); a game in progress has no order of
finish yet.

**Incremental.** ``update_ratings`` runs after every load. It keeps the longest prefix of the
rated games that is still the start of the game order (same ``game_id`` and ``file_hash``, in
the same place), deletes the rows after it and rates the rest from the ratings at the end of
that prefix. A load that only adds later games rates only them; one that adds an earlier game,
changes or deletes one, rates again from there: the table is always the one a full recompute
(``rebuild_ratings``) gives, to the last bit (the same float operations in the same order).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import duckdb
import pyarrow as pa

from cabo_log.db import plackett_luce

RATINGS_SCHEMA = pa.schema([
    ("ruleset", pa.string()), ("game_order", pa.int32()), ("game_id", pa.string()),
    ("file_hash", pa.string()), ("started_at", pa.string()), ("player", pa.string()),
    ("kind", pa.string()), ("place", pa.int16()), ("games", pa.int32()),
    ("mu", pa.float64()), ("sigma", pa.float64()), ("ordinal", pa.float64()),
    ("change", pa.float64())])
"""One row per player and rated game: the rating *after* that game; ``games`` the player's
rated games in the ruleset so far (this one included), ``change`` the ordinal's change."""

GAME_ORDER_SQL = "started_at IS NULL, started_at, game_id"
"""The order the games of a ruleset are rated in (docs/ratings.md, "Order")."""

Rating = tuple[float, float, int]   # mu, sigma, games rated
START_MU, START_SIGMA = 25.0, 25.0 / 3   # openskill's defaults: every player's first rating


@dataclass(frozen=True)
class Finish:
    """One player's result in a rated match."""

    player: str
    kind: str | None
    place: int


def _games(con: duckdb.DuckDBPyConnection, ruleset: str) -> list[tuple[str, str, str | None]]:
    """(game_id, file_hash, started_at) of the ruleset's rated games, in game order."""
    return [(g, h or "", s) for g, h, s in con.execute(
        "SELECT game_id, file_hash, started_at FROM games WHERE ruleset = ? AND complete "
        f"ORDER BY {GAME_ORDER_SQL}", [ruleset]).fetchall()]


def _finishes(con: duckdb.DuckDBPyConnection, ruleset: str, ids: list[str]
              ) -> dict[str, list[Finish]]:
    """Each game's order of finish: ``rank`` of the players still in (ties shared), then the
    players who left, all in one shared last place."""
    out: dict[str, list[Finish]] = {}
    rows = con.execute(
        "SELECT game_id, player, kind, rank, forfeited FROM game_players "
        "WHERE ruleset = $r AND game_id IN (SELECT unnest($ids)) ORDER BY game_id, seat",
        {"r": ruleset, "ids": ids}).fetchall()
    for game_id, player, kind, rank, forfeited in rows:
        out.setdefault(game_id, []).append(
            Finish(player, kind, -1 if forfeited or rank is None else int(rank)))
    for finishes in out.values():
        last = 1 + max((f.place for f in finishes), default=0)
        finishes[:] = [f if f.place > 0 else Finish(f.player, f.kind, last) for f in finishes]
    return out


def rate(current: dict[str, Rating], finishes: list[Finish]
         ) -> list[tuple[Finish, Rating, float]]:
    """Rate one match: each player's (finish, rating after, ordinal change); ``current`` is
    updated. A match of fewer than two players changes nothing and is not rated. The update
    is openskill's Plackett-Luce (``plackett_luce.rate``: the same float operations, without
    its rating objects)."""
    if len(finishes) < 2:
        return []
    start = (START_MU, START_SIGMA, 0)
    before = [current.get(f.player, start) for f in finishes]
    after = plackett_luce.rate([(mu, sigma) for mu, sigma, _ in before],
                               [f.place for f in finishes])
    out = []
    for f, (mu0, sigma0, n), (mu, sigma) in zip(finishes, before, after, strict=True):
        rating = (mu, sigma, n + 1)
        current[f.player] = rating
        out.append((f, rating, (mu - 3 * sigma) - (mu0 - 3 * sigma0)))
    return out


def _prefix(con: duckdb.DuckDBPyConnection, ruleset: str,
            games: list[tuple[str, str, str | None]]) -> int:
    """How many games at the start of the game order are rated as they are."""
    rated = con.execute("SELECT DISTINCT game_order, game_id, file_hash FROM ratings "
                        "WHERE ruleset = ? ORDER BY game_order", [ruleset]).fetchall()
    kept = 0
    for (order, game_id, digest), (want_id, want_hash, _) in zip(rated, games, strict=False):
        if order != kept + 1 or game_id != want_id or (digest or "") != want_hash:
            break
        kept += 1
    return kept


def _ratings_at(con: duckdb.DuckDBPyConnection, ruleset: str, kept: int) -> dict[str, Rating]:
    """Each player's rating after the first ``kept`` games of the ruleset."""
    return {p: (mu, sigma, n) for p, mu, sigma, n in con.execute(
        "SELECT player, mu, sigma, games FROM ratings WHERE ruleset = ? AND game_order <= ? "
        "QUALIFY row_number() OVER (PARTITION BY player ORDER BY game_order DESC) = 1",
        [ruleset, kept]).fetchall()}


def _rows(ruleset: str, kept: int, current: dict[str, Rating],
          games: Iterable[tuple[str, str, str | None]], finishes: dict[str, list[Finish]]
          ) -> dict[str, list[Any]]:
    rows: list[tuple[Any, ...]] = []
    order = kept
    for game_id, digest, started in games:
        rated = rate(current, finishes.get(game_id, []))
        order += 1   # every complete game has 2+ players (FORMAT.md): each one is rated
        rows.extend((ruleset, order, game_id, digest, started, f.player, f.kind, f.place, n,
                     mu, sigma, mu - 3 * sigma, change)
                    for f, (mu, sigma, n), change in rated)
    columns = zip(*rows, strict=True) if rows else [()] * len(RATINGS_SCHEMA)
    return {name: list(values)
            for name, values in zip(RATINGS_SCHEMA.names, columns, strict=True)}


def update_ratings(con: duckdb.DuckDBPyConnection, *, rebuild: bool = False) -> int:
    """Bring the ``ratings`` table up to date with the games (all again with ``rebuild``), in
    one transaction; the number of games rated now."""
    rulesets = [r for (r,) in con.execute(
        "SELECT DISTINCT ruleset FROM games WHERE complete ORDER BY ruleset").fetchall()]
    rated = 0
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute("DELETE FROM ratings WHERE ruleset NOT IN (SELECT unnest($r))",
                    {"r": rulesets})
        for ruleset in rulesets:
            games = _games(con, ruleset)
            kept = 0 if rebuild else _prefix(con, ruleset, games)
            con.execute("DELETE FROM ratings WHERE ruleset = ? AND game_order > ?",
                        [ruleset, kept])
            todo = games[kept:]
            if not todo:
                continue
            current = _ratings_at(con, ruleset, kept)
            finishes = _finishes(con, ruleset, [g for g, _, _ in todo])
            table = pa.table(_rows(ruleset, kept, current, todo, finishes),
                             schema=RATINGS_SCHEMA)
            con.register("_new_ratings", table)
            try:
                con.execute("INSERT INTO ratings SELECT * FROM _new_ratings")
            finally:
                con.unregister("_new_ratings")
            rated += len(todo)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return rated


def rebuild_ratings(con: duckdb.DuckDBPyConnection) -> int:
    """Rate every game again from the start (what ``update_ratings`` must always equal)."""
    return update_ratings(con, rebuild=True)


LEADERBOARD_SQL = """
SELECT ruleset, player, kind, games, ordinal AS rating, mu, sigma, game_id AS last_game
FROM ratings
WHERE ($ruleset IS NULL OR ruleset = $ruleset)
QUALIFY row_number() OVER (PARTITION BY ruleset, player ORDER BY game_order DESC) = 1
"""


@dataclass(frozen=True)
class Standing:
    """A player's latest rating in a ruleset."""

    ruleset: str
    player: str
    kind: str | None
    games: int
    rating: float
    mu: float
    sigma: float


def leaderboard(con: duckdb.DuckDBPyConnection, ruleset: str | None = None,
                min_games: int = 1) -> list[Standing]:
    """The latest rating of every player with at least ``min_games`` rated games, per ruleset
    (by name), best conservative rating first."""
    rows = con.execute(
        f"SELECT * FROM ({LEADERBOARD_SQL}) WHERE games >= $min "
        "ORDER BY ruleset, rating DESC, player", {"ruleset": ruleset, "min": min_games}
    ).fetchall()
    return [Standing(r, p, k, int(n), float(o), float(mu), float(s))
            for r, p, k, n, o, mu, s, _ in rows]


def stale_games(con: duckdb.DuckDBPyConnection) -> int:
    """Complete games the ``ratings`` table has not rated (0 after a load)."""
    row = con.execute(
        "SELECT count(*) FROM games g WHERE complete AND NOT EXISTS (SELECT 1 FROM ratings r "
        "WHERE r.game_id = g.game_id AND r.file_hash IS NOT DISTINCT FROM g.file_hash)"
        ).fetchone()
    return int(row[0]) if row else 0
