"""``serve``: browse a loaded database in a web browser (read-only)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cabo_log.cli.db import DbOption, _db
from cabo_log.cli.errors import failed


def serve_command(
    db: DbOption = None,
    host: Annotated[str, typer.Option(
        "--host", metavar="ADDRESS",
        help="The address to listen on; 127.0.0.1 keeps it to this machine.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port.")] = 8000,
) -> None:
    """Serve a web explorer over a database 'load' made: games to filter, each game's
    timeline, players, reports with charts, a read-only SQL console."""
    import uvicorn

    from cabo_log.db.database import DatabaseError
    from cabo_log.pages.web import create_app

    database: Path = _db(db)
    try:
        app = create_app(database)
    except DatabaseError as exc:
        raise failed(str(exc)) from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        typer.echo(f"cabo-log: listening on {host}: anyone who can reach it can read the "
                   "whole database", err=True)
    typer.echo(f"serving {database} on http://{host}:{port}/ (Ctrl-C stops)")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    except OSError as exc:
        raise failed(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("serve")(serve_command)
