"""The options of the commands that run a web server (``serve``, ``host``): the address and
the port it listens on, and the other names it answers to."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

HostOption = Annotated[str, typer.Option(
    "--host", metavar="ADDRESS",
    help="The address to listen on; 127.0.0.1 keeps it to this machine.")]

PortOption = Annotated[int, typer.Option("--port", min=0, max=65535, help="The port.")]

AllowHostOption = Annotated[Optional[list[str]], typer.Option(  # noqa: UP045 - typer
    "--allow-host", metavar="NAME", help="Also answer requests addressed to this name "
    "(e.g. the machine's name with --host 0.0.0.0); repeatable. Requests for any other "
    "name are refused.")]

__all__ = ["AllowHostOption", "HostOption", "PortOption"]
