"""Fixtures shared by several test modules, and the in-process command line built once."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import typer.testing
from compiled_build import site_or_skip
from typer.main import get_command

# the cores a load or a simulation sees (``workers.cores``), in this process and the commands it
# runs: the workers' tests have two workers on any machine, as on the two cores of CI
os.environ.setdefault("PYTHON_CPU_COUNT", "2")

_BUILT: dict[int, tuple[typer.Typer, tuple[Any, ...], Any]] = {}


def _command_of(app: typer.Typer) -> Any:
    """The click command of ``app``, built once for as long as its commands stay the same.

    ``typer.testing.CliRunner.invoke`` rebuilds it on every call, reading the signature and
    type hints of every registered command (about 50 ms for cabo-log's): the hundreds of
    in-process runs of the suite spent more time there than in the commands. A click command
    is made to be run many times (each run gets a fresh context), and one built from the
    same registrations is the same command, so the runs see exactly what they saw before."""
    key = (tuple(app.registered_commands), tuple(app.registered_groups),
           app.registered_callback)
    found = _BUILT.get(id(app))
    if found is None or found[0] is not app or found[1] != key:
        found = (app, key, get_command(app))
        _BUILT[id(app)] = found
    return found[2]


typer.testing._get_command = _command_of  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def compiled() -> Path:
    """The folder holding the compiled build (``make compiled``), first on the path of the
    processes that run it."""
    return site_or_skip()
