"""``host``: tables to play at in the browser, every move written to a log in --dir."""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Annotated

import typer

from cabo_log.cli.errors import failed, usage
from cabo_log.cli.listen import AllowHostOption, HostOption, PortOption


def host_command(
    directory: Annotated[Path, typer.Option(
        "--dir", help="The folder of the tables' logs (created if missing); tables in "
        "progress there are resumed.")],
    db: Annotated[Path | None, typer.Option(
        "--db", help="Load each finished game into this database (then 'serve' shows it).")
    ] = None,
    host: HostOption = "127.0.0.1",
    port: PortOption = 8000,
    allow_host: AllowHostOption = None,
) -> None:
    """Host tables in the browser: open a table, invite people by link, add bots, play;
    or keep the score of a game played with real cards on a score sheet. Every move and
    round is checked and written to its log in --dir."""
    import uvicorn

    from cabo_log.pages.guard import LOOPBACK, served_hosts
    from cabo_log.pages.table.app import create_app
    from cabo_log.pages.table.host import Host, HostSettings

    if directory.exists() and not directory.is_dir():
        raise usage(f"--dir {directory} is not a folder")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise failed(f"cannot create {directory}: {exc.strerror or exc}") from None
    # the tables' calls run in worker threads beside the sockets' event loop: a short switch
    # interval hands the interpreter over sooner (the default 5 ms is added to a move's
    # answer whenever both want to run)
    sys.setswitchinterval(0.0005)
    tables = Host(HostSettings(directory, db=db))
    for problem in tables.resume_all():
        typer.echo(f"cabo-log: not resumed: {problem}", err=True)
    if tables.tables:
        typer.echo(f"resumed {len(tables.tables)} table(s) in progress")
    if tables.sheets:
        typer.echo(f"resumed {len(tables.sheets)} score sheet(s) in progress")
    hosts = served_hosts(host, allow_host or ())
    if host not in LOOPBACK:
        typer.echo(f"cabo-log: listening on {host}: anyone who can reach it can open tables "
                   f"and score sheets and watch them (it answers to {', '.join(hosts)})",
                   err=True)
    try:
        sock = _listen(host, port)
    except OSError as exc:
        tables.close()
        raise failed(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    typer.echo(f"hosting tables of {directory} on http://{host}:{port}/ (Ctrl-C stops)")
    # only requests addressed to this host and port (no DNS rebinding), with the protective
    # headers and a policy that runs only the server's own scripts (pages.guard)
    app = create_app(tables, hosts=hosts, port=port or None)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=65536)
    uvicorn.Server(config).run(sockets=[sock])


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a taken port is one clear line."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    return sock


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("host")(host_command)
