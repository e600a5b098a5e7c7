"""Worker processes that always stop: a small process pool owned end to end by cabo-log.

``load``, ``simulate --jobs`` and ``timeline DIR --jobs`` spread work over processes with
``Pool``. It exists because ``concurrent.futures.ProcessPoolExecutor`` could not be stopped
reliably: a worker terminated while sending its result left the executor's manager thread
blocked forever, and its queues' semaphores made the resource tracker warn when the parent was
killed. Here every moving part is visible:

- Each worker is a ``multiprocessing`` process with one pipe of its own, started by the
  forkserver (a clean process with no threads, unlike a parent that runs DuckDB) or, for a
  pool made with ``fork=True`` while the parent runs no other thread, forked from the parent
  itself (``forkserver.fork_context``: nothing imported twice). It takes one task at a time,
  sends back the result and waits for the next. No queues, no locks, no semaphores, no helper
  threads in the parent.
- Workers never react to SIGINT or SIGTERM (they block both, and are started with both
  blocked): Ctrl-C or ``kill`` sent to the whole process group reaches the parent alone,
  which decides. A worker leaves when its pipe closes, when told to, when killed, or when the
  parent dies (a ``lifeline`` pipe whose only writer is the parent reads end-of-file).
- The parent waits with short timeouts, so a signal is handled within a fraction of a second
  whatever thread the operating system delivered it to; ``stop.stop_signals`` turns the first
  SIGINT or SIGTERM into ``Interrupted`` in the main thread; leaving the ``Pool`` block with an
  exception kills the workers (SIGKILL: nothing in them needs cleaning up) and reaps them
  with bounded waits.

Use it like this (``fn`` must be a module-level function, its argument and result picklable)::

    with Pool(worker_count(jobs, len(items))) as pool:
        for result in pool.imap(fn, items):    # results in the order of ``items``
            ...
"""

from __future__ import annotations

import atexit
import os
import signal
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import connection
from multiprocessing.connection import Connection
from types import TracebackType
from typing import Any, Generic, TypeVar

# the stop signals live in ``stop``, the forkserver's start in ``forkserver``, a worker's life in
# ``worker``; re-exported because the pool's users need them together
from cabo_log.forkserver import (
    fork_context,
    in_main,
    main_left_alone,
    prestart,
    start_forkserver,
)
from cabo_log.stop import (
    STOP_SIGNALS,
    Interrupted,
    blocked,
    deaf,
    interruption,
    received,
    stop_signals,
)
from cabo_log.worker import serve

__all__ = ["Interrupted", "Pool", "WorkerDied", "cores", "deaf", "interruption", "prestart",
           "received", "stop_signals", "worker_count"]

POLL_SECONDS = 0.1      # the longest the parent waits without looking at its signals
REAP_SECONDS = 2.0      # how long a killed worker may take to be gone

T = TypeVar("T")
R = TypeVar("R")


# --- how many workers ---------------------------------------------------------------------------

def cores() -> int:
    """The cores this process may run on: ``PYTHON_CPU_COUNT`` where it is a positive number
    (the variable Python 3.13 reads for the same purpose, honoured on every version: a
    container's CPU quota does not show in the affinity), else the CPU affinity (not the
    machine's count)."""
    try:
        said = int(os.environ.get("PYTHON_CPU_COUNT", ""))
    except ValueError:   # unset, empty, "default" or not a number
        said = 0
    if said > 0:
        return said
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count(requested: int | None, tasks: int) -> int:
    """Workers worth starting: as many as asked (default one per core), but never more than
    the cores (extra processes only compete for them and cost memory) nor than the tasks."""
    wanted = cores() if requested is None else requested
    return max(1, min(wanted, cores(), tasks))


# --- the parent side --------------------------------------------------------------------------

class WorkerDied(Exception):
    """A worker process ended without being asked to (killed, out of memory)."""


@dataclass
class _Worker:
    process: Any            # multiprocessing's ForkServerProcess or ForkProcess
    conn: Connection


