"""The explorer's questions about players: their record per ruleset, their rating history,
each ruleset's leaderboard and each game's rating changes (from the ``ratings`` table a load
keeps, ``cabo_log.db.ratings``).

Nothing here adds up games of different rulesets: every number is of one ruleset (a player
page shows a row per ruleset, or the one its filter names).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import duckdb

__all__ = ["DEFAULT_MIN_GAMES", "Board", "HistoryPoint", "PlayerRecord", "RulesetRecord",
           "game_changes", "leaderboards", "player_record", "prepare_standings",
           "rating_history"]

DEFAULT_MIN_GAMES = 5
"""The leaderboard leaves out players with fewer rated games (their rating says little yet:
docs/ratings.md); ``?min_games=`` changes it."""


def prepare_standings(con: duckdb.DuckDBPyConnection) -> None:
    """TEMP tables made once when the server starts (as ``games.prepare``): each player's
    record per ruleset and their latest rating there, with its place on the leaderboard. A
    database without a ``ratings`` table (one of Parquet views: ``load --parquet-out``) gets
    an empty one here: no ratings shown, the rest as ever."""
    if not con.execute("SELECT count(*) FROM information_schema.tables "
                       "WHERE table_name = 'ratings'").fetchall()[0][0]:
        from cabo_log.db.database import duck_type
        from cabo_log.db.ratings import RATINGS_SCHEMA

        cols = ", ".join(f'"{f.name}" {duck_type(f.type)}' for f in RATINGS_SCHEMA)
        con.execute(f"CREATE TEMP TABLE ratings ({cols})")
    con.execute("""CREATE OR REPLACE TEMP TABLE player_ruleset_stats AS
        WITH gp AS (
            SELECT p.player, p.ruleset, count(*) AS games,
                   count(*) FILTER (WHERE g.complete) AS complete,
                   count(*) FILTER (WHERE p.won) AS wins,
                   count(*) FILTER (WHERE p.forfeited) AS forfeits,
                   string_agg(DISTINCT p.kind, ', ' ORDER BY p.kind) AS kinds
            FROM game_players AS p JOIN games AS g USING (game_id)
            GROUP BY p.player, p.ruleset),
        rs AS (SELECT player, ruleset, count(*) AS rounds, avg(points) AS avg_points
               FROM round_scores GROUP BY player, ruleset),
        cc AS (SELECT caller AS player, ruleset, count(*) AS calls,
                      count(*) FILTER (WHERE success) AS calls_won
               FROM cabo_calls WHERE success IS NOT NULL GROUP BY caller, ruleset),
        latest AS (SELECT ruleset, player, games AS rated, ordinal AS rating, mu, sigma
                   FROM ratings QUALIFY row_number() OVER (PARTITION BY ruleset, player
                                                           ORDER BY game_order DESC) = 1)
        SELECT gp.*, coalesce(rs.rounds, 0) AS rounds, rs.avg_points,
               coalesce(cc.calls, 0) AS calls, coalesce(cc.calls_won, 0) AS calls_won,
               coalesce(latest.rated, 0) AS rated, latest.rating, latest.mu, latest.sigma
        FROM gp LEFT JOIN rs USING (player, ruleset) LEFT JOIN cc USING (player, ruleset)
        LEFT JOIN latest USING (player, ruleset)""")
    con.execute("""CREATE OR REPLACE TEMP TABLE game_rating_changes AS
        SELECT game_id, map_from_entries(list((player, change))) AS changes
        FROM ratings GROUP BY game_id""")


@dataclass(frozen=True)
class RulesetRecord:
    """A player's games, results and rating in one ruleset."""

    ruleset: str
    kinds: str | None
    games: int
    complete: int
    wins: int
    forfeits: int
    rounds: int
    avg_points: float | None
    calls: int
    calls_won: int
    rated: int
    rating: float | None
    mu: float | None
    sigma: float | None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.complete if self.complete else None

    @property
    def call_success(self) -> float | None:
        return self.calls_won / self.calls if self.calls else None


