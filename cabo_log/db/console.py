"""The explorer's SQL console: one query from anyone who can reach the page, run so that it can
neither reach anything (``readonly``) nor take the machine with it.

DuckDB alone cannot bound a query: its ``memory_limit`` governs its buffer manager, not a
scalar function building one huge value (``length(list_sort(range(60000000)))`` grew to 4 GB
under a 1 GB limit), and an interrupt is only seen between chunks (that query ran 14 s past a
2 s interrupt). So each query runs in a process of its own, forked from the forkserver (a few
are kept started, the database open, so that a query does not wait for one), and:

- **time**: it is interrupted (``interrupt()`` from a timer) when its time is up, and the
  process is killed a moment later if it has not answered by then;
- **memory**: the process's address space is capped (``RLIMIT_AS``, the size it had once the
  database was open plus ``memory_mb``) and DuckDB's ``memory_limit`` is set below that with
  spilling off, so an allocation past the cap fails at once ("Out of Memory") instead of
  swapping the machine; DuckDB runs on one thread;
- **size**: rows are fetched a batch at a time and the result is cut at ``rows`` rows or
  ``bytes`` bytes (as pickled, which is what crosses the pipe), whichever comes first;
- **concurrency**: at most ``concurrent`` queries run at once; one more waits up to its own
  time limit for a turn, then is told the console is busy.

A console never holds more than ``concurrent`` processes, each under its caps.
"""

from __future__ import annotations

import os
import pickle
import resource
import signal
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

__all__ = ["Console", "ConsoleBusy", "ConsoleError", "Limits", "QueryResult", "QueryTimeout"]

BATCH = 64                  # rows fetched at a time (a row may be large: see ``bytes``)
GRACE_SECONDS = 1.0         # after the interrupt, how long before the process is killed
START_SECONDS = 10.0        # for a process to start and open the database


@dataclass(frozen=True)
class Limits:
    rows: int = 1000                # rows shown at most
    bytes: int = 2_000_000          # of the result shown at most
    seconds: float = 5.0            # a query may run
    memory_mb: int = 512            # a query may allocate, beyond the open database
    concurrent: int = 2             # queries at once


@dataclass(frozen=True)
class QueryResult:
    columns: list[str]
    rows: list[tuple[Any, ...]]
    truncated: bool          # more rows existed than are shown (rows or bytes)


class ConsoleError(Exception):
    """The query was refused or failed: the message is one sentence for the page."""


class QueryTimeout(ConsoleError):
    """The query ran longer than it was allowed to. ``killed``: it did not stop when
    interrupted (DuckDB looks for an interrupt only between pieces of work), so its process
    was killed."""

    def __init__(self, seconds: float, *, killed: bool) -> None:
        super().__init__(f"the query took longer than {seconds:g} s and was stopped")
        self.killed = killed


class ConsoleBusy(ConsoleError):
    """Every place to run a query was taken for longer than a query may run."""


@dataclass
class _Child:
    process: Any            # multiprocessing's ForkServerProcess
    conn: Connection


class Console:
    """Runs console queries on ``db`` (read-only; ``dataset``: the Parquet folder of a
    database of views) under ``limits``, each in a process of its own.

    A process serves one query and ends. To spare a query the wait for its process to start
    and open the database, ``concurrent`` of them are kept ready (started in the background,
    the database open, waiting for their query); each query takes one and another is started.
    """

    def __init__(self, db: Path, dataset: Path | None = None, limits: Limits = Limits()) -> None:
        self.db = db
        self.dataset = dataset
        self.limits = limits
        self.turns = threading.BoundedSemaphore(limits.concurrent)
        self._ready: list[_Child] = []
        self._lock = threading.Lock()
        self._closed = False
        self._started = False
        self._filling = threading.Lock()

    def start(self) -> None:
        """Start the forkserver the processes come from (with DuckDB imported) and the
        processes kept ready, so that the first query waits for neither."""
        from cabo_log.workers import prestart

        with self._lock:
            if not self._started:
                prestart(["duckdb", "cabo_log.db.readonly", __name__])
                self._started = True
        self._refill()

    def close(self) -> None:
        """Kill the processes kept ready (they hold the database open)."""
        with self._lock:
            self._closed = True
            ready, self._ready = self._ready, []
        for child in ready:
            _end(child)

    def run(self, sql: str) -> QueryResult:
        if not self.turns.acquire(timeout=self.limits.seconds):
            raise ConsoleBusy(f"the console is busy ({self.limits.concurrent} queries are "
                              "running); try again in a moment")
        try:
            return self._run(sql)
        finally:
            self.turns.release()

    def _spawn(self) -> _Child:
        import multiprocessing

        context = multiprocessing.get_context("forkserver")
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(target=_child, daemon=True, args=(
            theirs, str(self.db), None if self.dataset is None else str(self.dataset),
            self.limits))
        process.start()
        theirs.close()
        return _Child(process, ours)

    def _refill(self) -> None:
        """Start processes in the background until ``concurrent`` are ready."""
        def fill() -> None:
            if not self._filling.acquire(blocking=False):
                return                  # one filler at a time: never more than ``concurrent``
            try:
                while True:
                    with self._lock:
                        if self._closed or len(self._ready) >= self.limits.concurrent:
                            return
                    child = self._spawn()
                    with self._lock:
                        if self._closed:
                            _end(child)
                            return
                        self._ready.append(child)
            finally:
                self._filling.release()

        threading.Thread(target=fill, name="console-refill", daemon=True).start()

    def _take(self) -> _Child:
        with self._lock:
            while self._ready:
                child = self._ready.pop(0)
                if child.process.is_alive():
                    return child
                _end(child)
        return self._spawn()

    def _run(self, sql: str) -> QueryResult:
        if not self._started:
            self.start()
        child = self._take()
        self._refill()
        try:
            return self._ask(child, sql)
        finally:
            _end(child)

    def _ask(self, child: _Child, sql: str) -> QueryResult:
        """Hand ``sql`` to a process and read its answer until it is done, or until the time
        is up (QueryTimeout)."""
        conn = child.conn
        deadline = time.monotonic() + START_SECONDS
        columns: list[str] = []
        rows: list[tuple[Any, ...]] = []
        asked = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not conn.poll(left):
                raise QueryTimeout(self.limits.seconds, killed=True)
            try:
                kind, value = pickle.loads(conn.recv_bytes(self.limits.bytes + 2**16))
                if kind == "ready" and not asked:   # the database is open: the query's time
                    conn.send_bytes(sql.encode("utf-8", "surrogatepass"))
                    deadline = time.monotonic() + self.limits.seconds + GRACE_SECONDS
                    asked = True
                    continue
            except (EOFError, OSError):
                raise ConsoleError("the query's process ended without an answer (it may "
                                   "have needed more memory than the console allows)") from None
            if kind == "columns":
                columns = value
            elif kind == "rows":
                rows.extend(value)
            elif kind == "done":
                return QueryResult(columns, rows, bool(value))
            elif kind == "timeout":
                raise QueryTimeout(self.limits.seconds, killed=False)
            else:
                raise ConsoleError(str(value))


