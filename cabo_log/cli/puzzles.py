"""``puzzles``: the puzzles of an analysed database as static pages (docs/puzzles.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cabo_log.cli.database import DbOption, database_path, open_for_reading
from cabo_log.cli.errors import failed, usage
from cabo_log.puzzles.selection import Theme

OutOption = Annotated[Path, typer.Option(
    "--out", "-o", metavar="DIR", help="The folder for the pages (created): index.html, a "
                                       "page per puzzle and its answers, games/.")]
RulesetOption = Annotated[Optional[str], typer.Option(  # noqa: UP045 - typer needs Optional
    "--ruleset", "-r", metavar="RULESET", help="Only puzzles from games of this ruleset.",
    show_default=False)]
ThemeOption = Annotated[Optional[Theme], typer.Option(  # noqa: UP045
    "--theme", "-t", help="Only puzzles of this theme: cabo (a Cabo call), draw (deck or "
                          "discard), replacement (where the card in hand goes), power (use a "
                          "power, on which card, or skip it), snap (none: snaps are not "
                          "analysed).", show_default=False)]
LimitOption = Annotated[Optional[int], typer.Option(  # noqa: UP045
    "--limit", "-n", min=1, help="At most this many puzzles (in game and step order).",
    show_default=False)]


def puzzles_command(out: OutOption, db: DbOption = None, ruleset: RulesetOption = None,
                    theme: ThemeOption = None, limit: LimitOption = None) -> None:
    """Write the puzzles of a database analysed by 'load --analyse' as static pages.

    A puzzle is a real mistake with one clearly best answer: a decision where the player
    missed the best move, and the best move is ahead of every other by at least 3 expected
    round points and by more than 2.5 standard errors. Each puzzle shows the table as that
    player saw it (only the cards they knew face up) and its options; each answer page shows
    every option's expected points, the move played, and a link to the game at that step.
    """
    import duckdb

    from cabo_log.puzzles.selection import PuzzleError
    from cabo_log.puzzles.static_pages import write_puzzles

    if out.exists() and not out.is_dir():
        raise usage(f"{out} is a file, not a folder: give -o a folder for the pages")
    con = open_for_reading(db, None, need_schema=True)
    try:
        known = [r for (r,) in con.execute("SELECT DISTINCT ruleset FROM games").fetchall()]
        if ruleset is not None and ruleset not in known:
            raise usage(f"no games of ruleset {ruleset!r} in the database (it holds: "
                        f"{', '.join(sorted(known)) or 'none'})")
        summary = write_puzzles(con, out, ruleset=ruleset, theme=theme, limit=limit)
    except PuzzleError as exc:
        raise failed(f"{database_path(db)}: {exc}", 1) from None
    except duckdb.Error as exc:
        raise failed(f"puzzles failed: {str(exc).strip().splitlines()[0]}", 1) from None
    except OSError as exc:
        raise failed(f"cannot write {exc.filename or out}: {exc.strerror or exc}", 1) from None
    finally:
        con.close()
    for why in summary.skipped:
        typer.echo(f"skipped {why}", err=True)
    typer.echo(f"{summary.puzzles} puzzle{'' if summary.puzzles == 1 else 's'} "
               f"({summary.files} files) -> {summary.index}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("puzzles")(puzzles_command)


__all__ = ["puzzles_command", "register"]
