"""``append``, ``seal``, ``repair`` and ``replay --follow``: the write side of the command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from cabo_log.cli.errors import log_error, unwritable, usage
from cabo_log.log.repair import RepairFailed, repair
from cabo_log.log.writes import append_texts, seal
from cabo_log.pages.timeline import NotAPlayer
from cabo_log.play.follow import follow
from cabo_log.stop import stopped_by
from engine import CaboLogError


def interrupted(exc: KeyboardInterrupt, message: str) -> typer.Exit:
    """Ctrl-C (or SIGTERM, ``stop.install``): one line on stderr, exit status 128 + the
    signal (130 for SIGINT), no traceback."""
    stop = stopped_by(exc)
    typer.echo(f"\n{stop.verb}: {message}", err=True)
    return typer.Exit(stop.exit_code)


def append_command(
    file: Annotated[Path, typer.Argument(help="The log to append to (created when the first "
                                              "event is a 'game' header).")],
    events: Annotated[list[str], typer.Argument(help="Events as JSON objects, or - to read "
                                                     "JSON lines from standard input.")],
    chain: Annotated[bool, typer.Option("--chain", help="Start a hash chain (h) in a new "
                                                        "log.")] = False,
    expect_seq: Annotated[Optional[int], typer.Option(  # noqa: UP045 - typer needs Optional
        "--expect-seq", help="Refuse unless the first event lands at this seq.")] = None,
    no_fsync: Annotated[bool, typer.Option("--no-fsync", help="Skip the fsync (faster, "
                                                              "less durable).")] = False,
) -> None:
    """Append events to a log, all or nothing, each checked by the rules first."""
    texts: list[str] = list(events)
    if texts == ["-"]:
        texts = [line for line in sys.stdin.read().split("\n") if line.strip()]
    elif "-" in texts:
        raise usage("- (standard input) cannot be mixed with events on the command line")
    if not texts:
        raise usage("no events to append")
    if file.is_dir():
        raise usage(f"{file} is a folder")
    try:
        done = append_texts(file, texts, chain=chain, expect_seq=expect_seq,
                            fsync=not no_fsync)
    except CaboLogError as exc:
        raise log_error(exc) from None
    except OSError as exc:
        raise unwritable(file, "the log", exc) from None
    typer.echo(str(done))


def seal_command(
    source: Annotated[Path, typer.Argument(help="A valid log (complete or in progress).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The chained copy to write (a new "
                                                          "file).")],
) -> None:
    """Write a chained (tamper-evident) copy of a log and print its head."""
    if not source.is_file():
        raise usage(f"no such file: {source}")
    try:
        done = seal(source, out)
    except CaboLogError as exc:
        raise log_error(exc) from None
    typer.echo(f"{out}: sealed {done.last_line} lines; head {done.head}", err=True)
    typer.echo(str(done.head))


def repair_command(
    file: Annotated[Path, typer.Argument(help="A log whose last line a crash tore.")],
) -> None:
    """Cut a torn last line off a log (keeping the original as FILE.bak) and say so."""
    if not file.is_file():
        raise usage(f"no such file: {file}")
    try:
        done = repair(file)
    except CaboLogError as exc:
        typer.echo(f"{exc}\n{file}: not repaired: only a torn last line is repaired",
                   err=True)
        raise typer.Exit(1) from None
    except RepairFailed as exc:
        typer.echo(f"{file}: not repaired: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(str(done))


def follow_log(file: Path, viewer: str | None = None) -> None:
    """Print each event of ``file`` as it is appended, with the state after it."""
    try:
        for step in follow(file, viewer=viewer):
            typer.echo(f"{step.line:>5}  {step.text}")
            typer.echo(f"       -> {step.status}")
    except CaboLogError as exc:
        raise log_error(exc) from None
    except NotAPlayer:
        raise usage(f"{viewer!r} is not a player of {file}") from None
    except KeyboardInterrupt as exc:
        raise interrupted(exc, f"stopped following {file}") from None


def register(app: typer.Typer) -> None:
    app.command("append")(append_command)
    app.command("seal")(seal_command)
    app.command("repair")(repair_command)
