"""A worker process's life in ``workers.Pool``: tasks in through its pipe, results out, until
the pipe closes, it is told to leave, or the parent dies.

A worker blocks SIGINT and SIGTERM (the parent alone decides when the work stops) and watches a
``lifeline`` pipe whose only writer is the parent: end-of-file there means the parent is gone,
and so is the work. An exception a task raises goes back to the parent, which raises it in the
task's turn; one that cannot be pickled goes back as a ``RuntimeError`` naming it.
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

from cabo_log.stop import STOP_SIGNALS


def serve(conn: Connection, lifeline: Connection,
          initializer: Callable[[], None] | None, nice: int = 0,
          parents: Sequence[Connection] = ()) -> None:
    """A worker's life: tasks in, results out, until the pipe closes or the parent dies.
    ``parents``: the parent's ends of the pipes, which a worker forked from the parent holds
    copies of, closed first."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)   # the parent decides
    for end in parents:
        end.close()
    if nice:
        os.nice(nice)
    threading.Thread(target=leave_with, args=(lifeline,), daemon=True).start()
    if initializer is not None:
        initializer()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        fn, arg = task
        try:
            reply: tuple[bool, Any] = (True, fn(arg))
        except Exception as exc:  # noqa: BLE001 - handed to the parent, which raises it
            reply = (False, portable(exc))
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


def leave_with(lifeline: Connection) -> None:
    """Only the parent holds the other end: end-of-file means it is gone, and so is the work."""
    try:
        lifeline.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(1)


def portable(exc: Exception) -> Exception:
    try:
        pickle.dumps(exc)
    except Exception:  # noqa: BLE001 - any exception that cannot cross the pipe
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc
