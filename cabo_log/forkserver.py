"""Starting the workers' processes: forked straight from the parent while it runs no other
thread (``fork_context``), else from a forkserver, started so that no signal sent to the
process group reaches them and so that they import what the parent runs.

``workers.Pool`` starts its workers from here; ``prestart`` starts the forkserver early, while
the parent goes on with its own start-up.
"""

from __future__ import annotations

import importlib.machinery
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from cabo_log.stop import STOP_SIGNALS, blocked

WORKER_MODULE = "cabo_log.worker"
"""What every worker runs (``worker.serve``): preloaded by the forkserver."""
QUIET_START = "cabo_log.quiet_start"
"""A child whose parent stopped before sending it its work leaves without a traceback."""


def fork_context() -> Any | None:
    """multiprocessing's "fork" context when this process may fork its workers itself: on
    Linux, while it runs no thread but this one (its ``/proc/self/task`` says so: DuckDB's and
    Arrow's native threads count too); None otherwise. A thread's locks would be copied into
    the child as they are, held or not, so a process with threads forks from a forkserver.
    Forked from the parent, the workers have what it imported: nothing is imported twice
    (the forkserver imports the workers' modules again, in a process of its own, and needs
    a resource tracker beside it: ~0.2 s of CPU for a load)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        if len(os.listdir("/proc/self/task")) != 1:
            return None
    except OSError:
        return None
    return multiprocessing.get_context("fork")


def start_forkserver(preload: Sequence[str]) -> Any:
    """The forkserver (and the resource tracker it needs) start with SIGINT and SIGTERM
    blocked, so that neither they nor the workers forked from them see a signal sent to the
    process group. The tracker goes first: it unblocks the signals when it has started."""
    from multiprocessing import forkserver, resource_tracker

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([QUIET_START, "__main__", WORKER_MODULE, *preload])
    resource_tracker.ensure_running()
    with blocked(STOP_SIGNALS), parent_path():
        forkserver.ensure_running()
    return context


def prestart(preload: Sequence[str]) -> None:
    """Start the forkserver now, without waiting for it: it imports ``preload`` (what the
    workers need) while this process goes on with its own start-up, and the ``Pool``
    started later forks its workers from it at once. Harmless if no pool follows: the
    forkserver, idle, leaves when this process ends (as it does after any pool)."""
    start_forkserver(preload)


@contextmanager
def parent_path() -> Iterator[None]:
    """The forkserver imports the preloaded modules (and so the workers run them) from this
    process's ``sys.path``. Python 3.11's forkserver ignores the path it is handed and runs
    ``python -c``, which puts its working folder first: started in a checkout, the workers
    would import the checkout's ``engine`` and ``cabo_log`` sources while the parent ran
    another build of them (an installed compiled one, a folder first on ``PYTHONPATH``, as the
    differential tests do). So it starts with ``PYTHONSAFEPATH`` (no working
    folder) and ``PYTHONPATH`` set to this process's path, made absolute (both stay in the
    workers' environment)."""
    names = ("PYTHONPATH", "PYTHONSAFEPATH")
    saved = {name: os.environ.get(name) for name in names}
    path = [os.path.abspath(entry or os.curdir) for entry in sys.path]
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in path if os.path.exists(p))
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def in_main(fn: Callable[..., Any] | None) -> bool:
    """Whether ``fn`` is defined in the parent's ``__main__`` (then the workers must import
    it: ``main_left_alone`` may not leave it alone)."""
    return fn is not None and getattr(fn, "__module__", None) == "__main__"


@contextmanager
def main_left_alone(alone: bool) -> Iterator[None]:
    """Workers started inside do not import the parent's ``__main__``. multiprocessing has
    each new worker run the parent's main script again (as ``__mp_main__``: its forkserver
    never preloads it, as Python 3.11 drops the path it is given), so that functions defined
    there can be found. For ``cabo-log`` that script is the console entry point: every worker
    imported the command line (typer, click) before its first task, ~0.05 s of CPU each on
    the way to the first result. A main module whose ``__spec__`` is named ``__main__`` is
    left alone (``spawn._fixup_main_from_name``): it is given such a name meanwhile."""
    main = sys.modules.get("__main__")
    if not alone or main is None:
        yield
        return
    saved = getattr(main, "__spec__", None)
    main.__spec__ = importlib.machinery.ModuleSpec("__main__", None)
    try:
        yield
    finally:
        main.__spec__ = saved
