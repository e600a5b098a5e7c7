"""Class hints for the compiled build (docs/compiled.md), and the switch that runs the sources
where compiled modules are installed (``CABO_LOG_PURE``).

``mypyc_attr(acyclic=True)`` makes a compiled class's instances untracked by the garbage
collector (no collector header to allocate, link and unlink: an event or an outcome holds
strings, numbers, tuples and results, never a cycle back to itself), and
``free_list_len=1`` keeps the last freed instance of the class for the next one (an outcome
lives one event). mypyc reads the decorator from the source; in a running process, pure or
compiled, it is this module's no-op, so the engine still imports nothing third-party at run
time. This module stays Python in the compiled build (``KEEP_PYTHON`` in setup.py):
compiled, its ``else`` branch, unreachable for the type checker, would be a trap.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    def mypyc_attr(*_names: object, **_hints: object) -> Any:
        """The build hint as a no-op class decorator."""
        return lambda cls: cls


def asked_pure() -> bool:
    """Whether ``CABO_LOG_PURE`` asks for the sources (set, and not ``0``)."""
    return os.environ.get("CABO_LOG_PURE", "") not in ("", "0")


def prefer_sources(package_path: list[str]) -> None:
    """Under ``CABO_LOG_PURE``, import the modules of a package (the folders of its
    ``__path__`` and every folder below them) from their ``.py`` files, even where a compiled
    build installed an extension module beside each: Python's import would otherwise take
    the extension. Called by a package's ``__init__`` before it imports anything of its own;
    a no-op unless asked (an editable or pure install has no extension to avoid anyway)."""
    if not asked_pure():
        return
    for top in package_path:
        for folder, subfolders, _ in os.walk(top):
            subfolders[:] = [s for s in subfolders if s != "__pycache__"]
            sys.path_importer_cache[folder] = FileFinder(folder,
                                                         (SourceFileLoader, SOURCE_SUFFIXES))