@dataclass(frozen=True)
class PlayerRecord:
    player: str
    rulesets: list[RulesetRecord]   # most games first (only the filter's, with one)
    all_rulesets: list[tuple[str, int]]   # every ruleset the player played, and its games

    @property
    def games(self) -> int:
        """Games in the rulesets shown (a count, the one sum over rulesets shown)."""
        return sum(r.games for r in self.rulesets)

    @property
    def kinds(self) -> str | None:
        seen = sorted({k for r in self.rulesets if r.kinds for k in r.kinds.split(", ")})
        return ", ".join(seen) or None


_STATS = ("ruleset", "kinds", "games", "complete", "wins", "forfeits", "rounds", "avg_points",
          "calls", "calls_won", "rated", "rating", "mu", "sigma")


def player_record(con: duckdb.DuckDBPyConnection, player: str, ruleset: str | None = None
                  ) -> PlayerRecord | None:
    """A player's record per ruleset (only ``ruleset``'s when given); None for no such
    player."""
    every = con.execute("SELECT ruleset, games FROM player_ruleset_stats WHERE player = $1 "
                        "ORDER BY games DESC, ruleset", [player]).fetchall()
    if not every:
        return None
    rows = con.execute(
        f"SELECT {', '.join(_STATS)} FROM player_ruleset_stats WHERE player = $p "
        "AND ($r IS NULL OR ruleset = $r) ORDER BY games DESC, ruleset",
        {"p": player, "r": ruleset}).fetchall()
    return PlayerRecord(player, [RulesetRecord(*_plain(r)) for r in rows],
                        [(str(r), int(n)) for r, n in every])


def _plain(row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(float(v) if isinstance(v, float) else v for v in row)


@dataclass(frozen=True)
class HistoryPoint:
    """A player's rating after one game."""

    games: int
    game_id: str
    started_at: str | None
    place: int
    mu: float
    sigma: float
    rating: float
    change: float


def rating_history(con: duckdb.DuckDBPyConnection, player: str, ruleset: str
                   ) -> list[HistoryPoint]:
    """The player's rating after each of their rated games of ``ruleset``, in game order
    (on the connection itself: ``ratings`` may be a TEMP table, see ``prepare_standings``)."""
    rows = con.execute(
        "SELECT games, game_id, started_at, place, mu, sigma, ordinal, change FROM ratings "
        "WHERE player = $p AND ruleset = $r ORDER BY game_order",
        {"p": player, "r": ruleset}).fetchall()
    return [HistoryPoint(int(n), g, s, int(pl), float(mu), float(sg), float(o), float(c))
            for n, g, s, pl, mu, sg, o, c in rows]


@dataclass(frozen=True)
class Board:
    """One ruleset's leaderboard."""

    ruleset: str
    rows: list[dict[str, Any]]
    hidden: int   # players left out for having fewer than the minimum of games


def leaderboards(con: duckdb.DuckDBPyConnection, ruleset: str | None, min_games: int
                 ) -> list[Board]:
    """Each ruleset's players with at least ``min_games`` rated games, best rating first."""
    rows = con.execute(
        "SELECT ruleset, player, kinds, rated, rating, mu, sigma FROM player_ruleset_stats "
        "WHERE rated > 0 AND ($r IS NULL OR ruleset = $r) ORDER BY ruleset, rating DESC, player",
        {"r": ruleset}).fetchall()
    boards: dict[str, Board] = {}
    for rs, player, kinds, rated, rating, mu, sigma in rows:
        board = boards.setdefault(rs, Board(rs, [], 0))
        if rated < min_games:
            boards[rs] = Board(rs, board.rows, board.hidden + 1)
            continue
        board.rows.append({"place": len(board.rows) + 1, "player": player, "kinds": kinds,
                           "games": int(rated), "rating": float(rating), "mu": float(mu),
                           "sigma": float(sigma)})
    return list(boards.values())


def game_changes(con: duckdb.DuckDBPyConnection, game_ids: list[str]
                 ) -> dict[str, dict[str, float]]:
    """Each listed game's rating change per player (rated games only)."""
    if not game_ids:
        return {}
    rows = con.execute("SELECT game_id, changes FROM game_rating_changes "
                       "WHERE game_id IN (SELECT unnest($ids))", {"ids": game_ids}).fetchall()
    return {g: {str(k): float(v) for k, v in dict(m).items()} for g, m in rows}
