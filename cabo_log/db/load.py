"""``cabo-log load``: log files -> replay in worker processes -> Arrow batches -> one DuckDB writer.

The flow is one way. The parent finds the files, skips the ones it loaded before and that have
not changed (same size and mtime; when only those differ, a content hash decides), and sends
the rest in chunks to a pool of worker processes. A worker reads each file, hashes it, replays
it through the engine and turns what the replay derived into Arrow record batches
(``replay_files``: ``rows`` then ``chunk``),
serialised as Arrow IPC. The parent is the only writer (``db.Writer``): it buffers the batches
and appends them in bulk, a bounded batch of games per transaction, so a rejected log, a crash
or Ctrl-C never leaves a game half-loaded, and loading again picks up where it stopped.
Results are handled in the order the chunks were sent, with a bounded number in flight, so
memory does not grow with the number of games.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import duckdb
import pyarrow as pa

from cabo_log.db import replay_files
from cabo_log.db.replay_files import (
    Outcome,
    Task,
    deserialise,
    duplicate,
    file_hash,
    replay_chunk,
    replay_tasks,
)
from cabo_log.log.logfile import find_logs
from cabo_log.workers import Pool, WorkerDied, interruption, worker_count

if TYPE_CHECKING:
    from cabo_log.db.database import Writer

CHUNK_BYTES = 1 << 20       # about this much log text per task sent to a worker
CHUNK_FILES = 256           # and at most this many files
INLINE_BYTES = 2 << 20      # below this much changed data, replay in this process
FLUSH_ROWS = 200_000        # the writer appends to DuckDB once this many rows are waiting
DUCKDB_MEMORY = "128MB"     # DuckDB's cache of the tables it wrote: of no use to a load
WAL_BYTES = "4GB"           # DuckDB's write-ahead log may grow this big before a checkpoint


class LoadError(Exception):
    """The load stopped (a worker died). One line for the user; ``committed`` games were
    written by the batches completed before."""

    committed = 0


class NoLogsFound(ValueError):
    """Nothing to load: the paths hold no ``*.jsonl``. Raised before the database is opened,
    so a mistyped folder does not leave an empty database behind."""


class LoadInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM (``signum``): the batch in progress was rolled back; ``committed``
    games were written by the batches completed before."""

    def __init__(self, committed: int, signum: int = signal.SIGINT) -> None:
        super().__init__(committed)
        self.committed = committed
        self.signum = signum


@dataclass
class LoadSummary:
    files: int = 0
    loaded: int = 0             # games written (new or replacing an earlier version)
    replaced: int = 0           # of which replaced an earlier version
    in_progress: int = 0        # of which are not finished
    skipped: int = 0            # unchanged files, not replayed
    replayed: int = 0           # files replayed in this load
    events: int = 0             # events of the loaded games
    seconds: float = 0.0
    rejected: list[dict[str, Any]] = field(default_factory=list)

    def exit_code(self, allow_errors: bool = False) -> int:
        return 1 if self.rejected and not allow_errors else 0

    def text(self) -> str:
        parts = [f"loaded {self.loaded} game{'s' if self.loaded != 1 else ''}"]
        details = []
        if self.replaced:
            details.append(f"{self.replaced} replacing an earlier version")
        if self.in_progress:
            details.append(f"{self.in_progress} in progress")
        if details:
            parts[0] += f" ({', '.join(details)})"
        parts.append(f"skipped {self.skipped} unchanged")
        parts.append(f"rejected {len(self.rejected)}")
        rate = f", {self.events / self.seconds:,.0f} events/s" if self.events else ""
        return (", ".join(parts) + f"; {self.events:,} events from {self.replayed} replayed "
                f"file{'s' if self.replayed != 1 else ''} in {self.seconds:.2f} s{rate}")


Progress = Callable[[int], None]   # called with the number of files just handled


# --- the parent side --------------------------------------------------------------------------

