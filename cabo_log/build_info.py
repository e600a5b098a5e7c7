"""Which build of cabo-log this process runs: ``compiled`` (the engine and the busiest modules
of the application as C extension modules made by mypyc, what ``pip install .`` gives where a C
compiler is found) or ``pure`` (Python source throughout). Both give the same results; the
compiled one is faster. docs/compiled.md tells how each is installed."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from typing import Literal

Build = Literal["compiled", "pure"]


def build_kind() -> Build:
    """``compiled`` when the engine was imported from an extension module, else ``pure``."""
    import engine.game

    path = engine.game.__file__ or ""
    return "compiled" if path.endswith(tuple(EXTENSION_SUFFIXES)) else "pure"
