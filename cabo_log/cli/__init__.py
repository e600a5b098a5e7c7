"""The ``cabo-log`` command line: thin wrappers that parse options and call one library function.

Commands of other areas (simulation, database, timeline) live in their own ``cli_*`` modules and
register themselves on the same Typer app.
"""

from __future__ import annotations

from typing import Annotated

import typer

from cabo_log.cli import plain

plain.install()

app = typer.Typer(
    name="cabo-log",
    help="Replay, validate and analyse Cabo game logs (format cabo-log/1).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"cabo-log {version('cabo-log')}")
        except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
            typer.echo("cabo-log (not installed)")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Replay, validate and analyse Cabo game logs (format cabo-log/1)."""


def _register_all() -> None:
    from cabo_log.cli import analysis as cli_analysis
    from cabo_log.cli import db as cli_db
    from cabo_log.cli import play as cli_play
    from cabo_log.cli import replay as cli_replay
    from cabo_log.cli import serve as cli_serve
    from cabo_log.cli import simulate as cli_simulate
    from cabo_log.cli import timeline as cli_timeline
    from cabo_log.cli import write as cli_write

    for module in (cli_replay, cli_simulate, cli_db, cli_timeline, cli_write,
                   cli_play, cli_analysis, cli_serve):
        module.register(app)


def main() -> None:
    _register_all()
    app(prog_name="cabo-log")
