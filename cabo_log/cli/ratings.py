"""``ratings``: the leaderboard of each ruleset, from the ``ratings`` table a load keeps."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cabo_log.cli.database import (
    DbOption,
    FormatOption,
    OutputOption,
    emit,
    open_for_reading,
    output_format,
)
from cabo_log.cli.errors import failed

RulesetOption = Annotated[Optional[str], typer.Option(  # noqa: UP045 - typer needs Optional
    "--ruleset", "-r", metavar="RULESET", help="Only this ruleset (by name); default: each.",
    show_default=False)]
MinGamesOption = Annotated[int, typer.Option(
    "--min-games", min=1, help="Leave out players with fewer rated games.")]

COLUMNS = ["ruleset", "place", "player", "kind", "games", "rating", "mu", "sigma", "interval"]


def ratings_command(db: DbOption = None, ruleset: RulesetOption = None,
                    min_games: MinGamesOption = 1, fmt: FormatOption = None,
                    output: OutputOption = None) -> None:
    """Each ruleset's players by rating, from the order of finish of every complete match.

    The rating is the conservative mu - 3 sigma of openskill's Plackett-Luce model: mu the
    estimated skill, sigma its uncertainty (shown as the interval mu +- 2 sigma, about 95 %).
    Players are rated per ruleset, never across rulesets (docs/ratings.md).
    """
    import duckdb

    from cabo_log.db import reports
    from cabo_log.db.ratings import leaderboard, stale_games

    form = output_format(fmt, output)
    con = open_for_reading(db, None, need_schema=True)
    try:
        if not con.execute("SELECT count(*) FROM information_schema.tables "
                           "WHERE table_name = 'ratings'").fetchall()[0][0]:
            raise failed(f"{db or 'the database'} keeps no ratings (a database of Parquet "
                         "views, made by load --parquet-out, has none)", 1)
        known = [r for (r,) in con.execute("SELECT DISTINCT ruleset FROM games").fetchall()]
        if ruleset is not None and ruleset not in known:
            raise failed(f"no games of ruleset {ruleset!r} in the database (it holds: "
                         f"{', '.join(sorted(known)) or 'none'})", 2)
        board = leaderboard(con, ruleset, min_games)
        behind = stale_games(con)
    except duckdb.Error as exc:
        raise failed(f"ratings failed: {str(exc).strip().splitlines()[0]}", 1) from None
    finally:
        con.close()
    rows: list[tuple[object, ...]] = []
    place = 0
    last = None
    for s in board:
        place = 1 if s.ruleset != last else place + 1
        last = s.ruleset
        rows.append((s.ruleset, place, s.player, s.kind, s.games, round(s.rating, 2),
                     round(s.mu, 2), round(s.sigma, 2),
                     f"{s.mu - 2 * s.sigma:.1f} .. {s.mu + 2 * s.sigma:.1f}"))
    if behind:
        typer.echo(f"{behind} complete game(s) are not rated yet: load again to rate them",
                   err=True)
    emit(reports.render(COLUMNS, rows, form), output)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("ratings")(ratings_command)


__all__ = ["ratings_command", "register"]
