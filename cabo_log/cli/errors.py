"""How a command says it cannot go on: one line ``cabo-log: ...`` on stderr and the exit
status that goes with it (2 for wrong use of the command line, 1 for input or a database that
failed, 128 + N after signal N), never a traceback. Each command raises what these return."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from engine import CaboLogError

__all__ = ["failed", "json_object", "log_error", "unwritable", "usage"]


def usage(message: str) -> typer.Exit:
    """Wrong use of the command line (exit 2)."""
    return failed(message, 2)


def failed(message: str, code: int = 1) -> typer.Exit:
    """The command failed (exit 1, or the code given: 130 after Ctrl-C)."""
    typer.echo(f"cabo-log: {message}", err=True)
    return typer.Exit(code)


def log_error(exc: CaboLogError) -> typer.Exit:
    """A log at fault, or an event it refused: the error's own located line
    (``FILE:LINE: code: message``) on stderr, exit 1."""
    typer.echo(str(exc), err=True)
    return typer.Exit(1)


def unwritable(file: object, what: str, exc: OSError) -> typer.Exit:
    """A file that cannot be written: ``FILE: cannot write WHAT (reason)``, exit 1."""
    typer.echo(f"{file}: cannot write {what} ({exc.strerror or exc})", err=True)
    return typer.Exit(1)


def json_object(text: str, option: str, must: str = "a JSON object") -> dict[str, Any]:
    """An option's value that must be a JSON object (``--options``, ``--move``)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise usage(f"{option} is not valid JSON: {exc.msg}") from None
    if not isinstance(value, dict):
        raise usage(f"{option} must be {must}")
    return value
