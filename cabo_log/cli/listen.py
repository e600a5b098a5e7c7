"""The options of the commands that run a web server (``serve``, ``host``): the address and
the port it listens on."""

from __future__ import annotations

from typing import Annotated

import typer

HostOption = Annotated[str, typer.Option(
    "--host", metavar="ADDRESS",
    help="The address to listen on; 127.0.0.1 keeps it to this machine.")]

PortOption = Annotated[int, typer.Option("--port", min=0, max=65535, help="The port.")]

__all__ = ["HostOption", "PortOption"]
