"""``load``, ``report``, ``sql`` and ``export``: games into DuckDB, and questions answered in SQL.

Thin wrappers: each command parses its options and calls one library function (``load``,
``reports``, ``export``). Every failure is one line on stderr: exit 2 for wrong use (unknown
report, bad parameter, missing file), 1 for a database or load that failed, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn, Optional

import typer

DbOption = Annotated[Optional[Path], typer.Option(  # noqa: UP045 - typer needs Optional
    "--db", help="The DuckDB database file [default: $CABO_LOG_DB or ./cabo.duckdb].",
    show_default=False)]


def _fail(message: str, code: int) -> NoReturn:
    typer.echo(f"cabo-log: {message}", err=True)
    raise typer.Exit(code)


def _db(path: Path | None) -> Path:
    from cabo_log.db.database import default_path

    return path if path is not None else default_path()


def load_command(
    paths: Annotated[list[Path], typer.Argument(
        help="Log files and folders (searched recursively for *.jsonl).")],
    db: DbOption = None,
    jobs: Annotated[Optional[int], typer.Option(  # noqa: UP045
        "--jobs", "-j", min=1, help="Replay worker processes [default: one per core].",
        show_default=False)] = None,
    allow_errors: Annotated[bool, typer.Option(
        "--allow-errors", help="Exit 0 even if some logs were rejected.")] = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Replay every file, even those unchanged since they were loaded.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the summary.")] = False,
) -> None:
    """Replay logs and load what the engine derives into DuckDB (safe to re-run)."""
    from cabo_log.db.database import DatabaseError
    from cabo_log.db.load import LoadError, LoadInterrupted, load_paths

    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        _fail(f"no such file or folder: {', '.join(missing)}", 2)
    database = _db(db)
    bar = _Bar(enabled=not quiet and sys.stderr.isatty())
    try:
        summary = load_paths(paths, database, jobs=jobs, force=force, progress=bar.update,
                             on_total=bar.start)
    except DatabaseError as exc:
        bar.close()
        _fail(str(exc), 1)
    except LoadError as exc:
        bar.close()
        _fail(f"{exc}; {_kept(exc.committed)}", 1)
    except LoadInterrupted as exc:
        bar.close()
        _fail(f"interrupted; {_kept(exc.committed)}", 130)
    except KeyboardInterrupt:
        bar.close()
        _fail(f"interrupted; {_kept(0)}", 130)
    bar.close()
    for err in summary.rejected:
        where = f"{err['file']}:{err['line']}:" if err.get("line") is not None \
            else f"{err['file']}:"
        typer.echo(f"{where} {err['code']}: {err['message']}", err=True)
    typer.echo(f"{database}: {summary.text()}")
    raise typer.Exit(summary.exit_code(allow_errors))


def _kept(committed: int) -> str:
    if not committed:
        return "nothing was loaded (the database is as it was before)"
    return (f"{committed} game{'s' if committed != 1 else ''} of completed batches stayed "
            "loaded, the batch in progress was rolled back; run the same command again to "
            "finish")


class _Bar:
    """A progress bar on a terminal (click's), over the files of the load."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.bar: Any = None

    def start(self, total: int) -> None:
        if self.enabled and total:
            self.bar = typer.progressbar(length=total, label="loading", file=sys.stderr,
                                         show_pos=True, show_eta=True)
            self.bar.__enter__()

    def update(self, count: int) -> None:
        if self.bar is not None:
            self.bar.update(count)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def _open_for_reading(db: Path | None, *, need_schema: bool) -> Any:
    from cabo_log.db.database import DatabaseError, check_version
    from cabo_log.db.readonly import open_readonly

    database = _db(db)
    try:
        con = open_readonly(database)
        if need_schema:
            check_version(con, database)
    except DatabaseError as exc:
        _fail(str(exc), 1)
    return con


FormatOption = Annotated[Optional[str], typer.Option(  # noqa: UP045
    "--format", "-f", help="table, csv, json or html [default: html when -o names a .html "
                           "file, else table].", show_default=False)]
CdnOption = Annotated[bool, typer.Option(
    "--cdn", help="html: link plotly.js from its CDN instead of embedding it (smaller pages "
                  "that need to be online).")]
OutputOption = Annotated[Optional[Path], typer.Option(  # noqa: UP045
    "--output", "-o", help="Write to this file instead of standard output.")]


def _format(fmt: str | None, output: Path | None) -> str:
    """The format asked for, or implied by the output's name; HTML never goes to a terminal."""
    from cabo_log.db import reports

    if fmt is None:
        fmt = "html" if output is not None and output.suffix.lower() in (".html", ".htm") \
            else "table"
    if fmt not in reports.FORMATS:
        _fail(f"unknown format {fmt!r} (known: {', '.join(reports.FORMATS)})", 2)
    if fmt == "html" and output is None and sys.stdout.isatty():
        _fail("an HTML page is not for the terminal: write it to a file with -o FILE.html "
              "(or redirect the output)", 2)
    return fmt


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        typer.echo(text)
        return
    try:
        output.write_text(text + ("" if text.endswith("\n") else "\n"), encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {output}: {exc.strerror or exc}", 1)


def report_command(
    name: Annotated[Optional[str], typer.Argument(  # noqa: UP045
        help="The report to run (see --list).", show_default=False)] = None,
    db: DbOption = None,
    fmt: FormatOption = None,
    param: Annotated[Optional[list[str]], typer.Option(  # noqa: UP045
        "--param", "-p", help="A report parameter, name=value (repeatable).")] = None,
    list_reports: Annotated[bool, typer.Option(
        "--list", help="List the reports with their one-line descriptions.")] = False,
    output: OutputOption = None,
    cdn: CdnOption = False,
) -> None:
    """Run one of the SQL reports shipped with cabo-log (parameters are bound, not pasted)."""
    import duckdb

    from cabo_log.db import reports

    if list_reports:
        for report in reports.available().values():
            params = " ".join(f"[{p.name}: {p.describe()}]" for p in report.params.values())
            typer.echo(f"{report.name:28s} {report.title}" + (f"  {params}" if params else ""))
        return
    if name is None:
        _fail("which report? (cabo-log report --list shows them)", 2)
    fmt = _format(fmt, output)
    try:
        report = reports.get(name)
        values = reports.bind(report, param or [])
    except reports.ReportError as exc:
        _fail(str(exc), 2)
    con = _open_for_reading(db, need_schema=True)
    try:
        reports.check_values(con, report, values)
        columns, rows = reports.run(con, report, values)
    except reports.ReportError as exc:
        _fail(str(exc), 2)
    except duckdb.Error as exc:
        _fail(f"report {name} failed: {_one_line(exc)}", 1)
    finally:
        con.close()
    _emit(reports.render(columns, rows, fmt, report=report, values=values,
                         plotly="cdn" if cdn else "inline"), output)


def sql_command(
    query: Annotated[str, typer.Argument(help="Any SQL query (the database is opened "
                                              "read-only).")],
    db: DbOption = None,
    fmt: FormatOption = None,
    output: OutputOption = None,
) -> None:
    """Run any SQL query against the loaded games (read-only: no file outside the database can
    be read or written, no other database attached, no extension installed)."""
    import duckdb

    from cabo_log.db import reports

    fmt = _format(fmt, output)
    con = _open_for_reading(db, need_schema=False)
    try:
        columns, rows = reports.fetch(con, query)
    except duckdb.Error as exc:
        _fail(_one_line(exc), 1)
    finally:
        con.close()
    _emit(reports.render(columns, rows, fmt), output)


def export_command(
    parquet: Annotated[Path, typer.Option(
        "--parquet", help="Write every table here as Parquet, hive-partitioned by ruleset.")],
    db: DbOption = None,
) -> None:
    """Export the tables as Parquet files any other engine can read."""
    import duckdb

    from cabo_log.db.database import DatabaseError
    from cabo_log.db.export import export_parquet

    try:
        counts = export_parquet(_db(db), parquet)
    except DatabaseError as exc:
        _fail(str(exc), 1)
    except (OSError, duckdb.Error) as exc:
        _fail(f"cannot export to {parquet}: {_one_line(exc)}", 1)
    typer.echo(f"{parquet}: " + ", ".join(f"{t} {n:,}" for t, n in counts.items()))


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("load")(load_command)
    app.command("report")(report_command)
    app.command("sql")(sql_command)
    app.command("export")(export_command)
