"""Preloaded by the forkserver alone (``forkserver.start_forkserver``), never imported by a
command: a worker whose parent was stopped (Ctrl-C, SIGTERM) after asking the forkserver for a
process and before sending it what to run finds its pipe empty, and Python's forkserver
would print that ``EOFError``'s traceback on the terminal the user has just stopped, after the
command's own one line. Such a child has nothing to run and nobody waits for it: it leaves
silently. Any other error in a child's start is printed as Python prints it."""

from __future__ import annotations

import sys
from types import TracebackType

_printed = sys.excepthook


def _quiet(kind: type[BaseException], value: BaseException,
           tb: TracebackType | None) -> None:
    if issubclass(kind, EOFError):
        return
    _printed(kind, value, tb)


sys.excepthook = _quiet
