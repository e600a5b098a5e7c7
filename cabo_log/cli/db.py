"""``load``, ``report``, ``sql`` and ``export``: games into DuckDB, and questions answered in SQL.

Thin wrappers: each command parses its options and calls one library function (``load``,
``reports``, ``export``). Every failure is one line on stderr: exit 2 for wrong use (unknown
report, bad parameter, missing file), 1 for a database or load that failed, never a traceback.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from cabo_log.cli.database import (
    CdnOption,
    DatasetOption,
    DbOption,
    FormatOption,
    OutputOption,
    database_path,
    emit,
    open_for_reading,
    output_format,
)
from cabo_log.cli.errors import failed, usage

if TYPE_CHECKING:
    from cabo_log.progress import Progress

PathsArgument = Annotated[list[Path], typer.Argument(
    help="Log files and folders (searched for *.jsonl, in their subfolders too).")]
RecurseOption = Annotated[bool, typer.Option(
    "--recurse/--no-recurse", help="Search the folders' subfolders too (the default), or only "
                                   "the logs directly in each folder given.",
    show_default=False)]
JobsOption = Annotated[Optional[int], typer.Option(  # noqa: UP045
    "--jobs", "-j", min=1, help="Replay worker processes (default: one per core; capped at the "
    "cores, and at one per MB of logs to replay: more would only compete).", show_default=False)]
AllowErrorsOption = Annotated[bool, typer.Option(
    "--allow-errors", help="Exit 0 even if some logs were rejected.")]
ForceOption = Annotated[bool, typer.Option(
    "--force", help="Replay every file, even those unchanged since they were loaded.")]
QuietOption = Annotated[bool, typer.Option(
    "--quiet", "-q", help="Only the summary: no progress bar, no line per rejected log.")]
AnalyseOption = Annotated[bool, typer.Option(
    "--analyse", help="Then analyse the decisions of the games of the paths given (those not "
                      "analysed yet) into the 'decisions' table (slow: see 'cabo-log "
                      "analyse').")]
AllOption = Annotated[bool, typer.Option(
    "--all", help="With --analyse: every game in the database not analysed yet, not only "
                  "the paths'.")]
RolloutsOption = Annotated[Optional[int], typer.Option(  # noqa: UP045
    "--rollouts", min=2, help="With --analyse: sampled worlds every option is played in "
                              "first, more while a mark is undecided (default: 4; as "
                              "'cabo-log analyse --rollouts').", show_default=False)]
ClusterOption = Annotated[Optional[str], typer.Option(  # noqa: UP045
    "--cluster", metavar="ADDRESS", help="Replay on a Dask cluster: a scheduler address "
                      "(tcp://host:8786), or local:N for N local worker processes.",
    show_default=False)]
ParquetOutOption = Annotated[Optional[Path], typer.Option(  # noqa: UP045
    "--parquet-out", metavar="DIR",
    help="With --cluster: keep the games as a Parquet dataset in this "
                          "folder; --db becomes a file of views over it.", show_default=False)]


@dataclass(frozen=True)
class _LoadArgs:
    """What ``load`` was asked to do, as the library functions take it."""

    paths: list[Path]
    database: Path
    jobs: int | None
    force: bool
    cluster: str | None
    parquet_out: Path | None
    recurse: bool = True


def load_command(paths: PathsArgument, db: DbOption = None, jobs: JobsOption = None,
                 allow_errors: AllowErrorsOption = False, force: ForceOption = False,
                 quiet: QuietOption = False, analyse: AnalyseOption = False,
                 rollouts: RolloutsOption = None, cluster: ClusterOption = None,
                 parquet_out: ParquetOutOption = None, recurse: RecurseOption = True,
                 analyse_all: AllOption = False) -> None:
    """Replay logs and load what the engine derives into DuckDB (safe to re-run).

    Ctrl-C or SIGTERM stops it within a second or two: the batches committed stay, the one in
    progress is rolled back (exit 130 or 143).
    """
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise usage(f"no such file or folder: {', '.join(missing)}")
    if parquet_out is not None and cluster is None:
        raise usage("--parquet-out needs --cluster (use --cluster local:1 on one machine)")
    if (analyse_all or rollouts is not None) and not analyse:
        raise usage(f"{'--all' if analyse_all else '--rollouts'} needs --analyse")
    args = _LoadArgs(paths, database_path(db), jobs, force, cluster, parquet_out, recurse)
    summary = _load_and_say(args, quiet)
    if analyse:
        _analyse(args, rollouts, analyse_all, quiet)
    raise typer.Exit(summary.exit_code(allow_errors))


def _load_and_say(args: _LoadArgs, quiet: bool) -> Any:
    """The load with its progress bar, stoppable by a signal, then its summary printed."""
    from cabo_log.progress import Progress
    from cabo_log.stop import deaf, interruption, stop_signals

    bar = Progress.on_terminal(not quiet, unit="files", label="loading")
    summary: Any = None
    with stop_signals():
        try:
            summary = _load(args, bar)
            with deaf():   # the load is done and committed: a late signal changes nothing
                bar.close()
                _say(summary, args, quiet)
        except KeyboardInterrupt as exc:
            bar.close()
            if summary is None:   # before the load began
                stop = interruption(exc)
                assert stop is not None
                raise failed(f"{stop.verb}; {_kept(0)}", stop.exit_code) from None
            _say(summary, args, quiet)   # it came just as the finished load returned
    return summary


def _say(summary: Any, args: _LoadArgs, quiet: bool) -> None:
    """The summary of a finished load: one line per rejected log (unless quiet), then totals
    (with the folders the rejected logs came from), and, when some came from a subfolder of a
    folder given, that folders are searched recursively and how not to."""
    from cabo_log.db.load_result import in_subfolders

    for err in [] if quiet else summary.rejected:
        where = f"{err['file']}:{err['line']}:" if err.get("line") is not None \
            else f"{err['file']}:"
        typer.echo(f"{where} {err['code']}: {err['message']}", err=True)
    typer.echo(f"{args.database}: {summary.text()}")
    below = in_subfolders([str(e["file"]) for e in summary.rejected], args.paths) \
        if args.recurse else []
    if below:
        typer.echo(f"(folders are searched recursively: {', '.join(below)} "
                   f"{'is a subfolder' if len(below) == 1 else 'are subfolders'} of a folder "
                   "given; --no-recurse loads only the logs directly in the folders given)",
                   err=True)


def _analyse(args: _LoadArgs, rollouts: int | None, everything: bool, quiet: bool) -> None:
    """``load --analyse``: the decisions of the paths' games not analysed yet (``--all``:
    of every game); a bar with a time estimate on a terminal, else a line per game."""
    from cabo_log.analysis.evaluate import DEFAULT_ROLLOUTS, Settings
    from cabo_log.analysis.store import GameDone, analyse_database
    from cabo_log.db.listing import listed_in

    def said(game: GameDone) -> None:
        typer.echo(game.text(), err=True)

    bar = not quiet and sys.stderr.isatty()
    settings = Settings(rollouts=rollouts or DEFAULT_ROLLOUTS)
    try:
        done = analyse_database(
            args.database, settings, jobs=args.jobs, progress=sys.stderr if bar else None,
            games=None if everything else listed_in(args.paths, args.recurse),
            on_game=None if bar or quiet else said)
    except KeyboardInterrupt as exc:
        from cabo_log.stop import stopped_by

        stop = stopped_by(exc)
        raise failed(f"{stop.verb}; the games analysed so far are kept (run again to "
                     "finish)", stop.exit_code) from None
    for skipped in done.skipped:
        typer.echo(skipped, err=True)
    typer.echo(f"{args.database}: {done.text()}")


def _load(args: _LoadArgs, bar: Progress) -> Any:
    """``load_paths`` (or ``load_cluster`` with ``--cluster``), its failures as one line each
    (and the exit status they call for)."""
    from cabo_log.db.basics import DatabaseError
    from cabo_log.db.load import LoadError, LoadInterrupted, NoLogsFound, load_paths

    try:
        if args.cluster is not None:
            return _load_on_cluster(args, bar)
        return load_paths(args.paths, args.database, jobs=args.jobs, force=args.force,
                          progress=bar.advance, on_total=bar.start, recurse=args.recurse)
    except (DatabaseError, NoLogsFound) as exc:
        raise failed(str(exc), 1) from None
    except LoadError as exc:
        raise failed(f"{exc}; {_kept(exc.committed)}", 1) from None
    except LoadInterrupted as exc:
        raise failed(f"{_stopped(exc.signum)}; {_kept(exc.committed)}", 128 + exc.signum) from None


def _load_on_cluster(args: _LoadArgs, bar: Progress) -> Any:
    """``load --cluster``: imported only then (Dask's side and Parquet are of no use to a
    local load, which starts its workers sooner without them)."""
    from cabo_log.db.cluster import ClusterError, load_cluster

    assert args.cluster is not None
    try:
        return load_cluster(args.paths, args.database, args.cluster,
                            parquet_out=args.parquet_out, force=args.force,
                            progress=bar.advance, on_total=bar.start, recurse=args.recurse)
    except ClusterError as exc:
        raise failed(str(exc), 1) from None


def _stopped(signum: int) -> str:
    import signal

    return "terminated" if signum == signal.SIGTERM else "interrupted"


def _kept(committed: int) -> str:
    if not committed:
        return "nothing was loaded (the database is as it was before)"
    return (f"{committed} game{'s' if committed != 1 else ''} of completed batches stayed "
            "loaded, the batch in progress was rolled back; run the same command again to "
            "finish")


def report_command(
    name: Annotated[Optional[str], typer.Argument(  # noqa: UP045
        help="The report to run (see --list).", show_default=False)] = None,
    db: DbOption = None,
    fmt: FormatOption = None,
    param: Annotated[Optional[list[str]], typer.Option(  # noqa: UP045
        "--param", "-p", metavar="NAME=VALUE",
        help="A report parameter, name=value (repeatable).")] = None,
    list_reports: Annotated[bool, typer.Option(
        "--list", help="List the reports with their one-line descriptions.")] = False,
    output: OutputOption = None,
    cdn: CdnOption = False,
    dataset: DatasetOption = None,
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
        raise usage("which report? (cabo-log report --list shows them)")
    form = output_format(fmt, output)
    try:
        report = reports.get(name)
        values = reports.bind(report, param or [])
    except reports.ReportError as exc:
        raise failed(str(exc), 2) from None
    con = open_for_reading(db, dataset, need_schema=True)
    try:
        reports.check_values(con, report, values)
        columns, rows = reports.run(con, report, values)
        note = reports.left_out(con, report, values)
    except reports.ReportError as exc:
        raise failed(str(exc), 2) from None
    except duckdb.Error as exc:
        raise failed(f"report {name} failed: {_one_line(exc)}", 1) from None
    finally:
        con.close()
    text = reports.render(columns, rows, form, report=report, values=values,
                          plotly="cdn" if cdn else "inline", note=note)
    if note is not None and form in ("csv", "json"):
        typer.echo(note, err=True)   # beside the data, never inside what a program reads
    emit(text, output)


def sql_command(
    query: Annotated[str, typer.Argument(help="One SELECT query (the database is opened "
                                              "read-only).")],
    db: DbOption = None,
    fmt: FormatOption = None,
    output: OutputOption = None,
    dataset: DatasetOption = None,
) -> None:
    """Run one SELECT query against the loaded games, read-only (no other file, database or
    extension can be reached). Rows are printed as they come: a result of any size needs
    the memory of a few thousand rows."""
    import duckdb

    from cabo_log.db import reports
    from cabo_log.db.readonly import QueryRefused, check_query
    from cabo_log.db.stream_out import STREAMED, batches, output_file, write_rows

    form = output_format(fmt, output)
    con = open_for_reading(db, dataset, need_schema=False)
    try:
        check_query(con, query)
        cursor = con.execute(query)
        columns = [d[0] for d in cursor.description or []]
        if form not in STREAMED:     # an HTML page is made whole (its table, at least)
            emit(reports.render(columns, cursor.fetchall(), form), output)
        elif output is None:
            _to_stdout(lambda out: write_rows(columns, batches(cursor), form, out))
        else:
            try:
                with output_file(output) as out:
                    write_rows(columns, batches(cursor), form, out)
            except OSError as exc:
                raise failed(f"cannot write {output}: {exc.strerror or exc}", 1) from None
    except QueryRefused as exc:
        raise failed(str(exc), 1) from None
    except duckdb.Error as exc:
        raise failed(_one_line(exc), 1) from None
    finally:
        con.close()


def _to_stdout(write: Any) -> None:
    """``write(stdout)``; a reader that leaves early (``| head``) ends it quietly."""
    import os

    try:
        write(sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)   # no second error when Python flushes
        os.dup2(devnull, sys.stdout.fileno())
        raise typer.Exit(0) from None


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
        counts = export_parquet(database_path(db), parquet)
    except DatabaseError as exc:
        raise failed(str(exc), 1) from None
    except (OSError, duckdb.Error) as exc:
        raise failed(f"cannot export to {parquet}: {_one_line(exc)}", 1) from None
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