class Pool:
    """``jobs`` worker processes, started on first use. ``jobs <= 1`` runs the work in this
    process instead (no processes at all).

    Leave the ``with`` block normally and the workers are told to finish and are joined; leave
    it with an exception (Ctrl-C included) and they are killed and reaped, within about
    ``REAP_SECONDS`` whatever they were doing.
    """

    def __init__(self, jobs: int, *, preload: Sequence[str] = (),
                 initializer: Callable[[], None] | None = None, nice: int = 0,
                 fork: bool = False) -> None:
        self.jobs = jobs
        self.preload = tuple(preload)   # what the forkserver imports for the workers
        self.initializer = initializer
        self.nice = nice   # added to each worker's niceness (a lower priority than the parent)
        self.fork = fork   # the workers forked from this process if it has no other thread
                           # (it has imported what they run: ``preload`` is then unused)
        self.workers: list[_Worker] = []
        self._lifeline: Connection | None = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if kind is None:
            self.close()
        else:
            self.kill()

    def start(self, main: bool = True) -> None:
        """Start the workers now (``imap`` does it when needed). ``main=False``: the work
        needs nothing of ``__main__`` (see ``forkserver.main_left_alone``)."""
        if self.workers or self.jobs <= 1:
            return
        context = fork_context() if self.fork else None
        forked = context is not None
        if context is None:
            context = start_forkserver(self.preload)
        _live.add(self)
        lifeline, self._lifeline = context.Pipe(duplex=False)
        try:
            # a forked worker starts with the stop signals blocked, as the forkserver's do
            with main_left_alone(not main), blocked(STOP_SIGNALS if forked else ()):
                for i in range(self.jobs):
                    mine, theirs = context.Pipe()
                    self.workers.append(_Worker(None, mine))
                    # a forked worker closes its copies of the parent's ends: the lifeline's
                    # writer above all, or it would never read end-of-file there
                    parents = [self._lifeline, *(w.conn for w in self.workers)] \
                        if forked else []
                    process = context.Process(target=serve, name=f"cabo-log-worker-{i}",
                                              args=(theirs, lifeline, self.initializer,
                                                    self.nice, parents),
                                              daemon=True)
                    self.workers[-1].process = process
                    process.start()
                    theirs.close()
        finally:
            lifeline.close()

    def imap(self, fn: Callable[[T], R], items: Iterable[T], *,
             window: int | None = None, now: bool = False) -> Iterator[R]:
        """``fn(item)`` for every item, in order, computed by the workers. At most ``window``
        items (default twice the workers) are handed out beyond the oldest result not yet
        consumed, so memory stays flat however many items there are. An exception raised by
        ``fn`` is raised here in its item's turn (after the results of the items before it);
        a worker that dies raises ``WorkerDied`` at once. ``now``: the workers start and get
        their first items at once, not when the first result is asked for (the caller has
        more to do meanwhile)."""
        if self.jobs <= 1:
            return map(fn, items)
        if not now:
            return self._imap(fn, items, window)
        self.start(main=in_main(fn) or in_main(self.initializer))
        dispatch = _Dispatch(self.workers, fn, iter(items), window or 2 * self.jobs)
        dispatch.hand_out()
        return dispatch.run()

    def _imap(self, fn: Callable[[T], R], items: Iterable[T],
              window: int | None) -> Iterator[R]:
        self.start(main=in_main(fn) or in_main(self.initializer))
        yield from _Dispatch(self.workers, fn, iter(items), window or 2 * self.jobs).run()

    def close(self) -> None:
        """The work is done: tell the workers to leave and reap them (killing stragglers)."""
        for worker in self.workers:
            try:
                worker.conn.send(None)
            except (OSError, ValueError):
                pass
        self._reap(kill=False)

    def kill(self) -> None:
        """Stop now: SIGKILL every worker and reap it, however far its task got."""
        self._reap(kill=True)

    def _reap(self, kill: bool) -> None:
        try:
            self._reap_once(kill)
        except KeyboardInterrupt:    # a stop signal came meanwhile: finish the job, quickly
            self._reap_once(kill=True)
            raise

    def _reap_once(self, kill: bool) -> None:
        deadline = time.monotonic() + REAP_SECONDS
        for worker in self.workers:
            if kill and worker.process.pid is not None:
                _kill(worker.process)
        for worker in self.workers:
            if worker.process.pid is None:
                continue
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.exitcode is None:
                _kill(worker.process)
                worker.process.join(REAP_SECONDS)
        for worker in self.workers:
            worker.conn.close()
        self.workers = []
        if self._lifeline is not None:
            self._lifeline.close()
            self._lifeline = None


def _kill(process: Any) -> None:
    try:
        process.kill()
    except (OSError, ValueError):  # already gone
        pass


class _Dispatch(Generic[T, R]):
    """One ``imap``: hands items to idle workers, gathers results, yields them in order."""

    def __init__(self, workers: list[_Worker], fn: Callable[[T], R], items: Iterator[T],
                 window: int) -> None:
        self.workers, self.fn, self.items, self.window = workers, fn, items, window
        self.idle = list(reversed(workers))
        self.busy: dict[int, int] = {}          # id(worker) -> index of its item
        self.results: dict[int, tuple[bool, Any]] = {}   # index -> (ok, result or error)
        self.sent = 0
        self.done = 0
        self.exhausted = False

    def run(self) -> Iterator[R]:
        while True:
            self.hand_out()
            while self.done in self.results:
                ok, value = self.results.pop(self.done)
                if not ok:
                    raise value           # in its turn: the results before it came first
                yield value
                self.done += 1
                self.hand_out()
            if self.exhausted and self.done == self.sent:
                return
            self._gather()

    def hand_out(self) -> None:
        while self.idle and not self.exhausted and self.sent - self.done < self.window:
            try:
                item = next(self.items)
            except StopIteration:
                self.exhausted = True
                return
            worker = self.idle.pop()
            try:
                worker.conn.send((self.fn, item))
            except OSError:
                raise _died(worker) from None
            self.busy[id(worker)] = self.sent
            self.sent += 1

    def _gather(self) -> None:
        """Wait (a short while at a time, for signals) for results or dead workers."""
        waiting: list[Any] = [w.conn for w in self.workers if id(w) in self.busy]
        waiting += [w.process.sentinel for w in self.workers]
        ready = set(connection.wait(waiting, timeout=POLL_SECONDS))
        for worker in self.workers:
            if worker.conn in ready:
                index = self.busy.pop(id(worker))
                try:
                    ok, value = worker.conn.recv()
                except (EOFError, OSError):
                    raise _died(worker) from None
                self.results[index] = (ok, value)
                self.idle.append(worker)
        for worker in self.workers:
            if worker.process.sentinel in ready and not worker.process.is_alive():
                raise _died(worker)


def _died(worker: _Worker) -> WorkerDied:
    worker.process.join(REAP_SECONDS)
    code = worker.process.exitcode
    how = f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 \
        else f"exit status {code}"
    return WorkerDied(f"a worker process died ({how}: out of memory, or killed)")


_live: weakref.WeakSet[Pool] = weakref.WeakSet()


@atexit.register
def _kill_forgotten() -> None:
    """A pool never closed (its ``with`` skipped) must not keep the interpreter from exiting:
    multiprocessing joins its children at exit, and these ignore SIGTERM."""
    for pool in list(_live):
        pool.kill()
