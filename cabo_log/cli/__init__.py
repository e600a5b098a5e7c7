"""The ``cabo-log`` command line: thin wrappers that parse options and call one library function.

Commands of other areas (simulation, database, timeline) live in their own ``cli_*`` modules and
register themselves on the same Typer app.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Annotated

import typer

from cabo_log.cli import plain

plain.install()

app = typer.Typer(
    name="cabo-log",
    help="Replay, validate and analyse Cabo game logs (format cabo-log/1).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,   # click's plain help: prose, not boxes (see cli.plain)
    cls=plain.CommandList,
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        from cabo_log.build_info import build_kind

        try:
            typer.echo(f"cabo-log {version('cabo-log')} ({build_kind()})")
        except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
            typer.echo(f"cabo-log (not installed, {build_kind()})")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version and which build runs (compiled or pure), and exit.")
    ] = False,
) -> None:
    """Replay, validate and analyse Cabo game logs (format cabo-log/1)."""
    from cabo_log.stop import started

    started()   # the command begins: a stop signal now raises, for its stop path to run


# the module that registers each command (``module.register(app)``), in help order
COMMAND_MODULES: dict[str, str] = {
    "replay": "replay", "validate": "replay", "rules": "replay", "schema": "replay",
    "simulate": "simulate",
    "load": "db", "report": "db", "sql": "db", "export": "db", "ratings": "ratings",
    "timeline": "timeline",
    "append": "write", "seal": "write", "repair": "write",
    "play": "play", "tally": "tally",
    "analyse": "analysis", "whatif": "analysis",
    "serve": "serve", "puzzles": "puzzles",
    "host": "host",
}


_REGISTERED: set[str] = set()
"""The modules whose commands are on ``app`` already."""


def _register(module: str) -> None:
    """Register ``module``'s commands on ``app``, once: a second registration would list each
    command twice, and typer rebuilds the whole command list (reading every command's
    signature) on each run of ``app``, so every later run would pay for the copies."""
    if module not in _REGISTERED:
        import_module(f"cabo_log.cli.{module}").register(app)
        _REGISTERED.add(module)


def register_all() -> None:
    """Register every command on ``app`` (what ``--help`` lists; tests that invoke ``app``
    call it first). ``main`` registers only what its arguments reach (``register_for``)."""
    for module in dict.fromkeys(COMMAND_MODULES.values()):
        _register(module)


def register_for(args: list[str]) -> None:
    """Register the commands ``args`` can reach: only the named command's module when the
    first argument names one (a command does not pay for importing every other command's
    library: ``analyse`` alone pulled in the bots and the rollouts, ~0.1 s before a load could
    start its workers), else every command (``--help``, ``--version``, a typo)."""
    module = COMMAND_MODULES.get(args[0]) if args else None
    if module is None:
        register_all()
    else:
        _register(module)


_register_all = register_all   # the same, under the name some callers use


def main() -> None:
    """The command line (the console script, ``launch.main``, first starts a load's workers)."""
    register_for(sys.argv[1:])
    app(prog_name="cabo-log")
