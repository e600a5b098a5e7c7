"""``serve``: browse a loaded database in a web browser (read-only)."""

from __future__ import annotations

from pathlib import Path

import typer

from cabo_log.cli.database import DatasetOption, DbOption, database_path
from cabo_log.cli.errors import failed
from cabo_log.cli.listen import AllowHostOption, HostOption, PortOption


def serve_command(
    db: DbOption = None,
    host: HostOption = "127.0.0.1",
    port: PortOption = 8000,
    allow_host: AllowHostOption = None,
    dataset: DatasetOption = None,
) -> None:
    """Serve a web explorer over a database 'load' made: games to filter, each game's
    timeline, players, reports with charts, a read-only SQL console."""
    import uvicorn

    from cabo_log.db.database import DatabaseError
    from cabo_log.pages.guard import LOOPBACK, served_hosts
    from cabo_log.pages.web import create_app

    database: Path = database_path(db)
    hosts = served_hosts(host, allow_host or ())
    try:
        app = create_app(database, hosts=hosts, port=port or None, dataset=dataset)
    except DatabaseError as exc:
        raise failed(str(exc)) from None
    if host not in LOOPBACK:
        typer.echo(f"cabo-log: listening on {host}: anyone who can reach it can read the "
                   f"whole database (it answers to {', '.join(hosts)})", err=True)
    typer.echo(f"serving {database} on http://{_url_host(host)}:{port}/ (Ctrl-C stops)")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    except OSError as exc:
        raise failed(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _url_host(host: str) -> str:
    """``host`` as it goes in a URL: an IPv6 address in brackets, a wildcard as 127.0.0.1."""
    if host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("serve")(serve_command)