def _end(child: _Child) -> None:
    """Kill a process (finished or not: it serves one query) and reap it."""
    child.conn.close()
    if child.process.is_alive():
        child.process.kill()
    child.process.join(5)


# --- the child --------------------------------------------------------------------------------

def _child(conn: Connection, db: str, dataset: str | None, limits: Limits) -> None:
    """Open the database, say ("ready", None), wait for one query and answer it as pickled
    messages: ("columns", names), ("rows", batch)..., ("done", truncated), or one
    ("error" | "timeout", sentence). Leaves when the parent closes its end, or is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is for the server to handle

    def send(kind: str, value: Any) -> None:
        conn.send_bytes(pickle.dumps((kind, value), protocol=pickle.HIGHEST_PROTOCOL))

    try:
        _answer(conn, send, db, dataset, limits)
    except (EOFError, OSError):      # the parent is gone, or stopped listening
        pass
    except BaseException as exc:  # noqa: BLE001 - every failure is a sentence for the page
        try:
            send("error", _sentence(exc))
        except OSError:
            pass
    finally:
        conn.close()


def _answer(conn: Connection, send: Any, db: str, dataset: str | None, limits: Limits
            ) -> None:
    import duckdb

    from cabo_log.db.readonly import check_query, open_readonly

    budget = limits.memory_mb * 2**20
    con = open_readonly(db, dataset=dataset, threads=1, spill=False,
                        memory_limit=f"{max(16, limits.memory_mb * 3 // 4)}MB")
    base = _address_space()
    if base is not None:
        resource.setrlimit(resource.RLIMIT_AS, (base + budget, base + budget))
    send("ready", None)
    sql = conn.recv_bytes().decode("utf-8", "surrogatepass")
    watchdog = threading.Timer(limits.seconds + 2 * GRACE_SECONDS, os._exit, (3,))
    watchdog.daemon = True           # even if the parent is gone, this process is not for long
    watchdog.start()
    check_query(con, sql)
    cursor = con.cursor()
    timer = threading.Timer(limits.seconds, cursor.interrupt)
    timer.daemon = True
    timer.start()
    try:
        cursor.execute(sql)
        send("columns", [d[0] for d in cursor.description or []])
        shown, size = 0, 0
        while True:
            batch = cursor.fetchmany(min(BATCH, limits.rows + 1 - shown))
            if not batch:
                send("done", False)
                return
            kept: list[tuple[Any, ...]] = []
            for row in batch:
                size += len(pickle.dumps(row, protocol=pickle.HIGHEST_PROTOCOL))
                if shown >= limits.rows or size > limits.bytes:
                    send("rows", kept)
                    send("done", True)
                    return
                kept.append(row)
                shown += 1
            send("rows", kept)
    except duckdb.InterruptException:
        send("timeout", None)
    finally:
        timer.cancel()


def _address_space() -> int | None:
    """This process's virtual size now (bytes), the base the memory cap is added to (None
    where there is no /proc to ask: then DuckDB's memory_limit alone bounds the query)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return None


def _sentence(exc: BaseException) -> str:
    """One line for the page: DuckDB's first line, a memory failure said plainly."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, MemoryError) or text.startswith("Out of Memory"):
        return "the query needs more memory than the console allows and was stopped"
    return text
