"""CLI commands of this area; ``register`` adds them to the shared Typer app."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