def load_paths(paths: Sequence[str | os.PathLike[str]], database: str | os.PathLike[str], *,
               jobs: int | None = None, force: bool = False,
               progress: Progress | None = None,
               on_total: Callable[[int], None] | None = None) -> LoadSummary:
    """Load log files and folders (searched for ``*.jsonl``) into the database.

    The rows are written in batches of about ``FLUSH_ROWS`` rows, one transaction each.
    Raises ``db.DatabaseError`` when the database cannot be used, ``LoadError`` when the load
    stopped (a worker died) and ``LoadInterrupted`` on Ctrl-C or SIGTERM (see
    ``workers.stop_signals``): the batch in progress is rolled back, the batches written before
    it stay (``committed``), and loading again finishes.
    """
    from cabo_log.db import database as db

    started = time.perf_counter()
    files = [os.path.abspath(p) for p in find_logs(paths)]
    if not files:
        raise NoLogsFound(f"no logs found (no *.jsonl under {', '.join(map(str, paths))})")
    con = open_for_load(database)
    writer = db.Writer(con, flush_rows=FLUSH_ROWS)
    try:
        db.ensure_schema(con, database)
        loader = _Loader(con, writer, force)
        tasks = loader.start(files, on_total, progress)
        loader.run(tasks, jobs, progress)
        writer.flush()
    except BaseException as exc:
        writer.abort()
        stop = interruption(exc)
        if stop is not None:
            # the committed batches are safe in DuckDB's write-ahead log: folding it into the
            # database file can take seconds, and the next open does it instead
            try:
                con.execute("PRAGMA disable_checkpoint_on_shutdown")
            except duckdb.Error:   # the signal cut a call on this connection short: the
                pass               # checkpoint then happens on close, slower but as safe
            raise LoadInterrupted(writer.committed_games, stop.signum) from None
        if isinstance(exc, WorkerDied):
            error = LoadError(str(exc))
            error.committed = writer.committed_games
            raise error from None
        raise
    finally:
        try:
            writer.close()
            _close(con, stopping=writer.stopping)
        except KeyboardInterrupt as exc:   # the stop came while closing: all was committed
            stop = interruption(exc)
            if stop is None:   # pragma: no cover - interruption always names a signal
                raise
            raise LoadInterrupted(writer.committed_games, stop.signum) from None
    summary = loader.summary
    summary.seconds = time.perf_counter() - started
    return summary


def open_for_load(database: str | os.PathLike[str]) -> Any:
    """The load's connection: a bounded memory (or it grows with the database), and no
    checkpoint inside a COMMIT (seconds a stop would have to wait for): the write-ahead log is
    folded into the database file once, when the load closes it."""
    from cabo_log.db import database as db

    con = db.connect(database, read_only=False)
    con.execute(f"SET memory_limit = '{DUCKDB_MEMORY}'")
    con.execute(f"SET checkpoint_threshold = '{WAL_BYTES}'")
    return con


def _close(con: Any, *, stopping: bool) -> None:
    """Close the database (folding the write-ahead log in may take a moment). After a stop,
    DuckDB may still call the connection busy with the statement the stop cut short: the
    batches committed are safe in the log, and the next open folds them in."""
    try:
        con.close()
    except duckdb.Error:
        if not stopping:
            raise


