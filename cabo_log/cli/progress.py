"""A progress bar on stderr when it is a terminal (click's), for commands that work on many
files (``load``, ``timeline DIR``)."""

from __future__ import annotations

import sys
from typing import Any

import typer


class Bar:
    """Started with the total once it is known; updated with the count just done; closed
    whatever happened (a stopped command must leave the terminal's line clean)."""

    def __init__(self, label: str, enabled: bool) -> None:
        self.label = label
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: Any = None

    def start(self, total: int) -> None:
        if self.enabled and total:
            self.bar = typer.progressbar(length=total, label=self.label, file=sys.stderr,
                                         show_pos=True, show_eta=True)
            self.bar.__enter__()

    def update(self, count: int) -> None:
        if self.bar is not None:
            self.bar.update(count)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
