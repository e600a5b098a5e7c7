"""The simulator's own error. Kept Python in the compiled build: mypyc cannot compile a
subclass of ``RuntimeError`` as a native class (setup.py)."""

from __future__ import annotations


class SimulationError(RuntimeError):
    """A bot returned an illegal move, or a match ran away: a bug, never a user error."""


__all__ = ["SimulationError"]
