"""What the commands that read the database share (``report``, ``sql``, ``export``,
``ratings``, ``serve``): the ``--db`` and ``--dataset`` options and opening the database
read-only, the ``--format`` and ``--output`` options and writing the answer where it goes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from cabo_log.cli.errors import failed, usage
from cabo_log.db.basics import Format

DbOption = Annotated[Optional[Path], typer.Option(  # noqa: UP045 - typer needs Optional
    "--db", help="The DuckDB database file (default: $CABO_LOG_DB when it is set, else "
                  "./cabo.duckdb).", envvar="CABO_LOG_DB", show_envvar=False, show_default=False,
    metavar="FILE")]


DatasetOption = Annotated[Optional[Path], typer.Option(  # noqa: UP045 - typer needs Optional
    "--dataset", help="For a --db of views over a Parquet dataset (load --parquet-out): the "
    "dataset's folder, the only one its queries may read.", envvar="CABO_LOG_DATASET",
    show_envvar=True, show_default=False, metavar="DIR")]


def database_path(path: Path | None) -> Path:
    """The database ``--db`` names, or the default one (``$CABO_LOG_DB``, else ./cabo.duckdb)."""
    from cabo_log.db.basics import default_path

    return path if path is not None else default_path()


def open_for_reading(db: Path | None, dataset: Path | None, *, need_schema: bool) -> Any:
    """The database opened read-only (``need_schema``: one of this version's, checked); a
    database that cannot be used is one line and exit 1."""
    from cabo_log.db.database import DatabaseError, check_version
    from cabo_log.db.readonly import open_readonly

    database = database_path(db)
    try:
        con = open_readonly(database, dataset=dataset)
        if need_schema:
            check_version(con, database)
    except DatabaseError as exc:
        raise failed(str(exc), 1) from None
    return con


FormatOption = Annotated[Optional[Format], typer.Option(  # noqa: UP045
    "--format", "-f", help="How to print the rows (default: html when -o names a .html "
                           "file, else table).", show_default=False)]
CdnOption = Annotated[bool, typer.Option(
    "--cdn", help="html: link plotly.js from its CDN instead of embedding it (smaller pages "
                  "that need to be online).")]
OutputOption = Annotated[Optional[Path], typer.Option(  # noqa: UP045
    "--output", "-o", metavar="FILE", help="Write to this file instead of standard output.")]


def output_format(fmt: Format | None, output: Path | None) -> str:
    """The format asked for, or implied by the output's name; HTML never goes to a terminal."""
    if fmt is None:
        fmt = Format.HTML if output is not None and output.suffix.lower() in (".html", ".htm") \
            else Format.TABLE
    if fmt is Format.HTML and output is None and sys.stdout.isatty():
        raise usage("an HTML page is not for the terminal: write it to a file with -o FILE.html "
                    "(or redirect the output)")
    return str(fmt)


def emit(text: str, output: Path | None) -> None:
    """The answer on standard output, or written to ``output`` (a failure said in one line)."""
    if output is None:
        typer.echo(text)
        return
    try:
        output.write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
    except OSError as exc:
        raise failed(f"cannot write {output}: {exc.strerror or exc}", 1) from None


__all__ = ["CdnOption", "DatasetOption", "DbOption", "FormatOption", "OutputOption",
           "database_path", "emit", "open_for_reading", "output_format"]