class _Loader:
    def __init__(self, con: Any, writer: Writer, force: bool) -> None:
        self.con = con
        self.writer = writer
        self.force = force
        self.summary = LoadSummary()
        self.known: dict[str, tuple[int, int, str, str | None, int]] = {
            row[0]: tuple(row[1:]) for row in con.execute(
                "SELECT path, size, mtime_ns, hash, game_id, events FROM files").fetchall()}
        self.source_of: dict[str, str] = dict(con.execute(
            "SELECT game_id, source_file FROM games").fetchall())
        self.with_errors = {row[0] for row in con.execute(
            "SELECT DISTINCT file FROM load_errors").fetchall()}
        self.seen: dict[str, str] = {}        # game_id -> path, loaded in this run

    def start(self, files: list[str], on_total: Callable[[int], None] | None,
              progress: Progress | None) -> list[Task]:
        """``plan``, then tell the caller how many files there are and count the skipped ones
        on the progress bar at once."""
        tasks = self.plan(files)
        if on_total is not None:
            on_total(len(files))
        if progress is not None and self.summary.skipped:
            progress(self.summary.skipped)
        return tasks

    def plan(self, files: list[str]) -> list[Task]:
        """Tasks for the files that may have changed; the others are counted as skipped."""
        self.summary.files = len(files)
        tasks = []
        for path in files:
            try:
                st = os.stat(path)
            except OSError:
                tasks.append(Task(path, 0, None))   # the worker reports why it is unreadable
                continue
            before = self.known.get(path)
            if before is not None and not self.force:
                if (before[0] == st.st_size and before[1] == st.st_mtime_ns
                        and path not in self.with_errors):
                    self.summary.skipped += 1
                    if before[3] is not None:
                        self.seen[before[3]] = path
                    continue
                tasks.append(Task(path, st.st_size, before[2]))
            else:
                tasks.append(Task(path, st.st_size, None))
        return tasks

    def run(self, tasks: list[Task], jobs: int | None, progress: Progress | None) -> None:
        """Replay the tasks, in this process when there is little to do, else in a ``Pool``
        of workers (at most one per core); results are handled in the order sent."""
        chunks = list(_chunks(tasks))
        workers = worker_count(jobs, len(chunks))
        if workers <= 1 or sum(t.size for t in tasks) < INLINE_BYTES:
            for chunk in chunks:
                outcomes, rows = replay_tasks(chunk)
                self.handle(outcomes, rows.batches() if len(rows) else {}, progress)
            return
        # the workers keep the cores busy: DuckDB's own threads would only compete with them
        self.con.execute("SET threads = 1")
        with Pool(workers, preload=[replay_files.__name__]) as pool:
            for result in pool.imap(replay_chunk, chunks):
                self._handle_serialised(result, progress)
        # the workers are done: the last batch and the checkpoint at close may use every core
        self.con.execute("RESET threads")

    def _handle_serialised(self, result: tuple[list[Outcome], bytes],
                           progress: Progress | None) -> None:
        outcomes, data = result
        self.handle(outcomes, deserialise(data) if data else {}, progress)

    def handle(self, outcomes: list[Outcome], batches: dict[str, list[pa.RecordBatch]],
               progress: Progress | None) -> None:
        """Record one chunk's results with the writer (written with its batch)."""
        summary = self.summary
        drop: list[str] = []
        files: list[Outcome] = []
        errors: list[dict[str, Any]] = []
        for out in outcomes:
            if out.status != "unchanged":
                summary.replayed += 1
            if out.status == "loaded" and out.game_id in self.seen:
                assert out.game_id is not None
                drop.append(out.game_id)
                out.status = "rejected"
                out.error = duplicate(out.path, out.game_id, self.seen[out.game_id])
            if out.status == "rejected":
                assert out.error is not None
                summary.rejected.append(out.error)
                errors.append({**out.error, "game_id": out.game_id, "ruleset": out.ruleset,
                               "size": out.size, "hash": out.hash, "file": out.path})
                self.writer.forget_errors([out.path])
                continue
            files.append(out)
            if out.status == "unchanged":
                summary.skipped += 1
                known = self.known[out.path]
                out.game_id, out.events = known[3], known[4]
                if out.game_id is not None:
                    self.seen[out.game_id] = out.path
                continue
            assert out.game_id is not None
            self.seen[out.game_id] = out.path
            summary.loaded += 1
            summary.events += out.events
            summary.in_progress += not out.complete
            before = self.known.get(out.path)
            old_game = before[3] if before is not None else None
            if out.game_id in self.source_of:
                summary.replaced += 1
                self.writer.replace_games([out.game_id])
                old_path = self.source_of[out.game_id]
                if old_path != out.path:
                    self.writer.forget_files([old_path])
            if old_game is not None and old_game != out.game_id \
                    and self.source_of.get(old_game) == out.path:
                self.writer.replace_games([old_game])
                del self.source_of[old_game]
            self.source_of[out.game_id] = out.path
        if drop:
            batches = _without(batches, drop)
        self.writer.forget_files(f.path for f in files)
        self.writer.add("files", [_files_batch(files)] if files else [])
        self.writer.add("load_errors", [_errors_batch(errors)] if errors else [])
        for table, items in batches.items():
            self.writer.add(table, items)
        if self.writer.full():
            self.writer.submit()
        if progress is not None:
            progress(len(outcomes))


def _chunks(tasks: list[Task]) -> Iterator[list[Task]]:
    chunk: list[Task] = []
    size = 0
    for task in tasks:
        chunk.append(task)
        size += task.size
        if size >= CHUNK_BYTES or len(chunk) >= CHUNK_FILES:
            yield chunk
            chunk, size = [], 0
    if chunk:
        yield chunk


def _without(batches: dict[str, list[pa.RecordBatch]], game_ids: list[str]
             ) -> dict[str, list[pa.RecordBatch]]:
    import pyarrow.compute as pc

    drop = pa.array(game_ids, pa.string())
    return {table: [b.filter(pc.invert(pc.is_in(b.column("game_id"), value_set=drop)))
                    for b in items]
            for table, items in batches.items()}


def _files_batch(files: list[Outcome]) -> pa.RecordBatch:
    from cabo_log.db.database import LOADER_SCHEMAS

    now = pa.scalar(time.time_ns() // 1000, pa.timestamp("us", tz="UTC"))
    return pa.RecordBatch.from_arrays([
        pa.array([f.path for f in files]), pa.array([f.size for f in files], pa.int64()),
        pa.array([f.mtime_ns for f in files], pa.int64()), pa.array([f.hash for f in files]),
        pa.array([f.game_id for f in files]), pa.array([f.events for f in files], pa.int32()),
        pa.repeat(now, len(files)),
    ], schema=LOADER_SCHEMAS["files"])


def _errors_batch(errors: list[dict[str, Any]]) -> pa.RecordBatch:
    from cabo_log.db.database import LOADER_SCHEMAS

    schema = LOADER_SCHEMAS["load_errors"]
    return pa.RecordBatch.from_arrays(
        [pa.array([e.get(f.name) for e in errors], f.type) for f in schema], schema=schema)


__all__ = ["LoadError", "LoadInterrupted", "LoadSummary", "NoLogsFound", "Outcome", "Task",
           "duplicate", "file_hash", "load_paths", "replay_chunk", "replay_tasks"]
