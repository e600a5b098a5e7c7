"""The ``cabo-log`` command line: thin wrappers that parse options and call one library function.

Commands of other areas (simulation, database, timeline) live in their own ``cli_*`` modules and
register themselves on the same Typer app.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="cabo-log",
    help="Replay, validate and analyse Cabo game logs (format cabo-log/1).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register_all() -> None:
    from cabo_log.cli import db as cli_db
    from cabo_log.cli import replay as cli_replay
    from cabo_log.cli import serve as cli_serve
    from cabo_log.cli import simulate as cli_simulate
    from cabo_log.cli import timeline as cli_timeline

    for module in (cli_replay, cli_simulate, cli_db, cli_timeline, cli_serve):
        module.register(app)


def main() -> None:
    _register_all()
    app()
