"""The ``cabo-log`` console script: a load's workers start before the command line is imported.

``cabo-log load`` imports the replay and Arrow, forks its workers from this process (which has
imported what they run: nothing is imported twice) and only then imports the command line
(typer, and the pydantic it parses with) and DuckDB: the workers hold none of those, and the
process they are forked from runs no thread yet. Nothing here imports more than the standard
library until it knows the command is a local load. A local load also ends without the
interpreter's teardown (``leave``).

A stop signal (Ctrl-C, SIGTERM) is caught from this module's first line on (``stop.install``):
at any moment, during the imports too, the command ends with one line and exit status 128 + N,
or with the line of the command's own stop path where it has one (``load`` says what stayed
loaded).
"""

from __future__ import annotations

import os
import sys

from cabo_log.stop import Interrupted, ignore, install, interruption, stopped_by

TYPE_CHECKING = False
if TYPE_CHECKING:   # (``typing`` is not imported at run time: ~3 ms before the handlers)
    from typing import NoReturn

# ``load``'s options, as ``early_load_args`` reads them: those that take a value, the flags
LOAD_VALUED = ("--db", "--jobs", "-j", "--rollouts", "--cluster", "--parquet-out")
LOAD_FLAGS = ("--allow-errors", "--force", "--quiet", "-q", "--analyse", "--all", "--recurse",
              "--no-recurse")


def early_load_args(args: list[str]) -> tuple[list[str], int | None] | None:
    """The paths and ``--jobs`` of ``cabo-log load ARGS`` read plainly, before typer; None
    for anything this does not read as a local load (``--cluster``, ``--help``, an option it
    does not know or a combined one, a ``--jobs`` that is not a number from 1): typer then
    says what it makes of it."""
    paths: list[str] = []
    jobs: int | None = None
    rest = iter(args)
    for arg in rest:
        if arg == "--":
            paths.extend(rest)
            break
        if not arg.startswith("-") or arg == "-":
            paths.append(arg)
            continue
        name, eq, value = arg.partition("=")
        if name in LOAD_FLAGS and not eq:
            continue
        if name not in LOAD_VALUED or name == "--cluster" or (eq and name == "-j"):
            return None
        if not eq:
            value = next(rest, "")
        if name in ("--jobs", "-j"):
            if not value.isdigit() or int(value) < 1:
                return None
            jobs = int(value)
    return paths, jobs


def start_load_workers(read: tuple[list[str], int | None]) -> None:
    """``cabo-log load`` of these paths and ``--jobs``: start the workers
    (``load.start_workers``) before typer is imported. A command line read otherwise than typer
    reads it costs nothing but idle workers, which leave with the command."""
    if read[0]:
        from cabo_log.db.load import start_workers

        start_workers(read[0], read[1])


def main() -> None:
    install()   # first: a stop signal from here on is one line, never a traceback
    local_load = None
    try:
        local_load = early_load_args(sys.argv[2:]) if sys.argv[1:2] == ["load"] else None
        done = _command(local_load)
        ignore()   # done: a late signal must not cut the exit short
    except KeyboardInterrupt as exc:   # one that came outside typer (the imports, here)
        ignore()
        done = _stopped(exc)
    if local_load is not None:
        leave(done)
    raise done


def _command(local_load: tuple[list[str], int | None] | None) -> SystemExit:
    """Run the command line; how it ended (typer always ends with ``SystemExit``)."""
    if local_load is not None:
        start_load_workers(local_load)
    from cabo_log.cli import main as command_line

    try:
        command_line()
    except SystemExit as done:
        stop = _swallowed_stop(done)
        return done if stop is None else _stopped(stop)
    return SystemExit(0)


def _swallowed_stop(done: SystemExit) -> Interrupted | None:
    """The stop that typer turned into a silent exit 130: a ``KeyboardInterrupt`` that no
    command handled (it raises ``Exit(130) from`` it, whatever the signal). A command that
    handled its stop said so and raised its own exit (``from None``): not one of these."""
    cause = getattr(done.__context__, "__cause__", None)
    if done.code != 130 or not isinstance(cause, KeyboardInterrupt):
        return None
    return interruption(cause)


def _stopped(exc: KeyboardInterrupt) -> SystemExit:
    """Say that the command was stopped by the signal ``exc`` stands for: one line; the exit
    status 128 + N (130 for SIGINT, 143 for SIGTERM)."""
    stop = stopped_by(exc)
    try:
        print(f"cabo-log: {stop.verb}", file=sys.stderr, flush=True)
    except (OSError, ValueError):   # stderr closed: the status says it
        pass
    return SystemExit(stop.exit_code)


def leave(done: SystemExit) -> NoReturn:
    """End a finished load at once, skipping the interpreter's teardown: unloading DuckDB,
    Arrow and the replay's modules took ~80 ms of the load's wall time (0.08-0.10 s from the
    summary line to the exit, 0.015 s this way, 2,000 games), with one core idle. Nothing is
    lost by it: the load has closed its database and its workers and removed its spool
    before the command returns, and the output is flushed here. Only the exit status remains:
    typer's (a number, or a message for stderr as ``sys.exit`` prints it)."""
    code = done.code
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe: what it would have read is gone
            pass
    os._exit(code or 0)
