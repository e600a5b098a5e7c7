"""Class hints for the compiled build (docs/compiled.md), and nothing at run time.

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

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    def mypyc_attr(*_names: object, **_hints: object) -> Any:
        """The build hint as a no-op class decorator."""
        return lambda cls: cls
